/* threshold.c: a job's line between fast and slow (threshold.h). */
#include "threshold.h"

#include <math.h>

int threshold_drop(double *drop, const struct threshold *t, double base_bps,
		   int faster)
{
	double v;

	switch (t->kind) {
	case THRESHOLD_PERCENT:
		if (!(t->value > 0) || (!faster && !(t->value < 100)))
			return -1;
		*drop = faster ? -log1p(t->value / 100)
			       : log1p(-t->value / 100);
		return 0;
	case THRESHOLD_MBPS:
		v = t->value * 1e6;
		if (!(v > 0) || !(base_bps > 0) || (!faster && !(v < base_bps)))
			return -1;
		*drop = faster ? -log((base_bps + v) / base_bps)
			       : log((base_bps - v) / base_bps);
		return isfinite(*drop) && *drop < 0 ? 0 : -1;
	case THRESHOLD_AUTO:
		break;
	}
	return -1;
}
