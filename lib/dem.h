/* dem.h - libdem, the library behind the dem toolchain: include this one header. */
#ifndef DEM_H
#define DEM_H

#include "analysis/analysis.h"
#include "analysis/coordination.h"
#include "analysis/overlap_volume.h"
#include "analysis/profile.h"
#include "analysis/unbalanced.h"
#include "core/codec.h"
#include "analysis/energy.h"
#include "core/error.h"
#include "pack/pack.h"
#include "io/fields.h"
#include "laws/settings.h"
#include "laws/laws.h"
#include "laws/rolling.h"
#include "laws/material_ranges.h"
#include "io/select.h"
#include "sim/sim.h"
#include "analysis/stress.h"
#include "io/stream.h"
#include "io/system.h"
#include "analysis/reverse.h"
#include "core/rng.h"
#include "core/text.h"
#include "core/vec.h"
#include "analysis/vtk.h"

#endif
