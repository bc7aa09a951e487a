/*
 * job_verdict.h: the two keys of a job whose values are more than a
 * type: the verdict's threshold ("10%", "25MB/s" or "auto") and the
 * confidence its answer must reach (0.95 or "95%"). Each is a reader the
 * table of keys (job_keys.c) names, as fio's options name a handler for
 * what is more than a number; the table gives the key path and the
 * place in struct job.
 */
#ifndef IOBISECT_JOB_VERDICT_H
#define IOBISECT_JOB_VERDICT_H

#include "keypath.h"

/* "threshold" `v` into *(struct threshold *)out; -1 after kp_fail. */
int job_verdict_threshold(struct keypath *c, json_t *v, void *out);
/* "confidence" `v` into *(double *)out; -1 after kp_fail. */
int job_verdict_confidence(struct keypath *c, json_t *v, void *out);

#endif
