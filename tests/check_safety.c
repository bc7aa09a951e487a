/*
 * check_safety.c: the passthrough safety checks (safety.c). Every
 * signature we promise to find is found in an image file written with its
 * magic where the real tool puts it, a blank image passes, the decision
 * refuses mounted, held, root and signed devices and unconfirmed writes
 * with a message naming the device and the cure, and the hold on a file
 * keeps a second user out and never changes a byte.
 */
#include "check_skip.h"
#include "job.h"
#include "safety.h"
#include "util.h"

#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/check_safety.XXXXXX";
static struct strbuf msg = STRBUF_INIT;

static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_safety.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	strbuf_reset(&msg);
	error_capture(&msg);
}

static void teardown(void)
{
	error_capture(NULL);
	strbuf_release(&msg);
	remove_tree(tmpdir);
}

/* A sparse image of `size` bytes with `len` bytes of `magic` at `off`. */
static char *image(const char *name, uint64_t size, uint64_t off,
		   const void *magic, size_t len)
{
	char *path = xstrfmt("%s/%s", tmpdir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	if (len)
		ck_assert_int_eq(pwrite(fd, magic, len, (off_t)off),
				 (ssize_t)len);
	close(fd);
	return path;
}

static int scan(const char *path, struct safety_signature *sig)
{
	struct safety_view v;
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(safety_read_view(fd, path, &v), 0);
	int r = safety_find_signature(&v, sig);
	safety_view_release(&v);
	close(fd);
	return r;
}

#define MiB (1024ull * 1024)
/* An odd size, so the end-relative md offsets are computed, not assumed. */
#define ODD_SIZE (8 * MiB + 12345)

static const struct sig_case {
	const char *file;
	uint64_t size, off;
	const char *magic;
	size_t len;
	const char *want; /* NULL: blank */
	uint64_t want_off;
} sig_cases[] = {
	{"blank", 8 * MiB, 0, "", 0, NULL, 0},
	{"ext4", 8 * MiB, 1080, "\x53\xef", 2, "ext2/3/4 file system", 1080},
	{"xfs", 8 * MiB, 0, "XFSB", 4, "xfs file system", 0},
	{"btrfs", 8 * MiB, 65536 + 64, "_BHRfS_M", 8, "btrfs file system",
	 65600},
	{"lvm-s1", 8 * MiB, 512, "LABELONE", 8, "LVM2 physical volume", 512},
	{"lvm-s3", 8 * MiB, 1536, "LABELONE", 8, "LVM2 physical volume", 1536},
	{"swap", 8 * MiB, 4086, "SWAPSPACE2", 10, "swap space", 4086},
	{"md11", 8 * MiB, 0, "\xfc\x4e\x2b\xa9", 4, "md RAID 1.1 member", 0},
	{"md12", 8 * MiB, 4096, "\xfc\x4e\x2b\xa9", 4, "md RAID 1.2 member",
	 4096},
	/* 1.0: ((sectors - 16) & ~7) sectors in. */
	{"md10", ODD_SIZE, ((((ODD_SIZE) >> 9) - 16) & ~7ull) << 9,
	 "\xfc\x4e\x2b\xa9", 4, "md RAID 1.0 member",
	 ((((ODD_SIZE) >> 9) - 16) & ~7ull) << 9},
	/* 0.90: size & ~65535 - 65536. */
	{"md090", ODD_SIZE, ((ODD_SIZE) & ~65535ull) - 65536,
	 "\xfc\x4e\x2b\xa9", 4, "md RAID 0.90 member",
	 ((ODD_SIZE) & ~65535ull) - 65536},
	{"gpt", 8 * MiB, 512, "EFI PART", 8, "GPT partition table", 512},
	{"luks", 8 * MiB, 0, "LUKS\xba\xbe", 6, "LUKS encrypted volume", 0},
	/* 0x55AA alone (no partition entry) is not a partition table. */
	{"mbr-empty", 8 * MiB, 510, "\x55\xaa", 2, NULL, 0},
	/* The md 0.90 place on a device too small to have one. */
	{"tiny", 4096, 0, "", 0, NULL, 0},
};

START_TEST(finds_signatures)
{
	const struct sig_case *c = &sig_cases[_i];
	struct safety_signature sig;
	char *path = image(c->file, c->size, c->off, c->magic, c->len);
	int r = scan(path, &sig);
	if (!c->want) {
		ck_assert_msg(r == 0, "%s: found '%s'", c->file,
			      r ? sig.name : "");
	} else {
		ck_assert_msg(r == 1, "%s: no signature found", c->file);
		ck_assert_str_eq(sig.name, c->want);
		ck_assert_uint_eq(sig.offset, c->want_off);
	}
	free(path);
}
END_TEST

START_TEST(finds_mbr_with_a_partition)
{
	char *path = image("mbr", 8 * MiB, 510, "\x55\xaa", 2);
	struct safety_signature sig;
	int fd = open(path, O_WRONLY);
	/* One entry: type 0x83 (Linux) at 446 + 4. */
	ck_assert_int_eq(pwrite(fd, "\x83", 1, 446 + 4), 1);
	close(fd);
	ck_assert_int_eq(scan(path, &sig), 1);
	ck_assert_str_eq(sig.name, "MBR partition table");
	free(path);
}
END_TEST

/* The view never reads past what it holds: a magic beyond the tail is unseen.
 */
START_TEST(view_is_bounded)
{
	unsigned char head[2048] = {0};
	struct safety_view v = {head, sizeof(head), NULL, 0, 0, 1080 + 1};
	struct safety_signature sig;
	head[1080] = 0x53;
	head[1081] = 0xef;
	/* The device is said to end at 1081: the second byte is not on it. */
	ck_assert_int_eq(safety_find_signature(&v, &sig), 0);
	v.size = sizeof(head);
	ck_assert_int_eq(safety_find_signature(&v, &sig), 1);
}
END_TEST

/* ---- the decision ---- */

static const struct decide_case {
	const char *what;
	int mounted, held, root, signature, write, force;
	const char *dd;
	int want_rc;
	const char *want_msg;
} decide_cases[] = {
	{"blank, read-only", 0, 0, 0, 0, 0, 0, NULL, 0, NULL},
	{"mounted", 1, 0, 0, 0, 0, 0, NULL, -1,
	 "refusing to pass through '/dev/loop3': it is mounted "
	 "(/dev/loop3p1 on /mnt)"},
	{"mounted, forced", 1, 0, 0, 0, 0, 1, NULL, -1, "it is mounted"},
	{"held", 0, 1, 0, 0, 0, 0, NULL, -1,
	 "it is in use by dm-0 (holds loop3)"},
	{"held, forced", 0, 1, 0, 0, 0, 1, NULL, -1, "in use by dm-0"},
	{"root disk", 0, 0, 1, 0, 0, 0, NULL, -1,
	 "it is on the disk that holds / (/ is on sda2, on disk sda); "
	 "pass --force"},
	{"root disk, forced", 0, 0, 1, 0, 0, 1, NULL, 0, NULL},
	{"signature", 0, 0, 0, 1, 0, 0, NULL, -1,
	 "refusing to pass through '/dev/loop3': it carries a signature: "
	 "ext2/3/4 file system at byte 1080; wipe it or pass --force"},
	{"signature, forced", 0, 0, 0, 1, 0, 1, NULL, 0, NULL},
	{"write, unconfirmed", 0, 0, 0, 0, 1, 0, NULL, -1,
	 "refusing to write to /dev/loop3: pass "
	 "--destroy-data-on=/dev/loop3 to allow it"},
	{"write, force is not confirmation", 0, 0, 0, 0, 1, 1, NULL, -1,
	 "--destroy-data-on=/dev/loop3"},
	{"write, another device confirmed", 0, 0, 0, 0, 1, 0, "/dev/loop4", -1,
	 "(--destroy-data-on names /dev/loop4)"},
	{"write, confirmed", 0, 0, 0, 0, 1, 0, "/dev/loop3", 0, NULL},
	{"signed, write confirmed but not forced", 0, 0, 0, 1, 1, 0,
	 "/dev/loop3", -1, "signature"},
	{"read-only ignores the confirmation", 0, 0, 0, 0, 0, 0, "/dev/loop4",
	 0, NULL},
};

START_TEST(decides)
{
	const struct decide_case *c = &decide_cases[_i];
	struct safety_facts f = SAFETY_FACTS_INIT;
	struct strbuf why = STRBUF_INIT;

	f.path = xstrdup("/dev/loop3");
	f.is_blockdev = 1;
	if (c->mounted)
		strvec_push(&f.mounts, "/dev/loop3p1 on /mnt");
	if (c->held)
		strvec_push(&f.holders, "dm-0 (holds loop3)");
	if (c->root) {
		f.root_disk = 1;
		f.root_why = xstrdup("/ is on sda2, on disk sda");
	}
	if (c->signature) {
		f.have_signature = 1;
		f.signature.name = "ext2/3/4 file system";
		f.signature.offset = 1080;
	}
	int rc = safety_decide(&f, c->write, c->dd, c->force, &why);
	ck_assert_msg(rc == c->want_rc, "%s: rc %d (%s)", c->what, rc, why.buf);
	if (c->want_msg)
		ck_assert_msg(strstr(why.buf, c->want_msg), "%s: '%s'", c->what,
			      why.buf);
	else
		ck_assert_uint_eq(why.len, 0);
	strbuf_release(&why);
	safety_facts_release(&f);
}
END_TEST

/* ---- the check and the hold, on regular files ---- */

static char *contents(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(read_file(path, &sb), 0);
	char hex[41];
	hash_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	return xstrdup(hex);
}

START_TEST(holds_a_blank_file_read_only)
{
	char *path = image("blank.img", 4 * MiB, 0, "", 0);
	char *link = xstrfmt("%s/link.img", tmpdir);
	char *before = contents(path), *after;
	struct safety_hold h = SAFETY_HOLD_INIT, h2 = SAFETY_HOLD_INIT;

	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(safety_check_passthrough(link, 0, NULL, 0, &h), 0);
	ck_assert_int_ge(h.fd, 0);
	ck_assert_int_eq(h.writable, 0);
	/* QEMU is given the resolved path, not the link. */
	ck_assert_str_eq(h.path, path);
	ck_assert_int_eq(fcntl(h.fd, F_GETFL) & O_ACCMODE, O_RDONLY);

	/* While held, nobody else (a second run) gets it. */
	ck_assert_int_eq(safety_check_passthrough(path, 0, NULL, 0, &h2), -1);
	ck_assert_ptr_nonnull(strstr(msg.buf, "another process holds it"));
	ck_assert_ptr_nonnull(strstr(msg.buf, path));
	safety_release(&h);
	ck_assert_int_eq(h.fd, -1);
	ck_assert_int_eq(safety_check_passthrough(path, 0, NULL, 0, &h2), 0);
	safety_release(&h2);

	after = contents(path);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	free(link);
	free(path);
}
END_TEST

START_TEST(refuses_a_signed_file_unless_forced)
{
	char *path = image("ext.img", 4 * MiB, 1080, "\x53\xef", 2);
	char *before = contents(path), *after;
	struct safety_hold h = SAFETY_HOLD_INIT;

	ck_assert_int_eq(safety_check_passthrough(path, 0, NULL, 0, &h), -1);
	ck_assert_int_eq(h.fd, -1);
	ck_assert_ptr_nonnull(strstr(msg.buf, "ext2/3/4 file system"));
	ck_assert_ptr_nonnull(strstr(msg.buf, path));
	ck_assert_int_eq(safety_check_passthrough(path, 0, NULL, 1, &h), 0);
	safety_release(&h);
	after = contents(path);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	free(path);
}
END_TEST

START_TEST(writes_only_what_was_named)
{
	char *path = image("w.img", 4 * MiB, 0, "", 0);
	char *link = xstrfmt("%s/w-link.img", tmpdir);
	char *want = xstrfmt("refusing to write to %s: pass "
			     "--destroy-data-on=%s to allow it",
			     path, path);
	struct safety_hold h = SAFETY_HOLD_INIT;

	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(safety_check_passthrough(path, 1, NULL, 0, &h), -1);
	ck_assert_str_eq(msg.buf, want);
	strbuf_reset(&msg);
	ck_assert_int_eq(safety_check_passthrough(path, 1, tmpdir, 0, &h), -1);
	/* Naming the device through a link is naming the device. */
	ck_assert_int_eq(safety_check_passthrough(path, 1, link, 0, &h), 0);
	ck_assert_int_eq(h.writable, 1);
	ck_assert_int_eq(fcntl(h.fd, F_GETFL) & O_ACCMODE, O_RDWR);
	safety_release(&h);
	free(want);
	free(link);
	free(path);
}
END_TEST

START_TEST(refuses_what_is_not_a_disk)
{
	struct safety_hold h = SAFETY_HOLD_INIT;
	char *missing = xstrfmt("%s/missing", tmpdir);

	ck_assert_int_eq(safety_check_passthrough(tmpdir, 0, NULL, 1, &h), -1);
	ck_assert_ptr_nonnull(strstr(msg.buf, "not a block device"));
	strbuf_reset(&msg);
	ck_assert_int_eq(safety_check_passthrough(missing, 0, NULL, 1, &h), -1);
	ck_assert_ptr_nonnull(strstr(msg.buf, missing));
	ck_assert_int_eq(safety_check_passthrough("/dev/null", 0, NULL, 1, &h),
			 -1);
	free(missing);
}
END_TEST

/* One file in two topologies is checked and held once. */
START_TEST(checks_a_job_once_per_device)
{
	char *path = image("j.img", 4 * MiB, 0, "", 0);
	struct disk_spec d[2] = {{0}};
	struct topology t[2] = {{0}};
	struct job job = {0};
	struct safety_hold *holds;
	size_t nr;

	for (int i = 0; i < 2; i++) {
		d[i].name = "d0";
		d[i].backing = BACKING_HOST;
		d[i].path = path;
		d[i].readonly = 1;
		t[i].name = i ? "b" : "a";
		t[i].disks = &d[i];
		t[i].nr_disks = 1;
	}
	job.topologies = t;
	job.nr_topologies = 2;
	ck_assert_int_eq(safety_check_job(&job, NULL, 0, &holds, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_int_eq(holds[0].writable, 0);
	safety_release_all(holds, nr);

	/* Either topology writing makes the device written: confirm it. */
	d[1].readonly = 0;
	ck_assert_int_eq(safety_check_job(&job, NULL, 0, &holds, &nr), -1);
	ck_assert_ptr_null(holds);
	ck_assert_ptr_nonnull(strstr(msg.buf, "--destroy-data-on="));
	ck_assert_int_eq(safety_check_job(&job, path, 0, &holds, &nr), 0);
	ck_assert_int_eq(holds[0].writable, 1);
	safety_release_all(holds, nr);

	/* A host disk without a path is an error, not a skipped disk. */
	d[0].path = NULL;
	strbuf_reset(&msg);
	ck_assert_int_eq(safety_check_job(&job, path, 0, &holds, &nr), -1);
	ck_assert_ptr_nonnull(strstr(msg.buf, "has no host path"));
	free(path);
}
END_TEST

/*
 * tmpfs disks hold the host's memory: a topology whose tmpfs disks do not
 * fit in what /dev/shm has left (a 1 TiB one was taken) is refused before
 * anything is built, and other backings are not counted.
 */
START_TEST(tmpfs_disks_must_fit_in_shm)
{
	struct disk_spec d[3] = {
		{ .name = "d0", .backing = BACKING_TMPFS, .size_mb = 1024 },
		{ .name = "d1", .backing = BACKING_TMPFS, .size_mb = 1024 },
		{ .name = "d2", .backing = BACKING_IMAGE, .size_mb = 1 << 20 },
	};
	struct topology t = { .name = "t", .disks = d, .nr_disks = 3 };
	struct job job = { .topologies = &t, .nr_topologies = 1 };
	struct strbuf why = STRBUF_INIT;
	struct safety_hold *holds;
	struct statvfs sv;
	size_t nr;

	ck_assert_int_eq(safety_tmpfs_fits(&t, 2048ull << 20, "/s", &why), 0);
	ck_assert_int_eq(safety_tmpfs_fits(&t, 2047ull << 20, "/s", &why), -1);
	ck_assert_msg(strstr(why.buf, "need 2048 MiB and '/s' has 2047 MiB"),
		      "%s", why.buf);
	strbuf_release(&why);

	d[0].size_mb = 1 << 20; /* 1 TiB */
	ck_assert_int_eq(statvfs(SAFETY_TMPFS_DIR, &sv), 0);
	if ((uint64_t)sv.f_bavail * sv.f_frsize >= (2ull << 40))
		CHECK_SKIP("%s has over 2 TiB free", SAFETY_TMPFS_DIR);
	strbuf_reset(&msg);
	ck_assert_int_eq(safety_check_job(&job, NULL, 0, &holds, &nr), -1);
	ck_assert_msg(strstr(msg.buf, "topology 't'") &&
			      strstr(msg.buf, SAFETY_TMPFS_DIR) &&
			      !strchr(msg.buf, '\n'),
		      "%s", msg.buf);
}
END_TEST

static Suite *safety_suite(void)
{
	Suite *s = suite_create("safety");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, finds_signatures, 0, ARRAY_SIZE(sig_cases));
	tcase_add_test(tc, finds_mbr_with_a_partition);
	tcase_add_test(tc, view_is_bounded);
	tcase_add_loop_test(tc, decides, 0, ARRAY_SIZE(decide_cases));
	tcase_add_test(tc, holds_a_blank_file_read_only);
	tcase_add_test(tc, refuses_a_signed_file_unless_forced);
	tcase_add_test(tc, writes_only_what_was_named);
	tcase_add_test(tc, refuses_what_is_not_a_disk);
	tcase_add_test(tc, checks_a_job_once_per_device);
	tcase_add_test(tc, tmpfs_disks_must_fit_in_shm);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(safety_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
