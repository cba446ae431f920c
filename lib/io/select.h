/* select.h - particle selections shared by every program: "ids=1-10,15", "box=X0,Y0,Z0,X1,Y1,Z1",
 * "radius=RMIN,RMAX", "above=AXIS,H", "below=AXIS,H", "all". A selection is parsed once and
 * matched against particles. */
#ifndef DEM_SELECT_H
#define DEM_SELECT_H

#include <stdint.h>

#include "core/error.h"
#include "io/system.h"

typedef enum { DEM_SEL_ALL, DEM_SEL_IDS, DEM_SEL_BOX, DEM_SEL_RADIUS, DEM_SEL_ABOVE, DEM_SEL_BELOW } dem_select_kind;

typedef struct {
    uint64_t lo, hi; /* inclusive */
} dem_id_range;

typedef struct {
    dem_select_kind kind;
    dem_id_range *ranges; /* DEM_SEL_IDS */
    size_t nranges;
    dem_vec3 lo, hi;      /* DEM_SEL_BOX: centres with lo <= x <= hi */
    double rmin, rmax;    /* DEM_SEL_RADIUS: rmin <= r <= rmax */
    int axis;             /* DEM_SEL_ABOVE, DEM_SEL_BELOW: 0 x, 1 y, 2 z */
    double height;        /* ABOVE: centres with x[axis] > height; BELOW: x[axis] < height, m */
} dem_select;

/* Parse a selection; on error the message quotes the text. Free with dem_select_free. */
DEM_MUST_CHECK dem_status dem_select_parse(dem_select *sel, const char *text, dem_error *err);
/* Parse only an id list "1-10,15" (as used by --ids). */
DEM_MUST_CHECK dem_status dem_select_parse_ids(dem_select *sel, const char *list, dem_error *err);
int dem_select_match(const dem_select *sel, const dem_particle *p);
void dem_select_free(dem_select *sel);

/* Parse exactly n comma-separated finite doubles ("0,0,0.1"). */
DEM_MUST_CHECK dem_status dem_parse_doubles(const char *text, double *v, int n, dem_error *err);
/* Parse one finite double, the whole string. */
DEM_MUST_CHECK dem_status dem_parse_double(const char *text, double *v, dem_error *err);

#endif
