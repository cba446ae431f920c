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

/* The length of the valid UTF-8 sequence at p (2 to 4 bytes) that encodes a character from
 * U+00A0 on (not a C1 control), or 0. */
static size_t utf8_printable_length(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((p[k] & 0xC0) != 0x80) return 0; /* a NUL ends the loop here too */
    if (n == 2 && c == 0xC2 && p[1] < 0xA0) return 0;                 /* C1 controls */
    if (n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F))) return 0; /* overlong, surrogate */
    if (n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F))) return 0; /* overlong, > U+10FFFF */
    return n;
}

size_t dem_text_printable(char *out, size_t size, const char *in)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)in;
    size_t n = 0;
    while (*p) {
        size_t take = *p >= 0x20 && *p < 0x7F ? 1 : *p >= 0x80 ? utf8_printable_length(p) : 0;
        size_t need = take ? take : 4;
        if (n + need + 1 > size) break;
        if (take) {
            memcpy(out + n, p, take);
            p += take;
        } else {
            out[n] = '\\';
            out[n + 1] = 'x';
            out[n + 2] = hex[*p >> 4];
            out[n + 3] = hex[*p & 15];
            p++;
        }
        n += need;
    }
    if (size) out[n] = 0;
    return n;
}
