/*
 * check_initramfs.c: the cpio writer read back by GNU cpio (list and
 * extract), reproducibility, the ELF dependency reader on real host
 * programs, a packed program actually running from the extracted archive,
 * and the standard boot archive.
 */
#include "boot_archive.h"
#include "elf_file.h"
#include "initramfs.h"
#include "run.h"
#include "fio_pack.h"
#include "check_skip.h"
#include "util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/check_initramfs.XXXXXX";

static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_initramfs.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	remove_tree(tmpdir);
}

/* Run a shell command, return its stdout. */
static char *sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	FILE *f = popen(cmd.buf, "r");
	ck_assert_ptr_nonnull(f);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&out, buf, n);
	int rc = pclose(f);
	ck_assert_msg(rc == 0, "'%s' failed: %s", cmd.buf, out.buf);
	strbuf_release(&cmd);
	return strbuf_detach(&out);
}

static void build_sample(struct initramfs *ir)
{
	ck_assert_int_eq(initramfs_add_dir(ir, "/etc", 0755), 0);
	ck_assert_int_eq(
		initramfs_add_data(ir, "/etc/motd", 0640, "hello\n", 6), 0);
	/* Lengths 1..4 exercise every padding case of name and data. */
	ck_assert_int_eq(initramfs_add_data(ir, "/a", 0644, "x", 1), 0);
	ck_assert_int_eq(initramfs_add_data(ir, "/bb", 0644, "xy", 2), 0);
	ck_assert_int_eq(initramfs_add_data(ir, "/ccc", 0644, "xyz", 3), 0);
	ck_assert_int_eq(initramfs_add_data(ir, "/dddd", 0644, "wxyz", 4), 0);
	ck_assert_int_eq(initramfs_add_data(ir, "/empty", 0600, "", 0), 0);
	ck_assert_int_eq(initramfs_add_data(ir, "/deep/er/file", 0755, "#!", 2),
			 0);
	ck_assert_int_eq(initramfs_add_symlink(ir, "/link", "etc/motd"), 0);
	ck_assert_int_eq(
		initramfs_add_node(ir, "/dev/ttyS1", S_IFCHR, 0600, 4, 65), 0);
}

START_TEST(test_cpio_lists_every_entry)
{
	struct initramfs ir = INITRAMFS_INIT;
	build_sample(&ir);
	char *path = xstrfmt("%s/a.cpio", tmpdir);
	ck_assert_int_eq(initramfs_write(&ir, path), 0);
	char *list = sh("cpio -t --quiet < %s | sort", path);
	ck_assert_str_eq(list, "a\nbb\nccc\ndddd\ndeep\ndeep/er\ndeep/er/file\n"
			       "dev\ndev/ttyS1\nempty\netc\netc/motd\nlink\n");
	/* Parents come before their children, as the kernel needs. */
	char *order = sh("cpio -t --quiet < %s | tr '\\n' ' '", path);
	ck_assert_ptr_nonnull(strstr(order, "deep deep/er deep/er/file"));
	free(order);
	free(list);
	free(path);
	initramfs_release(&ir);
}
END_TEST

START_TEST(test_cpio_extracts_content_modes_links_nodes)
{
	struct initramfs ir = INITRAMFS_INIT;
	build_sample(&ir);
	char *path = xstrfmt("%s/a.cpio", tmpdir);
	ck_assert_int_eq(initramfs_write(&ir, path), 0);
	free(sh("mkdir %s/x && cd %s/x && cpio -idm --quiet < %s", tmpdir,
		tmpdir, path));

	static const struct {
		const char *name, *content;
		mode_t mode;
	} files[] = {
		{"etc/motd", "hello\n", 0640},
		{"a", "x", 0644},
		{"bb", "xy", 0644},
		{"ccc", "xyz", 0644},
		{"dddd", "wxyz", 0644},
		{"empty", "", 0600},
		{"deep/er/file", "#!", 0755},
	};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xstrfmt("%s/x/%s", tmpdir, files[i].name);
		struct strbuf sb = STRBUF_INIT;
		struct stat st;
		ck_assert_int_eq(read_file(p, &sb), 0);
		ck_assert_str_eq(sb.buf, files[i].content);
		ck_assert_int_eq(stat(p, &st), 0);
		ck_assert_int_eq(st.st_mode & 07777, files[i].mode);
		ck_assert_int_eq(st.st_mtime, 0);
		strbuf_release(&sb);
		free(p);
	}
	char *link = xstrfmt("%s/x/link", tmpdir);
	char target[64] = "";
	ck_assert_int_eq(readlink(link, target, sizeof(target) - 1), 8);
	ck_assert_str_eq(target, "etc/motd");
	free(link);

	if (geteuid() == 0) {
		/* Only root's cpio makes device nodes. */
		char *node = xstrfmt("%s/x/dev/ttyS1", tmpdir);
		struct stat st;
		ck_assert_int_eq(lstat(node, &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
		ck_assert_int_eq(major(st.st_rdev), 4);
		ck_assert_int_eq(minor(st.st_rdev), 65);
		free(node);
	}
	free(path);
	initramfs_release(&ir);
}
END_TEST

START_TEST(test_archive_is_reproducible_and_padded)
{
	struct initramfs a = INITRAMFS_INIT, b = INITRAMFS_INIT;
	build_sample(&a);
	build_sample(&b);
	initramfs_finish(&a);
	initramfs_finish(&b);
	ck_assert_uint_eq(a.data.len, b.data.len);
	ck_assert(!memcmp(a.data.buf, b.data.buf, a.data.len));
	ck_assert_uint_eq(a.data.len % 512, 0);
	/* Every header starts on a 4-byte boundary with the newc magic. */
	size_t headers = 0;
	for (size_t off = 0; off + 6 <= a.data.len; off += 4)
		if (!memcmp(a.data.buf + off, "070701", 6))
			headers++;
	/* 10 added + dev, deep, deep/er parents + trailer. */
	ck_assert_uint_eq(headers, 14);
	ck_assert_ptr_nonnull(memmem(a.data.buf, a.data.len, "TRAILER!!!", 11));
	/* Nothing may follow the trailer. */
	ck_assert_int_eq(initramfs_add_data(&a, "/late", 0644, "x", 1), -1);
	initramfs_release(&a);
	initramfs_release(&b);
}
END_TEST

START_TEST(test_duplicate_path_keeps_first)
{
	struct initramfs ir = INITRAMFS_INIT;
	ck_assert_int_eq(initramfs_add_data(&ir, "/lib/x.so", 0644, "one", 3),
			 0);
	ck_assert_int_eq(initramfs_add_data(&ir, "lib/x.so", 0644, "two", 3),
			 0);
	char *path = xstrfmt("%s/d.cpio", tmpdir);
	ck_assert_int_eq(initramfs_write(&ir, path), 0);
	char *list = sh("cpio -t --quiet < %s", path);
	ck_assert_str_eq(list, "lib\nlib/x.so\n");
	char *body = sh("cd %s && cpio -i --quiet --to-stdout lib/x.so < %s",
			tmpdir, path);
	ck_assert_str_eq(body, "one");
	free(body);
	free(list);
	free(path);
	initramfs_release(&ir);
}
END_TEST

START_TEST(test_elf_deps_of_host_programs)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec needed = STRVEC_INIT;
	char *interp = NULL;
	ck_assert_int_eq(read_file("/bin/ls", &sb), 0);
	ck_assert_int_eq(
		elf_file_deps(&interp, &needed, NULL, sb.buf, sb.len, "/bin/ls"),
		0);
	ck_assert_ptr_nonnull(interp);
	ck_assert_str_eq(interp, "/lib64/ld-linux-x86-64.so.2");
	int libc = 0;
	for (size_t i = 0; i < needed.nr; i++)
		libc |= !strcmp(needed.v[i], "libc.so.6");
	ck_assert_msg(libc, "libc.so.6 not among /bin/ls's needs");
	free(interp);
	strvec_clear(&needed);

	/* Not ELF, and ELF cut short: refused, not misread. */
	ck_assert_int_eq(elf_file_deps(&interp, &needed, NULL, "#!/bin/sh\n", 10,
					    "script"),
			 -1);
	ck_assert_int_eq(
		elf_file_deps(&interp, &needed, NULL, sb.buf, 200, "cut"), -1);
	ck_assert_ptr_null(interp);
	strbuf_release(&sb);
	strvec_clear(&needed);
}
END_TEST

START_TEST(test_packed_program_runs_in_chroot)
{
	if (geteuid() != 0)
		CHECK_SKIP("chroot needs root");
	if (access("/sbin/mke2fs", X_OK))
		CHECK_SKIP("no /sbin/mke2fs (e2fsprogs)");
	struct initramfs ir = INITRAMFS_INIT;
	ck_assert_int_eq(
		initramfs_add_program(&ir, "/bin/mke2fs", "/sbin/mke2fs"), 0);
	char *path = xstrfmt("%s/p.cpio", tmpdir);
	ck_assert_int_eq(initramfs_write(&ir, path), 0);
	free(sh("mkdir %s/r && cd %s/r && cpio -idm --quiet < %s", tmpdir,
		tmpdir, path));
	/* Nothing but the archive's files: the libraries must all be there. */
	char *out = sh("chroot %s/r /bin/mke2fs -V 2>&1", tmpdir);
	ck_assert_ptr_nonnull(strstr(out, "mke2fs"));
	free(out);
	free(path);
	initramfs_release(&ir);
}
END_TEST

/*
 * fio's part of a boot: Debian's fio and its 60-odd libraries, one of
 * them found only through librados's RUNPATH, run from the archive alone.
 */
START_TEST(test_fio_archive_runs_in_chroot)
{
	if (geteuid() != 0)
		CHECK_SKIP("chroot needs root");
	char *fio = run_find_tool("fio");
	if (!fio)
		CHECK_SKIP("no fio on this host (apt-get install fio)");
	free(fio);
	struct initramfs ir = INITRAMFS_INIT;
	ck_assert_int_eq(fio_pack_append(&ir), 0);
	char *path = xstrfmt("%s/fio.cpio", tmpdir);
	ck_assert_int_eq(initramfs_write(&ir, path), 0);
	/*
	 * fio's archive follows the (here empty) boot archive, whose trailer
	 * fills its first 512 bytes; the kernel reads on past a trailer,
	 * cpio(1) stops there, so it is given the second archive alone.
	 */
	free(sh("mkdir %s/f && cd %s/f && tail -c +513 %s | cpio -idm --quiet",
		tmpdir, tmpdir, path));
	char *out = sh("chroot %s/f /usr/bin/fio --version 2>&1", tmpdir);
	ck_assert_msg(!strncmp(out, "fio-", 4), "fio in the archive: %s", out);
	free(out);
	/* Made once: the second boot's part is the cached one, unchanged. */
	struct initramfs again = INITRAMFS_INIT;
	ck_assert_int_eq(fio_pack_append(&again), 0);
	ck_assert_uint_eq(again.data.len, ir.data.len);
	ck_assert(!memcmp(again.data.buf, ir.data.buf, ir.data.len));
	initramfs_release(&again);
	free(path);
	initramfs_release(&ir);
}
END_TEST

START_TEST(test_abi_tag_is_the_c_library_floor)
{
	struct strbuf sb = STRBUF_INIT;
	char floor[32] = "";
	ck_assert_int_eq(read_file("/bin/ls", &sb), 0);
	/* Debian 12's glibc puts 3.2.0 in every program it links. */
	ck_assert_int_eq(elf_file_abi_tag(sb.buf, sb.len, floor), 0);
	ck_assert_str_eq(floor, "3.2.0");
	/* Not ELF; ELF whose notes are cut off: no floor, nothing misread. */
	ck_assert_int_eq(elf_file_abi_tag("#!/bin/sh\n", 10, floor), -1);
	ck_assert_int_ne(elf_file_abi_tag(sb.buf, 300, floor), 0);
	strbuf_release(&sb);
	ck_assert(fio_pack_wanted("version 1\npoint id=a engine=fio "
				  "target=d0 job=x\n"));
	ck_assert(!fio_pack_wanted("point id=a engine=rawread target=d0\n"));
	ck_assert(!fio_pack_wanted("md name=engine=fio level=0\n"));
}
END_TEST

static const struct {
	const char *spec, *tools;
} spec_tools[] = {
	{"version 1\nmd name=md0 level=5 method=mdadm\n", "mdadm"},
	{"md name=md0 level=0 method=ioctl\n", ""},
	{"dm name=l on=d0 method=dmsetup\nloop name=l0 on=d0 method=losetup\n",
	 "dmsetup losetup"},
	{"fs name=f on=md0 type=ext4\nfs name=g on=d1 type=ext3\n", "mke2fs"},
	{"fs name=f on=md0 type=xfs mount=/mnt\n", "mkfs.xfs"},
	/* A point whose keys happen to look alike asks for nothing. */
	{"point id=x engine=seqread method=mdadm type=xfs\n", ""},
};

START_TEST(test_tools_for_spec)
{
	struct strvec tools = STRVEC_INIT;
	struct strbuf got = STRBUF_INIT;
	initramfs_tools_for_spec(&tools, spec_tools[_i].spec);
	for (size_t i = 0; i < tools.nr; i++)
		strbuf_addf(&got, "%s%s", i ? " " : "", tools.v[i]);
	ck_assert_str_eq(got.buf, spec_tools[_i].tools);
	strbuf_release(&got);
	strvec_clear(&tools);
}
END_TEST

START_TEST(test_boot_archive)
{
	char *guest = xstrfmt("%s/guest", tmpdir);
	ck_assert_int_eq(write_file_atomic(guest, "GUEST", 5), 0);
	char *path = xstrfmt("%s/boot.cpio", tmpdir);
	const char *spec = "version 1\nmd name=md0 level=5 method=mdadm\n"
			   "fs name=f on=md0 type=ext4 mount=/mnt\n";
	ck_assert_int_eq(boot_archive_write(path, spec, guest, NULL, 0), 0);
	char *list = sh("cpio -t --quiet < %s | tr '\\n' ' '", path);
	static const char *const want[] = {
		" init ",      " spec ",       " dev/console ",
		" dev/ttyS1 ", " proc ",       " sys ",
		" bin/mdadm ", " bin/mke2fs ", " bin/mkfs.ext4 ",
	};
	struct strbuf padded = STRBUF_INIT;
	strbuf_addf(&padded, " %s", list);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		ck_assert_msg(strstr(padded.buf, want[i]), "'%s' missing in %s",
			      want[i], list);
	char *init = sh("cd %s && cpio -i --quiet --to-stdout init < %s",
			tmpdir, path);
	ck_assert_str_eq(init, "GUEST");
	char *sp = sh("cd %s && cpio -i --quiet --to-stdout spec < %s", tmpdir,
		      path);
	ck_assert_str_eq(sp, spec);
	free(sp);
	free(init);
	strbuf_release(&padded);
	free(list);
	free(path);
	free(guest);
}
END_TEST

START_TEST(test_boot_archive_without_guest_fails)
{
	char *path = xstrfmt("%s/boot.cpio", tmpdir);
	setenv("IOBISECT_GUEST", "/nonexistent/guest", 1);
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	ck_assert_int_eq(boot_archive_write(path, "version 1\n", NULL, NULL, 0), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "iobisect-guest"));
	/* The variable that was looked at alone, and what it names. */
	ck_assert_ptr_nonnull(strstr(err.buf, "IOBISECT_GUEST names "
					      "'/nonexistent/guest'"));
	ck_assert(!file_exists(path));
	strbuf_release(&err);
	free(path);
}
END_TEST

static Suite *initramfs_suite(void)
{
	Suite *s = suite_create("initramfs");
	TCase *tc = tcase_create("cpio");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_cpio_lists_every_entry);
	tcase_add_test(tc, test_cpio_extracts_content_modes_links_nodes);
	tcase_add_test(tc, test_archive_is_reproducible_and_padded);
	tcase_add_test(tc, test_duplicate_path_keeps_first);
	tcase_add_test(tc, test_elf_deps_of_host_programs);
	tcase_add_test(tc, test_packed_program_runs_in_chroot);
	tcase_add_test(tc, test_fio_archive_runs_in_chroot);
	tcase_add_test(tc, test_abi_tag_is_the_c_library_floor);
	tcase_add_loop_test(tc, test_tools_for_spec, 0, ARRAY_SIZE(spec_tools));
	tcase_add_test(tc, test_boot_archive);
	tcase_add_test(tc, test_boot_archive_without_guest_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(initramfs_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
