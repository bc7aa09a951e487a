/*
 * metric.h: a job's "metric", the one value of a sample document a verdict
 * reads. A direction alone ("read", "write", "rewrite", "trim") is its
 * bw_bytes, as it always was. The fio engine stores fio's own figures in
 * the direction's object, and a metric may name one of them with fio's
 * names: "read.iops", "write.clat_ns.mean",
 * "read.clat_ns.percentile.99.000000". A percentile's name holds a dot
 * itself, so a metric is never split at every dot: it is matched against
 * the names fio writes (metric_check) and the document's keys
 * (metric_value).
 */
#ifndef IOBISECT_METRIC_H
#define IOBISECT_METRIC_H

#include "util.h"

#include <jansson.h>

/*
 * Check `name` against `directions`, what the engine reports
 * ("read,write,trim"); `detailed` when the engine stores fio's figures.
 * A percentile may be given as fio prints it or as a plain number
 * ("99", "99.9"). *out gets the metric as documents name it. -1 with
 * the reason in `why`.
 */
int metric_check(const char *name, const char *directions, int detailed,
		 char **out, struct strbuf *why);

/* 1 when more of the metric is better (bandwidth, IOPS); 0 (latency). */
int metric_higher_better(const char *name);

/* The direction's object of `doc` the metric lives in, or NULL. */
json_t *metric_object(json_t *doc, const char *name);

/*
 * The metric's value in its direction's object `obj`, turned so that
 * higher is better: a latency in ns becomes its reciprocal, 10^9 / ns
 * (per second), so verdicts, thresholds in percent and "direction" read
 * the same for every metric. -1 when absent, not a number or not
 * positive where it is inverted.
 */
int metric_value(json_t *obj, const char *name, double *out);

#endif
