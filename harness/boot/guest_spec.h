/*
 * guest_spec.h: the text the harness writes to /spec in the initramfs, rendered
 * from a job's topology and workload points exactly as workloads/PROTOCOL.md
 * describes it. Pure: the same job always gives the same bytes, so the text
 * also serves as the canonical form that results.c hashes.
 */
#ifndef IOBISECT_BOOT_GUEST_SPEC_H
#define IOBISECT_BOOT_GUEST_SPEC_H

#include "job.h"

/*
 * Append the whole spec for topology `topo` of `job` to `out`: the version
 * and boot lines, one disk line per disk (serials iob0, iob1, ... in the
 * order of topology.disks, which is also the order qemu.c attaches them;
 * ro=1 for a read-only passed-through disk, max_sectors_kb=N when the disk
 * has a request cap), the layer lines in order, and a point line for every
 * point whose point.topo == topo. `boot_label` is the commit (or any label; characters
 * that cannot stand in a spec word become '_'); NULL gives "none".
 * Returns 0, or -1 after error() when the job holds a value that cannot be
 * written as one spec word (it should have been refused by job.c).
 */
int guest_spec_render(const struct job *job, int topo, const char *boot_label,
		unsigned boot_id, struct strbuf *out);

/* Only the disk and layer lines of topology `topo`. */
int guest_spec_render_topology(const struct job *job, int topo, struct strbuf *out);

/*
 * The point line without samples=: the canonical form results.c hashes,
 * because more samples per boot measure the same thing.
 */
int guest_spec_render_point_nosamples(const struct job *job, const struct point *pt,
				struct strbuf *out);

#endif
