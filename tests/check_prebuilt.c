/*
 * check_prebuilt.c: prebuilt images (prebuilt.c): the names a commit's
 * image is looked for under, in order, one per tag where a name uses
 * {tag}; and what is taken for a bzImage. Fetching through kbuild_image
 * is in check_kbuild.c, on its fake repository.
 */
#include "prebuilt.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define C "0123456789abcdef0123456789abcdef01234567"

static const struct {
	const char *names; /* comma-separated templates */
	const char *tags;  /* comma-separated, "" for none */
	const char *want;  /* comma-separated candidates */
} candidate_cases[] = {
	{"{commit}/bzImage", "", C "/bzImage"},
	{"{short}.bzImage", "v6.1", "0123456789ab.bzImage"},
	/* One candidate per tag, in the tags' order. */
	{"{tag}/bzImage,{commit}", "v6.1,linux-6.1.y",
	 "v6.1/bzImage,linux-6.1.y/bzImage," C},
	/* A {tag} name gives an untagged commit nothing. */
	{"{tag}.bzImage", "", ""},
	/* The same name twice is looked for once. */
	{"{commit},{commit}", "", C},
	{"vmlinuz-{tag}-{short}", "v2.6.7", "vmlinuz-v2.6.7-0123456789ab"},
};

static char *joined(const struct strvec *sv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", sv->v[i]);
	return strbuf_detach(&sb);
}

START_TEST(test_candidates)
{
	struct strvec names = STRVEC_INIT, tags = STRVEC_INIT,
		      out = STRVEC_INIT;
	char *got;

	strvec_split(&names, candidate_cases[_i].names, ',');
	strvec_split(&tags, candidate_cases[_i].tags, ',');
	prebuilt_candidates(&out, &names, C, &tags);
	got = joined(&out);
	ck_assert_str_eq(got, candidate_cases[_i].want);
	free(got);
	strvec_clear(&names);
	strvec_clear(&tags);
	strvec_clear(&out);
}
END_TEST

START_TEST(test_is_bzimage)
{
	char data[0x400] = {0};

	ck_assert(!prebuilt_is_bzimage(data, sizeof(data)));
	memcpy(data + 0x202, "HdrS", 4);
	ck_assert(prebuilt_is_bzimage(data, sizeof(data)));
	/* Too short to hold the header. */
	ck_assert(!prebuilt_is_bzimage(data, 0x204));
	ck_assert(!prebuilt_is_bzimage("\177ELF", 4));
}
END_TEST

static Suite *prebuilt_suite(void)
{
	Suite *s = suite_create("prebuilt");
	TCase *tc = tcase_create("prebuilt");
	tcase_add_loop_test(tc, test_candidates, 0,
			    ARRAY_SIZE(candidate_cases));
	tcase_add_test(tc, test_is_bzimage);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prebuilt_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
