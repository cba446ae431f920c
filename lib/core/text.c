/* text.c - round-trip formatting of doubles for TSV output. */
#include "core/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dem_format_double(char *buf, size_t size, double v)
{
    if (isnan(v)) return snprintf(buf, size, "nan");
    if (isinf(v)) return snprintf(buf, size, v > 0 ? "inf" : "-inf");
    int n = 0;
    /* Subnormals carry fewer digits: search from 1 so that 5e-324 prints as such. */
    for (int prec = fabs(v) < 2.2250738585072014e-308 ? 1 : 15; prec <= 17; prec++) {
        n = snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v && (v != 0.0 || signbit(strtod(buf, NULL)) == signbit(v))) break;
    }
    return n;
}
