/* error.h - status codes and error messages of libdem.
 *
 * libdem never prints and never exits. A function that can fail returns a dem_status (DEM_OK is 0,
 * every failure is negative) and, when given a dem_error, fills it with a message that names the
 * frame, the record or field, and the byte offset involved. The caller decides what to print. */
#ifndef DEM_ERROR_H
#define DEM_ERROR_H

typedef enum {
    DEM_OK = 0,
    DEM_ERR_IO = -1,        /* read or write failed at the OS level */
    DEM_ERR_NOMEM = -2,     /* allocation failed */
    DEM_ERR_EMPTY = -3,     /* the input holds no byte at all */
    DEM_ERR_NOT_GZIP = -4,  /* bytes where a frame should start are not a gzip member */
    DEM_ERR_MAGIC = -5,     /* a gzip member that is not a dem frame */
    DEM_ERR_VERSION = -6,   /* a dem frame of a major version this library cannot read */
    DEM_ERR_TRUNCATED = -7, /* the input ends inside a frame */
    DEM_ERR_CORRUPT = -8,   /* compressed data damaged: deflate error, CRC or length mismatch */
    DEM_ERR_FORMAT = -9,    /* a frame whose structure breaks the spec (section sizes, counts) */
    DEM_ERR_VALUE = -10,    /* a well-formed frame holding impossible values */
    DEM_ERR_ARG = -11,      /* a caller passed an invalid argument (bad option value, bad TSV) */
    DEM_ERR_LIMIT = -12,    /* a request the library cannot satisfy (packing too dense, ...) */
    DEM_ERR_UNSTABLE = -13  /* a simulation stopped by its instability guards (sim.h) */
} dem_status;

#define DEM_ERROR_MSG_MAX 512

/* On every function that returns a dem_status: a caller that drops the status is a compile
 * error (-Werror), so no failure goes unnoticed. (A cast to void does not silence it: test the
 * status, or hand it on.) */
#if defined(__GNUC__)
#define DEM_MUST_CHECK __attribute__((warn_unused_result))
#else
#define DEM_MUST_CHECK
#endif

typedef struct {
    dem_status code;
    char msg[DEM_ERROR_MSG_MAX];
} dem_error;

/* Fill err (if not NULL) with code and a printf-style message; returns code. */
dem_status dem_fail(dem_error *err, dem_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Prefix an existing message, e.g. with the frame index: "frame 3: <old message>". */
void dem_error_prefix(dem_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Short fixed name of a status code ("truncated input", ...). */
const char *dem_status_name(dem_status code);

#endif
