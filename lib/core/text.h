/* text.h - numbers as text: the shortest decimal that reads back to the same double. */
#ifndef DEM_TEXT_H
#define DEM_TEXT_H

#include <stddef.h>

#define DEM_DOUBLE_TEXT_MAX 32

/* Write the shortest of %.15g, %.16g, %.17g that strtod reads back bit for bit ("0.1", not
 * "0.10000000000000001"); "nan", "inf" and "-inf" for the non-finite. Returns the length. */
int dem_format_double(char *buf, size_t size, double v);

#endif
