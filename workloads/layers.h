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

#endif
