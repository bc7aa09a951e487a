/*
 * check_spec.c: the /spec text (spec.c) is exactly what
 * workloads/PROTOCOL.md says the guest reads: disk lines with serials in
 * attach order (with ro=1 for a read-only passed-through disk and the
 * max_sectors_kb cap when set), layer lines in order with name= first, and
 * only the points of the topology being booted.
 */
#include "job.h"
#include "guest_spec.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static char *srcdir;

static void setup(void)
{
	const char *f = __FILE__, *t = strstr(f, "tests/check_spec.c");
	srcdir = t && t > f ? xstrndup(f, (size_t)(t - f - 1)) : xstrdup(".");
	setenv("IOBISECT_DATA", srcdir, 1);
}

static void teardown(void)
{
	free(srcdir);
}

static void load(struct job *job, const char *rel)
{
	char *path = xstrfmt("%s/%s", srcdir, rel);
	ck_assert_int_eq(job_load(job, path), 0);
	free(path);
}

START_TEST(renders_the_dd_seed)
{
	struct job job;
	struct strbuf out = STRBUF_INIT;
	load(&job, "tests/jobs/seeds/dd-partition-loop-dm.json");
	ck_assert_int_eq(guest_spec_render(&job, 0, "0123456789abcdef", 4, &out), 0);
	const char *want =
		"version 1\n"
		"boot id=4 commit=0123456789abcdef reboot=1\n"
		"disk name=d0 bus=virtio serial=iob0 size_mb=1024 null=1\n"
		"part name=p1 on=d0 start_mb=1 size_mb=1000\n"
		"dm name=lin on=p1\n"
		"loop name=l0 on=d0\n"
		"point id=target=d0,bs_kb=128 engine=rawread target=d0 "
		"samples=3 warmup=1 bs_kb=128 size_mb=256 direct=0\n"
		"point id=target=d0,bs_kb=2048 engine=rawread target=d0 "
		"samples=3 warmup=1 bs_kb=2048 size_mb=256 direct=0\n"
		"point id=target=p1,bs_kb=128 engine=rawread target=p1 "
		"samples=3 warmup=1 bs_kb=128 size_mb=256 direct=0\n";
	ck_assert_msg(!strncmp(out.buf, want, strlen(want)), "got:\n%s",
		      out.buf);
	/* 2 + 1 disk + 3 layers + 8 points. */
	size_t lines = 0;
	for (const char *p = out.buf; *p; p++)
		lines += *p == '\n';
	ck_assert_uint_eq(lines, 14);
	ck_assert_int_eq(out.buf[out.len - 1], '\n');
	job_release(&job);
	strbuf_release(&out);
}
END_TEST

START_TEST(renders_only_the_booted_topology)
{
	struct job job;
	struct strbuf out = STRBUF_INIT;
	load(&job, "tests/jobs/seeds/raid5-bitmap.json");
	ck_assert_int_eq(guest_spec_render(&job, 1, "v6.1", 1, &out), 0);
	const char *want =
		"version 1\n"
		"boot id=1 commit=v6.1 reboot=1\n"
		"disk name=d0 bus=virtio serial=iob0 size_mb=1024 null=0\n"
		"disk name=d1 bus=virtio serial=iob1 size_mb=1024 null=0\n"
		"disk name=d2 bus=virtio serial=iob2 size_mb=1024 null=0\n"
		"disk name=d3 bus=virtio serial=iob3 size_mb=1024 null=0\n"
		"md name=md0 level=5 chunk_kb=64 layout=left-symmetric "
		"metadata=1.0 bitmap=1 members=d0,d1,d2,d3 method=mdadm "
		"bitmap_chunk_kb=256 stripe_cache=256\n"
		"fs name=fs0 on=md0 type=xfs mount=/mnt\n"
		"point id=default engine=bonnie target=/mnt/bonnie.dat "
		"samples=3 warmup=0 size_mb=256 chunk_kb=8\n";
	ck_assert_str_eq(out.buf, want);
	strbuf_reset(&out);
	ck_assert_int_eq(guest_spec_render(&job, 0, "v6.1", 1, &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, " bitmap=0 "));
	ck_assert_ptr_null(strstr(out.buf, " bitmap=1 "));
	job_release(&job);
	strbuf_release(&out);
}
END_TEST

/* A label with blanks or '=' must not break the boot line into words. */
START_TEST(boot_label_is_one_word)
{
	struct job job;
	struct strbuf out = STRBUF_INIT;
	load(&job, "tests/jobs/seeds/raid0-readahead.json");
	ck_assert_int_eq(guest_spec_render(&job, 0, "my kernel=new\n", 2, &out), 0);
	ck_assert_ptr_nonnull(
		strstr(out.buf, "boot id=2 commit=my_kernel_new_ reboot=1\n"));
	strbuf_reset(&out);
	ck_assert_int_eq(guest_spec_render(&job, 0, NULL, 2, &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "commit=none reboot=1\n"));
	/* NVMe members of the RAID0 preset, serials in attach order. */
	ck_assert_ptr_nonnull(strstr(
		out.buf, "disk name=d3 bus=nvme serial=iob3 size_mb=1024 "
			 "null=1\nmd name=md0 level=0 chunk_kb=64 "
			 "members=d0,d1,d2,d3\n"));
	job_release(&job);
	strbuf_release(&out);
}
END_TEST

static void parse(struct job *job, const char *text)
{
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	int r = job_parse(job, text, "job.json");
	error_capture(NULL);
	ck_assert_msg(r == 0, "%s", err.buf);
	strbuf_release(&err);
}

/*
 * A passed-through disk left read-only must say so (the guest cannot
 * write its pattern there, and QEMU's nvme cannot tell it); a writable
 * one and the image/null disks carry no ro key at all.
 */
START_TEST(read_only_passthrough_says_ro)
{
	struct job job;
	struct strbuf out = STRBUF_INIT;
	parse(&job, "{\"topology\": {\"preset\": \"passthrough\", "
		    "\"path\": \"/dev/loop7\"}, \"workload\": \"rawread\"}");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &out), 0);
	ck_assert_str_eq(out.buf, "disk name=d0 bus=virtio serial=iob0 "
				  "size_mb=0 null=0 ro=1\n");
	job_release(&job);

	strbuf_reset(&out);
	parse(&job, "{\"topology\": {\"preset\": \"passthrough\", "
		    "\"path\": \"/dev/loop7\", \"d0\": {\"readonly\": "
		    "false, \"bus\": \"nvme\"}}, \"workload\": \"rawread\"}");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &out), 0);
	ck_assert_str_eq(out.buf, "disk name=d0 bus=nvme serial=iob0 "
				  "size_mb=0 null=0\n");
	job_release(&job);

	/* readonly on a null disk is QEMU's business, not the guest's. */
	strbuf_reset(&out);
	parse(&job, "{\"topology\": {\"preset\": \"virtio\", \"d0\": "
		    "{\"readonly\": true}}, \"workload\": \"rawread\"}");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &out), 0);
	ck_assert_ptr_null(strstr(out.buf, "ro="));
	job_release(&job);
	strbuf_release(&out);
}
END_TEST

/* The request cap reaches the guest on every bus, and only when set. */
START_TEST(max_sectors_kb_reaches_the_guest)
{
	struct job job;
	struct strbuf out = STRBUF_INIT;
	parse(&job, "{\"topology\": {\"preset\": \"raid0-4\", \"d1\": "
		    "{\"max_sectors_kb\": 4, \"bus\": \"virtio\"}, \"d2\": "
		    "{\"max_sectors_kb\": 64}}, \"workload\": \"rawread\"}");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &out), 0);
	ck_assert_msg(strstr(out.buf, "disk name=d0 bus=nvme serial=iob0 "
				      "size_mb=1024 null=1\n"
				      "disk name=d1 bus=virtio serial=iob1 "
				      "size_mb=1024 null=1 max_sectors_kb=4\n"
				      "disk name=d2 bus=nvme serial=iob2 "
				      "size_mb=1024 null=1 max_sectors_kb=64\n"
				      "disk name=d3 bus=nvme serial=iob3 "
				      "size_mb=1024 null=1\n"),
		      "got:\n%s", out.buf);
	job_release(&job);

	/* Both keys on one line: ro first, as PROTOCOL.md lists them. */
	strbuf_reset(&out);
	parse(&job, "{\"topology\": {\"preset\": \"passthrough\", "
		    "\"path\": \"/dev/loop7\", \"d0\": "
		    "{\"max_sectors_kb\": 128}}, \"workload\": \"rawread\"}");
	ck_assert_int_eq(guest_spec_render_topology(&job, 0, &out), 0);
	ck_assert_str_eq(out.buf, "disk name=d0 bus=virtio serial=iob0 "
				  "size_mb=0 null=0 ro=1 max_sectors_kb=128\n");
	job_release(&job);
	strbuf_release(&out);
}
END_TEST

/* A hand-built job with a value the guest would split: refused, not sent. */
START_TEST(refuses_values_that_are_not_words)
{
	struct job job;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	load(&job, "tests/jobs/seeds/raid0-readahead.json");
	free(job.points[0].keys.v[0]);
	job.points[0].keys.v[0] = xstrdup("threads=1 2");
	error_capture(&err);
	ck_assert_int_eq(guest_spec_render(&job, 0, "x", 1, &out), -1);
	ck_assert_int_eq(guest_spec_render(&job, 5, "x", 1, &out), -1);
	error_capture(NULL);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_ptr_nonnull(strstr(err.buf, "threads=1 2"));
	job_release(&job);
	strbuf_release(&out);
	strbuf_release(&err);
}
END_TEST

static Suite *spec_suite(void)
{
	Suite *s = suite_create("spec");
	TCase *tc = tcase_create("spec");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, renders_the_dd_seed);
	tcase_add_test(tc, renders_only_the_booted_topology);
	tcase_add_test(tc, boot_label_is_one_word);
	tcase_add_test(tc, refuses_values_that_are_not_words);
	tcase_add_test(tc, read_only_passthrough_says_ro);
	tcase_add_test(tc, max_sectors_kb_reaches_the_guest);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(spec_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
