/*
 * sample_check.c: the rule a sample's figures keep (sample_check.h), the
 * same when a frame is read and when a stored document is loaded.
 */
#include "sample_check.h"
#include "json_num.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const char *const counts[] = { "io_bytes", "runtime_ns", "usr_ns",
				      "sys_ns" };

/* A count `key` of `o`: 1 and its value, 0 when absent, -1 when wrong. */
static int get_count(json_t *o, const char *key, uint64_t *out,
		     struct strbuf *why)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_integer(v)) {
		strbuf_addf(why, "%s is %s, not a count", key, json_kind(v));
		return -1;
	}
	if (json_integer_value(v) < 0) {
		strbuf_addf(why, "%s is %" JSON_INTEGER_FORMAT ", not a count",
			    key, json_integer_value(v));
		return -1;
	}
	*out = (uint64_t)json_integer_value(v);
	return 1;
}

int sample_figures_check(json_t *o, struct strbuf *why)
{
	uint64_t n[ARRAY_SIZE(counts)] = { 0 };
	int have[ARRAY_SIZE(counts)] = { 0 };
	json_t *v;

	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		have[i] = get_count(o, counts[i], &n[i], why);
		if (have[i] < 0)
			return -1;
	}
	v = json_object_get(o, "bw_bytes");
	if (v && !json_is_integer(v)) {
		strbuf_addf(why, "bw_bytes is %s, not an integer", json_kind(v));
		return -1;
	}
	if (v && (json_integer_value(v) < 0 ||
		  json_integer_value(v) > SAMPLE_MAX_BW)) {
		strbuf_addf(why,
			    "bw_bytes is %" JSON_INTEGER_FORMAT
			    ", not a byte rate (0 to 10^15 bytes/s)",
			    json_integer_value(v));
		return -1;
	}
	/*
	 * The guest works the rate out of the bytes and the time (a time of
	 * 0 counts as 1 ns), truncated: a rate that is not theirs is no
	 * measurement, whatever its size.
	 */
	if (v && have[0] && have[1]) {
		double rt = n[1] ? (double)n[1] : 1.0;
		double want = (double)n[0] * 1e9 / rt;
		double got = (double)json_integer_value(v);
		if (fabs(got - want) > 2.0 + want * 1e-9) {
			strbuf_addf(why,
				    "bw_bytes is %" JSON_INTEGER_FORMAT
				    ", but io_bytes %" PRIu64
				    " in runtime_ns %" PRIu64 " make %.0f",
				    json_integer_value(v), n[0], n[1], want);
			return -1;
		}
	}
	v = json_object_get(o, "cpu_pct");
	if (v && !json_is_number(v)) {
		strbuf_addf(why, "cpu_pct is %s, not a percentage",
			    json_kind(v));
		return -1;
	}
	if (v && (!isfinite(json_number_value(v)) ||
		  json_number_value(v) < 0 ||
		  json_number_value(v) > SAMPLE_MAX_CPU_PCT)) {
		strbuf_addf(why, "cpu_pct is %g, not a percentage (0 to %g)",
			    json_number_value(v), SAMPLE_MAX_CPU_PCT);
		return -1;
	}
	v = json_object_get(o, "verified");
	if (v && !json_is_boolean(v)) {
		strbuf_addf(why, "verified is %s, not true or false",
			    json_kind(v));
		return -1;
	}
	return 0;
}

int sample_metric_known(const char *name)
{
	return !strcmp(name, "read") || !strcmp(name, "write") ||
	       !strcmp(name, "rewrite") || !strcmp(name, "trim");
}
