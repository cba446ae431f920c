/* test_store.c - the contact store's split (lib/sim/contacts.c): every neighbour pair is a compact
 * entry, and only the pairs that touch (or hold a history) have a contact record. A record is made
 * when its pair starts to touch and goes once the pair is apart without a history; a lattice whose
 * neighbour list holds many pairs that do not touch holds records for the touching ones only, with
 * any thread count. */
#include <math.h>
#include <stdlib.h>

#include "dem.h"
#include "sim/internal/state.h"
#include "unit.h"

static void add_sphere(dem_system *s, uint64_t id, double r, dem_vec3 x, dem_vec3 v)
{
    dem_error err;
    dem_particle p = dem_particle_default();
    p.id = id;
    p.radius = r;
    dem_sphere_mass(r, s->materials[0].density, &p.mass, &p.inertia);
    p.pos = x;
    p.vel = v;
    CHECK(dem_system_push_particle(s, &p, &err) == DEM_OK);
}

/* Records in use over all pools, and the pairs that point at one. */
static size_t records_in_use(const dem_sim *sim)
{
    const sim_store *c = &sim->c;
    size_t n = 0;
    for (size_t b = 0; b < c->nblk; b++) n += c->pool[b].n - c->pool[b].nfree;
    return n;
}

static size_t pairs_with_record(const dem_sim *sim)
{
    size_t n = 0;
    for (size_t p = 0; p < sim->c.npairs; p++) n += sim->c.loc[p] != STORE_NOLOC;
    return n;
}

static size_t pairs_touching(const dem_sim *sim)
{
    size_t n = 0;
    for (size_t p = 0; p < sim->c.npairs; p++) n += sim->c.ptouch[p];
    return n;
}

/* Two spheres approach head-on, collide and separate: one neighbour pair throughout; its record
 * exists exactly while it touches (and is dropped at the first evaluation that finds it apart with
 * no history left). */
static void test_lifecycle(void)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = dem_material_default();
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    double r = 1e-3, gap = 2e-5, v = 0.5;
    add_sphere(&s, 1, r, dem_v3(0, 0, 0), dem_v3(0.5 * v, 0, 0));
    add_sphere(&s, 2, r, dem_v3(2 * r + gap, 0, 0), dem_v3(-0.5 * v, 0, 0));
    dem_settings st;
    dem_settings_default(&st);
    st.skin = 0.5 * r; /* no rebuild during the collision */
    dem_sim *sim = dem_sim_new(&s, &st, 1, &err);
    CHECK(sim != NULL);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.contact_time / 50);
    CHECK(sim->c.npairs == 1);
    int phase = 0; /* 0 approaching, 1 touching, 2 apart again */
    size_t steps_touching = 0, bad = 0;
    for (int k = 0; k < 2000 && phase < 2; k++) {
        CHECK(dem_sim_step(sim, &err) == DEM_OK);
        int touch = sim->c.ptouch[0];
        if (touch) {
            phase = 1;
            steps_touching++;
        } else if (phase == 1) {
            phase = 2;
        }
        /* touching: a record; apart before the collision: none */
        if (touch) bad += !(sim->c.loc[0] != STORE_NOLOC && records_in_use(sim) == 1);
        else if (phase == 0) bad += !(sim->c.loc[0] == STORE_NOLOC && records_in_use(sim) == 0);
    }
    CHECK_MSG(phase == 2 && steps_touching > 10, "phase %d, %zu steps touching", phase, steps_touching);
    CHECK_MSG(bad == 0, "%zu steps with a record where none belongs or none where one does", bad);
    CHECK(sim->c.npairs == 1); /* still neighbours: the same list */
    /* the step that found them apart forgot the history; the next evaluation drops the record */
    CHECK(dem_sim_step(sim, &err) == DEM_OK);
    CHECK_MSG(sim->c.loc[0] == STORE_NOLOC && records_in_use(sim) == 0, "record %llx, %zu in use", (unsigned long long)sim->c.loc[0], records_in_use(sim));
    CHECK(sim->c.npairs == 1);
    dem_sim_free(sim);
    dem_system_free(&s);
}

/* A simple cubic lattice squeezed along x only: each sphere touches its x neighbours, while its y
 * and z neighbours (and diagonals within the skin) are neighbour pairs without a record. */
static void test_lattice(int threads)
{
    dem_system s;
    dem_error err;
    dem_system_init(&s);
    dem_material m = dem_material_default();
    CHECK(dem_system_push_material(&s, &m, &err) == DEM_OK);
    double r = 1e-3;
    uint64_t id = 1;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 6; k++)
                add_sphere(&s, id++, r, dem_v3(i * 1.999 * r, j * 2.02 * r, k * 2.02 * r), dem_v3_zero());
    dem_settings st;
    dem_settings_default(&st);
    st.skin = 0.3 * r;
    dem_sim *sim = dem_sim_new(&s, &st, threads, &err);
    CHECK(sim != NULL);
    dem_dt_estimates est;
    dem_sim_estimate_dt(sim, &est);
    dem_sim_set_dt(sim, est.contact_time / 50);
    for (int k = 0; k < 5; k++) CHECK(dem_sim_step(sim, &err) == DEM_OK);
    size_t touching = pairs_touching(sim), with = pairs_with_record(sim), used = records_in_use(sim);
    /* 7 x-pairs in each of 36 rows touch; the y, z neighbours do not */
    CHECK_MSG(touching == 7 * 36, "%zu touching", touching);
    CHECK_MSG(with == touching && used == touching, "%zu pairs with a record, %zu records in use, %zu touching", with, used, touching);
    CHECK_MSG(sim->c.npairs == touching + 2 * 240, "%zu neighbour pairs", sim->c.npairs); /* and 8 x 5 x 6 along y, as many along z */
    for (size_t p = 0; p < sim->c.npairs; p++)
        if (sim->c.ptouch[p]) CHECK(sim->c.loc[p] != STORE_NOLOC);
    dem_sim_free(sim);
    dem_system_free(&s);
}

int main(void)
{
    test_lifecycle();
    test_lattice(1);
    test_lattice(3);
    UNIT_DONE();
}
