/* json_num.c: a figure as JSON (json_num.h). */
#include "json_num.h"

#include <math.h>

json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
