/* reverse.c - the irreversible mechanisms of a run (see reverse.h). */
#include "analysis/reverse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "laws/rolling.h"

static void add(char *buf, size_t cap, int *count, const char *fmt, ...)
{
    size_t used = strlen(buf);
    (*count)++;
    if (used + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
    used = strlen(buf);
    if (used + 1 < cap) strcat(buf, "\n");
}

/* The largest friction and the smallest restitution over the materials that particles use or
 * walls are made of. */
static void material_extremes(const dem_system *s, double *mu, double *e)
{
    *mu = 0.0;
    *e = 1.0;
    for (size_t k = 0; k < s->nmaterials; k++) {
        if (s->materials[k].friction > *mu) *mu = s->materials[k].friction;
        if (s->materials[k].restitution < *e) *e = s->materials[k].restitution;
    }
}

int dem_irreversibilities(const dem_settings *st, const dem_system *s, char *buf, size_t cap)
{
    int n = 0;
    if (cap) buf[0] = 0;
    double mu, e;
    material_extremes(s, &mu, &e);
    const char *tname = dem_tangential_models[st->tangential]->name;
    if (dem_tangential_models[st->tangential]->uses_history) {
        add(buf, cap, &n, "tangential springs (model.tangential %s): a spring is reset to zero when its contact opens, so going backwards what it held is unknown (Hanley §4)", tname);
        if (mu > 0.0)
            add(buf, cap, &n, "Coulomb friction (friction up to %g): a force at the Coulomb limit could have come from any of a range of larger trial forces, so the force before the cap is unknown (Hanley §5.1)", mu);
    }
    const dem_normal_model *nm = dem_normal_models[st->normal];
    if (nm->neck)
        add(buf, cap, &n, "adhesive necks (model.normal %s): a contact forms at zero overlap but holds down to a negative one, so at an overlap in between whether a neck holds depends on the past, and the energy lost as necks form and break (work_law) is not given back going backwards (Johnson, Kendall & Roberts 1971; Thornton & Ning 1998)", nm->name);
    const char *dname = dem_damping_models[st->damping]->name;
    if (strcmp(dname, "viscous") == 0 && (st->gamma_n > 0.0 || st->gamma_t > 0.0))
        add(buf, cap, &n, "viscous contact damping (gamma_n %g, gamma_t %g kg/s): a dashpot force belongs to the velocities half a step before it going forwards, but going backwards those velocities are known only a step later (Hanley §5.2)", st->gamma_n, st->gamma_t);
    if (strcmp(dname, "restitution") == 0 && e < 1.0)
        add(buf, cap, &n, "contact damping from the coefficient of restitution (down to %g): a dashpot force belongs to the velocities half a step before it going forwards, but going backwards those velocities are known only a step later (Hanley §5.2)", e);
    if (st->local_damping > 0.0)
        add(buf, cap, &n, "local damping (damping.local %g): undoing it needs the undamped force and the sign of the half-step velocity at once, and going backwards they are a step apart (Hanley §5.2, eq 21)", st->local_damping);
    if (st->rolling)
        add(buf, cap, &n, "rolling resistance (model.rolling %s): its slider caps the rolling moment and its spring is reset when a contact opens, so going backwards the moment before the cap and what the spring held are unknown; its dashpot dissipates (Hanley 2019, §5.3)",
            dem_rolling_models[st->rolling]->name);
    if (st->twisting)
        add(buf, cap, &n, "twisting resistance (model.twisting %s): its slider caps the twisting moment and its spring is reset when a contact opens, so going backwards the moment before the cap is unknown; its dashpot dissipates (Hanley 2019, §5.3)",
            dem_twisting_models[st->twisting]->name);
    if (s->cell.flags && s->cell.stress_mask)
        add(buf, cap, &n, "a stress-controlled cell: the servo's strain rate follows stresses that are a step out of sync going backwards (Hanley §3.1, §4)");
    return n;
}
