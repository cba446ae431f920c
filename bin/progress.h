/* progress.h - the opt-in progress log of a run (dem-step and dem-reverse --progress SECONDS), for
 * batch jobs whose stderr is a file: every SECONDS of wall-clock time one line on standard error,
 * as LAMMPS' thermo output, whether or not it is a terminal:
 *
 *   progress  step  time[s]  unbalanced  overlap_max  ke[J]  elapsed[s]  eta[s]
 *
 * tab-separated, after one header line of the same form; every line starts with the word
 * "progress", so `grep ^progress run.log | cut -f2-` is a TSV table with its header. step: the
 * frame's step counter; time: the simulated time; unbalanced: mean |net force| over the free
 * particles / mean |contact force| (dem-step --until unbalanced's ratio; 0 without contacts);
 * overlap_max: the largest overlap now, a fraction of the smaller radius (of the radius against a
 * wall; --stop-overlap's measure); ke: the kinetic energy of the free particles; elapsed: the
 * wall-clock time since the run started; eta: the wall-clock time the rest of the run's steps
 * will take at the rate so far (with --until, the most it can take). A last line follows the last
 * step. Off (the default), a run pays one comparison per step; on, the measures are taken only for
 * a line, after the step's forces, and change nothing in the run (the same bits). */
#ifndef DEM_PROGRESS_H
#define DEM_PROGRESS_H

#include "sim/sim.h"

typedef struct {
    double interval;  /* s of wall-clock time between lines; 0: off */
    double t0, next;  /* wall clock at the start and when the next line is due */
    long long steps;  /* the run's length, for the ETA */
    long long last;   /* the step of the run (1..steps) of the last line */
} cli_progress;

/* Parse --progress SECONDS (a positive number of seconds; usage error otherwise). */
double cli_progress_interval(const char *opt, const char *text);
/* Start the log of a run of `steps` steps: the header line (nothing if interval is 0). */
void cli_progress_start(cli_progress *p, double interval, long long steps);
/* After step k (1..steps) of the run: a line when the interval has passed. */
void cli_progress_due(cli_progress *p, dem_sim *sim, long long k);
static inline void cli_progress_step(cli_progress *p, dem_sim *sim, long long k)
{
    if (p->interval > 0.0) cli_progress_due(p, sim, k);
}
/* After the run's last step k: its line, unless one was just printed for it. */
void cli_progress_end(cli_progress *p, dem_sim *sim, long long k);

#endif
