/*
 * check_clock.c: which clock a job's boots get (the job's word, the
 * accelerator, a passed-through disk, the vCPUs), the refusals, and the unit
 * its figures are shown in. The job is filled by hand, as a parsed one holds
 * it.
 */
#include "clock.h"
#include "job.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *what;
	const char *clock; /* machine.clock; NULL: not given */
	int kvm;	   /* the resolved accelerator */
	int disk;	   /* 1: a real one passed through, 2: a throttled one */
	int cpus;	   /* guest vCPUs */
	int want;	   /* CLOCK_WALL, CLOCK_VIRTUAL, or -1 refused */
	const char *says;  /* in the refusal */
} cases[] = {
	{"silent under TCG", NULL, 0, 0, 1, CLOCK_VIRTUAL, NULL},
	{"auto under TCG", "auto", 0, 0, 1, CLOCK_VIRTUAL, NULL},
	{"auto under KVM", "auto", 1, 0, 1, CLOCK_WALL, NULL},
	{"auto with a real disk", "auto", 0, 1, 1, CLOCK_WALL, NULL},
	{"auto with two vCPUs", "auto", 0, 0, 2, CLOCK_WALL, NULL},
	{"auto with a throttled disk", "auto", 0, 2, 1, CLOCK_WALL, NULL},
	{"virtual with a throttled disk", "virtual", 0, 2, 1, CLOCK_VIRTUAL, NULL},
	{"wall under TCG", "wall", 0, 0, 1, CLOCK_WALL, NULL},
	{"wall under KVM", "wall", 1, 0, 1, CLOCK_WALL, NULL},
	{"wall with two vCPUs", "wall", 0, 0, 2, CLOCK_WALL, NULL},
	{"virtual with a real disk", "virtual", 0, 1, 1, CLOCK_VIRTUAL, NULL},
	{"virtual under KVM", "virtual", 1, 0, 1, -1, "machine.clock \"wall\""},
	{"virtual with two vCPUs", "virtual", 0, 0, 2, -1,
	 "set machine.cpus 1 or machine.clock \"wall\""},
	{"unknown word", "sundial", 0, 0, 1, -1, "'sundial'"},
};

START_TEST(test_resolve)
{
	struct disk_spec disks[2] = {
		{.name = "d0", .backing = BACKING_NULL, .size_mb = 8},
		{.name = "d1", .backing = BACKING_IMAGE, .size_mb = 8},
	};
	struct topology topo = {.name = "t", .disks = disks, .nr_disks = 2};
	struct job job = {0};
	struct clock c = {CLOCK_WALL, -1};
	struct strbuf err = STRBUF_INIT;

	if (cases[_i].disk == 1) {
		disks[1].backing = BACKING_HOST;
		disks[1].path = "/dev/sdz";
	}
	if (cases[_i].disk == 2)
		disks[1].bps_max = 20000000;
	job.topologies = &topo;
	job.nr_topologies = 1;
	job.machine.cpus = cases[_i].cpus;
	job.machine.clock = (char *)cases[_i].clock;
	job.machine.icount_shift = 4;
	error_capture(&err);
	int rc = clock_resolve(&c, &job, cases[_i].kvm);
	error_capture(NULL);
	if (cases[_i].want < 0) {
		ck_assert_msg(rc == -1, "%s: not refused", cases[_i].what);
		ck_assert_msg(strstr(err.buf, "machine.clock") &&
				      strstr(err.buf, cases[_i].says) &&
				      !strchr(err.buf, '\n'),
			      "%s: '%s'", cases[_i].what, err.buf);
	} else {
		ck_assert_msg(rc == 0, "%s: %s", cases[_i].what, err.buf);
		ck_assert_msg((int)c.kind == cases[_i].want, "%s: got %s",
			      cases[_i].what, clock_name(c.kind));
		/* The job's shift, only where instructions are counted. */
		ck_assert_int_eq(c.shift, c.kind == CLOCK_VIRTUAL ? 4 : 0);
	}
	strbuf_release(&err);
}
END_TEST

START_TEST(test_unit)
{
	struct strbuf sb = STRBUF_INIT;
	const struct clock w = {CLOCK_WALL, 0}, v = {CLOCK_VIRTUAL, 3};

	clock_unit(&sb, &w);
	ck_assert_str_eq(sb.buf, "MB/s");
	strbuf_reset(&sb);
	clock_unit(&sb, NULL);
	ck_assert_str_eq(sb.buf, "MB/s");
	strbuf_reset(&sb);
	clock_unit(&sb, &v);
	ck_assert_str_eq(sb.buf, "MB/s in virtual time (icount, shift 3)");
	ck_assert_str_eq(clock_name(CLOCK_WALL), "wall");
	ck_assert_str_eq(clock_name(CLOCK_VIRTUAL), "virtual");
	strbuf_release(&sb);
}
END_TEST

/*
 * The shift a job does not set follows its disks: 0 (a 1 GIPS CPU) when
 * every latency is the guest's own, so it weighs as on a disk; 4 when a
 * wait may be the host's, or there is no latency at all; the job's own
 * shift whatever the disks.
 */
START_TEST(test_shift_by_disks)
{
	struct disk_spec d = {.name = "d0", .bus = BUS_NULLB,
			      .backing = BACKING_NULL, .size_mb = 8,
			      .latency_ns = 200000};
	struct topology topo = {.name = "t", .disks = &d, .nr_disks = 1};
	struct job job = {0};
	struct clock c;

	job.topologies = &topo;
	job.nr_topologies = 1;
	job.machine.cpus = 1;
	job.machine.icount_shift = -1;
	ck_assert_int_eq(clock_resolve(&c, &job, 0), 0);
	ck_assert_int_eq(c.kind, CLOCK_VIRTUAL);
	ck_assert_int_eq(c.shift, CLOCK_ICOUNT_SHIFT_GUEST_WAITS);
	ck_assert_int_eq(clock_job_shift(&job), 0);

	job.machine.icount_shift = 3;
	ck_assert_int_eq(clock_job_shift(&job), 3);
	job.machine.icount_shift = -1;

	/* No latency: nothing for the shift to weigh. */
	d.latency_ns = 0;
	ck_assert_int_eq(clock_job_shift(&job), CLOCK_ICOUNT_SHIFT);
	/* A virtio disk completing at once has none either. */
	d.bus = BUS_VIRTIO;
	ck_assert_int_eq(clock_job_shift(&job), CLOCK_ICOUNT_SHIFT);
	/* QEMU's latency is the host's time. */
	d.latency_ns = 200000;
	ck_assert_int_eq(clock_job_shift(&job), CLOCK_ICOUNT_SHIFT);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");
	tcase_add_loop_test(tc, test_resolve, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_unit);
	tcase_add_test(tc, test_shift_by_disks);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
