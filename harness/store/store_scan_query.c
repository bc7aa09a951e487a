/*
 * store_scan_query.c: what a scan, once loaded (store_scan.c), is asked:
 * a commit by its id, two commits of a series compared, a series' name
 * and unit.
 */
#include "store_scan.h"
#include "stats.h"

#include <math.h>
#include <string.h>

long scan_find_commit(const struct scan *s, const char *rev)
{
	size_t len = strlen(rev);
	long found = -1;
	/*
	 * A longer id names a commit whose folder is its first 12 digits
	 * only when it is an id: "03895a9077b2zzzz" is none.
	 */
	int hex = strspn(rev, "0123456789abcdef") == len;

	if (len < 4)
		return -1;
	for (size_t i = 0; i < s->nr_commits; i++) {
		const char *id = s->commits[i].id;
		const char *abbrev = s->commits[i].abbrev;
		if (!strncmp(id, rev, len) || !strcmp(abbrev, rev) ||
		    (len > 12 && hex && !strncmp(abbrev, rev, 12))) {
			if (found >= 0)
				return -2;
			found = (long)i;
		}
	}
	return found;
}

void scan_compare(const struct scan_series *ser, size_t a, size_t b,
		  struct scan_compare *out)
{
	const struct scan_cell *x = &ser->cells[a], *y = &ser->cells[b];
	struct stats_mw mw;

	memset(out, 0, sizeof(*out));
	out->a_n = x->nr;
	out->b_n = y->nr;
	out->a_median = stats_median(x->values, x->nr);
	out->b_median = stats_median(y->values, y->nr);
	out->a_stddev_pct = x->nr > 1 ? stats_pct_stddev(x->values, x->nr) : NAN;
	out->b_stddev_pct = y->nr > 1 ? stats_pct_stddev(y->values, y->nr) : NAN;
	out->change_pct = stats_pct_change(out->a_median, out->b_median);
	out->p_value = NAN;
	if (x->nr >= 2 && y->nr >= 2 &&
	    !stats_mann_whitney(y->values, y->nr, x->values, x->nr,
				STATS_TWO_SIDED, &mw)) {
		out->p_value = mw.p;
		out->significant = mw.p <= 0.05;
	}
}

void scan_series_name(const struct scan_series *ser, struct strbuf *out)
{
	/* The names are the sample documents': escaped, as errors are. */
	struct strbuf raw = STRBUF_INIT;
	strbuf_addf(&raw, "%s/%s %s %s", ser->topology, ser->engine,
		    ser->point, ser->metric);
	strbuf_addsafe(out, raw.buf, raw.len);
	strbuf_release(&raw);
}

void scan_series_unit(const struct scan_series *ser, struct strbuf *out)
{
	clock_unit(out, &ser->clock);
}
