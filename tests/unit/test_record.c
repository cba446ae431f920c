/* test_record.c - the contact store's per-pair layout (lib/laws/laws.h): the record and the
 * result line keep the sizes docs/architecture.md accounts for (a dense packing holds 6 of each
 * per sphere), and Kuhn's law carries its step's dissipation from its evaluation to its work
 * hook in a field of its own (lwork), leaving the books' prev[] as dem_contact_forget reads it. */
#include <string.h>

#include "laws/laws.h"
#include "unit.h"

/* A kuhn contact at its friction limit along y (normal x, hooke), whose contact point slides
 * along z in one step: the evaluation keeps prev[] and puts the dissipation in lwork; the work
 * hook books it as friction. */
static void test_kuhn_slot(void)
{
    dem_settings st;
    dem_settings_default(&st);
    st.normal = DEM_NORMAL_HOOKE;
    st.kn_rule = DEM_KN_GIVEN;
    st.kn = 1e5;
    st.kt = 8e4;
    st.tangential = dem_model_find(DEM_MODEL_TANGENTIAL, "kuhn");
    st.damping = dem_model_find(DEM_MODEL_DAMPING, "none");
    dem_material m = dem_material_default();
    m.friction = 0.5;
    double r = 1e-3, delta = 1e-6, dt = 1e-6, l = r - 0.5 * delta, fn = st.kn * delta;
    dem_pair p;
    dem_pair_init(&p, &st, r, 1e-5, &m, r, 1e-5, &m);
    dem_contact_in c;
    memset(&c, 0, sizeof c);
    c.d = dem_v3(2.0 * l, 0, 0);
    c.n = dem_v3(1, 0, 0);
    c.delta = delta;
    c.wterm = dem_v3(0, l * (2.0 * m.friction * fn / st.kt) / (l * dt), 0); /* two yield lengths along z */
    c.chord = 1;
    dem_contact_rec h;
    memset(&h, 0, sizeof h);
    h.flags = DEM_REC_TOUCH;
    h.xi[1] = -m.friction * fn / st.kt;
    h.prev[DEM_PREV_XI2] = h.xi[1] * h.xi[1];
    h.prev[DEM_PREV_STT] = st.kt; /* as the last step's work hook left them */
    h.prev[DEM_PREV_PT] = 0.25;
    double before[4];
    memcpy(before, h.prev, sizeof before);
    dem_law law;
    dem_law_init(&law, &st, dt);
    dem_contact_out o;
    dem_law_eval(&law, &p, &c, &h, &o);
    CHECK(memcmp(before, h.prev, sizeof before) == 0); /* prev[] untouched by the evaluation */
    CHECK_MSG((h.flags & DEM_REC_SLIDING) && h.lwork > 0.0, "flags %u, lwork %g", (unsigned)h.flags, h.lwork);
    double d[4] = {0, 0, 0, 0}, pending = h.lwork;
    law.tangential->work(&h, &o, dem_v3(0, 0, 1e-3), dt, 0, d);
    CHECK(d[0] == pending);              /* booked as friction */
    CHECK(h.prev[DEM_PREV_STT] == st.kt); /* and prev[] as the next step and a lost contact read it */
}

int main(void)
{
    CHECK(sizeof(dem_contact_rec) == 128); /* key 24, history 24, fdn and S_t 16, books 56, the law's term 8 */
    CHECK(sizeof(dem_contact_out) == 64);  /* one cache line */
    test_kuhn_slot();
    UNIT_DONE();
}
