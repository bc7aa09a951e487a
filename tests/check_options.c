/*
 * check_options.c: the option-table parser every command uses
 * (options.c). A value is taken as the next word, or after '=' where the
 * entry allows it; a missing value, an unknown option, a second
 * positional where one is allowed and a value on a flag each stop the
 * parse naming the word; -h/--help stop it with nothing after read; a
 * callback sees the value and can refuse it; a number outside its range
 * is refused with one message.
 */
#include "options.h"
#include "cmd_options.h"
#include "util.h"

#include <check.h>
#include <stdarg.h>
#include <string.h>

/* What the table of a command like `iobisect bisect` fills. */
static const char *job, *results, *destroy, *seen;
static int log_flag, force, help, calls;

static int refuse_x(const struct opt *opt, const char *arg)
{
	calls++;
	*(const char **)opt->value = arg;
	return !strcmp(arg, "x") ? -1 : 0;
}

static void setup(void)
{
	job = results = destroy = seen = NULL;
	log_flag = force = help = calls = 0;
}

/* Parse the NULL-terminated words after a command name against a table. */
static int parse(struct opt_error *err, ...)
{
	const struct opt opts[] = {
		OPT_FLAG_F("-h", &help, OPT_STOP, "this help"),
		OPT_FLAG_F("--help", &help, OPT_STOP | OPT_JOINED, "this help"),
		OPT_FLAG("--log", &log_flag,
			 "print the bisection's log and stop"),
		OPT_STRING(
			"--results", &results, "DIR",
			"the results folder (default: the job's \"results\")"),
		OPT_CALLBACK_F("--check", refuse_x, &seen, OPT_JOINED, "X",
			       "a test option"),
		OPT_SAFETY(&destroy, &force),
		OPT_ARG("JOB", &job, "the job file"),
		OPT_END(),
	};
	char *argv[16] = {"cmd"};
	int argc = 1;
	va_list ap;

	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		ck_assert_int_lt(++argc, 15);
	va_end(ap);
	return opt_parse(opts, argc, argv, err);
}

static void assert_error(const struct opt_error *e, enum opt_status st,
			 const char *arg, const char *name)
{
	ck_assert_int_eq(e->status, st);
	ck_assert_str_eq(e->arg, arg);
	ck_assert_int_eq(e->len, (int)strlen(name));
	ck_assert(!strncmp(e->arg, name, strlen(name)));
}

START_TEST(values_in_both_forms)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "--results", "r", "--destroy-data-on",
			       "/dev/a", "j", NULL),
			 0);
	ck_assert_int_eq(e.status, OPT_OK);
	ck_assert_str_eq(results, "r");
	ck_assert_str_eq(destroy, "/dev/a");
	ck_assert_str_eq(job, "j");

	/* "=" only where the entry says so; an empty value is a value. */
	ck_assert_int_eq(parse(&e, "--destroy-data-on=/dev/b", NULL), 0);
	ck_assert_str_eq(destroy, "/dev/b");
	ck_assert_int_eq(parse(&e, "--destroy-data-on=", NULL), 0);
	ck_assert_str_eq(destroy, "");
	ck_assert_int_eq(parse(&e, "--check=a=b", NULL), 0);
	ck_assert_str_eq(seen, "a=b");
	ck_assert_int_eq(parse(&e, "--results=r", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--results=r", "--results");
}
END_TEST

START_TEST(a_value_is_the_next_word_whatever_it_is)
{
	ck_assert_int_eq(parse(NULL, "--results", "--log", "j", NULL), 0);
	ck_assert_str_eq(results, "--log");
	ck_assert_int_eq(log_flag, 0);
	ck_assert_int_eq(parse(NULL, "--results", "a", "--results", "b", NULL),
			 0);
	ck_assert_str_eq(results, "b");
}
END_TEST

START_TEST(missing_value)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "j", "--results", NULL), -1);
	assert_error(&e, OPT_ERR_NO_VALUE, "--results", "--results");
	ck_assert_int_eq(parse(&e, "--destroy-data-on", NULL), -1);
	assert_error(&e, OPT_ERR_NO_VALUE, "--destroy-data-on",
		     "--destroy-data-on");
	ck_assert_int_eq(parse(&e, "--check", NULL), -1);
	ck_assert_int_eq(e.status, OPT_ERR_NO_VALUE);
	ck_assert_int_eq(calls, 0);
}
END_TEST

START_TEST(unknown_option)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "j", "--frob", "--log", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--frob", "--frob");
	ck_assert_int_eq(log_flag, 0); /* nothing after the bad word */
	ck_assert_int_eq(parse(&e, "--frob=1", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--frob=1", "--frob");
	/* A single dash never carries a value: the whole word is unknown. */
	ck_assert_int_eq(parse(&e, "-h=x", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "-h=x", "-h=x");
	ck_assert_int_eq(parse(&e, "-", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "-", "-");
	ck_assert_int_eq(parse(&e, "--", "j", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--", "--");
	/* A positional placeholder is not an option name. */
	ck_assert_int_eq(parse(&e, "JOB", NULL), 0);
	ck_assert_str_eq(job, "JOB");
}
END_TEST

START_TEST(second_positional)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "a", "--log", "b", NULL), -1);
	assert_error(&e, OPT_ERR_EXTRA, "b", "b");
	ck_assert_str_eq(job, "a");
	/* An empty word is a positional, not an option. */
	ck_assert_int_eq(parse(&e, "", "b", NULL), -1);
	assert_error(&e, OPT_ERR_EXTRA, "b", "b");
	setup();
	ck_assert_int_eq(parse(&e, NULL), 0);
	ck_assert_ptr_null(job);
}
END_TEST

START_TEST(positionals_in_order)
{
	const char *a = NULL, *b = NULL;
	const struct opt opts[] = {
		OPT_ARG("A", &a, "a commit"),
		OPT_FLAG("--log", &log_flag,
			 "print the bisection's log and stop"),
		OPT_ARG("B", &b, "another commit"),
		OPT_END(),
	};
	char *argv[] = {"cmd", "one", "--log", "two", "three"};
	struct opt_error e;

	ck_assert_int_eq(opt_parse(opts, 4, argv, &e), 0);
	ck_assert_str_eq(a, "one");
	ck_assert_str_eq(b, "two");
	ck_assert_int_eq(opt_parse(opts, 5, argv, &e), -1);
	assert_error(&e, OPT_ERR_EXTRA, "three", "three");
}
END_TEST

START_TEST(flags)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "--log", "j", "--force", "--log", NULL), 0);
	ck_assert_int_eq(log_flag, 1);
	ck_assert_int_eq(force, 1);
	/* A value on a flag is a typo, never taken for the flag. */
	setup();
	ck_assert_int_eq(parse(&e, "--force=1", NULL), -1);
	assert_error(&e, OPT_ERR_TAKES_NO_VALUE, "--force=1", "--force");
	ck_assert_int_eq(force, 0);
	ck_assert_int_eq(parse(&e, "--log=1", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--log=1", "--log");
}
END_TEST

START_TEST(help_stops_the_parse)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "--help", "--frob", "a", "b", NULL), 0);
	ck_assert_int_eq(help, 1);
	ck_assert_ptr_null(job);
	setup();
	ck_assert_int_eq(parse(&e, "-h", "--results", NULL), 0);
	ck_assert_int_eq(help, 1);
	setup();
	ck_assert_int_eq(parse(&e, "--help=x", NULL), 0);
	ck_assert_int_eq(help, 1);
	/* What comes before it is still read, and can still fail. */
	setup();
	ck_assert_int_eq(parse(&e, "--frob", "--help", NULL), -1);
	ck_assert_int_eq(e.status, OPT_ERR_UNKNOWN);
	ck_assert_int_eq(help, 0);
}
END_TEST

/* A table without -h or --help: every command answers them (options.h). */
static int parse_bare(struct opt_error *err, char *w1, char *w2)
{
	const struct opt opts[] = {
		OPT_STRING("--results", &results, "DIR", "the results folder"),
		OPT_ARG("JOB", &job, "the job file"),
		OPT_END(),
	};
	char *argv[] = {"cmd", w1, w2, NULL};

	return opt_parse(opts, w2 ? 3 : 2, argv, err);
}

START_TEST(help_is_every_tables)
{
	struct opt_error e;

	ck_assert_int_eq(parse_bare(&e, "--help", "--frob"), -1);
	ck_assert_int_eq(e.status, OPT_HELP);
	ck_assert_int_eq(parse_bare(&e, "job.json", "-h"), -1);
	ck_assert_int_eq(e.status, OPT_HELP);
	ck_assert_int_eq(parse_bare(&e, "--help=x", NULL), -1);
	ck_assert_int_eq(e.status, OPT_HELP);
	/* A value is a value, and no other word is help. */
	ck_assert_int_eq(parse_bare(&e, "--results", "--help"), 0);
	ck_assert_str_eq(results, "--help");
	ck_assert_int_eq(parse_bare(&e, "--", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--", "--");
	ck_assert_int_eq(parse_bare(&e, "--he", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--he", "--he");
	ck_assert_int_eq(parse_bare(&e, "-hx", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "-hx", "-hx");
	ck_assert_int_eq(parse_bare(&e, "--helpme", NULL), -1);
	assert_error(&e, OPT_ERR_UNKNOWN, "--helpme", "--helpme");
}
END_TEST

START_TEST(callback_takes_and_refuses)
{
	struct opt_error e;

	ck_assert_int_eq(parse(&e, "--check", "ok", NULL), 0);
	ck_assert_str_eq(seen, "ok");
	ck_assert_int_eq(parse(&e, "--check", "x", "--frob", NULL), -1);
	assert_error(&e, OPT_ERR_VALUE, "--check", "--check");
	ck_assert_int_eq(parse(&e, "--check=x", NULL), -1);
	assert_error(&e, OPT_ERR_VALUE, "--check=x", "--check");
	ck_assert_int_eq(calls, 3);
}
END_TEST

/*
 * A number is taken only whole (or a plain decimal) and within its
 * entry's range, into the type the entry names; out of range, the parse
 * stops at its word with one message naming the option, the value and
 * the range, and the number is left as it was.
 */
static const struct {
	const char *name, *value, *message; /* message NULL: taken */
} numbers[] = {
	{ "--boots", "1000", NULL },
	{ "--boots", "0", "--boots: '0' is not a count of boots (1..1000)" },
	{ "--boots", "1001", "--boots: '1001' is not a count of boots (1..1000)" },
	{ "--boots", "2x", "--boots: '2x' is not a count of boots (1..1000)" },
	{ "--boots", "99999999999999999999", "is not a count of boots" },
	{ "--probes", "64", NULL },
	{ "--probes", "-1", "--probes: '-1' is not a number of commits at once (1..64)" },
	{ "--pct", "2.5", NULL },
	{ "--pct", "inf", "--pct: 'inf' is not a percentage (0 to 1000)" },
	{ "--pct", "1e3", "is not a percentage" },
	{ "--pct", "1000.5", "is not a percentage" },
};

START_TEST(numbers_within_their_range)
{
	int boots = 7;
	unsigned probes = 7;
	double pct = 7;
	const struct opt opts[] = {
		OPT_BOOTS(&boots, "boots"),
		OPT_UNSIGNED("--probes", &probes, 1, 64,
			     "a number of commits at once", "K", "probes"),
		OPT_DECIMAL("--pct", &pct, 0, 1000, "a percentage", "PCT",
			    "pct"),
		OPT_END(),
	};
	char *argv[] = { "cmd", (char *)numbers[_i].name,
			 (char *)numbers[_i].value, NULL };
	struct strbuf err = STRBUF_INIT;
	struct opt_error e;
	int r;

	error_capture(&err);
	r = opt_parse(opts, 3, argv, &e);
	error_capture(NULL);
	if (!numbers[_i].message) {
		ck_assert_msg(!r, "%s: %s", numbers[_i].value, err.buf);
		ck_assert(boots == 1000 || probes == 64 || pct == 2.5);
	} else {
		ck_assert_int_eq(r, -1);
		assert_error(&e, OPT_ERR_VALUE, numbers[_i].name,
			     numbers[_i].name);
		ck_assert_msg(strstr(err.buf, numbers[_i].message), "%s",
			      err.buf);
		ck_assert(boots == 7 && probes == 7 && pct == 7);
	}
	strbuf_release(&err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("options");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, values_in_both_forms);
	tcase_add_test(tc, a_value_is_the_next_word_whatever_it_is);
	tcase_add_test(tc, missing_value);
	tcase_add_test(tc, unknown_option);
	tcase_add_test(tc, second_positional);
	tcase_add_test(tc, positionals_in_order);
	tcase_add_test(tc, flags);
	tcase_add_test(tc, help_stops_the_parse);
	tcase_add_test(tc, help_is_every_tables);
	tcase_add_test(tc, callback_takes_and_refuses);
	tcase_add_loop_test(tc, numbers_within_their_range, 0,
			    sizeof(numbers) / sizeof(numbers[0]));
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
