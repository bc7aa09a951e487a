/*
 * safety.h: the checks a host block device or file must pass before it is
 * handed to QEMU, and the hold that keeps it ours for the whole run.
 *
 * A passed-through disk may be someone's data. It is refused when it is
 * mounted (itself or any partition of it), held by md/dm/loop (sysfs
 * holders), part of the disk that holds /, or carries a file-system, RAID,
 * LVM, swap or partition-table signature; and it is written only when the
 * user named that exact device with --destroy-data-on. What passes is held
 * open with O_EXCL (block devices: nobody can mount it or build md/dm on it
 * meanwhile), read-only unless writing was allowed.
 *
 * The signature scan and the decision are pure (tested on plain bytes and
 * plain facts); safety_facts_gather() and safety_check_passthrough() read the
 * system (realpath, stat, /proc/self/mountinfo, /sys/dev/block).
 */
#ifndef IOBISECT_SAFETY_H
#define IOBISECT_SAFETY_H

#include "safety_facts.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

struct job;

/*
 * The bytes of a device the signature scan looks at: its start and its
 * end (md 0.90 and 1.0 superblocks live near the end). Either part may be
 * shorter than asked for on small devices; the scan only trusts bytes it
 * has.
 */
struct safety_view {
	const unsigned char *head; /* bytes [0, head_len) */
	size_t head_len;
	const unsigned char *tail; /* bytes [tail_off, tail_off + tail_len) */
	uint64_t tail_off;
	size_t tail_len;
	uint64_t size; /* the device's size in bytes */
};

/* How much of the start and end safety_read_view() reads. */
#define SAFETY_HEAD_BYTES (72 * 1024)
#define SAFETY_TAIL_BYTES (192 * 1024)

/*
 * The first signature found in `v`, or 0 when none (blank as far as we
 * can tell). Pure.
 */
int safety_find_signature(const struct safety_view *v,
			  struct safety_signature *out);

/* Read the head and tail of an open device or file into `v` (malloc'd). */
int safety_read_view(int fd, const char *path, struct safety_view *v);
void safety_view_release(struct safety_view *v);

/*
 * Decide from the facts: 0 when the device may be passed through, -1 with
 * the reason in `why` (one line, naming the device and the cure) when not.
 * `destroy_data_on` is already resolved (realpath), or NULL. --force lets
 * a signature or the root disk pass, never a mount or a holder (the kernel
 * would refuse the exclusive open anyway). Pure.
 */
int safety_decide(const struct safety_facts *f, int want_write,
		  const char *destroy_data_on, int force, struct strbuf *why);


/* A device we checked and hold. */
struct safety_hold {
	int fd;	      /* O_EXCL (block device) or flock'd (file); -1: none */
	char *path;   /* realpath: what QEMU must open */
	int writable; /* opened read-write: --destroy-data-on allowed it */
	int is_blockdev;
};
#define SAFETY_HOLD_INIT                                                       \
	{                                                                      \
		-1, NULL, 0, 0                                                 \
	}

/*
 * The whole check for one device: gather, open exclusively (read-only
 * unless want_write), read the signature through that fd, decide. On 0 `out`
 * holds the device until safety_release(); on -1 an error() said why
 * (naming the device) and nothing is held. The device's bytes are never
 * written here.
 */
int safety_check_passthrough(const char *path, int want_write,
			     const char *destroy_data_on, int force,
			     struct safety_hold *out);
void safety_release(struct safety_hold *h);

/*
 * tmpfs disks are files in SAFETY_TMPFS_DIR: what the guest writes to
 * them is the host's memory. A topology whose tmpfs disks together do not
 * fit in the room that file system has left would fill it (and the
 * host's RAM) mid-run, so it is refused before anything is built.
 * safety_tmpfs_fits decides from a number (pure): 0, or -1 with the
 * reason in `why`. safety_check_tmpfs asks statvfs and says why with
 * error().
 */
#define SAFETY_TMPFS_DIR "/dev/shm"
struct topology;
int safety_tmpfs_fits(const struct topology *t, uint64_t free_bytes,
		      const char *dir, struct strbuf *why);
int safety_check_tmpfs(const struct topology *t, const char *dir);

/*
 * Every host disk of every topology of `job`: check and hold each (a disk
 * is written when its spec is not readonly). The tmpfs disks of each
 * topology are checked first (safety_check_tmpfs). On success the caller owns
 * `*out` (`*nr` holds) and frees it with safety_release_all(); the QEMU
 * side should open holds[i].path. On failure nothing is held.
 */
int safety_check_job(const struct job *job, const char *destroy_data_on,
		     int force, struct safety_hold **out, size_t *nr);
void safety_release_all(struct safety_hold *holds, size_t nr);

/*
 * Point every host disk of `job` at the resolved path of its hold, so
 * QEMU opens the device that was checked and held (not a by-id link that
 * could be re-pointed meanwhile). Disks with no hold are left alone.
 */
void safety_pin_paths(struct job *job, const struct safety_hold *holds,
		      size_t nr);

#endif
