/*
 * bus.c: the bus table, a row per PROTO_BUSES entry (bus.h).
 */
#include "bus.h"
#include "util.h"

#define BUS_ROW(suffix, n, dev, ctl, pl, cp, fl)                               \
	[BUS_##suffix] = {.name = #n,                                          \
			  .device = dev,                                       \
			  .controller = ctl,                                   \
			  .place = pl,                                         \
			  .cap = cp,                                           \
			  .flags = fl},
const struct bus_info bus_info[] = {PROTO_BUSES(BUS_ROW)};
#undef BUS_ROW

_Static_assert(ARRAY_SIZE(bus_info) == NR_BUSES,
	       "bus_info[] has a row per enum disk_bus");

int bus_has(enum disk_bus b, unsigned flags)
{
	return (unsigned)b < NR_BUSES && (bus_info[b].flags & flags) == flags;
}
