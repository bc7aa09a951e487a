/*
 * block_counters.c: the block layer's counters of samples
 * (block_counters.h): what is derived from them when a sample is stored,
 * and the table of the
 * quantities that differ most between two commits. A maintainer handed a
 * culprit asks what changed in what the kernel sent to the disk; the
 * largest change in request size, merges, queue depth or wait usually
 * names the mechanism.
 */
#include "block_counters.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum counter_flags {
	COUNTER_SETTING = 1 << 0, /* a limit the kernel was given or chose */
	COUNTER_EVENTS = 1 << 1,  /* a count of requests: ranked from one */
	COUNTER_CHOICE = 1 << 2,  /* a word, not a number */
};

/*
 * Every quantity of the table, in the order a tie is broken: settings,
 * then what one request looks like, then how many there were.
 */
static const struct counter_def {
	const char *key;   /* in "derived" */
	const char *label; /* for people */
	const char *unit;
	double scale; /* stored value / scale = shown value */
	unsigned flags;
} defs[] = {
	{"scheduler", "scheduler", "", 1, COUNTER_SETTING | COUNTER_CHOICE},
	{"sync_action", "md sync_action", "", 1,
	 COUNTER_SETTING | COUNTER_CHOICE},
	{"max_sectors_kb", "max_sectors_kb", "KiB", 1, COUNTER_SETTING},
	{"max_hw_sectors_kb", "max_hw_sectors_kb", "KiB", 1, COUNTER_SETTING},
	{"read_ahead_kb", "read_ahead_kb", "KiB", 1, COUNTER_SETTING},
	{"nr_requests", "nr_requests", "", 1, COUNTER_SETTING},
	{"avg_read_request_bytes", "avg read request", "KiB", 1024, 0},
	{"avg_write_request_bytes", "avg write request", "KiB", 1024, 0},
	{"avg_read_wait_ms", "avg read wait", "ms", 1, 0},
	{"avg_write_wait_ms", "avg write wait", "ms", 1, 0},
	{"avg_in_flight", "avg requests in flight", "", 1, 0},
	{"busy_pct", "busy", "%", 1, 0},
	{"requests_per_mb", "requests per MB moved", "", 1, 0},
	{"reads", "reads", "", 1, COUNTER_EVENTS},
	{"writes", "writes", "", 1, COUNTER_EVENTS},
	{"read_merges", "read merges", "", 1, COUNTER_EVENTS},
	{"write_merges", "write merges", "", 1, COUNTER_EVENTS},
	{"stripe_cache_active", "md stripe_cache_active", "", 1,
	 COUNTER_EVENTS},
	{"bitmap_pages", "md bitmap pages", "", 1, COUNTER_EVENTS},
};

/* ------------------------------------------------------------------ */
/* Derived when a sample is stored. */

static int get_count(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (double)json_integer_value(v);
	return 0;
}

static void set_real(json_t *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

/* The averages of one device over the interval; what is missing is left out. */
static json_t *derive_dev(json_t *dev, double interval_ns, double io_bytes)
{
	json_t *d = json_object(), *stat = json_object_get(dev, "stat"),
	       *queue = json_object_get(dev, "queue"),
	       *md = json_object_get(dev, "md");
	double r, w, rm, wm, rs, ws, rt, wt, ticks, tiq;
	static const char *const limits[] = {"max_sectors_kb",
					     "max_hw_sectors_kb",
					     "read_ahead_kb", "nr_requests"};
	static const char *const md_counts[] = {"stripe_cache_active",
						"bitmap_pages"};

	if (json_is_object(stat) && !get_count(stat, "reads", &r) &&
	    !get_count(stat, "writes", &w) &&
	    !get_count(stat, "read_merges", &rm) &&
	    !get_count(stat, "write_merges", &wm) &&
	    !get_count(stat, "read_sectors", &rs) &&
	    !get_count(stat, "write_sectors", &ws) &&
	    !get_count(stat, "read_ticks_ms", &rt) &&
	    !get_count(stat, "write_ticks_ms", &wt) &&
	    !get_count(stat, "io_ticks_ms", &ticks) &&
	    !get_count(stat, "time_in_queue_ms", &tiq)) {
		json_object_set_new(d, "reads", json_integer((json_int_t)r));
		json_object_set_new(d, "writes", json_integer((json_int_t)w));
		json_object_set_new(d, "read_merges",
				    json_integer((json_int_t)rm));
		json_object_set_new(d, "write_merges",
				    json_integer((json_int_t)wm));
		if (r > 0) {
			set_real(d, "avg_read_request_bytes", rs * 512 / r);
			set_real(d, "avg_read_wait_ms", rt / r);
		}
		if (w > 0) {
			set_real(d, "avg_write_request_bytes", ws * 512 / w);
			set_real(d, "avg_write_wait_ms", wt / w);
		}
		if (interval_ns > 0) {
			set_real(d, "avg_in_flight", tiq * 1e6 / interval_ns);
			set_real(d, "busy_pct", ticks * 1e8 / interval_ns);
		}
		if (io_bytes > 0)
			set_real(d, "requests_per_mb",
				 (r + w) / (io_bytes / 1e6));
	}
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
		json_t *v = json_object_get(queue, limits[i]);
		if (json_is_integer(v))
			json_object_set(d, limits[i], v);
	}
	if (json_is_string(json_object_get(queue, "scheduler")))
		json_object_set(d, "scheduler",
				json_object_get(queue, "scheduler"));
	if (json_is_string(json_object_get(md, "sync_action")))
		json_object_set(d, "sync_action",
				json_object_get(md, "sync_action"));
	for (size_t i = 0; i < ARRAY_SIZE(md_counts); i++) {
		json_t *v = json_object_get(md, md_counts[i]);
		if (json_is_integer(v))
			json_object_set(d, md_counts[i], v);
	}
	return d;
}

json_t *block_counters_derive(json_t *block, uint64_t io_bytes)
{
	json_t *copy, *devs, *dev, *iv;
	double interval_ns = 0;
	size_t i;

	if (!json_is_object(block) ||
	    !json_is_array(json_object_get(block, "devices")))
		return NULL;
	copy = json_deep_copy(block);
	devs = json_object_get(copy, "devices");
	iv = json_object_get(copy, "interval_ns");
	if (json_is_integer(iv) && json_integer_value(iv) > 0)
		interval_ns = (double)json_integer_value(iv);
	json_array_foreach(devs, i, dev) {
		if (json_is_object(dev))
			json_object_set_new(
				dev, "derived",
				derive_dev(dev, interval_ns, (double)io_bytes));
	}
	return copy;
}

/* ------------------------------------------------------------------ */
/* Two commits compared. */

/* One quantity of one device over one commit's samples. */
struct acc {
	const char *dev; /* borrowed from the documents */
	size_t def;
	double *v;
	size_t nr, alloc;
	struct strvec words; /* choices */
};

struct side {
	struct acc *accs;
	size_t nr, alloc;
	size_t samples;
};

static struct acc *side_acc(struct side *s, const char *dev, size_t def)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->accs[i].def == def && !strcmp(s->accs[i].dev, dev))
			return &s->accs[i];
	ALLOC_GROW(s->accs, s->nr + 1, s->alloc);
	struct acc *a = &s->accs[s->nr++];
	memset(a, 0, sizeof(*a));
	a->words = (struct strvec)STRVEC_INIT;
	a->dev = dev;
	a->def = def;
	return a;
}

static void side_read(struct side *s, json_t *blocks)
{
	json_t *block, *dev;
	size_t i, j;

	json_array_foreach(blocks, i, block) {
		json_t *devs = json_object_get(block, "devices");
		if (!json_is_array(devs))
			continue;
		s->samples++;
		json_array_foreach(devs, j, dev) {
			const char *name =
				json_string_value(json_object_get(dev, "dev"));
			json_t *d = json_object_get(dev, "derived");
			if (!name || !json_is_object(d))
				continue;
			for (size_t k = 0; k < ARRAY_SIZE(defs); k++) {
				json_t *v = json_object_get(d, defs[k].key);
				int word = defs[k].flags & COUNTER_CHOICE;
				if (word ? !json_is_string(v)
					 : !json_is_number(v) ||
						    !isfinite(json_number_value(
							    v)))
					continue;
				struct acc *a = side_acc(s, name, k);
				if (word) {
					strvec_push(&a->words,
						    json_string_value(v));
					continue;
				}
				ALLOC_GROW(a->v, a->nr + 1, a->alloc);
				a->v[a->nr++] = json_number_value(v);
			}
		}
	}
}

static void side_release(struct side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->accs[i].v);
		strvec_clear(&s->accs[i].words);
	}
	free(s->accs);
}

/* The word most samples saw (the first on a tie). */
static const char *mode(const struct strvec *w)
{
	const char *best = NULL;
	size_t best_n = 0;
	for (size_t i = 0; i < w->nr; i++) {
		size_t n = 0;
		for (size_t j = 0; j < w->nr; j++)
			n += !strcmp(w->v[i], w->v[j]);
		if (n > best_n) {
			best_n = n;
			best = w->v[i];
		}
	}
	return best;
}

/* Ranks this close are one finding: the list's order decides. */
#define COUNTERS_TIE 1e-9

static int cmp_row(const void *x, const void *y)
{
	const struct block_counters_row *a = x, *b = y;
	double hi;
	if (a->setting != b->setting)
		return a->setting - b->setting;
	hi = fmax(a->rank, b->rank);
	if (!(isinf(a->rank) && isinf(b->rank)) &&
	    fabs(a->rank - b->rank) > COUNTERS_TIE * hi)
		return a->rank > b->rank ? -1 : 1;
	if (a->order != b->order)
		return a->order - b->order;
	return strcmp(a->dev, b->dev);
}

static struct block_counters_row *add_row(struct block_counters_table *t,
				    const struct acc *a)
{
	const struct counter_def *d = &defs[a->def];
	ALLOC_GROW(t->rows, t->nr + 1, t->alloc);
	struct block_counters_row *r = &t->rows[t->nr++];
	memset(r, 0, sizeof(*r));
	r->dev = xstrdup(a->dev);
	r->label = d->label;
	r->unit = d->unit;
	r->setting = !!(d->flags & COUNTER_SETTING);
	r->order = (int)a->def;
	return r;
}

void block_counters_compare(json_t *a_blocks, json_t *b_blocks,
		      struct block_counters_table *out)
{
	struct side a = {0}, b = {0};

	memset(out, 0, sizeof(*out));
	side_read(&a, a_blocks);
	side_read(&b, b_blocks);
	out->a_samples = a.samples;
	out->b_samples = b.samples;
	for (size_t i = 0; i < a.nr; i++) {
		const struct acc *x = &a.accs[i], *y = NULL;
		const struct counter_def *d = &defs[x->def];
		for (size_t j = 0; j < b.nr && !y; j++)
			if (b.accs[j].def == x->def &&
			    !strcmp(b.accs[j].dev, x->dev))
				y = &b.accs[j];
		if (!y)
			continue;
		if (d->flags & COUNTER_CHOICE) {
			const char *p = mode(&x->words), *q = mode(&y->words);
			if (!p || !q || !strcmp(p, q))
				continue;
			struct block_counters_row *r = add_row(out, x);
			r->a_text = xstrdup(p);
			r->b_text = xstrdup(q);
			r->a = r->b = r->change_pct = NAN;
			r->rank = INFINITY;
			continue;
		}
		if (!x->nr || !y->nr)
			continue;
		double ma = stats_median(x->v, x->nr) / d->scale;
		double mb = stats_median(y->v, y->nr) / d->scale;
		double c = d->flags & COUNTER_EVENTS ? 1 : 0;
		if (ma == mb)
			continue;
		struct block_counters_row *r = add_row(out, x);
		r->a = ma;
		r->b = mb;
		r->change_pct = ma ? stats_pct_change(ma, mb) : INFINITY;
		r->rank = (ma + c > 0 && mb + c > 0)
				  ? fabs(log((mb + c) / (ma + c)))
				  : INFINITY;
	}
	if (out->nr)
		qsort(out->rows, out->nr, sizeof(*out->rows), cmp_row);
	side_release(&a);
	side_release(&b);
}

void block_counters_table_release(struct block_counters_table *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->rows[i].dev);
		free(t->rows[i].a_text);
		free(t->rows[i].b_text);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void block_counters_format_value(struct strbuf *out, double v, const char *unit)
{
	double m = fabs(v);
	if (m >= 100 || v == floor(v))
		strbuf_addf(out, "%.0f", v);
	else if (m >= 1)
		strbuf_addf(out, "%.1f", v);
	else
		strbuf_addf(out, "%.3g", v);
	if (unit && *unit)
		strbuf_addf(out, "%s%s", strcmp(unit, "%") ? " " : "", unit);
}

static void render_cell(struct strbuf *out, const struct block_counters_row *r,
			int head)
{
	struct strbuf v = STRBUF_INIT;
	const char *text = head ? r->b_text : r->a_text;
	/* Words and device names are the guest's: escaped, as errors are. */
	if (text)
		strbuf_addsafe(&v, text, strlen(text));
	else
		block_counters_format_value(&v, head ? r->b : r->a, r->unit);
	strbuf_addf(out, "%14s", v.buf);
	strbuf_release(&v);
}

void block_counters_render(const struct block_counters_table *t, size_t max_rows,
		     const char *indent, struct strbuf *out)
{
	size_t shown = 0;
	int settings = 0;

	if (!t->nr)
		return;
	strbuf_addf(out, "%s%14s %9s %14s  %s\n", indent, "base", "%change",
		    "head", "device: block-layer counter");
	for (size_t i = 0; i < t->nr; i++) {
		const struct block_counters_row *r = &t->rows[i];
		if (!r->setting && shown++ >= max_rows)
			continue;
		if (r->setting && !settings++)
			strbuf_addf(out, "%s%14s  settings that differ:\n",
				    indent, "");
		strbuf_addstr(out, indent);
		render_cell(out, r, 0);
		if (isnan(r->change_pct))
			strbuf_addf(out, " %9s ", "");
		else if (isinf(r->change_pct))
			strbuf_addf(out, " %9s ", "from 0");
		else
			strbuf_addf(out, " %+8.1f%% ", r->change_pct);
		render_cell(out, r, 1);
		strbuf_addstr(out, "  ");
		strbuf_addsafe(out, r->dev, strlen(r->dev));
		strbuf_addf(out, ": %s\n", r->label);
	}
}
