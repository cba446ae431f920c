/* error.c - filling dem_error messages. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"

dem_status dem_fail(dem_error *err, dem_status code, const char *fmt, ...)
{
    if (err) {
        char raw[DEM_ERROR_MSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        dem_text_printable(err->msg, sizeof err->msg, raw); /* what it quotes from the input */
        err->code = code;
    }
    return code;
}

void dem_error_prefix(dem_error *err, const char *fmt, ...)
{
    if (!err) return;
    char prefix[DEM_ERROR_MSG_MAX], old[DEM_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    size_t n = strlen(prefix);
    memcpy(err->msg, prefix, n);
    size_t room = sizeof err->msg - 1 - n, m = strlen(old);
    if (m > room) m = room;
    memcpy(err->msg + n, old, m);
    err->msg[n + m] = 0;
}

const char *dem_status_name(dem_status code)
{
    switch (code) {
    case DEM_OK: return "ok";
    case DEM_ERR_IO: return "i/o error";
    case DEM_ERR_NOMEM: return "out of memory";
    case DEM_ERR_EMPTY: return "empty input";
    case DEM_ERR_NOT_GZIP: return "not gzip data";
    case DEM_ERR_MAGIC: return "not a dem frame";
    case DEM_ERR_VERSION: return "unsupported format version";
    case DEM_ERR_TRUNCATED: return "truncated input";
    case DEM_ERR_CORRUPT: return "corrupt data";
    case DEM_ERR_FORMAT: return "malformed frame";
    case DEM_ERR_VALUE: return "impossible value";
    case DEM_ERR_ARG: return "invalid argument";
    case DEM_ERR_LIMIT: return "limit reached";
    case DEM_ERR_UNSTABLE: return "unstable simulation";
    }
    return "unknown error";
}
