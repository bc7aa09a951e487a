/*
 * check_toolenv.c: toolchain environments (toolenv.c): the command line
 * that runs a build step on the host, behind a prefix or in a chroot; the
 * identity that keeps two environments' images apart in the build cache;
 * and a real command run behind a real prefix.
 */
#include "toolenv.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static void env_prefix(struct toolenv *env, const char *words)
{
	memset(env, 0, sizeof(*env));
	env->kind = TOOLENV_PREFIX;
	strvec_split(&env->prefix, words, ' ');
}

static char *joined(const struct strvec *sv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sv->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", sv->v[i]);
	return strbuf_detach(&sb);
}

static const char *const make[] = {"make", "-C/s", "O=/o", "bzImage", NULL};
static const char *const vars[] = {"LANG=C", "KBUILD_BUILD_USER=iobisect",
				   NULL};

START_TEST(test_argv)
{
	struct toolenv host = {0}, chroot = {0}, podman;
	struct strvec out = STRVEC_INIT;
	char *s;

	/* The host: the command as it is; its environment goes by run_opts. */
	toolenv_argv(&out, &host, "/s", "/o", vars, make);
	s = joined(&out);
	ck_assert_str_eq(s, "make -C/s O=/o bzImage");
	free(s);
	strvec_clear(&out);

	env_prefix(&podman, "podman run --rm -v {src}:{src} -v {out}:{out} "
			    "gcc:4.9");
	toolenv_argv(&out, &podman, "/s", "/o", vars, make);
	s = joined(&out);
	ck_assert_str_eq(s, "podman run --rm -v /s:/s -v /o:/o gcc:4.9 env "
			    "LANG=C KBUILD_BUILD_USER=iobisect make -C/s O=/o "
			    "bzImage");
	free(s);
	strvec_clear(&out);

	/* No variables: no env in between. */
	toolenv_argv(&out, &podman, "/s", "/o", NULL, make);
	ck_assert_str_eq(out.v[8], "make");
	strvec_clear(&out);

	chroot.kind = TOOLENV_CHROOT;
	chroot.root = xstrdup("/srv/jessie");
	toolenv_argv(&out, &chroot, "/s", "/o", vars, make);
	s = joined(&out);
	ck_assert_str_eq(s,
			 "chroot /srv/jessie env LANG=C "
			 "KBUILD_BUILD_USER=iobisect make -C/s O=/o bzImage");
	free(s);
	strvec_clear(&out);
	toolenv_release(&chroot);
	toolenv_release(&podman);
}
END_TEST

START_TEST(test_id)
{
	struct toolenv host = {0}, chroot = {0}, other = {0}, schroot;
	const char *v11 = "gcc-11 (Debian 11.3.0-12) 11.3.0\n...";
	const char *v49 = "gcc-4.9 (Debian 4.9.2-10+deb8u2) 4.9.2\n...";
	char *a, *b;

	a = toolenv_id(&host, v11, NULL);
	ck_assert_str_eq(a, "");
	free(a);

	chroot.kind = other.kind = TOOLENV_CHROOT;
	chroot.root = xstrdup("/srv/bookworm");
	other.root = xstrdup("/srv/jessie");
	env_prefix(&schroot, "schroot -c jessie --");

	/* The same environment and versions: the same identity. */
	a = toolenv_id(&chroot, v11, NULL);
	b = toolenv_id(&chroot, v11, NULL);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "env=chroot:/srv/bookworm id="));
	free(b);
	/* Another compiler in the same folder (the chroot was upgraded). */
	b = toolenv_id(&chroot, v49, NULL);
	ck_assert_str_ne(a, b);
	free(b);
	/* Another folder with the same compiler. */
	b = toolenv_id(&other, v11, NULL);
	ck_assert_str_ne(a, b);
	free(b);
	free(a);

	/* A container's digest tells two images of one tag apart. */
	a = toolenv_id(&schroot, v49, "sha256:aaaa\n");
	b = toolenv_id(&schroot, v49, "sha256:bbbb\n");
	ck_assert_str_ne(a, b);
	ck_assert_ptr_nonnull(strstr(a, "env=schroot -c jessie -- id="));
	free(a);
	free(b);
	toolenv_release(&chroot);
	toolenv_release(&other);
	toolenv_release(&schroot);
}
END_TEST

/* A real program behind a real prefix, the folders substituted. */
START_TEST(test_output_through_prefix)
{
	struct toolenv env;
	struct strbuf out = STRBUF_INIT;
	const char *const argv[] = {"sh", "-c", "echo \"$IOB_OUT\"", NULL};

	env_prefix(&env, "env IOB_OUT={out}");
	ck_assert_int_eq(toolenv_output(&env, "/t/src", "/t/obj", argv, &out),
			 0);
	ck_assert_str_eq(out.buf, "/t/obj\n");
	strbuf_release(&out);
	toolenv_release(&env);

	/* A prefix that fails says so, naming the environment. */
	env_prefix(&env, "false");
	error_capture(&out);
	ck_assert_int_eq(toolenv_output(&env, "/s", "/o", argv, &out), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(out.buf, "'sh' failed in false"));
	strbuf_release(&out);
	toolenv_release(&env);
}
END_TEST

static Suite *toolenv_suite(void)
{
	Suite *s = suite_create("toolenv");
	TCase *tc = tcase_create("toolenv");
	tcase_add_test(tc, test_argv);
	tcase_add_test(tc, test_id);
	tcase_add_test(tc, test_output_through_prefix);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(toolenv_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
