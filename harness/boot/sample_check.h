/*
 * sample_check.h: the one rule a sample's figures keep, on the result port
 * and in the store. A `sample` frame (proto.c) is refused by it as it is
 * read, and a stored document's metric objects (results_load.c) by it as
 * they are loaded; both carry the figures under the same names. Before,
 * `run` took cpu_pct -1 or bw_bytes 2^63-1 as "ok" and a bisection then
 * threw every such document away, boot after boot.
 */
#ifndef IOBISECT_SAMPLE_CHECK_H
#define IOBISECT_SAMPLE_CHECK_H

#include "util.h"

#include <jansson.h>

/* A byte rate past 1 PB/s is not a measurement of a QEMU disk. */
#define SAMPLE_MAX_BW 1000000000000000LL
/* 100% of each of at most 64 vCPUs (machine.cpus' range). */
#define SAMPLE_MAX_CPU_PCT 6400.0

/*
 * Check the figures of object `o` that are present: io_bytes, runtime_ns,
 * usr_ns and sys_ns counts (integers from 0), bw_bytes an integer from 0
 * to SAMPLE_MAX_BW that is io_bytes per runtime_ns (as the guest works it
 * out, workloads/engine.c), cpu_pct a number from 0 to SAMPLE_MAX_CPU_PCT,
 * verified true or false. 0, or -1 with the first thing wrong in `why`,
 * starting with the key's name ("bw_bytes is ...").
 */
int sample_figures_check(json_t *o, struct strbuf *why);

/* 1 for a metric a sample may name: "read", "write", "rewrite", "trim". */
int sample_metric_known(const char *name);

#endif
