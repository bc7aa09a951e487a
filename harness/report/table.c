/*
 * table.c: medians laid out as a report lays them out (see table.h).
 */
#include "table.h"
#include "json_num.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cell_value(const struct table_cell *c, const char *key)
{
	char *v;
	if (!strcmp(key, "metric"))
		return xstrdup(c->metric);
	if (!strcmp(key, "topology"))
		return xstrdup(c->topology);
	v = table_spec_name_value(c->topology, key);
	return v ? v : table_spec_name_value(c->point, key);
}

static void push_keys_of(struct strvec *keys, const char *name,
			 const char *column)
{
	struct strvec words = STRVEC_INIT;
	strvec_split(&words, name, ',');
	for (size_t i = 0; i < words.nr; i++) {
		char *eq = strchr(words.v[i], '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (strvec_index(keys, words.v[i]) < 0 &&
		    strcmp(words.v[i], column))
			strvec_push(keys, words.v[i]);
	}
	strvec_clear(&words);
}

static size_t index_or_add(struct strvec *list, const char *s)
{
	int i = strvec_index(list, s);
	if (i >= 0)
		return (size_t)i;
	strvec_push(list, s);
	return list->nr - 1;
}

/* The row whose values are `vals` (one per row key), added if new. */
static size_t row_index(struct table *t, const struct strvec *vals)
{
	size_t nk = t->row_keys.nr, r, k;
	for (r = 0; r < t->nr_rows; r++) {
		for (k = 0; k < nk; k++)
			if (strcmp(table_row_value(t, r, k), vals->v[k]))
				break;
		if (k == nk)
			return r;
	}
	for (k = 0; k < nk; k++)
		strvec_push(&t->values, vals->v[k]);
	return t->nr_rows++;
}

const char *table_row_value(const struct table *t, size_t row, size_t key)
{
	return t->values.v[row * t->row_keys.nr + key];
}

void table_make(struct table *t, const struct table_spec *spec,
		const struct table_cell *cells, size_t nr)
{
	size_t *row = xcalloc(nr + 1, sizeof(*row));
	size_t *col = xcalloc(nr + 1, sizeof(*col));

	memset(t, 0, sizeof(*t));
	t->column_key =
		xstrdup(spec && spec->columns ? spec->columns : "metric");
	if (spec && spec->rows.nr) {
		for (size_t i = 0; i < spec->rows.nr; i++)
			strvec_push(&t->row_keys, spec->rows.v[i]);
	} else {
		for (size_t i = 0; i < nr; i++) {
			push_keys_of(&t->row_keys, cells[i].topology,
				     t->column_key);
			push_keys_of(&t->row_keys, cells[i].point,
				     t->column_key);
		}
	}
	for (size_t i = 0; i < nr; i++) {
		struct strvec vals = STRVEC_INIT;
		char *cv = cell_value(&cells[i], t->column_key);
		for (size_t k = 0; k < t->row_keys.nr; k++) {
			char *v = cell_value(&cells[i], t->row_keys.v[k]);
			strvec_push(&vals, v ? v : "-");
			free(v);
		}
		row[i] = row_index(t, &vals);
		col[i] = index_or_add(&t->columns, cv ? cv : "-");
		strvec_clear(&vals);
		free(cv);
	}
	size_t cells_nr = t->nr_rows * t->columns.nr;
	t->mbps = xcalloc(cells_nr + 1, sizeof(double));
	t->cpu = xcalloc(cells_nr + 1, sizeof(double));
	for (size_t i = 0; i < cells_nr; i++)
		t->mbps[i] = t->cpu[i] = NAN;
	/* The first median for a place wins: rows name every key that varies.
	 */
	for (size_t i = nr; i-- > 0;) {
		t->mbps[row[i] * t->columns.nr + col[i]] = cells[i].mbps;
		t->cpu[row[i] * t->columns.nr + col[i]] = cells[i].cpu;
	}
	free(row);
	free(col);
}

void table_release(struct table *t)
{
	strvec_clear(&t->row_keys);
	free(t->column_key);
	strvec_clear(&t->columns);
	strvec_clear(&t->values);
	free(t->mbps);
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}

/* The "key=..." entry of `list` for `key`, or `def`. */
static const char *lookup(const struct strvec *list, const char *key,
			  const char *def)
{
	const char *v = list ? strvec_value(list, key) : NULL;
	return v ? v : def;
}

/* A row or column value as the report wrote it: divided where asked. */
static char *shown(const struct table_spec *spec, const char *key,
		   const char *value)
{
	const char *div = lookup(spec ? &spec->divide : NULL, key, NULL);
	char *end;
	double v = strtod(value, &end);
	if (!div || *end || end == value)
		return xstrdup(value);
	return xstrfmt("%g", v / atof(div));
}

static const char *label(const struct table_spec *spec, const char *key)
{
	return lookup(spec ? &spec->labels : NULL, key, key);
}

void table_render(const struct table *t, const struct table_spec *spec,
		  struct strbuf *out)
{
	int cpu = spec && spec->cpu;
	int by_metric = !strcmp(t->column_key, "metric");
	int *w = xcalloc(t->row_keys.nr + 1, sizeof(*w));

	if (spec && spec->title)
		strbuf_addf(out, "%s\n", spec->title);
	for (size_t k = 0; k < t->row_keys.nr; k++)
		w[k] = (int)strlen(label(spec, t->row_keys.v[k]));
	for (size_t r = 0; r < t->nr_rows; r++)
		for (size_t k = 0; k < t->row_keys.nr; k++) {
			char *s = shown(spec, t->row_keys.v[k],
					table_row_value(t, r, k));
			if ((int)strlen(s) > w[k])
				w[k] = (int)strlen(s);
			free(s);
		}
	for (size_t k = 0; k < t->row_keys.nr; k++)
		strbuf_addf(out, "%s%-*s", k ? "  " : "", w[k],
			    label(spec, t->row_keys.v[k]));
	int *cw = xcalloc(t->columns.nr + 1, sizeof(*cw));
	for (size_t c = 0; c < t->columns.nr; c++) {
		char *v = shown(spec, t->column_key, t->columns.v[c]);
		char *head = by_metric ? xstrfmt("%s MB/s", v)
				       : xstrfmt("%s=%s MB/s",
						 label(spec, t->column_key), v);
		cw[c] = strlen(head) > 9 ? (int)strlen(head) : 9;
		strbuf_addf(out, "  %*s", cw[c], head);
		if (cpu)
			strbuf_addf(out, "  %5s", "%CPU");
		free(head);
		free(v);
	}
	strbuf_addch(out, '\n');
	for (size_t r = 0; r < t->nr_rows; r++) {
		for (size_t k = 0; k < t->row_keys.nr; k++) {
			char *s = shown(spec, t->row_keys.v[k],
					table_row_value(t, r, k));
			strbuf_addf(out, "%s%-*s", k ? "  " : "", w[k], s);
			free(s);
		}
		for (size_t c = 0; c < t->columns.nr; c++) {
			size_t i = r * t->columns.nr + c;
			if (isnan(t->mbps[i]))
				strbuf_addf(out, "  %*s", cw[c], "-");
			else
				strbuf_addf(out, "  %*.1f", cw[c], t->mbps[i]);
			if (cpu && isnan(t->cpu[i]))
				strbuf_addf(out, "  %5s", "-");
			else if (cpu)
				strbuf_addf(out, "  %5.1f", t->cpu[i]);
		}
		strbuf_addch(out, '\n');
	}
	free(cw);
	free(w);
}

json_t *table_json(const struct table *t, const struct table_spec *spec)
{
	json_t *o = json_object(), *keys = json_array(), *cols = json_array();
	json_t *rows = json_array();

	if (spec && spec->title)
		json_object_set_new(o, "title", json_string(spec->title));
	for (size_t k = 0; k < t->row_keys.nr; k++)
		json_array_append_new(keys, json_string(t->row_keys.v[k]));
	for (size_t c = 0; c < t->columns.nr; c++)
		json_array_append_new(cols, json_string(t->columns.v[c]));
	for (size_t r = 0; r < t->nr_rows; r++) {
		json_t *row = json_object(), *cells = json_array();
		for (size_t k = 0; k < t->row_keys.nr; k++)
			json_object_set_new(
				row, t->row_keys.v[k],
				json_string(table_row_value(t, r, k)));
		for (size_t c = 0; c < t->columns.nr; c++) {
			size_t i = r * t->columns.nr + c;
			json_t *cell = json_object();
			json_object_set_new(cell, "mbps",
					    json_num(t->mbps[i]));
			json_object_set_new(cell, "cpu_pct",
					    json_num(t->cpu[i]));
			json_array_append_new(cells, cell);
		}
		json_object_set_new(row, "cells", cells);
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "row_keys", keys);
	json_object_set_new(o, "column_key", json_string(t->column_key));
	json_object_set_new(o, "columns", cols);
	json_object_set_new(o, "rows", rows);
	return o;
}
