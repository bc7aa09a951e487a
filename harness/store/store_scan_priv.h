/*
 * store_scan_priv.h: what store_scan.c shares with the files that find
 * its job's folder (store_scan_dir.c) and order its commits
 * (store_scan_order.c); nothing else includes it.
 */
#ifndef IOBISECT_STORE_SCAN_PRIV_H
#define IOBISECT_STORE_SCAN_PRIV_H

#include "store_scan.h"

/*
 * Put s->commits in history order and say which (s->order); a bisect
 * state that orders them is loaded into s->state (s->has_state). An
 * invalid state is an error, or with SCAN_STATE_OPTIONAL a warning, and
 * then the sweep state or the timestamps order them. 0, or -1 after
 * error().
 */
int scan_order_commits(struct scan *s, unsigned flags);

/*
 * The job folder `dir` names: `dir/job`, `dir` itself when it is a job's
 * folder, or the one job of a results root (the one named `job`, if
 * given). Sets s->dir; 0, or -1 after error() naming the jobs there are.
 */
int scan_find_job_dir(struct scan *s, const char *dir, const char *job);

/* "boot-3-sample-0.json" -> 3; -1 for anything else. */
long scan_sample_boot(const char *name);

#endif
