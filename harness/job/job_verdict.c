/*
 * job_verdict.c: the threshold and the confidence of a job, read from
 * their JSON (job_verdict.h). Both are written by people in more than
 * one way, and both refuse what strtod would quietly take.
 */
#include "job_verdict.h"
#include "threshold.h"

#include <stdlib.h>
#include <string.h>

/* Thresholds a measurement can tell apart, and nothing beyond. */
#define THRESHOLD_MIN 0.01
#define THRESHOLD_MAX_MBPS 1e6

int job_verdict_threshold(struct keypath *c, json_t *v, void *out)
{
	struct threshold *t = out;
	const char *s;
	size_t n;
	int pct;
	double x;
	char *num;

	if (kp_str(c, v, &s))
		return -1;
	if (!strcmp(s, "auto")) {
		t->kind = THRESHOLD_AUTO;
		t->value = 0;
		return 0;
	}
	n = strlen(s);
	pct = n > 1 && s[n - 1] == '%';
	if (!pct && (n <= 4 || strcmp(s + n - 4, "MB/s")))
		goto bad;
	num = xstrndup(s, n - (pct ? 1 : 4));
	/* "infMB/s", "0x10%", " 10%", "1e-300%": strtod took them all. */
	if (parse_decimal(num, &x)) {
		free(num);
		goto bad;
	}
	free(num);
	if (x < THRESHOLD_MIN || (pct && x >= 100) ||
	    (!pct && x > THRESHOLD_MAX_MBPS))
		return kp_fail(c,
			       "'%s' is out of range (%g to below 100%%, or "
			       "%g to %g MB/s)",
			       s, THRESHOLD_MIN, THRESHOLD_MIN,
			       THRESHOLD_MAX_MBPS);
	t->kind = pct ? THRESHOLD_PERCENT : THRESHOLD_MBPS;
	t->value = x;
	return 0;
bad:
	return kp_fail(c,
		       "'%s' is not a threshold (\"10%%\", \"25MB/s\" or "
		       "\"auto\")",
		       s);
}

/*
 * The confidence a bisection's answer must reach: 0.95 or "95%". Below one
 * half it would name a coin toss; at 1 no number of boots reaches it.
 */
int job_verdict_confidence(struct keypath *c, json_t *v, void *out)
{
	double x;

	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		size_t n = strlen(s);
		char *num = n ? xstrndup(s, n - 1) : NULL;
		/* As for a threshold: "0x5f%" and "9.5e1%" are not written. */
		int bad = !n || s[n - 1] != '%' || parse_decimal(num, &x);
		free(num);
		if (bad)
			return kp_fail(c,
				       "'%s' is not a confidence (0.95 or "
				       "\"95%%\")",
				       s);
		x /= 100;
	} else if (json_is_number(v)) {
		x = json_number_value(v);
	} else {
		return kp_fail(c, "expected a number (0.95) or a percentage "
				  "(\"95%%\")");
	}
	if (!(x >= 0.5 && x <= 0.9999))
		return kp_fail(
			c, "%g is not a confidence between 0.5 and 0.9999", x);
	*(double *)out = x;
	return 0;
}
