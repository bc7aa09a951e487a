/*
 * check_inputs.c: the files an image is made from (inputs.c): what a
 * .cmd file names, which changed paths can change the image, the list
 * written and read back, and a build folder scanned whole.
 */
#include "build_warm.h"
#include "inputs.h"
#include "util.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[64];
static char *src, *obj;

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	ck_assert_int_eq(mkdir_p(path, 0755), 0);
	*slash = '/';
	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

static void setup(void)
{
	strcpy(tmp, "/tmp/check_inputs.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	src = xstrfmt("%s/src", tmp);
	obj = xstrfmt("%s/obj", tmp);
	put(src, "block/bio.c", "");
	put(src, "include/linux/blkdev.h", "");
	put(src, "include/linux/kconfig.h", "");
	put(src, "scripts/syscalltbl.sh", "");
	put(src, "arch/x86/entry/syscalls/syscall_64.tbl", "");
	put(src, "block/Kconfig", "");
	put(src, "init/Kconfig", "");
	put(obj, "Makefile", "");
}

static void teardown(void)
{
	remove_tree(tmp);
	free(src);
	free(obj);
}

static int has(const struct kernel_inputs *in, const char *path)
{
	return strvec_index(&in->paths, path) >= 0;
}

/*
 * A dependency list, a source line, -include and -I, a script and its
 * argument in a generated file's command: every file of the tree named,
 * once; folders, generated files and config symbols not.
 */
START_TEST(cmd_names_the_files_of_the_tree)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	char *text = xstrfmt(
		"cmd_block/bio.o := gcc -I%s/include -I./include "
		"-include %s/include/linux/kconfig.h -c -o block/bio.o "
		"%s/block/bio.c\n\n"
		"source_block/bio.o := %s/block/bio.c\n\n"
		"deps_block/bio.o := \\\n"
		"  %s/include/linux/kconfig.h \\\n"
		"    $(wildcard include/config/CPU_BIG_ENDIAN) \\\n"
		"  %s/include/linux/blkdev.h \\\n"
		"  include/generated/autoconf.h \\\n"
		"  %s/include/linux/gone.h \\\n\n"
		"block/bio.o: $(deps_block/bio.o)\n",
		src, src, src, src, src, src, src);
	char *gen = xstrfmt("cmd_arch/x86/include/generated/asm/syscalls_64.h "
			    ":= sh %s/scripts/syscalltbl.sh --abis common,64 "
			    "%s/arch/x86/entry/syscalls/syscall_64.tbl "
			    "arch/x86/include/generated/asm/syscalls_64.h\n",
			    src, src);

	inputs_scan_cmd(&in, text, src, "../src");
	inputs_scan_cmd(&in, gen, src, "../src");
	inputs_scan_cmd(&in, "deps_x.o := \\\n  ../src/init/Kconfig \\\n"
			     "  ../srcx/block/bio.c\n", src, "../src");
	ck_assert_uint_eq(in.paths.nr, 6);
	ck_assert(has(&in, "init/Kconfig"));
	ck_assert(has(&in, "block/bio.c"));
	ck_assert(has(&in, "include/linux/kconfig.h"));
	ck_assert(has(&in, "include/linux/blkdev.h"));
	ck_assert(has(&in, "scripts/syscalltbl.sh"));
	ck_assert(has(&in, "arch/x86/entry/syscalls/syscall_64.tbl"));
	ck_assert(!has(&in, "include"));
	ck_assert(!has(&in, "include/linux/gone.h"));
	inputs_release(&in);
	free(text);
	free(gen);
}
END_TEST

static const struct {
	const char *path;
	int can;
} change_cases[] = {
	{ "block/bio.c", 1 },
	{ "include/linux/blkdev.h", 1 },
	{ "block/blk-core.c", 0 },	    /* not built */
	{ "Documentation/block/index.rst", 0 },
	{ "arch/sparc/include/asm/io.h", 0 },
	{ "Makefile", 1 },		    /* the top is always gone into */
	{ "block/Makefile", 1 },	    /* make went into block/ */
	{ "block/Kbuild", 1 },
	{ "drivers/gpu/drm/amd/Makefile", 0 }, /* never gone into */
	{ "block/Kconfig", 1 },		    /* Kconfig read it */
	{ "arch/sparc/Kconfig", 0 },	    /* never read */
	{ "scripts/Makefile.build", 1 },
	{ "scripts/link-vmlinux.sh", 1 },
	{ "scripts/checkpatch.pl", 0 },	    /* run by hand, never by make */
	{ "kernel/configs/tiny.config", 1 },
	{ "arch/x86/configs/tiny.config", 1 },
	{ "arch/x86/configsx", 0 },
	{ "tools/objtool/check.c", 1 },	    /* objtool rewrites objects */
	{ "tools/perf/builtin-top.c", 0 },
};

START_TEST(which_changes_can_change_the_image)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT;

	inputs_add(&in, "block/bio.c");
	inputs_add(&in, "include/linux/blkdev.h");
	inputs_add(&in, "block/");
	inputs_add(&in, "block/Kconfig");
	inputs_add(&in, "tools/objtool/**");
	ck_assert_msg(inputs_can_change(&in, change_cases[_i].path) ==
			      change_cases[_i].can,
		      "%s", change_cases[_i].path);
	inputs_release(&in);
}
END_TEST

/*
 * A build folder scanned whole: every .cmd file, the folders they are
 * in, the Kconfig files the configuration read, objtool's trees when it
 * was built; written sorted and read back the same.
 */
START_TEST(build_folder_scanned_and_kept)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT, back = KERNEL_INPUTS_INIT;
	/* As ccache's base_dir writes them: relative to the build folder. */
	char *deps = xstrfmt("deps_block/bio.o := %s/block/bio.c \\\n"
			     "  ../src/include/linux/blkdev.h\n",
			     src);
	struct strbuf list = STRBUF_INIT;
	char *file = xstrfmt("%s/inputs", tmp);

	put(obj, "block/.bio.o.cmd", deps);
	put(obj, "block/bio.o", "not read");
	put(obj, "include/config/auto.conf.cmd",
	    "deps_config := \\\n\tblock/Kconfig \\\n\tinit/Kconfig \\\n"
	    "\tarch/gone/Kconfig\n\n"
	    "include/config/auto.conf: $(deps_config)\n");
	put(obj, "tools/objtool/.check.o.cmd", "cmd_x := gcc\n");
	ck_assert_int_eq(inputs_collect(&in, obj, src), 3);
	ck_assert_int_eq(inputs_write(&in, tmp), 0);
	ck_assert_int_eq(read_file(file, &list), 0);
	ck_assert_str_eq(list.buf,
			 "block/\nblock/Kconfig\nblock/bio.c\n"
			 "include/linux/blkdev.h\ninit/Kconfig\ntools/arch/**\n"
			 "tools/build/**\ntools/include/**\ntools/lib/**\n"
			 "tools/objtool/\ntools/objtool/**\n"
			 "tools/scripts/**\n");
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_uint_eq(back.paths.nr, in.paths.nr);
	ck_assert(inputs_can_change(&back, "init/Kconfig"));
	ck_assert(inputs_can_change(&back, "tools/lib/subcmd/exec-cmd.c"));
	inputs_release(&back);
	/* No list: 1, nothing read. */
	ck_assert_int_eq(unlink(file), 0);
	ck_assert_int_eq(inputs_load(&back, tmp), 1);
	ck_assert_uint_eq(back.paths.nr, 0);
	inputs_release(&back);
	inputs_release(&in);
	strbuf_release(&list);
	free(deps);
	free(file);
}
END_TEST

/*
 * What a change costs: each object's .cmd file counts one for every
 * file it names (a header named twice in one still one); a header two
 * objects read costs 2, a .c file 1; what decides what is built, and an
 * input no object reads itself, every object. Kept in `objects` and
 * read back the same; an image's list with no `objects`: not known.
 */
START_TEST(objects_counted_and_kept)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT, back = KERNEL_INPUTS_INIT;
	char *bio = xstrfmt("deps_block/bio.o := %s/block/bio.c \\\n"
			    "  ../src/include/linux/blkdev.h \\\n"
			    "  %s/include/linux/blkdev.h\n",
			    src, src);
	char *core = xstrfmt("deps_block/blk-core.o := %s/block/blk-core.c "
			     "\\\n  %s/include/linux/blkdev.h \\\n"
			     "  %s/include/linux/kconfig.h\n",
			     src, src, src);
	char *gen = xstrfmt("cmd_x := sh %s/scripts/syscalltbl.sh "
			    "%s/arch/x86/entry/syscalls/syscall_64.tbl\n",
			    src, src);
	struct strbuf list = STRBUF_INIT;
	char *file = xstrfmt("%s/objects", tmp);

	put(src, "block/blk-core.c", "");
	put(obj, "block/.bio.o.cmd", bio);
	put(obj, "block/.blk-core.o.cmd", core);
	put(obj, "arch/x86/include/generated/asm/.syscalls_64.h.cmd", gen);
	put(obj, "tools/objtool/.check.o.cmd", "cmd_x := gcc\n");
	ck_assert_int_eq(inputs_collect(&in, obj, src), 4);
	ck_assert_int_eq(in.nr_objects, 2);
	ck_assert_int_eq(inputs_objects(&in, "include/linux/blkdev.h"), 2);
	ck_assert_int_eq(inputs_objects(&in, "include/linux/kconfig.h"), 1);
	ck_assert_int_eq(inputs_objects(&in, "block/bio.c"), 1);
	ck_assert_int_eq(inputs_objects(&in, "block/Makefile"), 2);
	ck_assert_int_eq(inputs_objects(&in, "scripts/Makefile.build"), 2);
	ck_assert_int_eq(inputs_objects(&in, "tools/objtool/check.c"), 2);
	ck_assert_int_eq(
		inputs_objects(&in, "arch/x86/entry/syscalls/syscall_64.tbl"),
		2);
	ck_assert_int_eq(inputs_objects(&in, "Documentation/block/x.rst"), 0);
	ck_assert_int_eq(inputs_objects(&in, "block/blk-mq.c"), 0);
	/* Which objects: bio.o and blk-core.o in the order nftw met them. */
	const uint64_t *b = inputs_object_bits(&in, "block/bio.c");
	const uint64_t *c = inputs_object_bits(&in, "block/blk-core.c");
	const uint64_t *h = inputs_object_bits(&in, "include/linux/blkdev.h");
	ck_assert(b && c && h);
	ck_assert(b[0] == 1 || b[0] == 2);
	ck_assert_uint_eq(b[0] | c[0], 3);
	ck_assert_uint_eq(h[0], 3);
	ck_assert_ptr_null(inputs_object_bits(&in, "block/Makefile"));
	ck_assert_int_eq(inputs_write(&in, tmp), 0);
	ck_assert_int_eq(read_file(file, &list), 0);
	ck_assert_str_eq(list.buf,
			 b[0] == 1 ? "2\n1\tblock/bio.c\t1\n"
				     "1\tblock/blk-core.c\t2\n"
				     "2\tinclude/linux/blkdev.h\t3\n"
				     "1\tinclude/linux/kconfig.h\t2\n"
				   : "2\n1\tblock/bio.c\t2\n"
				     "1\tblock/blk-core.c\t1\n"
				     "2\tinclude/linux/blkdev.h\t3\n"
				     "1\tinclude/linux/kconfig.h\t1\n");
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_int_eq(back.nr_objects, 2);
	ck_assert_int_eq(inputs_objects(&back, "include/linux/blkdev.h"), 2);
	ck_assert_int_eq(inputs_objects(&back, "block/bio.c"), 1);
	ck_assert_uint_eq(inputs_object_bits(&back, "block/bio.c")[0], b[0]);
	ck_assert_uint_eq(
		inputs_object_bits(&back, "include/linux/blkdev.h")[0], 3);
	/* A second image numbers its objects its own way: counts only. */
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_int_eq(inputs_objects(&back, "block/bio.c"), 1);
	ck_assert_ptr_null(inputs_object_bits(&back, "block/bio.c"));
	inputs_release(&back);
	/* Kept before objects were counted: not known. */
	ck_assert_int_eq(unlink(file), 0);
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_int_eq(inputs_objects(&back, "block/bio.c"), -1);
	inputs_release(&back);
	/* Kept without which objects: the counts, no bits. */
	ck_assert_int_eq(write_file_atomic(file, "2\n1\tblock/bio.c\n", 16),
			 0);
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_int_eq(inputs_objects(&back, "block/bio.c"), 1);
	ck_assert_ptr_null(inputs_object_bits(&back, "block/bio.c"));
	inputs_release(&back);
	/*
	 * A line that is not a count and a path: the file is named, the
	 * counts are not known, the list stands.
	 */
	ck_assert_int_eq(write_file_atomic(file, "2\nblock/bio.c\n", 15), 0);
	ck_assert_int_eq(inputs_load(&back, tmp), 0);
	ck_assert_uint_eq(back.paths.nr, in.paths.nr);
	ck_assert_int_eq(inputs_objects(&back, "block/bio.c"), -1);
	inputs_release(&back);
	inputs_release(&in);
	strbuf_release(&list);
	free(bio);
	free(core);
	free(gen);
	free(file);
}
END_TEST

/* A commit's diff from the reference: "path=blob" pairs, sorted. */
static void delta(struct warm_delta *d, const char *const *pairs)
{
	*d = (struct warm_delta)WARM_DELTA_INIT;
	for (; *pairs; pairs++) {
		const char *eq = strchr(*pairs, '=');
		char *path = xstrndup(*pairs, (size_t)(eq - *pairs));
		strvec_push(&d->paths, path);
		strvec_push(&d->blobs, eq + 1);
		free(path);
	}
}

static void count_path(const char *path, void *arg)
{
	struct strvec *seen = arg;
	strvec_push(seen, path);
}

/*
 * What ccache holds, in commits: of 5 objects, a.h feeds 0 and 1, b.h 2
 * and 3, x.c 0, y.c 4. c0 is before a change to a.h and one to b.h, the
 * reference (the bad endpoint) after both, c1 between them: c1 differs
 * from c0 in a.h (2 objects) and from the reference in b.h (2), and with
 * both built every object of c1 is one ccache holds: 0, where the
 * cheapest folder says 2. c1x also changes x.c, which both differ in:
 * its object 0 only. A folder half-way between c0 and the reference
 * holds neither whole: what either differs in (4).
 */
START_TEST(built_commits_cost_what_every_one_differs_in)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	struct warm_delta ref, c0, c1, c1x, mk;
	struct warm_built two[2], mix[1], one[1];
	struct strvec seen = STRVEC_INIT;

	inputs_add(&in, "a.h");
	inputs_add(&in, "b.h");
	inputs_add(&in, "x.c");
	inputs_add(&in, "y.c");
	in.nr_objects = 5;
	in.objects[0] = 2;
	in.objects[1] = 2;
	in.objects[2] = 1;
	in.objects[3] = 1;
	in.words = 1;
	in.rows = 4;
	in.bits = xcalloc(4, sizeof(*in.bits));
	in.bits[0] = 0x3;
	in.bits[1] = 0xc;
	in.bits[2] = 0x1;
	in.bits[3] = 0x10;
	delta(&ref, (const char *[]){NULL});
	delta(&c0, (const char *[]){"a.h=100644 a0", "b.h=100644 b0", NULL});
	delta(&c1, (const char *[]){"b.h=100644 b0", NULL});
	delta(&c1x, (const char *[]){"b.h=100644 b0", "x.c=100644 x1", NULL});
	delta(&mk, (const char *[]){"Makefile=100644 m1", NULL});

	/* Where two commits differ: b.h holds b0 in both, a.h in c0 only. */
	build_warm_differ(&c0, &c1, count_path, &seen);
	ck_assert_uint_eq(seen.nr, 1);
	ck_assert_str_eq(seen.v[0], "a.h");
	strvec_clear(&seen);
	build_warm_differ(&c1x, &ref, count_path, &seen);
	ck_assert_uint_eq(seen.nr, 2);
	strvec_clear(&seen);

	two[0] = (struct warm_built){{&c0, NULL}};
	two[1] = (struct warm_built){{&ref, NULL}};
	ck_assert_int_eq(build_warm_cost(&in, &c1, two, 1), 2);
	ck_assert_int_eq(build_warm_cost(&in, &c1, two + 1, 1), 2);
	ck_assert_int_eq(build_warm_cost(&in, &c1, two, 2), 0);
	ck_assert_int_eq(build_warm_cost(&in, &c1x, two, 2), 1);
	/* A built commit the same as c1 in every input: nothing. */
	ck_assert_int_eq(build_warm_cost(&in, &c1, (struct warm_built[]){{{&c1, NULL}}}, 1), 0);
	mix[0] = (struct warm_built){{&c0, &ref}};
	ck_assert_int_eq(build_warm_cost(&in, &c1, mix, 1), 4);
	/* What decides what is built: every object, from every commit. */
	one[0] = (struct warm_built){{&ref, NULL}};
	ck_assert_int_eq(build_warm_cost(&in, &mk, one, 1), 5);
	ck_assert_int_eq(build_warm_cost(&in, &mk, two, 2), 5);
	/* Nothing built, or objects not said which: not known. */
	ck_assert_int_eq(build_warm_cost(&in, &c1, two, 0), -1);
	free(in.bits);
	in.bits = NULL;
	ck_assert_int_eq(build_warm_cost(&in, &c1, two, 2), -1);

	warm_delta_release(&ref);
	warm_delta_release(&c0);
	warm_delta_release(&c1);
	warm_delta_release(&c1x);
	warm_delta_release(&mk);
	inputs_release(&in);
}
END_TEST

static Suite *inputs_suite(void)
{
	Suite *s = suite_create("inputs");
	TCase *tc = tcase_create("inputs");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, cmd_names_the_files_of_the_tree);
	tcase_add_loop_test(tc, which_changes_can_change_the_image, 0,
			    ARRAY_SIZE(change_cases));
	tcase_add_test(tc, build_folder_scanned_and_kept);
	tcase_add_test(tc, objects_counted_and_kept);
	tcase_add_test(tc, built_commits_cost_what_every_one_differs_in);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(inputs_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
