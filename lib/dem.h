/* dem.h - libdem, the library behind the dem toolchain: include this one header. */
#ifndef DEM_H
#define DEM_H

#include "analysis.h"
#include "codec.h"
#include "energy.h"
#include "error.h"
#include "pack.h"
#include "fields.h"
#include "model.h"
#include "select.h"
#include "sim.h"
#include "stress.h"
#include "stream.h"
#include "system.h"
#include "reverse.h"
#include "rng.h"
#include "text.h"
#include "vec.h"
#include "vtk.h"

#endif
