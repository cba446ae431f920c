/* text.h - numbers as text: the shortest decimal that reads back to the same double. */
#ifndef DEM_TEXT_H
#define DEM_TEXT_H

#include <stddef.h>

#define DEM_DOUBLE_TEXT_MAX 32

/* Write the shortest of %.15g, %.16g, %.17g that strtod reads back bit for bit ("0.1", not
 * "0.10000000000000001"); "nan", "inf" and "-inf" for the non-finite. Returns the length. */
int dem_format_double(char *buf, size_t size, double v);

/* Copy the NUL-terminated text in into out (size >= 1, always terminated) with every byte a
 * terminal could act on written as \xHH: the C0 controls and DEL, the C1 controls (U+0080 to
 * U+009F, in UTF-8 or as raw bytes) and any byte that is not part of valid UTF-8. Printable
 * ASCII and valid UTF-8 (Stahl_\xc3\xbc stays as is) are copied. Text that does not fit is cut
 * at a character, never inside an escape or a UTF-8 sequence. Every message the library or the
 * programs print passes through it (dem_fail, cli_die/cli_usage/cli_warn): a setting read from a
 * stream with ESC[2J in it once cleared the user's terminal. Returns the length written. */
size_t dem_text_printable(char *out, size_t size, const char *in);

#endif
