/*
 * check_template.c: placeholders in job templates (template.c): expansion,
 * braces that are not placeholders left as written, the first unknown
 * placeholder found, and commands split at blanks.
 */
#include "template.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"src", "out", NULL};
static const char *const values[] = {"/t/src", "/t/obj", NULL};

static const struct {
	const char *tmpl, *want;
} expand_cases[] = {
	{"-v {src}:{src}", "-v /t/src:/t/src"},
	{"{out}", "/t/obj"},
	{"{src}{out}", "/t/src/t/obj"},
	{"no placeholder", "no placeholder"},
	/* A podman format and stray braces are text. */
	{"{{.Digest}}", "{{.Digest}}"},
	{"{", "{"},
	{"}{", "}{"},
	{"{}", "{}"},
	{"{SRC}", "{SRC}"},
	/* Known only by name: an unknown one is kept for the check to see. */
	{"{commit}", "{commit}"},
	{"{src", "{src"},
	{"{{src}}", "{/t/src}"},
};

START_TEST(test_expand)
{
	struct strbuf sb = STRBUF_INIT;

	template_expand(&sb, expand_cases[_i].tmpl, names, values);
	ck_assert_str_eq(sb.buf, expand_cases[_i].want);
	strbuf_release(&sb);
}
END_TEST

START_TEST(test_expand_missing_value)
{
	const char *const partial[] = {"/t/src", NULL, NULL};
	struct strbuf sb = STRBUF_INIT;

	/* A placeholder without a value stays as written. */
	template_expand(&sb, "{src} {out}", names, partial);
	ck_assert_str_eq(sb.buf, "/t/src {out}");
	strbuf_release(&sb);
}
END_TEST

static const struct {
	const char *tmpl, *unknown; /* NULL: all known */
} unknown_cases[] = {
	{"podman run -v {src}:{src} -v {out}:{out} gcc:4.9", NULL},
	{"-v {sr}:{src}", "{sr}"},
	{"{src}/{commit}", "{commit}"},
	{"{{.Digest}}", NULL},
	{"{}", NULL},
	{"", NULL},
};

START_TEST(test_unknown)
{
	char *u = template_unknown(unknown_cases[_i].tmpl, names);

	if (unknown_cases[_i].unknown)
		ck_assert_str_eq(u, unknown_cases[_i].unknown);
	else
		ck_assert_ptr_null(u);
	free(u);
}
END_TEST

START_TEST(test_uses)
{
	ck_assert(template_uses("{commit}/bzImage", "commit"));
	ck_assert(!template_uses("{commit}/bzImage", "tag"));
	ck_assert(!template_uses("{{tag}", "ta"));
	ck_assert(template_uses("x{tag}y", "tag"));
}
END_TEST

START_TEST(test_split_and_expand_words)
{
	struct strvec words = STRVEC_INIT, out = STRVEC_INIT;

	template_split_words(&words, "  schroot -c\tjessie --\n");
	ck_assert_uint_eq(words.nr, 4);
	ck_assert_str_eq(words.v[2], "jessie");
	strvec_clear(&words);
	template_split_words(&words, " \t ");
	ck_assert_uint_eq(words.nr, 0);

	strvec_push(&words, "-v");
	strvec_push(&words, "{src}:{src}");
	strvec_push(&words, "a b {out}");
	template_expand_words(&out, &words, names, values);
	ck_assert_uint_eq(out.nr, 3);
	ck_assert_str_eq(out.v[1], "/t/src:/t/src");
	/* A word stays one word, blanks and all. */
	ck_assert_str_eq(out.v[2], "a b /t/obj");
	strvec_clear(&words);
	strvec_clear(&out);
}
END_TEST

static Suite *template_suite(void)
{
	Suite *s = suite_create("template");
	TCase *tc = tcase_create("template");
	tcase_add_loop_test(tc, test_expand, 0, ARRAY_SIZE(expand_cases));
	tcase_add_test(tc, test_expand_missing_value);
	tcase_add_loop_test(tc, test_unknown, 0, ARRAY_SIZE(unknown_cases));
	tcase_add_test(tc, test_uses);
	tcase_add_test(tc, test_split_and_expand_words);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(template_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
