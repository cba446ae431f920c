/* test_ranges.c - the ranges of real granular materials (lib/laws/material_ranges.h): each slip
 * of units is found with its likely meaning, real materials pass, unused materials are not
 * checked, and the radius is checked at both ends. */
#include "dem.h"
#include "unit.h"

static void setup(dem_system *s, dem_material m, double r0, double r1)
{
    dem_error err;
    dem_system_init(s);
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
    dem_particle p = dem_particle_default();
    p.id = 1, p.radius = r0;
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
    p.id = 2, p.radius = r1, p.pos.x = 1.0;
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
}

static int count(dem_material m, double r0, double r1, dem_range_warning *w, int max)
{
    dem_system s;
    setup(&s, m, r0, r1);
    int n = dem_material_range_check(&s, w, max);
    dem_system_free(&s);
    return n;
}

static void test_real_materials_pass(void)
{
    dem_range_warning w[8];
    dem_material m = dem_material_default(); /* glass: 2500 kg/m^3, 7e10 Pa */
    CHECK(count(m, 1e-3, 2e-3, w, 8) == 0);
    double young[] = {1e4, 1e5, 1e7, 7e10, 2.1e11, 1.2e12}, density[] = {15.0, 1000.0, 7800.0, 22590.0};
    for (int k = 0; k < 6; k++) {
        m = dem_material_default();
        m.young = young[k];
        CHECK_MSG(count(m, 1e-3, 1e-3, w, 8) == 0, "young %g", young[k]);
    }
    for (int k = 0; k < 4; k++) {
        m = dem_material_default();
        m.density = density[k];
        CHECK_MSG(count(m, 1e-3, 1e-3, w, 8) == 0, "density %g", density[k]);
    }
    m = dem_material_default();
    m.surface_energy = 0.05, m.friction = 1.2, m.rolling_friction = 0.3;
    CHECK(count(m, 1e-7, 5.0, w, 8) == 0);
}

static void test_slips_found(void)
{
    dem_range_warning w[8];
    dem_material m = dem_material_default();
    m.young = 70.0;
    CHECK(count(m, 1e-3, 1e-3, w, 8) == 1);
    CHECK(w[0].material == 0 && strcmp(w[0].parameter, "young") == 0 && w[0].value == 70.0 && w[0].lo == 1e4);
    CHECK_MSG(strstr(w[0].text, "did you mean 70e9 Pa (GPa)?") != NULL, "%s", w[0].text);
    m.young = 5e13; /* nothing explains it: the range is said, no guess */
    CHECK(count(m, 1e-3, 1e-3, w, 8) == 1 && strstr(w[0].text, "beyond") && !strstr(w[0].text, "did you mean"));
    m = dem_material_default();
    m.density = 7.8, m.surface_energy = 40.0, m.friction = 25.0;
    CHECK(count(m, 1e-3, 1e-3, w, 8) == 3);
    CHECK_MSG(strstr(w[0].text, "7.8e3 kg/m^3 (g/cm^3)") != NULL, "%s", w[0].text);
    CHECK_MSG(strstr(w[1].text, "40e-3 J/m^2 (mJ/m^2)") != NULL, "%s", w[1].text);
    CHECK_MSG(strstr(w[2].text, "mu = tan(25 deg) = 0.466") != NULL, "%s", w[2].text);
    m = dem_material_default();
    m.density = 1e6; /* density scaling is legitimate: say so */
    CHECK(count(m, 1e-3, 1e-3, w, 8) == 1 && strstr(w[0].text, "scaled on purpose"));
    /* radii: the smallest and the largest, material -1 */
    m = dem_material_default();
    CHECK(count(m, 1e-9, 300.0, w, 8) == 2);
    CHECK(w[0].material == -1 && w[0].value == 1e-9 && strstr(w[0].text, "below"));
    CHECK(w[1].material == -1 && w[1].value == 300.0 && strstr(w[1].text, "did you mean 300e-3 m (mm)?"));
    /* more than max: counted, not written past the array */
    m.young = 1.0, m.density = 1.0, m.surface_energy = 100.0;
    CHECK(count(m, 1e-9, 300.0, w, 2) == 5);
}

static void test_unused_material_not_checked(void)
{
    dem_error err;
    dem_system s;
    setup(&s, dem_material_default(), 1e-3, 1e-3);
    dem_material bad = dem_material_default();
    bad.young = 1.0, bad.density = 1.0;
    CHECK(dem_system_push_material(&s, &bad, &err) == DEM_OK);
    dem_range_warning w[4];
    CHECK(dem_material_range_check(&s, w, 4) == 0);
    s.particles[1].material = 1; /* now used by a particle: both */
    CHECK(dem_material_range_check(&s, w, 4) == 2 && w[0].material == 1);
    dem_system_free(&s);
}

int main(void)
{
    test_real_materials_pass();
    test_slips_found();
    test_unused_material_not_checked();
    UNIT_DONE();
}
