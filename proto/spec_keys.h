/*
 * proto/spec_keys.h: the words of /spec (workloads/PROTOCOL.md), written
 * once for both programs. The host checks a job's values against these
 * lists (harness/job_*.c) and writes the spec (harness/spec.c); the guest
 * refuses any key a list does not hold (workloads/spec.c). Both sides
 * expand the same macros, so a key, a bus or a choice added here exists on
 * both sides, and nowhere else.
 *
 * Each key list is K(key, check, min, max, choices, required):
 *   check     how the host checks a job's value (enum key_check in
 *             harness/keypath.h without its K_ prefix);
 *   min, max  the integer range (REAL: above min, at most max);
 *   choices   a NULL-ended list of the values allowed (ENUM, CHOICE),
 *             one of the PROTO_*_CHOICES below;
 *   required  the host refuses a layer without it.
 * The guest reads only the key names; what a value means is its own code.
 */
#ifndef IOBISECT_PROTO_SPEC_KEYS_H
#define IOBISECT_PROTO_SPEC_KEYS_H

/* Largest size in MiB anywhere in a spec: 16 TiB. */
#define PROTO_MB_MAX (1LL << 24)
/* Longest time bound of one sample, in ms: an hour. */
#define PROTO_RUNTIME_MS_MAX 3600000

/*
 * The buses a disk can hang on, a row each:
 *   X(ENUM_SUFFIX, name, device, controller, place, cap, flags)
 *   device      QEMU's -device for one disk; NULL: none of QEMU's;
 *   controller  a -device every disk of the bus shares (its id: the
 *               bus's name and 0), NULL: none;
 *   place       where a disk sits on it (enum bus_place);
 *   cap         how QEMU caps a request at max_sectors_kb (enum bus_cap);
 *   flags       what the bus can do (BUS_GUEST, BUS_RO, BUS_AT_ONCE).
 * The enums and flags are the host's (harness/job/bus.h), which expands
 * every column into its bus_info[]; the guest reads only the names. nullb
 * is no bus of QEMU's: the disk is the guest kernel's own null_blk, whose
 * requests complete on the guest's timers (and so in the guest's time).
 */
#define PROTO_BUSES(X)                                                         \
	X(VIRTIO, virtio, "virtio-blk-pci", NULL, PLACE_ALONE, CAP_NONE,       \
	  BUS_RO | BUS_AT_ONCE)                                                \
	X(SCSI, scsi, "scsi-hd", "virtio-scsi-pci", PLACE_SCSI_ID,             \
	  CAP_MAX_IO_SIZE, BUS_RO | BUS_AT_ONCE)                               \
	X(NVME, nvme, "nvme", NULL, PLACE_ALONE, CAP_MDTS, BUS_RO)             \
	X(IDE, ide, "ide-hd", NULL, PLACE_IDE_UNIT, CAP_NONE, 0)               \
	X(NULLB, nullb, NULL, NULL, PLACE_ALONE, CAP_NONE, BUS_GUEST)

/* Choices, NULL-ended where a list is made of them. */
#define PROTO_MD_LEVELS "0", "5"
#define PROTO_MD_METADATA "0.90", "1.0", "1.2"
#define PROTO_MD_LAYOUTS                                                       \
	"left-symmetric", "right-symmetric", "left-asymmetric",                \
		"right-asymmetric"
#define PROTO_BOOL01 "0", "1"
#define PROTO_MD_METHODS "ioctl", "mdadm"
#define PROTO_DM_METHODS "ioctl", "dmsetup"
/* ioctl-setfd forces the pre-5.8 LOOP_SET_FD route, to test it on new kernels. */
#define PROTO_LOOP_METHODS "ioctl", "ioctl-setfd", "losetup"
#define PROTO_FS_TYPES "ext4", "ext3", "xfs"
#define PROTO_FADVISES "none", "sequential", "noreuse", "dontneed"

/* Directives the harness writes from the job, not from a key table. */
#define PROTO_BOOT_KEYS(K)                                                     \
	K(id, WORD, 0, 0, NULL, 1)                                             \
	K(commit, WORD, 0, 0, NULL, 1)                                         \
	K(reboot, BOOL, 0, 1, NULL, 0)
#define PROTO_DISK_KEYS(K)                                                     \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(bus, WORD, 0, 0, NULL, 1)                                            \
	K(serial, WORD, 0, 0, NULL, 1)                                         \
	K(size_mb, INT, 0, PROTO_MB_MAX, NULL, 1)                              \
	K(null, BOOL, 0, 1, NULL, 0)                                           \
	K(ro, BOOL, 0, 1, NULL, 0)                                             \
	K(max_sectors_kb, INT, 0, 65536, NULL, 0)
#define PROTO_POINT_KEYS(K)                                                    \
	K(id, WORD, 0, 0, NULL, 1)                                             \
	K(engine, WORD, 0, 0, NULL, 1)                                         \
	K(target, WORD, 0, 0, NULL, 1)                                         \
	K(samples, INT, 1, 1000, NULL, 0)                                      \
	K(warmup, INT, 0, 100, NULL, 0)

/* Layers, built in file order by the guest. */
#define PROTO_PART_KEYS(K)                                                     \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(on, REF, 0, 0, NULL, 1)                                              \
	K(start_mb, INT, 0, PROTO_MB_MAX, NULL, 0)                             \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 1)
#define PROTO_MD_KEYS(K)                                                       \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(level, ENUM, 0, 0, md_levels, 1)                                     \
	K(chunk_kb, POW2, 4, 65536, NULL, 0)                                   \
	K(members, REFS, 0, 0, NULL, 1)                                        \
	K(metadata, ENUM, 0, 0, md_metadata, 0)                                \
	K(layout, ENUM, 0, 0, md_layouts, 0)                                   \
	K(bitmap, ENUM, 0, 0, bool01, 0)                                       \
	K(bitmap_chunk_kb, POW2, 4, 1LL << 22, NULL, 0)                        \
	K(stripe_cache, INT, 17, 32768, NULL, 0)                               \
	K(method, ENUM, 0, 0, md_methods, 0)
#define PROTO_DM_KEYS(K)                                                       \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(on, REF, 0, 0, NULL, 1)                                              \
	K(method, ENUM, 0, 0, dm_methods, 0)
/* size_mb: the size of a backing file the guest creates when missing. */
#define PROTO_LOOP_KEYS(K)                                                     \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(on, REF, 0, 0, NULL, 1)                                              \
	K(method, ENUM, 0, 0, loop_methods, 0)                                 \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)
#define PROTO_FS_KEYS(K)                                                       \
	K(name, NAME, 0, 0, NULL, 1)                                           \
	K(on, REF, 0, 0, NULL, 1)                                              \
	K(type, ENUM, 0, 0, fs_types, 1)                                       \
	K(mount, PATH, 0, 0, NULL, 0)                                          \
	K(mkfs_args, ARGS, 0, 0, NULL, 0)
/* X(kind, KEYS): every layer kind, in the order of enum layer_kind. */
#define PROTO_LAYERS(X)                                                        \
	X(part, PROTO_PART_KEYS)                                               \
	X(md, PROTO_MD_KEYS)                                                   \
	X(dm, PROTO_DM_KEYS)                                                   \
	X(loop, PROTO_LOOP_KEYS)                                               \
	X(fs, PROTO_FS_KEYS)

/* The engines' keys, on a point line after the point's own. */
#define PROTO_SEQREAD_KEYS(K)                                                  \
	K(threads, INT, 1, 256, NULL, 0)                                       \
	K(bs_kb, INT, 1, 65536, NULL, 0)                                       \
	K(ra_kb, INT, 0, 1 << 20, NULL, 0)                                     \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)                              \
	K(ram_x, REAL, 0, 16, NULL, 0)                                         \
	K(direct, BOOL, 0, 1, NULL, 0)                                         \
	K(fadvise, CHOICE, 0, 0, fadvises, 0)                                  \
	K(runtime_ms, INT, 0, PROTO_RUNTIME_MS_MAX, NULL, 0)
#define PROTO_SEQWRITE_KEYS(K)                                                 \
	K(threads, INT, 1, 256, NULL, 0)                                       \
	K(bs_kb, INT, 1, 65536, NULL, 0)                                       \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)                              \
	K(fsync, BOOL, 0, 1, NULL, 0)                                          \
	K(direct, BOOL, 0, 1, NULL, 0)                                         \
	K(runtime_ms, INT, 0, PROTO_RUNTIME_MS_MAX, NULL, 0)
#define PROTO_RAWREAD_KEYS(K)                                                  \
	K(bs_kb, INT, 1, 65536, NULL, 0)                                       \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)                              \
	K(direct, BOOL, 0, 1, NULL, 0)                                         \
	K(ra_kb, INT, 0, 1 << 20, NULL, 0)                                     \
	K(runtime_ms, INT, 0, PROTO_RUNTIME_MS_MAX, NULL, 0)
#define PROTO_BONNIE_KEYS(K)                                                   \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)                              \
	K(chunk_kb, INT, 1, 65536, NULL, 0)
/*
 * fio: Debian's fio, packed into the initramfs, runs the job file the
 * harness packs at PROTO_FIO_JOB_DIR/<job>.fio (job: the SHA-1 of its
 * text). build (the fio binary's SHA-1) and kernel_min (the floor of its
 * C library, from the library's ABI tag) are the harness's, never the
 * user's: they put the fio build in the spec hash and let the guest refuse
 * an older kernel before fio meets it. bs_kb, size_mb and runtime_ms go
 * into a [global] section ahead of the job's own, which wins.
 */
#define PROTO_FIO_KEYS(K)                                                      \
	K(job, WORD, 0, 0, NULL, 1)                                            \
	K(build, WORD, 0, 0, NULL, 0)                                          \
	K(kernel_min, WORD, 0, 0, NULL, 0)                                     \
	K(bs_kb, INT, 1, 65536, NULL, 0)                                       \
	K(size_mb, INT, 1, PROTO_MB_MAX, NULL, 0)                              \
	K(runtime_ms, INT, 0, PROTO_RUNTIME_MS_MAX, NULL, 0)
/* Where the job files of fio points are in the initramfs. */
#define PROTO_FIO_JOB_DIR "/fio"
/* Where the fio binary is, in the initramfs as on a Debian host. */
#define PROTO_FIO_PATH "/usr/bin/fio"
/* X(engine, KEYS, metrics): metrics, comma-separated, as the guest reports them. */
#define PROTO_ENGINES(X)                                                       \
	X(seqread, PROTO_SEQREAD_KEYS, "read")                                 \
	X(seqwrite, PROTO_SEQWRITE_KEYS, "write")                              \
	X(rawread, PROTO_RAWREAD_KEYS, "read")                                 \
	X(bonnie, PROTO_BONNIE_KEYS, "write,rewrite,read")                     \
	X(fio, PROTO_FIO_KEYS, "read,write,trim")

/* " key1 key2 ... ": a key list as one string of words. */
#define PROTO_KEY_WORD(key, ...) " " #key
#define PROTO_KEY_WORDS(KEYS) KEYS(PROTO_KEY_WORD) " "

#endif
