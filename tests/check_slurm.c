/*
 * check_slurm.c: the pure parts of running probes on Slurm: what sbatch
 * --parsable, squeue and sacct print, read back into task states; the
 * sbatch command line, quoted for --wrap; the task document a node
 * leaves, written and read back, and refused by name when damaged; the
 * job file's "executor" section and the command line over it.
 */
#include "executor.h"
#include "job.h"
#include "slurm.h"
#include "task_doc.h"
#include "util.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(job_id_from_sbatch_parsable)
{
	char id[32];

	ck_assert_int_eq(slurm_parse_job_id("1234\n", id), 0);
	ck_assert_str_eq(id, "1234");
	ck_assert_int_eq(slurm_parse_job_id("77;cluster-a\n", id), 0);
	ck_assert_str_eq(id, "77");
	ck_assert_int_eq(slurm_parse_job_id("", id), -1);
	ck_assert_int_eq(slurm_parse_job_id("sbatch: error: Batch job "
					    "submission failed",
					    id),
			 -1);
	ck_assert_int_eq(slurm_parse_job_id("12x", id), -1);
}
END_TEST

START_TEST(fates_of_slurm_states)
{
	ck_assert_int_eq(slurm_fate("PENDING"), SLURM_ACTIVE);
	ck_assert_int_eq(slurm_fate("RUNNING"), SLURM_ACTIVE);
	ck_assert_int_eq(slurm_fate("COMPLETING"), SLURM_ACTIVE);
	ck_assert_int_eq(slurm_fate("REQUEUED"), SLURM_ACTIVE);
	ck_assert_int_eq(slurm_fate("COMPLETED"), SLURM_ENDED);
	/* The command exited non-zero: a build failure, not a lost task. */
	ck_assert_int_eq(slurm_fate("FAILED"), SLURM_ENDED);
	ck_assert_int_eq(slurm_fate("CANCELLED"), SLURM_LOST);
	ck_assert_int_eq(slurm_fate("TIMEOUT"), SLURM_LOST);
	ck_assert_int_eq(slurm_fate("NODE_FAIL"), SLURM_LOST);
	ck_assert_int_eq(slurm_fate("PREEMPTED"), SLURM_LOST);
	ck_assert_int_eq(slurm_fate(""), SLURM_UNKNOWN);
}
END_TEST

/* As slurm_look starts: nothing seen. */
static void unseen(struct slurm_task *t, size_t n)
{
	memset(t, 0, n * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		t[i].fate = SLURM_UNKNOWN;
}

START_TEST(task_states_from_squeue_and_sacct)
{
	struct slurm_task t[10];
	const char *squeue = "41_0|COMPLETED\n"
			     "41_1|RUNNING\n"
			     "41_3|CANCELLED by 0\n"
			     "41_[5-7,9%2]|PENDING\n"
			     "410_2|RUNNING\n" /* another job */
			     "41.batch|COMPLETED\n";

	unseen(t, 10);
	slurm_parse_states(squeue, "41", t, 10);
	ck_assert_str_eq(t[0].state, "COMPLETED");
	ck_assert_int_eq(t[0].fate, SLURM_ENDED);
	ck_assert_int_eq(t[1].fate, SLURM_ACTIVE);
	ck_assert_int_eq(t[2].fate, SLURM_UNKNOWN); /* not listed */
	ck_assert_str_eq(t[3].state, "CANCELLED");
	ck_assert_int_eq(t[3].fate, SLURM_LOST);
	ck_assert_int_eq(t[4].fate, SLURM_UNKNOWN);
	for (int i = 5; i <= 7; i++)
		ck_assert_int_eq(t[i].fate, SLURM_ACTIVE);
	ck_assert_int_eq(t[8].fate, SLURM_UNKNOWN);
	ck_assert_int_eq(t[9].fate, SLURM_ACTIVE);

	/* A plain job is task 0; indices past the table are ignored. */
	unseen(t, 10);
	slurm_parse_states("8|TIMEOUT\n8_99|RUNNING", "8", t, 2);
	ck_assert_int_eq(t[0].fate, SLURM_LOST);
	ck_assert_int_eq(t[1].fate, SLURM_UNKNOWN);
}
END_TEST

START_TEST(sbatch_line_quotes_the_task_command)
{
	struct slurm_opts o;
	struct strvec argv = STRVEC_INIT;
	const char *cmd[] = {"/opt/iob/iobisect", "measure", "/jobs/it's.json",
			     "--boots",		  "3",	     NULL};

	slurm_opts_init(&o);
	o.partition = "big";
	o.time_limit = "1:00:00";
	o.cpus_per_task = 2;
	strvec_push(&o.extra, "--exclusive");
	slurm_sbatch_argv(&argv, &o, "iobisect-demo", "/r/slurm-%A_%a.log",
			  "0,2", cmd);
	ck_assert_str_eq(argv.v[0], "sbatch");
	ck_assert_int_ge(strvec_index(&argv, "--parsable"), 0);
	ck_assert_int_ge(strvec_index(&argv, "--array=0,2"), 0);
	ck_assert_int_ge(strvec_index(&argv, "--partition=big"), 0);
	ck_assert_int_ge(strvec_index(&argv, "--time=1:00:00"), 0);
	ck_assert_int_ge(strvec_index(&argv, "--exclusive"), 0);
	/* The guest's CPUs, before the user's options, which win. */
	ck_assert_int_ge(strvec_index(&argv, "--cpus-per-task=2"), 0);
	ck_assert_int_lt(strvec_index(&argv, "--cpus-per-task=2"),
			 strvec_index(&argv, "--exclusive"));
	ck_assert_int_lt(strvec_index(&argv, "--account="), 0);
	ck_assert_str_eq(argv.v[argv.nr - 1],
			 "--wrap=exec '/opt/iob/iobisect' 'measure' "
			 "'/jobs/it'\\''s.json' '--boots' '3'");
	strvec_clear(&argv);
	slurm_opts_release(&o);
}
END_TEST

static char dir[] = "/tmp/check_slurm.XXXXXX";

#define ID_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define KEY "0123456789012345678901234567890123456789"

START_TEST(task_doc_round_trip)
{
	struct task_doc t, back;
	char *path;

	strcpy(dir, "/tmp/check_slurm.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = task_doc_path(dir, "demo", ID_A);
	ck_assert_str_eq(path + strlen(dir), "/demo/.tasks/aaaaaaaaaaaa.json");
	task_doc_init(&back);
	ck_assert_int_eq(task_doc_read(&back, path), 1); /* none yet */

	task_doc_init(&t);
	memcpy(t.commit, ID_A, 41);
	memcpy(t.key, KEY, 41);
	t.ok = 1;
	t.cached = 1;
	sample_set_push(&t.set, 1, 2.5e8, 30.0);
	sample_set_push(&t.set, 3, 2.25e8, 31.5);
	ck_assert_int_eq(task_doc_write(&t, path), 0);
	ck_assert_int_eq(task_doc_read(&back, path), 0);
	ck_assert_str_eq(back.commit, ID_A);
	ck_assert_str_eq(back.key, KEY);
	ck_assert(back.ok && back.cached);
	ck_assert_uint_eq(back.set.nr, 2);
	ck_assert_uint_eq(back.set.boots[1], 3);
	ck_assert(fabs(back.set.values[1] - 2.25e8) < 1);
	ck_assert(fabs(back.set.cpu_pct[0] - 30.0) < 1e-9);
	task_doc_release(&back);

	/* A failure keeps how and where. */
	task_doc_release(&t);
	memcpy(t.commit, ID_A, 41);
	t.outcome = PROBE_BUILD_FAILED;
	t.first_error = xstrdup("lib/string.c:974: error: expected ';'");
	t.log = xstrdup("/cache/images/x/build.log");
	ck_assert_int_eq(task_doc_write(&t, path), 0);
	ck_assert_int_eq(task_doc_read(&back, path), 0);
	ck_assert(!back.ok);
	ck_assert_int_eq(back.outcome, PROBE_BUILD_FAILED);
	ck_assert_str_eq(back.first_error, t.first_error);
	ck_assert_str_eq(back.log, t.log);
	ck_assert_str_eq(back.key, "");
	task_doc_release(&back);
	task_doc_release(&t);
	free(path);
	remove_tree(dir);
}
END_TEST

/* Documents another host wrote badly: refused, naming the file. */
static const char *const damaged[] = {
	"not json",
	"{\"version\": 2, \"commit\": \"" ID_A "\", \"key\": \"\", \"ok\": "
	"true, \"outcome\": \"ok\", \"cached\": false, \"boots\": []}",
	"{\"version\": 1, \"commit\": \"abc\", \"key\": \"\", \"ok\": true, "
	"\"outcome\": \"ok\", \"cached\": false, \"boots\": []}",
	"{\"version\": 1, \"commit\": \"" ID_A "\", \"key\": \"\", \"ok\": "
	"false, \"outcome\": \"exploded\", \"cached\": false, \"boots\": []}",
	"{\"version\": 1, \"commit\": \"" ID_A "\", \"key\": \"\", \"ok\": "
	"true, \"outcome\": \"ok\", \"cached\": false, \"boots\": [{\"boot\": "
	"0, \"bw_bytes\": 1.0, \"cpu_pct\": 1.0}]}",
	"{\"version\": 1, \"commit\": \"" ID_A "\", \"key\": \"\", \"ok\": "
	"true, \"outcome\": \"ok\", \"cached\": false, \"boots\": [{\"boot\": "
	"1, \"bw_bytes\": -5.0, \"cpu_pct\": 1.0}]}",
	"{\"version\": 1, \"commit\": \"" ID_A "\", \"ok\": true}",
};

START_TEST(damaged_task_doc_is_refused_by_name)
{
	struct task_doc t;
	struct strbuf said = STRBUF_INIT;
	char *path;

	strcpy(dir, "/tmp/check_slurm.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = xstrfmt("%s/t.json", dir);
	ck_assert_int_eq(
		write_file_atomic(path, damaged[_i], strlen(damaged[_i])), 0);
	task_doc_init(&t);
	error_capture(&said);
	ck_assert_int_eq(task_doc_read(&t, path), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(said.buf, path), "%s", said.buf);
	ck_assert_uint_eq(t.set.nr, 0);
	task_doc_release(&t);
	strbuf_release(&said);
	free(path);
	remove_tree(dir);
}
END_TEST

static const char job_head[] =
	"{\"name\": \"x\", \"repo\": \"/r\", \"good\": \"a\", \"bad\": \"b\", "
	"\"topology\": {\"preset\": \"virtio\"}, \"workload\": {\"engine\": "
	"\"seqread\", \"size_mb\": 8}";

START_TEST(executor_section_and_command_line)
{
	struct job job;
	struct executor x;
	char *text = xstrfmt(
		"%s, \"executor\": {\"kind\": \"slurm\", \"partition\": "
		"\"lab\", \"time_limit\": \"30\", \"sbatch_args\": "
		"[\"--exclusive\"], \"probes\": 3, \"retries\": 1}}",
		job_head);

	ck_assert_int_eq(job_parse(&job, text, "x.json"), 0);
	ck_assert_int_eq(job.executor.kind, 1);
	executor_init(&x);
	/* The command line's partition and sbatch options win. */
	x.slurm.partition = "mine";
	strvec_push(&x.slurm.extra, "--qos=low");
	executor_from_job(&x, &job);
	ck_assert_str_eq(x.slurm.partition, "mine");
	ck_assert_str_eq(x.slurm.time_limit, "30");
	ck_assert_uint_eq(x.slurm.extra.nr, 2);
	ck_assert_str_eq(x.slurm.extra.v[0], "--exclusive");
	ck_assert_str_eq(x.slurm.extra.v[1], "--qos=low");
	ck_assert_uint_eq(x.probes, 3);
	ck_assert_uint_eq(x.slurm.retries, 1);
	executor_release(&x);

	/* --executor local over a job that says slurm. */
	executor_init(&x);
	x.kind = EXECUTOR_LOCAL;
	x.kind_given = 1;
	ck_assert_int_eq(executor_from_job(&x, &job), 0);
	ck_assert_int_eq(x.kind, EXECUTOR_LOCAL);
	executor_release(&x);
	job_release(&job);
	free(text);
}
END_TEST

static const char *const bad_sections[][2] = {
	{"\"executor\": {\"kind\": \"pbs\"}", "executor.kind"},
	{"\"executor\": {\"probes\": 0}", "executor.probes"},
	{"\"executor\": {\"sbatch_args\": [\"exclusive\"]}",
	 "executor.sbatch_args[0]"},
	{"\"executor\": {\"queue\": \"x\"}", "queue"},
	{"\"executor\": \"slurm\"", "executor"},
};

START_TEST(bad_executor_section_is_one_line_naming_the_key)
{
	struct job job;
	struct strbuf said = STRBUF_INIT;
	char *text = xstrfmt("%s, %s}", job_head, bad_sections[_i][0]);

	error_capture(&said);
	ck_assert_int_ne(job_parse(&job, text, "x.json"), 0);
	error_capture(NULL);
	ck_assert_msg(strstr(said.buf, "x.json: ") &&
			      strstr(said.buf, bad_sections[_i][1]),
		      "%s", said.buf);
	/* One line. */
	ck_assert_ptr_null(memchr(said.buf, '\n', said.len ? said.len - 1 : 0));
	strbuf_release(&said);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("slurm");
	TCase *tc = tcase_create("slurm");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, job_id_from_sbatch_parsable);
	tcase_add_test(tc, fates_of_slurm_states);
	tcase_add_test(tc, task_states_from_squeue_and_sacct);
	tcase_add_test(tc, sbatch_line_quotes_the_task_command);
	tcase_add_test(tc, task_doc_round_trip);
	tcase_add_loop_test(tc, damaged_task_doc_is_refused_by_name, 0,
			    ARRAY_SIZE(damaged));
	tcase_add_test(tc, executor_section_and_command_line);
	tcase_add_loop_test(tc, bad_executor_section_is_one_line_naming_the_key,
			    0, ARRAY_SIZE(bad_sections));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
