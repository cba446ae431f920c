/* reverse.h - what stands in the way of running a system backwards in time (dem-reverse).
 *
 * Hanley's reversed-time DEM (Hanley 2019, §3) reverses energy-conserving systems of frictionless
 * spheres: linear or Hertzian normal contacts, gravity, fixed walls, walls moving at a prescribed
 * velocity, drag damping (eqs 27-28), periodic cells with a prescribed deformation. Everything
 * else in a run loses information that a reversed run would need (Hanley 2019, §4-5). */
#ifndef DEM_REVERSE_H
#define DEM_REVERSE_H

#include <stddef.h>

#include "laws/settings.h"
#include "laws/laws.h"
#include "io/system.h"

/* The mechanisms of the settings st and system s that make a run irreversible, one line each
 * ("name: why it cannot be reversed (reference)\n") into buf (NUL terminated, cut at cap).
 * Returns how many there are (0: the run can be reversed). */
int dem_irreversibilities(const dem_settings *st, const dem_system *s, char *buf, size_t cap);

#endif
