/* select.c - parsing and matching particle selections. */
#include "io/select.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

dem_status dem_parse_double(const char *text, double *v, dem_error *err)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end == text || *end != 0 || !isfinite(x))
        return dem_fail(err, DEM_ERR_ARG, "'%s' is not a finite number", text);
    *v = x;
    return DEM_OK;
}

dem_status dem_parse_doubles(const char *text, double *v, int n, dem_error *err)
{
    const char *p = text;
    for (int k = 0; k < n; k++) {
        char *end;
        double x = strtod(p, &end);
        if (end == p || !isfinite(x) || (k < n - 1 ? *end != ',' : *end != 0))
            return dem_fail(err, DEM_ERR_ARG, "'%s' is not %d comma-separated finite numbers", text, n);
        v[k] = x;
        p = end + 1;
    }
    return DEM_OK;
}

static dem_status parse_u64(const char **pp, uint64_t *out, const char *text, dem_error *err)
{
    const char *p = *pp;
    if (*p < '0' || *p > '9') return dem_fail(err, DEM_ERR_ARG, "id list '%s': expected a number at '%s'", text, p);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE) return dem_fail(err, DEM_ERR_ARG, "id list '%s': number too large at '%s'", text, p);
    *out = v;
    *pp = end;
    return DEM_OK;
}

dem_status dem_select_parse_ids(dem_select *sel, const char *list, dem_error *err)
{
    memset(sel, 0, sizeof *sel);
    sel->kind = DEM_SEL_IDS;
    const char *p = list;
    size_t cap = 0;
    dem_status st;
    for (;;) {
        dem_id_range r;
        if ((st = parse_u64(&p, &r.lo, list, err))) goto fail;
        r.hi = r.lo;
        if (*p == '-') {
            p++;
            if ((st = parse_u64(&p, &r.hi, list, err))) goto fail;
            if (r.hi < r.lo) { st = dem_fail(err, DEM_ERR_ARG, "id list '%s': range %llu-%llu is empty", list, (unsigned long long)r.lo, (unsigned long long)r.hi); goto fail; }
        }
        if (sel->nranges == cap) {
            cap = cap ? 2 * cap : 8;
            dem_id_range *q = realloc(sel->ranges, cap * sizeof *q);
            if (!q) { st = dem_fail(err, DEM_ERR_NOMEM, "out of memory parsing '%s'", list); goto fail; }
            sel->ranges = q;
        }
        sel->ranges[sel->nranges++] = r;
        if (*p == 0) return DEM_OK;
        if (*p != ',') { st = dem_fail(err, DEM_ERR_ARG, "id list '%s': unexpected '%c'", list, *p); goto fail; }
        p++;
    }
fail:
    dem_select_free(sel);
    return st;
}

dem_status dem_select_parse(dem_select *sel, const char *text, dem_error *err)
{
    memset(sel, 0, sizeof *sel);
    dem_status st;
    if (strcmp(text, "all") == 0) {
        sel->kind = DEM_SEL_ALL;
        return DEM_OK;
    }
    if (strncmp(text, "ids=", 4) == 0) return dem_select_parse_ids(sel, text + 4, err);
    if (strncmp(text, "box=", 4) == 0) {
        double v[6] = {0};
        if ((st = dem_parse_doubles(text + 4, v, 6, err))) return st;
        if (!(v[0] <= v[3] && v[1] <= v[4] && v[2] <= v[5]))
            return dem_fail(err, DEM_ERR_ARG, "selection '%s': need X0<=X1, Y0<=Y1, Z0<=Z1", text);
        sel->kind = DEM_SEL_BOX;
        sel->lo = dem_v3(v[0], v[1], v[2]);
        sel->hi = dem_v3(v[3], v[4], v[5]);
        return DEM_OK;
    }
    if (strncmp(text, "radius=", 7) == 0) {
        double v[2] = {0, 0};
        if ((st = dem_parse_doubles(text + 7, v, 2, err))) return st;
        if (!(v[0] <= v[1])) return dem_fail(err, DEM_ERR_ARG, "selection '%s': need RMIN<=RMAX", text);
        sel->kind = DEM_SEL_RADIUS;
        sel->rmin = v[0];
        sel->rmax = v[1];
        return DEM_OK;
    }
    int above = strncmp(text, "above=", 6) == 0;
    if (above || strncmp(text, "below=", 6) == 0) {
        const char *t = text + 6;
        int axis = t[0] == 'x' ? 0 : t[0] == 'y' ? 1 : t[0] == 'z' ? 2 : -1;
        if (axis < 0 || t[1] != ',' || dem_parse_double(t + 2, &sel->height, NULL))
            return dem_fail(err, DEM_ERR_ARG, "selection '%s': expected %s=AXIS,H with AXIS x, y or z and H a finite number (m)",
                            text, above ? "above" : "below");
        sel->kind = above ? DEM_SEL_ABOVE : DEM_SEL_BELOW;
        sel->axis = axis;
        return DEM_OK;
    }
    return dem_fail(err, DEM_ERR_ARG,
                    "selection '%s': expected all, ids=LIST, box=X0,Y0,Z0,X1,Y1,Z1, radius=RMIN,RMAX, above=AXIS,H or below=AXIS,H",
                    text);
}

int dem_select_match(const dem_select *sel, const dem_particle *p)
{
    switch (sel->kind) {
    case DEM_SEL_ALL: return 1;
    case DEM_SEL_IDS:
        for (size_t k = 0; k < sel->nranges; k++)
            if (p->id >= sel->ranges[k].lo && p->id <= sel->ranges[k].hi) return 1;
        return 0;
    case DEM_SEL_BOX:
        return p->pos.x >= sel->lo.x && p->pos.x <= sel->hi.x && p->pos.y >= sel->lo.y &&
               p->pos.y <= sel->hi.y && p->pos.z >= sel->lo.z && p->pos.z <= sel->hi.z;
    case DEM_SEL_RADIUS: return p->radius >= sel->rmin && p->radius <= sel->rmax;
    case DEM_SEL_ABOVE: return dem_v3_get(p->pos, sel->axis) > sel->height;
    case DEM_SEL_BELOW: return dem_v3_get(p->pos, sel->axis) < sel->height;
    }
    return 0;
}

void dem_select_free(dem_select *sel)
{
    free(sel->ranges);
    sel->ranges = NULL;
    sel->nranges = 0;
}
