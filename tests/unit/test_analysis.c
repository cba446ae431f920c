/* test_analysis.c - the per-frame measurements, TSV writers and VTK writers against values
 * computed by hand. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/codec.h"
#include "unit.h"
#include "analysis/vtk.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-14 * fmax(1.0, fabs(b)); }

static void add_material(dem_system *s)
{
    dem_material m = dem_material_default();
    dem_error err;
    CHECK(dem_system_push_material(s, &m, &err) == DEM_OK);
}

static dem_particle *add(dem_system *s, uint64_t id, dem_vec3 pos, double r)
{
    dem_particle p = dem_particle_default();
    dem_error err;
    p.id = id;
    p.pos = pos;
    p.radius = r;
    p.mass = 1.0;
    p.inertia = 1.0;
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
    return &s->particles[s->nparticles - 1];
}

static void add_contact(dem_system *s, uint64_t i, uint64_t j, double overlap, uint32_t flags)
{
    dem_contact c;
    dem_error err;
    memset(&c, 0, sizeof c);
    c.i = i;
    c.j = j;
    c.overlap = overlap;
    c.flags = flags;
    c.normal = dem_v3(1, 0, 0);
    CHECK(dem_system_push_contact(s, &c, &err) == DEM_OK);
}

static void add_plane(dem_system *s, dem_vec3 point, dem_vec3 normal)
{
    dem_wall w;
    dem_error err;
    memset(&w, 0, sizeof w);
    w.kind = DEM_WALL_PLANE;
    w.point = point;
    w.normal = normal;
    CHECK(dem_system_push_wall(s, &w, &err) == DEM_OK);
}

/* Two particles, no walls, no cell: velocities and energies by hand. */
static void test_two_particles(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    dem_particle *p = add(&s, 1, dem_v3(0, 0, 0), 0.5);
    p->mass = 2.0;
    p->inertia = 0.1;
    p->vel = dem_v3(1, 0, 0);
    p->omega = dem_v3(0, 0, 2);
    p = add(&s, 2, dem_v3(1, 0, 0), 0.5);
    p->mass = 1.0;
    p->inertia = 0.2;
    p->vel = dem_v3(3, 0, 0);
    p->omega = dem_v3(1, 1, 1);
    dem_summary sum;
    { dem_error e_; CHECK(dem_summarize(&s, NULL, 4, &sum, &e_) == DEM_OK); }
    CHECK(sum.particles == 2);
    CHECK(sum.vel_mean.x == 2.0 && sum.vel_mean.y == 0.0 && sum.vel_mean.z == 0.0);
    /* |vbar - v_i|^2 = 1 + 1, over 3 N = 6. */
    CHECK(close_to(sum.granular_temperature, 1.0 / 3.0));
    /* 1/2 2 1^2 + 1/2 1 3^2 = 5.5; 1/2 0.1 4 + 1/2 0.2 3 = 0.5. */
    CHECK(close_to(sum.ekin_t, 5.5));
    CHECK(close_to(sum.ekin_r, 0.5));
    CHECK(isnan(sum.solid_fraction) && isnan(sum.volume) && sum.volume_source == DEM_VOLUME_NONE);
    CHECK(sum.contacts == 0 && sum.wall_contacts == 0 && sum.coordination == 0.0);
    dem_system_free(&s);
}

static void test_granular_temperature_3d(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add(&s, 1, dem_v3(0, 0, 0), 0.1)->vel = dem_v3(1, 2, 3);
    add(&s, 2, dem_v3(1, 0, 0), 0.1)->vel = dem_v3(-1, 0, 1);
    add(&s, 3, dem_v3(2, 0, 0), 0.1)->vel = dem_v3(0, 1, -1);
    /* mean (0, 1, 1); squared deviations 6, 2, 4; 12 / (3 * 3). */
    dem_vec3 m = dem_mean_velocity(&s);
    CHECK(m.x == 0.0 && m.y == 1.0 && m.z == 1.0);
    CHECK(close_to(dem_granular_temperature(&s), 4.0 / 3.0));
    /* A uniform velocity added to every particle changes the mean, not the temperature. */
    for (size_t k = 0; k < s.nparticles; k++) s.particles[k].vel.x += 100.0;
    CHECK(fabs(dem_granular_temperature(&s) - 4.0 / 3.0) < 1e-12);
    dem_system_free(&s);
}

static void test_periodic_cell(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    s.cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
    s.cell.h = dem_m3_diag(2, 3, 4);
    s.cell.h.m[0][2] = 1.5; /* shear keeps det H = 24 */
    add(&s, 1, dem_v3(0.5, 0.5, 0.5), 1.0);
    add(&s, 2, dem_v3(5, 5, 5), 1.0); /* outside the cell: still one of its particles */
    double vol;
    dem_volume_source src;
    /* 2 * 4/3 pi / 24 = pi / 9 */
    CHECK(close_to(dem_solid_fraction(&s, NULL, &vol, &src), M_PI / 9.0));
    CHECK(vol == 24.0 && src == DEM_VOLUME_CELL);
    /* The cell wins over a user box and over walls. */
    dem_aabb box = {dem_v3(0, 0, 0), dem_v3(1, 1, 1)};
    CHECK(close_to(dem_solid_fraction(&s, &box, &vol, &src), M_PI / 9.0) && src == DEM_VOLUME_CELL);
    dem_system_free(&s);
}

static void add_box_walls(dem_system *s, double x1, double y1, double z1)
{
    add_plane(s, dem_v3(0, 0, 0), dem_v3(1, 0, 0));
    add_plane(s, dem_v3(x1, 0, 0), dem_v3(-1, 0, 0));
    add_plane(s, dem_v3(0, 0, 0), dem_v3(0, 1, 0));
    add_plane(s, dem_v3(0, y1, 0), dem_v3(0, -1, 0));
    add_plane(s, dem_v3(0, 0, 0), dem_v3(0, 0, 1));
    add_plane(s, dem_v3(0, 0, z1), dem_v3(0, 0, -1));
}

static void test_walls_box(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add(&s, 1, dem_v3(1, 1, 0.5), 0.5);
    dem_aabb b;
    /* Five faces only: no box. */
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(1, 0, 0));
    add_plane(&s, dem_v3(2, 0, 0), dem_v3(-1, 0, 0));
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(0, 1, 0));
    add_plane(&s, dem_v3(0, 2, 0), dem_v3(0, -1, 0));
    add_plane(&s, dem_v3(0, 0, 0), dem_v3(0, 0, 1));
    CHECK(dem_walls_box(&s, &b) == 0);
    CHECK(isnan(dem_solid_fraction(&s, NULL, NULL, NULL)));
    /* A tilted plane and a cylinder are no faces. */
    double h = sqrt(0.5);
    add_plane(&s, dem_v3(0, 0, 5), dem_v3(0, h, -h));
    dem_wall cyl;
    dem_error err;
    memset(&cyl, 0, sizeof cyl);
    cyl.kind = DEM_WALL_CYLINDER;
    cyl.normal = dem_v3(0, 0, -1);
    cyl.radius = 3;
    CHECK(dem_system_push_wall(&s, &cyl, &err) == DEM_OK);
    CHECK(dem_walls_box(&s, &b) == 0);
    /* The sixth face, and an outer lid above it that the inner one hides. */
    add_plane(&s, dem_v3(0, 0, 3), dem_v3(0, 0, -1));
    add_plane(&s, dem_v3(0, 0, 1), dem_v3(0, 0, -1));
    CHECK(dem_walls_box(&s, &b) == 1);
    CHECK(b.lo.x == 0 && b.lo.y == 0 && b.lo.z == 0 && b.hi.x == 2 && b.hi.y == 2 && b.hi.z == 1);
    double vol;
    dem_volume_source src;
    /* 4/3 pi 0.125 / 4 = pi / 24 */
    CHECK(close_to(dem_solid_fraction(&s, NULL, &vol, &src), M_PI / 24.0));
    CHECK(vol == 4.0 && src == DEM_VOLUME_WALLS);
    dem_system_free(&s);

    /* Faces that enclose nothing (upper below lower) give no box. */
    dem_system_init(&s);
    add_material(&s);
    add_box_walls(&s, 1, 1, 1);
    add_plane(&s, dem_v3(0, 0, 2), dem_v3(0, 0, 1));
    CHECK(dem_walls_box(&s, &b) == 0);
    dem_system_free(&s);
}

static void test_user_box(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add_box_walls(&s, 10, 10, 10);
    add(&s, 1, dem_v3(0.5, 0.5, 0.5), 0.25);
    add(&s, 2, dem_v3(1.0, 1.0, 1.0), 0.5); /* centre on a corner: inside */
    add(&s, 3, dem_v3(1.5, 0.5, 0.5), 0.25); /* outside */
    dem_aabb box = {dem_v3(0, 0, 0), dem_v3(1, 1, 2)};
    double vol;
    dem_volume_source src;
    /* sphere 1 inside, sphere 2 centred on the edge x = y = 1 (a quarter inside), 3 outside */
    double want = (dem_sphere_volume(0.25) + dem_sphere_volume(0.5) / 4.0) / 2.0;
    CHECK(close_to(dem_solid_fraction(&s, &box, &vol, &src), want));
    CHECK(vol == 2.0 && src == DEM_VOLUME_BOX); /* the box wins over the walls */
    CHECK(close_to(dem_sphere_volume(0.5), M_PI / 6.0));
    dem_system_free(&s);
}

static void test_contacts_and_coordination(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add_box_walls(&s, 1, 1, 1);
    add(&s, 1, dem_v3(0.2, 0.5, 0.5), 0.1);
    add(&s, 2, dem_v3(0.39, 0.5, 0.5), 0.1);
    add(&s, 3, dem_v3(0.6, 0.5, 0.5), 0.1);
    add_contact(&s, 2, 1, 0.01, 0);
    add_contact(&s, 3, 2, -0.01, 0);           /* a record, not a contact */
    add_contact(&s, 3, 2, 0.0, 0);             /* touching is not overlapping */
    add_contact(&s, 1, 0, 0.001, DEM_CONTACT_WALL);
    add_contact(&s, 3, 1, -0.001, DEM_CONTACT_WALL);
    size_t pp, pw;
    dem_count_contacts(&s, &pp, &pw);
    CHECK(pp == 1 && pw == 1);
    dem_summary sum;
    { dem_error e_; CHECK(dem_summarize(&s, NULL, 4, &sum, &e_) == DEM_OK); }
    CHECK(sum.contacts == 1 && sum.wall_contacts == 1);
    CHECK(sum.coordination == 2.0 / 3.0);
    CHECK(dem_coordination(6, 4) == 3.0);
    CHECK(isnan(dem_coordination(0, 0)));
    dem_system_free(&s);
}

static void test_no_particles(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    s.cell.flags = DEM_CELL_PERIODIC_A;
    s.cell.h = dem_m3_identity();
    dem_summary sum;
    { dem_error e_; CHECK(dem_summarize(&s, NULL, 4, &sum, &e_) == DEM_OK); }
    CHECK(sum.particles == 0 && sum.contacts == 0);
    CHECK(isnan(sum.coordination) && isnan(sum.vel_mean.x) && isnan(sum.vel_mean.y) && isnan(sum.vel_mean.z));
    CHECK(isnan(sum.granular_temperature));
    CHECK(sum.ekin_t == 0.0 && sum.ekin_r == 0.0);
    CHECK(sum.solid_fraction == 0.0 && sum.volume == 1.0);
    dem_system_free(&s);
}

static void test_id_index_and_selection(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    s.cell.flags = DEM_CELL_PERIODIC_A | DEM_CELL_PERIODIC_B | DEM_CELL_PERIODIC_C;
    s.cell.h = dem_m3_diag(1, 2, 3);
    s.cell.h.m[0][1] = 0.5;
    add(&s, 30, dem_v3(0.1, 0.1, 0.1), 0.1);
    add(&s, UINT64_MAX, dem_v3(0.9, 0.1, 0.1), 0.1);
    add(&s, 7, dem_v3(0.5, 1.5, 0.1), 0.2);
    add_contact(&s, 30, UINT64_MAX, 0.0, 0);
    s.contacts[0].shift[0] = -1;
    s.contacts[0].shift[1] = 1;
    add_contact(&s, 7, 0, 0.01, DEM_CONTACT_WALL);
    dem_id_index ix;
    dem_error err;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, &s, &err) == DEM_OK);
    CHECK(dem_id_index_find(&ix, 30) == 0 && dem_id_index_find(&ix, UINT64_MAX) == 1 && dem_id_index_find(&ix, 7) == 2);
    CHECK(dem_id_index_find(&ix, 8) == SIZE_MAX);
    /* x_j + H shift = (0.9, 0.1, 0.1) + (-1 + 0.5, 2, 0) */
    dem_vec3 x = dem_contact_partner_pos(&s, &ix, &s.contacts[0]);
    CHECK(close_to(x.x, 0.4) && close_to(x.y, 2.1) && x.z == 0.1);

    dem_select sel;
    CHECK(dem_select_parse(&sel, "ids=18446744073709551615", &err) == DEM_OK);
    CHECK(dem_contact_selected(&s, &ix, &sel, &s.contacts[0]) == 1); /* by j */
    CHECK(dem_contact_selected(&s, &ix, &sel, &s.contacts[1]) == 0);
    dem_select_free(&sel);
    CHECK(dem_select_parse(&sel, "radius=0.15,1", &err) == DEM_OK);
    CHECK(dem_contact_selected(&s, &ix, &sel, &s.contacts[0]) == 0);
    CHECK(dem_contact_selected(&s, &ix, &sel, &s.contacts[1]) == 1); /* by i; j is a wall */
    dem_select_free(&sel);
    CHECK(dem_contact_selected(&s, &ix, NULL, &s.contacts[0]) == 1);
    dem_id_index_free(&ix);
    dem_system_free(&s);
}

/* ---- TSV ---- */
/* Output collected in memory: *buf holds it (NUL terminated) after fclose. */
static FILE *capture(char **buf, size_t *len) { return open_memstream(buf, len); }

static void test_column_names(void)
{
    char b[DEM_COLUMN_NAME_MAX];
    dem_column_name(b, sizeof b, "x", "m");
    CHECK(strcmp(b, "x[m]") == 0);
    dem_column_name(b, sizeof b, "id", "-");
    CHECK(strcmp(b, "id") == 0);
    dem_column_name(b, sizeof b, "nx", NULL);
    CHECK(strcmp(b, "nx") == 0);
    dem_column_name(b, sizeof b, "inertia", "kg m^2");
    CHECK(strcmp(b, "inertia[kg*m^2]") == 0);

    dem_particle_columns c;
    dem_error err;
    dem_particle_columns_default(&c);
    CHECK(c.n == 14 && strcmp(c.fields[0]->name, "id") == 0 && strcmp(c.fields[13]->name, "r") == 0);
    CHECK(dem_particle_columns_add(&c, "mass,x,mass", &err) == DEM_OK); /* shown ones skipped */
    CHECK(c.n == 15 && strcmp(c.fields[14]->name, "mass") == 0);
    CHECK(dem_particle_columns_add(&c, "all", &err) == DEM_OK);
    CHECK(c.n == dem_rec_particle.nfields);
    CHECK(dem_particle_columns_add(&c, "mass,nope", &err) == DEM_ERR_ARG && strstr(err.msg, "'nope'") && strstr(err.msg, "inertia"));
    CHECK(dem_particle_columns_add(&c, "mass,,q0", &err) == DEM_ERR_ARG);
    CHECK(dem_particle_columns_add(&c, "", &err) == DEM_ERR_ARG);
}

static void test_tsv_particles(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    s.step = 12345678901234ull;
    s.time = 0.1;
    dem_particle *p = add(&s, 9007199254740993ull, dem_v3(0.1, 1e-3, 2.5e-05), 0.5);
    p->vel = dem_v3(-0.0, 1.0 / 3.0, 1e300);
    p->flags = 1;
    p->image[2] = -4;
    add(&s, 2, dem_v3(5, 5, 5), 0.5);
    dem_particle_columns c;
    dem_error err;
    dem_particle_columns_default(&c);
    CHECK(dem_particle_columns_add(&c, "flags,iz,mass", &err) == DEM_OK);
    dem_select sel;
    CHECK(dem_select_parse(&sel, "box=0,0,0,1,1,1", &err) == DEM_OK);
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    f = capture(&buf, &len);
    CHECK(dem_tsv_particles_header(f, &c, &err) == DEM_OK);
    CHECK(dem_tsv_particles_rows(f, 7, &s, &c, &sel, NULL, &err) == DEM_OK);
    fclose(f);
    const char *want =
        "frame\tstep\ttime[s]\tid\tx[m]\ty[m]\tz[m]\tvx[m/s]\tvy[m/s]\tvz[m/s]\twx[rad/s]\twy[rad/s]\twz[rad/s]"
        "\tfx[N]\tfy[N]\tfz[N]\tr[m]\tflags\tiz\tmass[kg]\n"
        "7\t12345678901234\t0.1\t9007199254740993\t0.1\t0.001\t2.5e-05\t-0\t0.3333333333333333\t1e+300"
        "\t0\t0\t0\t0\t0\t0\t0.5\t1\t-4\t1\n";
    CHECK_MSG(strcmp(buf, want) == 0, "got:\n%s", buf);
    free(buf);
    dem_select_free(&sel);
    dem_system_free(&s);
}

static void test_tsv_summary(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add(&s, 1, dem_v3(0, 0, 0), 0.5)->vel = dem_v3(1, 0, 0);
    dem_summary sum;
    { dem_error e_; CHECK(dem_summarize(&s, NULL, 4, &sum, &e_) == DEM_OK); }
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    dem_error err;
    f = capture(&buf, &len);
    CHECK(dem_tsv_summary_header(f, &err) == DEM_OK);
    CHECK(dem_tsv_summary_row(f, 0, &s, &sum, &err) == DEM_OK);
    fclose(f);
    const char *want =
        "frame\tstep\ttime[s]\tparticles\tcontacts\twall_contacts\tcoordination\tsolid_fraction"
        "\tvx_mean[m/s]\tvy_mean[m/s]\tvz_mean[m/s]\tgranular_temperature[m^2/s^2]\tekin_t[J]\tekin_r[J]"
        "\tvolume[m^3]\tcoordination_mech\trattler_fraction\tunbalanced\n"
        "0\t0\t0\t1\t0\t0\t0\tnan\t1\t0\t0\t0\t0.5\t0\tnan\t0\t1\t0\n";
    CHECK_MSG(strcmp(buf, want) == 0, "got:\n%s", buf);
    free(buf);
    dem_system_free(&s);
}

static void test_tsv_contacts_history(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add(&s, 1, dem_v3(0, 0, 0), 0.5);
    add(&s, 2, dem_v3(0.9, 0, 0), 0.5);
    add_contact(&s, 2, 1, 0.1, DEM_CONTACT_SLIDING);
    s.contacts[0].hist[0] = 0.25;
    s.contacts[0].hist[1] = -1.5;
    s.contacts[0].shift[1] = -2;
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    dem_error err;
    f = capture(&buf, &len);
    CHECK(dem_tsv_contacts_header(f, 2, &err) == DEM_OK);
    s.hist_slots = 1; /* fewer than the header: padded */
    CHECK(dem_tsv_contacts_rows(f, 3, &s, 2, NULL, NULL, &err) == DEM_OK);
    s.hist_slots = 3; /* more: cut */
    CHECK(dem_tsv_contacts_rows(f, 4, &s, 2, NULL, NULL, &err) == DEM_OK);
    fclose(f);
    const char *want =
        "frame\tstep\ttime[s]\ti\tj\twall\tsx\tsy\tsz\toverlap[m]\tnx\tny\tnz\tfnx[N]\tfny[N]\tfnz[N]"
        "\tftx[N]\tfty[N]\tftz[N]\tsliding\tdiss_friction[J]\tdiss_damp_n[J]\tdiss_damp_t[J]\th0\th1\n"
        "3\t0\t0\t2\t1\t0\t0\t-2\t0\t0.1\t1\t0\t0\t0\t0\t0\t0\t0\t0\t1\t0\t0\t0\t0.25\tnan\n"
        "4\t0\t0\t2\t1\t0\t0\t-2\t0\t0.1\t1\t0\t0\t0\t0\t0\t0\t0\t0\t1\t0\t0\t0\t0.25\t-1.5\n";
    CHECK_MSG(strcmp(buf, want) == 0, "got:\n%s", buf);
    free(buf);
    dem_system_free(&s);
}

/* ---- VTK ---- */
static const char *find_bytes(const char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t k = 0; k + m <= n; k++)
        if (memcmp(hay + k, needle, m) == 0) return hay + k;
    return NULL;
}

static void test_vtk_particles(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add(&s, 5, dem_v3(1, 2, 3), 0.5)->vel = dem_v3(-1, 0, 0.5);
    add(&s, 6, dem_v3(4, 5, 6), 0.25)->flags = DEM_PARTICLE_FIXED;
    add(&s, 7, dem_v3(9, 9, 9), 0.25);
    dem_select sel;
    dem_error err;
    CHECK(dem_select_parse(&sel, "ids=5-6", &err) == DEM_OK);
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    f = capture(&buf, &len);
    CHECK(dem_vtk_particles(f, &s, &sel, &err) == DEM_OK);
    fclose(f);
    CHECK(strstr(buf, "byte_order=\"LittleEndian\" header_type=\"UInt64\"") != NULL);
    CHECK(strstr(buf, "NumberOfPoints=\"2\" NumberOfVerts=\"2\"") != NULL);
    const char *us = strstr(buf, "<AppendedData encoding=\"raw\">");
    CHECK(us != NULL);
    if (!us) return;
    const uint8_t *base = (const uint8_t *)strchr(us, '_') + 1;
    /* id block: 16 bytes, ids 5 and 6; then radius at offset 24. */
    CHECK(dem_get_u64(base) == 16 && dem_get_u64(base + 8) == 5 && dem_get_u64(base + 16) == 6);
    CHECK(strstr(buf, "Name=\"radius\" format=\"appended\" offset=\"24\"") != NULL);
    CHECK(dem_get_u64(base + 24) == 16 && dem_get_f64(base + 32) == 0.5 && dem_get_f64(base + 40) == 0.25);
    /* velocity (3 components) at 48: vx of particle 5 */
    CHECK(dem_get_u64(base + 48) == 48 && dem_get_f64(base + 56) == -1.0 && dem_get_f64(base + 72) == 0.5);
    /* blocks: id 8+16, radius 8+16, velocity, angular_velocity, force 3 * (8+48), material 8+8,
     * fixed 8+2, Points 8+48, connectivity 8+16, offsets 8+16 */
    size_t total = 24 + 24 + 3 * 56 + 16 + 10 + 56 + 24 + 24;
    const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
    CHECK(len == (size_t)((const char *)base - buf) + total + strlen(tail));
    CHECK(memcmp(buf + len - strlen(tail), tail, strlen(tail)) == 0);
    free(buf);
    dem_select_free(&sel);
    dem_system_free(&s);
}

static void test_vtk_contacts(void)
{
    dem_system s;
    dem_system_init(&s);
    add_material(&s);
    add_box_walls(&s, 1, 1, 1);
    add(&s, 1, dem_v3(0.2, 0.5, 0.5), 0.1);
    add(&s, 2, dem_v3(0.39, 0.5, 0.5), 0.1);
    add_contact(&s, 2, 1, 0.01, 0);
    s.contacts[0].fn = dem_v3(3, 4, 0);
    add_contact(&s, 1, 0, 0.001, DEM_CONTACT_WALL); /* not a line */
    dem_id_index ix;
    dem_error err;
    dem_id_index_init(&ix);
    CHECK(dem_id_index_build(&ix, &s, &err) == DEM_OK);
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    f = capture(&buf, &len);
    CHECK(dem_vtk_contacts(f, &s, &ix, NULL, &err) == DEM_OK);
    fclose(f);
    CHECK(strstr(buf, "NumberOfPoints=\"2\" NumberOfVerts=\"0\" NumberOfLines=\"1\"") != NULL);
    const char *nf = strstr(buf, "Name=\"normal_force\" format=\"appended\" offset=\"");
    CHECK(nf != NULL);
    const char *us = find_bytes(buf, len, "<AppendedData encoding=\"raw\">\n   _");
    if (!nf || !us) return;
    const uint8_t *base = (const uint8_t *)us + strlen("<AppendedData encoding=\"raw\">\n   _");
    unsigned long off = strtoul(nf + strlen("Name=\"normal_force\" format=\"appended\" offset=\""), NULL, 10);
    CHECK(off == 24); /* after the 2 end ids */
    CHECK(dem_get_u64(base + off) == 8 && dem_get_f64(base + off + 8) == 5.0);
    dem_id_index_free(&ix);
    free(buf);
    dem_system_free(&s);
}

static void test_pvd(void)
{
    FILE *f = tmpfile();
    dem_error err;
    CHECK(f != NULL);
    if (!f) return;
    CHECK(dem_pvd_begin(f, &err) == DEM_OK);
    CHECK(dem_pvd_add(f, 0.0, "particles_000000.vtp", &err) == DEM_OK);
    CHECK(dem_pvd_add(f, 0.1, "a&b\".vtp", &err) == DEM_OK);
    rewind(f);
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    const char *want =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <Collection>\n"
        "    <DataSet timestep=\"0\" group=\"\" part=\"0\" file=\"particles_000000.vtp\"/>\n"
        "    <DataSet timestep=\"0.1\" group=\"\" part=\"0\" file=\"a&amp;b&quot;.vtp\"/>\n"
        "  </Collection>\n"
        "</VTKFile>\n";
    CHECK_MSG(strcmp(buf, want) == 0, "got:\n%s", buf);
}

int main(void)
{
    test_two_particles();
    test_granular_temperature_3d();
    test_periodic_cell();
    test_walls_box();
    test_user_box();
    test_contacts_and_coordination();
    test_no_particles();
    test_id_index_and_selection();
    test_column_names();
    test_tsv_particles();
    test_tsv_summary();
    test_tsv_contacts_history();
    test_vtk_particles();
    test_vtk_contacts();
    test_pvd();
    UNIT_DONE();
}
