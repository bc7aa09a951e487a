/* table_spec.c: a job's "table" (table_spec.h). */
#include "table_spec.h"

#include <stdlib.h>
#include <string.h>

void table_spec_release(struct table_spec *s)
{
	free(s->title);
	strvec_clear(&s->rows);
	free(s->columns);
	strvec_clear(&s->labels);
	strvec_clear(&s->divide);
	memset(s, 0, sizeof(*s));
}

char *table_spec_name_value(const char *name, const char *key)
{
	struct strvec words = STRVEC_INIT;
	strvec_split(&words, name, ',');
	const char *v = strvec_value(&words, key);
	char *ret = v ? xstrdup(v) : NULL;
	strvec_clear(&words);
	return ret;
}

int table_spec_name_has(const char *name, const char *key)
{
	char *v = table_spec_name_value(name, key);
	free(v);
	return v != NULL;
}
