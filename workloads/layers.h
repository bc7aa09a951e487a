/*
 * layers.h: the topology as the guest builds it. Disks come first (found
 * by serial, kinds.h), then the spec's layers in file order, each made by
 * its kind's entry in the registry.
 */
#ifndef IOBISECT_GUEST_LAYERS_H
#define IOBISECT_GUEST_LAYERS_H

#include "layer.h"

/* Build the spec's layers in order. Reports the failing stage. */
int layers_build(const struct spec *s);
/* Send the `topology` frame, read back from the kernel. */
int layers_report(void);
/*
 * Wait until no md array of the topology has a dirty bitmap chunk, so a
 * sample meets a clean bitmap as a long-lived array does (md.c).
 */
void md_wait_bitmaps_clean(void);
/*
 * The pages of bitmap counters `dev` holds in memory, from its "bitmap: A/B
 * pages" line in the text of /proc/mdstat: A, or -1 when it has no bitmap.
 */
long md_bitmap_pages(const char *mdstat, const char *dev);

#endif
