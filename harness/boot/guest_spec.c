/*
 * guest_spec.c: renders the /spec text of workloads/PROTOCOL.md from a job's
 * topology and points. Pure. The guest refuses unknown keys, so only keys
 * of the protocol are written, and every value must be one word. Optional
 * disk keys (ro, max_sectors_kb) are written only when set.
 */
#include "guest_spec.h"

#include <string.h>

/* A spec word: non-empty, printable, no blanks (job.c refuses the rest). */
static int spec_word(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

int guest_spec_render_topology(const struct job *job, int topo, struct strbuf *out)
{
	const struct topology *t;

	if (topo < 0 || (size_t)topo >= job->nr_topologies)
		return error("no topology %d in job '%s'", topo,
			     job->name ? job->name : "");
	t = &job->topologies[topo];
	for (size_t i = 0; i < t->nr_disks; i++) {
		const struct disk_spec *d = &t->disks[i];
		if (!spec_word(d->name) || (unsigned)d->bus >= NR_BUSES)
			return error("topology '%s': disk %zu cannot be "
				     "written to the spec",
				     t->name, i);
		strbuf_addf(out,
			    "disk name=%s bus=%s serial=iob%zu size_mb=%llu "
			    "null=%d",
			    d->name, job_bus_names[d->bus], i,
			    (unsigned long long)d->size_mb,
			    d->backing == BACKING_NULL && !d->memory_backed);
		/*
		 * Only a passed-through disk is read-only on purpose: the
		 * guest must then read it as it is (no pattern, no writes).
		 * Keys are left out when unset, so the specs (and result
		 * hashes) of other topologies stay as they were.
		 */
		if (d->backing == BACKING_HOST && d->readonly)
			strbuf_addstr(out, " ro=1");
		/* QEMU 7.2's virtio-blk has no request cap: the guest sets it. */
		if (d->max_sectors_kb)
			strbuf_addf(out, " max_sectors_kb=%u",
				    (unsigned)d->max_sectors_kb);
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < t->nr_layers; i++) {
		const struct layer_spec *l = &t->layers[i];
		if (!spec_word(l->kind))
			return error("topology '%s': layer %zu has no kind",
				     t->name, i);
		strbuf_addstr(out, l->kind);
		for (size_t k = 0; k < l->keys.nr; k++) {
			if (!spec_word(l->keys.v[k]) ||
			    !strchr(l->keys.v[k], '='))
				return error("topology '%s': layer %zu: '%s' is "
					     "not one key=value word",
					     t->name, i, l->keys.v[k]);
			strbuf_addf(out, " %s", l->keys.v[k]);
		}
		strbuf_addch(out, '\n');
	}
	return 0;
}

static int render_point(const struct job *job, const struct point *pt,
			int with_samples, struct strbuf *out)
{
	if (!spec_word(pt->id) || !spec_word(pt->engine) ||
	    !spec_word(pt->target))
		return error("point '%s' cannot be written to the spec",
			     pt->id ? pt->id : "");
	strbuf_addf(out, "point id=%s engine=%s target=%s", pt->id,
		    pt->engine, pt->target);
	if (with_samples)
		strbuf_addf(out, " samples=%d", job->samples);
	strbuf_addf(out, " warmup=%d", job->warmup);
	for (size_t k = 0; k < pt->keys.nr; k++) {
		if (!spec_word(pt->keys.v[k]) || !strchr(pt->keys.v[k], '='))
			return error("point '%s': '%s' is not one key=value "
				     "word",
				     pt->id, pt->keys.v[k]);
		strbuf_addf(out, " %s", pt->keys.v[k]);
	}
	strbuf_addch(out, '\n');
	return 0;
}

/* For results.c: the point line without samples= (see results_spec_hash). */
int guest_spec_render_point_nosamples(const struct job *job, const struct point *pt,
				struct strbuf *out)
{
	return render_point(job, pt, 0, out);
}

int guest_spec_render(const struct job *job, int topo, const char *boot_label,
		unsigned boot_id, struct strbuf *out)
{
	size_t start = out->len;
	int any = 0;

	strbuf_addstr(out, "version 1\n");
	strbuf_addf(out, "boot id=%u commit=", boot_id);
	if (!boot_label || !*boot_label)
		boot_label = "none";
	for (const char *s = boot_label; *s; s++)
		strbuf_addch(out, ((unsigned char)*s <= ' ' || *s == 0x7f ||
				   *s == '=')
					  ? '_'
					  : *s);
	strbuf_addstr(out, " reboot=1\n");
	if (guest_spec_render_topology(job, topo, out))
		goto fail;
	for (size_t i = 0; i < job->nr_points; i++) {
		if (job->points[i].topo != topo)
			continue;
		any = 1;
		if (render_point(job, &job->points[i], 1, out))
			goto fail;
	}
	if (!any) {
		error("topology '%s' has no points to run",
		      job->topologies[topo].name);
		goto fail;
	}
	return 0;
fail:
	out->len = start;
	out->buf[start] = '\0';
	return -1;
}
