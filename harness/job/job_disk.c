/*
 * job_disk.c: a topology's disks as a job or preset gives them: the bus,
 * what backs the disk on the host (image, tmpfs, null, a host device), and
 * how QEMU emulates it (cache mode, latency, limits).
 */
#include "job.h"
#include "job_parse.h"
#include "job_reference.h"

#include <string.h>

void disk_release(struct disk_spec *d)
{
	free(d->name);
	free(d->path);
	free(d->cache);
}

const char *const job_disk_keys[] = {
	"name",	    "bus",	  "backing",	    "path",
	"size_mb",  "latency_ns", "bps_max",	    "iops_max",
	"readonly", "cache",	  "max_sectors_kb", "write_latency_ns",
	"memory_backed", NULL};
#define BUS_NAME(suffix, name, ...) #name,
const char *const job_bus_names[] = {PROTO_BUSES(BUS_NAME) NULL};
#undef BUS_NAME
const char *const job_backing_names[] = {"image", "tmpfs", "null", "host",
					 NULL};
static const char *const caches[] = {"none",	   "writeback", "writethrough",
				     "directsync", "unsafe",	NULL};
static const char *const bools[] = {"true", "false", NULL};

const char *const *job_disk_key_choices(const char *key)
{
	if (!strcmp(key, "bus"))
		return job_bus_names;
	if (!strcmp(key, "backing"))
		return job_backing_names;
	if (!strcmp(key, "cache"))
		return caches;
	if (!strcmp(key, "readonly") || !strcmp(key, "memory_backed"))
		return bools;
	return NULL;
}

int disk_set(struct keypath *c, struct disk_spec *d, const char *key, json_t *v)
{
	long long x;
	int i, ret = -1;
	const char *s;
	size_t old = kp_push(c, key);

	if (!strcmp(key, "name")) {
		if (kp_str(c, v, &s))
			goto out;
		if (!job_valid_name(s, 32)) {
			kp_fail(c, "'%s' is not a valid name", s);
			goto out;
		}
		free(d->name);
		d->name = xstrdup(s);
	} else if (!strcmp(key, "bus")) {
		if (kp_enum(c, v, job_bus_names, "bus", &i))
			goto out;
		d->bus = i;
	} else if (!strcmp(key, "backing")) {
		if (kp_enum(c, v, job_backing_names, "backing", &i))
			goto out;
		d->backing = i;
		if (i == BACKING_HOST)
			d->readonly = 1;
	} else if (!strcmp(key, "path")) {
		if (kp_str(c, v, &s))
			goto out;
		free(d->path);
		d->path = job_expand_home(s);
	} else if (!strcmp(key, "size_mb")) {
		if (kp_int(c, v, 1, 1 << 20, &x))
			goto out;
		d->size_mb = x;
	} else if (!strcmp(key, "latency_ns")) {
		if (kp_int(c, v, 0, 10000000000LL, &x))
			goto out;
		d->latency_ns = x;
	} else if (!strcmp(key, "bps_max")) {
		if (kp_int(c, v, 0, 1LL << 40, &x))
			goto out;
		d->bps_max = x;
	} else if (!strcmp(key, "iops_max")) {
		if (kp_int(c, v, 0, 100000000, &x))
			goto out;
		d->iops_max = x;
	} else if (!strcmp(key, "write_latency_ns")) {
		/* Past a second a write is a hung disk, not a slow one. */
		if (kp_int(c, v, 0, 1000000000LL, &x))
			goto out;
		d->write_latency_ns = x;
	} else if (!strcmp(key, "readonly")) {
		if (!json_is_boolean(v)) {
			kp_fail(c, "expected true or false");
			goto out;
		}
		d->readonly = json_is_true(v);
	} else if (!strcmp(key, "memory_backed")) {
		if (!json_is_boolean(v)) {
			kp_fail(c, "expected true or false");
			goto out;
		}
		d->memory_backed = json_is_true(v);
	} else if (!strcmp(key, "cache")) {
		if (kp_enum(c, v, caches, "cache mode", &i))
			goto out;
		free(d->cache);
		d->cache = xstrdup(caches[i]);
	} else if (!strcmp(key, "max_sectors_kb")) {
		/*
		 * Any bus: QEMU caps scsi and nvme requests, the guest writes
		 * queue/max_sectors_kb for all. The kernel takes no value
		 * below one page.
		 */
		if (kp_int(c, v, 0, 65536, &x))
			goto out;
		if (x > 0 && x < 4) {
			kp_fail(c,
				"%lld is below one 4 KiB page (0 leaves the "
				"kernel's cap)",
				x);
			goto out;
		}
		d->max_sectors_kb = (uint32_t)x;
	} else {
		kp_pop(c, old);
		old = c->path.len;
		kp_fail(c, "unknown key '%s' for a disk", key);
		goto out;
	}
	ret = 0;
out:
	kp_pop(c, old);
	return ret;
}

int disk_parse(struct keypath *c, json_t *v, size_t idx, struct disk_spec *d)
{
	const char *key;
	json_t *val;
	memset(d, 0, sizeof(*d));
	d->name = xstrfmt("d%zu", idx);
	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	if (kp_check_keys(c, v, job_disk_keys))
		return -1;
	/* backing first: it sets the read-only default that readonly overrides.
	 */
	if (json_object_get(v, "backing") &&
	    disk_set(c, d, "backing", json_object_get(v, "backing")))
		return -1;
	json_object_foreach(v, key, val) {
		if (!strcmp(key, "backing"))
			continue;
		if (disk_set(c, d, key, val))
			return -1;
	}
	/* The guest's null_blk has nothing on the host behind it. */
	if (bus_has(d->bus, BUS_GUEST) && !json_object_get(v, "backing"))
		d->backing = BACKING_NULL;
	return 0;
}

void disk_copy(struct disk_spec *to, const struct disk_spec *from)
{
	*to = *from;
	to->name = xstrdup(from->name);
	to->path = from->path ? xstrdup(from->path) : NULL;
	to->cache = from->cache ? xstrdup(from->cache) : NULL;
}

const char *job_disk_cache(const struct disk_spec *d)
{
	/*
	 * A passed-through device is measured itself, not the host's page
	 * cache over it (O_DIRECT); images are files the host caches.
	 */
	if (d->cache)
		return d->cache;
	return d->backing == BACKING_HOST ? "none" : "writeback";
}

/*
 * A bus whose queue can be served in the vCPU's thread (BUS_AT_ONCE), on
 * null-co with no timer: any latency or throttle is a timer in host time
 * (QEMU 7.2's null-co sleeps on its realtime clock).
 */
int job_disk_completes_at_once(const struct disk_spec *d)
{
	return bus_has(d->bus, BUS_AT_ONCE) && d->backing == BACKING_NULL &&
	       !d->latency_ns && !d->bps_max && !d->iops_max;
}

int job_topology_waits_on_host(const struct topology *t)
{
	for (size_t i = 0; t && i < t->nr_disks; i++)
		if (!bus_has(t->disks[i].bus, BUS_GUEST) &&
		    !job_disk_completes_at_once(&t->disks[i]))
			return 1;
	return 0;
}

int job_waits_on_host(const struct job *job)
{
	for (size_t i = 0; i < job->nr_topologies; i++)
		if (job_topology_waits_on_host(&job->topologies[i]))
			return 1;
	return 0;
}

int job_waits_in_guest_time(const struct job *job)
{
	int guest = 0;

	for (size_t t = 0; t < job->nr_topologies; t++)
		for (size_t i = 0; i < job->topologies[t].nr_disks; i++) {
			const struct disk_spec *d = &job->topologies[t].disks[i];
			guest |= bus_has(d->bus, BUS_GUEST) && d->latency_ns;
		}
	return guest && !job_waits_on_host(job);
}

/*
 * A nullb disk is the guest kernel's null_blk, set up by its module
 * parameters on the kernel's command line (qemu.c): nothing of QEMU's
 * applies to it, and one completion time serves every nullb disk.
 */
int disk_nullb_check(struct keypath *c, const struct disk_spec *disks,
		     const struct disk_spec *k)
{
	if (k->backing != BACKING_NULL)
		return kp_fail(c,
			       "disk '%s': a nullb disk is the guest's "
			       "null_blk; its backing is null",
			       k->name);
	if (k->bps_max || k->iops_max || k->write_latency_ns || k->cache ||
	    k->readonly)
		return kp_fail(c,
			       "disk '%s': bps_max, iops_max, "
			       "write_latency_ns, cache and readonly are "
			       "QEMU's; a nullb disk takes size_mb, "
			       "latency_ns, max_sectors_kb and memory_backed",
			       k->name);
	for (size_t j = 0; &disks[j] != k; j++)
		if (bus_has(disks[j].bus, BUS_GUEST) &&
		    (disks[j].latency_ns != k->latency_ns ||
		     disks[j].memory_backed != k->memory_backed))
			return kp_fail(c,
				       "disks '%s' and '%s': nullb disks "
				       "share one latency_ns and one "
				       "memory_backed (null_blk's module "
				       "parameters)",
				       disks[j].name, k->name);
	return 0;
}

uint32_t job_nullb_max_kb(const struct topology *t)
{
	uint32_t kb = JOB_NULLB_MAX_KB;

	for (size_t i = 0; t && i < t->nr_disks; i++)
		if (bus_has(t->disks[i].bus, BUS_GUEST) &&
		    t->disks[i].max_sectors_kb > kb)
			kb = t->disks[i].max_sectors_kb;
	return kb;
}
