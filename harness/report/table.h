/*
 * table.h: a run's medians laid out as a report lays them out: one row
 * per combination of the row keys, one column per value of the column key
 * (a workload or topology key given as a list, or the metric). The seeds'
 * jobs name the report's own rows and columns ("table" in the job file),
 * so `iobisect run` prints the table the report printed, measured here.
 */
#ifndef IOBISECT_TABLE_H
#define IOBISECT_TABLE_H

#include "table_spec.h"
#include "util.h"

#include <jansson.h>

/* One median of the run: a topology, a point id and a metric. */
struct table_cell {
	const char *topology; /* "raid5-4,bitmap=1": name then list keys */
	const char *point;    /* "threads=2,bs_kb=11" or "default" */
	const char *metric;
	double mbps, cpu;
};

struct table {
	struct strvec row_keys; /* as given, or every key that varies */
	char *column_key;
	struct strvec columns; /* the column key's values, first seen first */
	struct strvec values;  /* nr_rows x row_keys.nr, row by row */
	size_t nr_rows;
	double *mbps, *cpu; /* nr_rows x columns.nr; NAN where none */
};

/* Row `row`'s value of row key `key`. */
const char *table_row_value(const struct table *t, size_t row, size_t key);

/*
 * Lay out `cells` as `spec` asks (NULL, or no rows: a row per combination
 * of every list key in the names, columns by metric). The job checked the
 * keys it names (job.c); a key no name holds shows as "-".
 */
void table_make(struct table *t, const struct table_spec *spec,
		const struct table_cell *cells, size_t nr);
void table_release(struct table *t);
/* Text, in columns, with the spec's labels and divisors applied. */
void table_render(const struct table *t, const struct table_spec *spec,
		  struct strbuf *out);
/* {"title", "row_keys", "column_key", "columns", "rows": [{..., cells}]} */
json_t *table_json(const struct table *t, const struct table_spec *spec);


#endif
