/* cli.h - what every dem program shares: exit codes, messages, input and output conventions.
 *
 * Exit status: 0 success; 1 data or I/O error ("prog: message"); 2 bad usage (message plus a
 * pointer to --help); 130 interrupted. Help goes to stdout with status 0. */
#ifndef DEM_CLI_H
#define DEM_CLI_H

#include <stdio.h>

#include "error.h"

#define CLI_EXIT_DATA 1
#define CLI_EXIT_USAGE 2

/* Set the program name used in messages (call first in main). */
void cli_init(const char *prog);
const char *cli_prog(void);
/* "prog: message" on stderr, exit 1. */
_Noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: <libdem message>" on stderr, exit 1. */
_Noreturn void cli_die_err(const dem_error *err);
/* "prog: message" and "Try 'prog --help' for more information." on stderr, exit 2. */
_Noreturn void cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage error from a libdem parse failure of option --opt. */
_Noreturn void cli_usage_err(const char *opt, const dem_error *err);
/* A warning on stderr: "prog: warning: message". */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Open a file argument for reading as a file descriptor; NULL or "-" is stdin. */
int cli_open_input(const char *path);
/* Refuse to write the binary stream to a terminal (exit 2). */
void cli_refuse_binary_tty(void);
/* Parse an option value: a finite double, an integer in [lo, hi]. Usage error otherwise. */
double cli_double(const char *opt, const char *text);
long long cli_int(const char *opt, const char *text, long long lo, long long hi);
/* Parse n comma-separated doubles. */
void cli_doubles(const char *opt, const char *text, double *v, int n);

#endif
