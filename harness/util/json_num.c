/* json_num.c: a figure as JSON, a value's kind in words (json_num.h). */
#include "json_num.h"

#include <math.h>

json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
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
