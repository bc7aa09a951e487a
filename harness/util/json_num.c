/* json_num.c: a figure as JSON, a value's kind in words (json_num.h). */
#include "json_num.h"

#include <math.h>
#include <stdint.h>

json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double json_num_at(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

unsigned json_count_at(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 && v < (json_int_t)UINT32_MAX ? (unsigned)v : 0;
}

const char *json_kind(const json_t *v)
{
	if (!v)
		return "missing";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}
