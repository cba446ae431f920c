/* progress.c - the opt-in progress log of a run (progress.h). */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "cli.h"
#include "core/text.h"

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cli_progress_interval(const char *opt, const char *text)
{
    double s = cli_double(opt, text);
    if (!(s > 0.0)) cli_usage("%s: '%s' must be a positive number of seconds (of wall-clock time between lines)", opt, text);
    return s;
}

void cli_progress_start(cli_progress *p, double interval, long long steps)
{
    p->interval = interval;
    p->steps = steps;
    p->last = 0;
    p->t0 = wall_clock();
    p->next = p->t0 + interval;
    if (!(interval > 0.0) || steps <= 0) {
        p->interval = 0.0;
        return;
    }
    fputs("progress\tstep\ttime[s]\tunbalanced\toverlap_max\tke[J]\telapsed[s]\teta[s]\n", stderr);
    fflush(stderr);
}

static void cell(double v)
{
    char buf[DEM_DOUBLE_TEXT_MAX];
    snprintf(buf, sizeof buf, "%.6g", v);
    fputc('\t', stderr);
    fputs(buf, stderr);
}

/* One line: the measures of the state after step k of the run. */
static void line(cli_progress *p, dem_sim *sim, long long k, double now)
{
    double elapsed = now - p->t0;
    dem_overlap_record ov = dem_sim_current_overlap(sim);
    fprintf(stderr, "progress\t%llu", (unsigned long long)dem_sim_steps(sim));
    cell(dem_sim_time(sim));
    cell(dem_sim_unbalanced(sim));
    cell(ov.ratio);
    cell(dem_sim_kinetic_energy(sim, NULL));
    cell(elapsed);
    cell(k > 0 ? elapsed / (double)k * (double)(p->steps - k) : NAN);
    fputc('\n', stderr);
    fflush(stderr); /* a line at a time, even into a file */
    p->last = k;
}

void cli_progress_due(cli_progress *p, dem_sim *sim, long long k)
{
    double now = wall_clock();
    /* the ranks of a group agree on it: a line's measures are collective (sim.h) */
    if (!cli_group_agree(now >= p->next)) return;
    line(p, sim, k, now);
    p->next = now + p->interval;
}

void cli_progress_end(cli_progress *p, dem_sim *sim, long long k)
{
    if (p->interval > 0.0 && k > 0 && p->last != k) line(p, sim, k, wall_clock());
}
