/* law_tangential_none.c - frictionless contacts: no tangential force, no history. */
#include "io/settings.h"
#include "laws/laws.h"

static double stiffness(const dem_pair *p, int normal, double delta)
{
    (void)p, (void)normal, (void)delta;
    return 0.0;
}

const dem_tangential_model dem_law_tangential_none = {"none", 0, stiffness};
