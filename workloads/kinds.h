/*
 * kinds.h: the layer kinds, one maker file each. The builder's registry
 * (layers.c) includes this to list them, and init.c to find the disks; a
 * maker includes it only to have its definitions checked against these.
 */
#ifndef IOBISECT_GUEST_KINDS_H
#define IOBISECT_GUEST_KINDS_H

#include "layer.h"

extern const struct layer_ops disk_ops; /* disks.c */
extern const struct layer_ops part_ops; /* part.c */
extern const struct layer_ops md_ops;	/* md.c */
extern const struct layer_ops dm_ops;	/* dm.c */
extern const struct layer_ops loop_ops; /* loop.c */
extern const struct layer_ops fs_ops;	/* fs.c */

/*
 * Find every spec disk (waits for slow probes, e.g. NVMe) and enter them
 * first in the table of layers. stage "disk".
 */
int disks_find(const struct spec *s);

#endif
