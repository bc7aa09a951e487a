/*
 * profile_diff.c: two profiles' difference (profile_diff.h).
 */
#include "profile_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUTSIDE "[outside System.map]"

void profile_diff_release(struct profile_diff *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->rows[i].name);
	free(d->rows);
	free(d->total.name);
	memset(d, 0, sizeof(*d));
}

static int row_cmp(const void *x, const void *y)
{
	const struct profile_diff_row *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int name_cmp(const void *x, const void *y)
{
	const struct profile_fn *a = x, *b = y;
	return strcmp(a->name, b->name);
}

static double change_of(double a, double b)
{
	return a > 0 ? 100.0 * (b - a) / a : NAN;
}

int profile_diff(struct profile_diff *out, const struct profile *a,
		 const struct profile *b)
{
	memset(out, 0, sizeof(*out));
	if (!a->io_bytes || !b->io_bytes)
		return error("a profile of %s moved no bytes",
			     !a->io_bytes ? (a->label ? a->label : "base")
					  : (b->label ? b->label : "head"));
	/* Both sides by name, merged as two sorted lists. */
	struct profile_fn *x = xcalloc(a->nr + 1, sizeof(*x));
	struct profile_fn *y = xcalloc(b->nr + 1, sizeof(*y));
	memcpy(x, a->fns, a->nr * sizeof(*x));
	memcpy(y, b->fns, b->nr * sizeof(*y));
	qsort(x, a->nr, sizeof(*x), name_cmp);
	qsort(y, b->nr, sizeof(*y), name_cmp);
	out->rows = xcalloc(a->nr + b->nr + 1, sizeof(*out->rows));
	size_t i = 0, j = 0;
	while (i < a->nr || j < b->nr) {
		int c = i == a->nr   ? 1
			: j == b->nr ? -1
				     : strcmp(x[i].name, y[j].name);
		struct profile_diff_row *r = &out->rows[out->nr++];
		if (c <= 0) {
			r->name = xstrdup(x[i].name);
			r->a = profile_per_mb(a, x[i++].insns);
		}
		if (c >= 0) {
			if (!r->name)
				r->name = xstrdup(y[j].name);
			r->b = profile_per_mb(b, y[j++].insns);
		}
		r->change_pct = change_of(r->a, r->b);
	}
	struct profile_diff_row *u = &out->rows[out->nr++];
	u->name = xstrdup(OUTSIDE);
	u->a = profile_per_mb(a, a->unknown_insns);
	u->b = profile_per_mb(b, b->unknown_insns);
	u->change_pct = change_of(u->a, u->b);
	if (!a->unknown_insns && !b->unknown_insns)
		free(out->rows[--out->nr].name);
	for (size_t k = 0; k < out->nr; k++)
		out->rows_sum += out->rows[k].b - out->rows[k].a;
	qsort(out->rows, out->nr, sizeof(*out->rows), row_cmp);
	out->total = (struct profile_diff_row){
		xstrdup("[all kernel]"), profile_per_mb(a, a->kernel_insns),
		profile_per_mb(b, b->kernel_insns), 0};
	out->total.change_pct = change_of(out->total.a, out->total.b);
	free(x);
	free(y);
	return 0;
}

