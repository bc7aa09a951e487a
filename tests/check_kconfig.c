/*
 * check_kconfig.c: Kconfig fragments (kconfig.c): which fragments a kernel
 * version gets, the merged text, the options it requests, the list of
 * requested options a final .config dropped, and the config identity that
 * goes into build keys.
 */
#include "kconfig.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[64];

static void write_fragment(const char *name, const char *text)
{
	char *path = xstrfmt("%s/kconfigs/%s.config", tmpdir, name);
	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_kconfig.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	char *dir = xstrfmt("%s/kconfigs", tmpdir);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	free(dir);
	setenv("IOBISECT_DATA", tmpdir, 1);
	write_fragment("one", "# first\nCONFIG_A=y\nCONFIG_B=m\n");
	/* No final newline: the merge must not glue two lines together. */
	write_fragment("two", "CONFIG_C=\"str\"\n# CONFIG_D is not set");
	write_fragment("old", "CONFIG_IDE=y\n");
}

static void teardown(void)
{
	remove_tree(tmpdir);
}

static void spec_init(struct kconfig_spec *s, const char *frags)
{
	memset(s, 0, sizeof(*s));
	s->base = "tiny";
	strvec_split(&s->fragments, frags, ',');
}

static void spec_release(struct kconfig_spec *s)
{
	strvec_clear(&s->fragments);
	for (size_t i = 0; i < s->nr_rules; i++)
		strvec_clear(&s->rules[i].fragments);
}

static void joined(const struct strvec *sv, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(out, "%s%s", i ? "," : "", sv->v[i]);
}

static const struct {
	unsigned kver;
	const char *want;
} select_cases[] = {
	{KVER(6, 1, 0), "base,md,xfs"},
	{KVER(6, 0, 9), "base,md,xfs"},
	{KVER(5, 19, 0), "base,md"},
	{KVER(2, 6, 38), "base,md,oldbus"},
	{KVER(2, 6, 7), "base,md,oldbus,ide"},
};

START_TEST(test_select_by_version)
{
	struct kconfig_spec s;
	struct kconfig_rule rules[4] = {0};
	spec_init(&s, "base,md");
	rules[0].range = (struct kver_range){KVER(6, 0, 0), 0};
	strvec_split(&rules[0].fragments, "xfs", ',');
	rules[1].range = (struct kver_range){0, KVER(3, 0, 255)};
	strvec_split(&rules[1].fragments, "oldbus", ',');
	/* Already chosen: listed once. */
	rules[2].range = (struct kver_range){0, 0};
	strvec_split(&rules[2].fragments, "md", ',');
	rules[3].range = (struct kver_range){KVER(2, 6, 0), KVER(2, 6, 20)};
	strvec_split(&rules[3].fragments, "ide,oldbus", ',');
	s.rules = rules;
	s.nr_rules = ARRAY_SIZE(rules);

	struct strvec out = STRVEC_INIT;
	struct strbuf got = STRBUF_INIT;
	kconfig_select_fragments(&s, select_cases[_i].kver, &out);
	joined(&out, &got);
	ck_assert_str_eq(got.buf, select_cases[_i].want);
	strbuf_release(&got);
	strvec_clear(&out);
	spec_release(&s);
}
END_TEST

START_TEST(test_merge)
{
	struct kconfig_spec s;
	struct strbuf merged = STRBUF_INIT;
	spec_init(&s, "one,two");
	ck_assert_int_eq(kconfig_merge(&s, KVER(6, 1, 0), &merged), 0);
	const char *one = strstr(merged.buf, "# fragment: one\n# first\n"
					     "CONFIG_A=y\nCONFIG_B=m\n");
	const char *two =
		strstr(merged.buf, "# fragment: two\nCONFIG_C=\"str\"\n"
				   "# CONFIG_D is not set\n");
	ck_assert_ptr_nonnull(one);
	ck_assert_ptr_nonnull(two);
	ck_assert(one < two);
	/* The release string never carries build-specific suffixes. */
	ck_assert_ptr_nonnull(
		strstr(two, "# CONFIG_LOCALVERSION_AUTO is not set\n"));
	strbuf_release(&merged);
	spec_release(&s);
}
END_TEST

START_TEST(test_merge_path_fragment)
{
	struct kconfig_spec s;
	struct strbuf merged = STRBUF_INIT;
	char *path = xstrfmt("%s/mine.frag", tmpdir);
	ck_assert_int_eq(write_file_atomic(path, "CONFIG_MINE=y\n", 14), 0);
	spec_init(&s, "one");
	strvec_push(&s.fragments, path);
	ck_assert_int_eq(kconfig_merge(&s, KVER(6, 1, 0), &merged), 0);
	ck_assert_ptr_nonnull(strstr(merged.buf, "CONFIG_MINE=y\n"));
	strbuf_release(&merged);
	spec_release(&s);
	free(path);
}
END_TEST

START_TEST(test_merge_unknown_fragment)
{
	struct kconfig_spec s;
	struct strbuf merged = STRBUF_INIT, err = STRBUF_INIT;
	spec_init(&s, "one,raid7,two");
	error_capture(&err);
	ck_assert_int_eq(kconfig_merge(&s, KVER(6, 1, 0), &merged), -1);
	error_capture(NULL);
	ck_assert_str_eq(err.buf, "unknown kconfig fragment 'raid7'");
	strbuf_release(&err);
	strbuf_release(&merged);
	spec_release(&s);
}
END_TEST

START_TEST(test_requested)
{
	static const char merged[] = "# comment CONFIG_X=y\n"
				     "CONFIG_A=y\n"
				     "CONFIG_B=m\n"
				     "# CONFIG_C is not set\n"
				     "CONFIG_A=n\n"
				     "  \n"
				     "CONFIG_S=\"a b\"\n"
				     "CONFIG_N=8";
	struct strvec req = STRVEC_INIT;
	struct strbuf got = STRBUF_INIT;
	kconfig_requested(merged, &req);
	joined(&req, &got);
	ck_assert_str_eq(got.buf, "CONFIG_B=m,CONFIG_C=n,CONFIG_A=n,"
				  "CONFIG_S=\"a b\",CONFIG_N=8");
	strbuf_release(&got);
	strvec_clear(&req);
}
END_TEST

static const struct {
	const char *merged, *dotconfig, *dropped;
} check_cases[] = {
	/* Everything survived. */
	{"CONFIG_A=y\nCONFIG_N=8\n", "CONFIG_A=y\nCONFIG_N=8\nCONFIG_Z=y\n",
	 ""},
	/* A typo or a missing dependency: the option is gone. */
	{"CONFIG_A=y\nCONFIG_MD_RAID4567=y\n", "CONFIG_A=y\n",
	 "CONFIG_MD_RAID4567=y (now: not set)"},
	/* Turned off by its dependencies. */
	{"CONFIG_A=y\n", "# CONFIG_A is not set\n",
	 "CONFIG_A=y (now: not set)"},
	/* Built as a module when asked built in, and a value changed. */
	{"CONFIG_A=y\nCONFIG_N=8\n", "CONFIG_A=m\nCONFIG_N=64\n",
	 "CONFIG_A=y (now: m),CONFIG_N=8 (now: 64)"},
	/* Asked off: off or absent is fine, on is not. */
	{"# CONFIG_A is not set\n# CONFIG_B is not set\nCONFIG_C=n\n",
	 "# CONFIG_A is not set\nCONFIG_C=y\n", "CONFIG_C=n (now: y)"},
	/* The last request wins, as in Kconfig. */
	{"CONFIG_A=y\nCONFIG_A=m\n", "CONFIG_A=m\n", ""},
};

START_TEST(test_check_dropped)
{
	struct strvec dropped = STRVEC_INIT;
	struct strbuf got = STRBUF_INIT;
	int n = kconfig_check(check_cases[_i].merged, check_cases[_i].dotconfig,
			      &dropped);
	joined(&dropped, &got);
	ck_assert_str_eq(got.buf, check_cases[_i].dropped);
	ck_assert_int_eq(n, (int)dropped.nr);
	strbuf_release(&got);
	strvec_clear(&dropped);
}
END_TEST

START_TEST(test_hash)
{
	struct kconfig_spec tiny, full;
	char h1[41], h2[41], h3[41], h4[41];
	char *base = xstrfmt("%s/full.config", tmpdir);
	ck_assert_int_eq(write_file_atomic(base, "CONFIG_X=y\n", 11), 0);
	spec_init(&tiny, "one");
	spec_init(&full, "one");
	full.base = base;
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=y\n", h1), 0);
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=y\n", h2), 0);
	ck_assert_str_eq(h1, h2);
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=m\n", h2), 0);
	ck_assert_str_ne(h1, h2);
	ck_assert_int_eq(kconfig_hash(&full, "CONFIG_A=y\n", h3), 0);
	ck_assert_str_ne(h1, h3);
	/* What Kconfig reads counts, not the text: comments, order, repeats. */
	ck_assert_int_eq(kconfig_hash(&tiny, "# why\nCONFIG_B=y\nCONFIG_A=y\n"
					     "# CONFIG_C is not set\n", h2), 0);
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=y\nCONFIG_C=n\n"
					     "CONFIG_B=y\nCONFIG_B=y\n", h4), 0);
	ck_assert_str_eq(h2, h4);
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=m\nCONFIG_A=y\n", h2), 0);
	ck_assert_str_eq(h1, h2);
	/* The last setting wins, as in Kconfig. */
	ck_assert_int_eq(kconfig_hash(&tiny, "CONFIG_A=y\nCONFIG_A=m\n", h2), 0);
	ck_assert_str_ne(h1, h2);
	/* The base's content counts, not only its name. */
	ck_assert_int_eq(write_file_atomic(base, "CONFIG_X=m\n", 11), 0);
	ck_assert_int_eq(kconfig_hash(&full, "CONFIG_A=y\n", h4), 0);
	ck_assert_str_ne(h3, h4);
	spec_release(&tiny);
	spec_release(&full);
	free(base);
}
END_TEST

static Suite *kconfig_suite(void)
{
	Suite *s = suite_create("kconfig");
	TCase *tc = tcase_create("kconfig");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_select_by_version, 0,
			    ARRAY_SIZE(select_cases));
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_merge_path_fragment);
	tcase_add_test(tc, test_merge_unknown_fragment);
	tcase_add_test(tc, test_requested);
	tcase_add_loop_test(tc, test_check_dropped, 0, ARRAY_SIZE(check_cases));
	tcase_add_test(tc, test_hash);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kconfig_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
