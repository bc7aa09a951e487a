/*
 * check_manpage.c: the man pages and the bash completion are their
 * tables' (manpage.c, completion.c): docs/man/ and docs/completion/ hold
 * what `make man` writes, so an option, a command or a job key added,
 * renamed or given new help without them fails here, as docs/job.md's
 * reference does in check_job.c. Every command shows its table when
 * asked, and a page names each of its options.
 */
#include "commands.h"
#include "completion.h"
#include "job.h"
#include "manpage.h"
#include "util.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(pages_are_the_tables)
{
	struct strvec names = STRVEC_INIT;
	struct strbuf page = STRBUF_INIT, doc = STRBUF_INIT;
	size_t files = 0;
	DIR *d;
	struct dirent *e;

	manpage_names(&names);
	/* iobisect(1), a page per command, iobisect-job(5). */
	size_t nr_commands = 0;
	for (const struct command *c = commands; c->name; c++)
		nr_commands++;
	ck_assert_uint_eq(names.nr, nr_commands + 2);
	for (size_t i = 0; i < names.nr; i++) {
		char *path = xstrfmt("docs/man/%s", names.v[i]);
		strbuf_reset(&page);
		strbuf_reset(&doc);
		ck_assert_int_eq(manpage_write(&page, names.v[i]), 0);
		ck_assert_msg(!read_file(path, &doc), "no %s: run make man",
			      path);
		ck_assert_msg(!strcmp(doc.buf, page.buf),
			      "%s is not `iobisect help --man %s`: run make "
			      "man",
			      path, names.v[i]);
		free(path);
	}
	/* No page is left of a command that went. */
	d = opendir("docs/man");
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			ck_assert_msg(strvec_index(&names, e->d_name) >= 0,
				      "docs/man/%s is no page of the program's",
				      e->d_name);
			files++;
		}
	closedir(d);
	ck_assert_uint_eq(files, names.nr);
	struct strbuf quiet = STRBUF_INIT, *prev = error_capture(&quiet);
	ck_assert_int_eq(manpage_write(&page, "iobisect-nosuch.1"), -1);
	error_capture(prev);
	strbuf_release(&quiet);
	strvec_clear(&names);
	strbuf_release(&page);
	strbuf_release(&doc);
}
END_TEST

/* `text` as roff writes it: every '-' is "\-". */
static char *as_roff(const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *text; text++)
		if (*text == '-')
			strbuf_addstr(&sb, "\\-");
		else
			strbuf_addch(&sb, *text);
	return strbuf_detach(&sb);
}

static void assert_on_page(const struct strbuf *page, const char *name,
			   const char *text)
{
	char *r = as_roff(text);

	ck_assert_msg(strstr(page->buf, r), "%s does not hold '%s'", name,
		      text);
	free(r);
}

/*
 * The pages hold the whole interface (man-pages(7)): every page has
 * EXAMPLES, the job's every key of a workload engine and a topology, the
 * engines and each preset; build's says where its images are kept and
 * what it prints; a page names the documentation where it is installed.
 */
START_TEST(pages_hold_the_interface)
{
	struct strvec names = STRVEC_INIT, presets = STRVEC_INIT;
	struct strbuf page = STRBUF_INIT;
	static const char *const job_words[] = {
		".SH WORKLOAD", ".SH TOPOLOGY", ".SH PRESETS", "workload.engine",
		"workload.bs_kb", "workload.size_mb", "workload.target",
		"workload.fadvise", "topology.preset", "topology.extra_layers",
		"latency_ns", "stripe_cache", "seqread", "seqwrite", "rawread",
		"bonnie", "fio", ".SH FILES", "IOBISECT_DATA",
	};

	manpage_names(&names);
	for (size_t i = 0; i < names.nr; i++) {
		strbuf_reset(&page);
		ck_assert_int_eq(manpage_write(&page, names.v[i]), 0);
		assert_on_page(&page, names.v[i], ".SH EXAMPLES\n");
		assert_on_page(&page, names.v[i], "/usr/share/doc/iobisect/");
		ck_assert_msg(!strstr(page.buf, " docs/"),
			      "%s points to the source tree's docs/",
			      names.v[i]);
	}
	strbuf_reset(&page);
	ck_assert_int_eq(manpage_write(&page, "iobisect-job.5"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(job_words); i++)
		assert_on_page(&page, "iobisect-job.5", job_words[i]);
	job_presets(&presets);
	ck_assert_uint_ge(presets.nr, 8);
	for (size_t i = 0; i < presets.nr; i++) {
		char *entry = xstrfmt(".TP\n.B %s\n", presets.v[i]);
		assert_on_page(&page, "iobisect-job.5", entry);
		free(entry);
	}
	/* A preset's own description follows its name. */
	assert_on_page(&page, "iobisect-job.5", "md RAID5 (64K chunk");
	strbuf_reset(&page);
	ck_assert_int_eq(manpage_write(&page, "iobisect-build.1"), 0);
	assert_on_page(&page, "iobisect-build.1", "image PATH");
	assert_on_page(&page, "iobisect-build.1",
		       "~/.cache/iobisect/images/KEY/");
	assert_on_page(&page, "iobisect-build.1", ".SH FILES");
	strbuf_reset(&page);
	ck_assert_int_eq(manpage_write(&page, "iobisect-upload.1"), 0);
	assert_on_page(&page, "iobisect-upload.1", "IOBISECT_UPLOAD_TOKEN");
	strbuf_reset(&page);
	ck_assert_int_eq(manpage_write(&page, "iobisect-test.1"), 0);
	assert_on_page(&page, "iobisect-test.1", "git bisect run iobisect test");
	strvec_clear(&names);
	strvec_clear(&presets);
	strbuf_release(&page);
}
END_TEST

START_TEST(completion_is_the_tables)
{
	struct strbuf script = STRBUF_INIT, doc = STRBUF_INIT;

	ck_assert_int_eq(completion_bash(&script), 0);
	ck_assert_int_eq(read_file("docs/completion/iobisect.bash", &doc), 0);
	ck_assert_msg(!strcmp(doc.buf, script.buf),
		      "docs/completion/iobisect.bash is not `iobisect help "
		      "--completion`: run make man");
	/* What a user completes: a command, an option, a key, a preset. */
	ck_assert_ptr_nonnull(strstr(script.buf, " sweep "));
	ck_assert_ptr_nonnull(strstr(script.buf, "--destroy-data-on"));
	ck_assert_ptr_nonnull(strstr(script.buf, " runs.max= "));
	ck_assert_ptr_nonnull(strstr(script.buf, " raid5-4 "));
	strbuf_release(&script);
	strbuf_release(&doc);
}
END_TEST

/*
 * What the completion offers for the command line `words` (bash words,
 * the last the one completed) in folder `dir`, one a line: the script
 * run by bash as bash runs it, no user's set-up read.
 */
static void complete(const char *dir, const char *words, struct strbuf *out)
{
	struct strbuf script = STRBUF_INIT;
	char *file = xstrfmt("%s/iobisect.bash", dir), *cmd;
	char buf[4096];
	size_t n;
	FILE *f;

	ck_assert_int_eq(completion_bash(&script), 0);
	ck_assert_int_eq(write_file_atomic(file, script.buf, script.len), 0);
	cmd = xstrfmt("cd '%s' && bash --norc -c 'source ./iobisect.bash && "
		      "COMP_WORDS=(%s) && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) "
		      "&& { _iobisect; printf \"%%s\\n\" \"${COMPREPLY[@]}\"; }'",
		      dir, words);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	strbuf_reset(out);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		strbuf_add(out, buf, n);
	ck_assert_int_eq(pclose(f), 0);
	free(cmd);
	free(file);
	strbuf_release(&script);
}

static void assert_offers(const char *dir, const char *words, const char *want)
{
	struct strbuf out = STRBUF_INIT, all = STRBUF_INIT;
	char *line = xstrfmt("\n%s\n", want);

	complete(dir, words, &out);
	strbuf_addch(&all, '\n');
	strbuf_addstr(&all, out.buf);
	ck_assert_msg(strstr(all.buf, line), "iobisect %s<TAB> offers no '%s':%s",
		      words, want, all.buf);
	strbuf_release(&out);
	strbuf_release(&all);
	free(line);
}

/*
 * Values, not only options: the engines, the presets, an enum key's
 * values after --set KEY= (as one word, and as bash splits it at '='),
 * the workload's and the topology's keys, and a revision's refs from
 * the repository the command line names, a hostile ref's name quoted.
 */
START_TEST(completion_offers_values)
{
	char tmpl[] = "/tmp/check-completion.XXXXXX";
	char *dir = mkdtemp(tmpl), *cmd, *job;
	struct strbuf out = STRBUF_INIT;

	ck_assert_ptr_nonnull(dir);
	assert_offers(dir, "iobisect run --workload \"\"", "rawread");
	assert_offers(dir, "iobisect run --workload \"\"", "fio");
	assert_offers(dir, "iobisect run --topology \"\"", "raid5-4");
	assert_offers(dir, "iobisect run --set \"\"", "workload.bs_kb=");
	assert_offers(dir, "iobisect run --set \"\"", "workload.engine=");
	assert_offers(dir, "iobisect run --set \"\"",
		      "topology.disks.latency_ns=");
	assert_offers(dir, "iobisect run --set \"\"", "topology.preset=");
	assert_offers(dir, "iobisect run --set machine.accel=k",
		      "machine.accel=kvm");
	assert_offers(dir, "iobisect run --set machine.accel = \"\"", "tcg");
	assert_offers(dir, "iobisect run --set machine.accel =", "auto");
	assert_offers(dir, "iobisect run --set workload.engine=", "workload.engine=bonnie");
	assert_offers(dir, "iobisect run --set topology.preset=", "topology.preset=virtio");
	assert_offers(dir, "iobisect run --set workload.fadvise = \"\"", "dontneed");

	/* A repository with a branch, and a ref named as shell code. */
	cmd = xstrfmt("cd '%s' && git init -q repo && cd repo && "
		      "git -c user.name=t -c user.email=t@t commit -q "
		      "--allow-empty -m one && git branch slow-branch && "
		      "git update-ref 'refs/heads/$(touch${IFS}pwned)' HEAD",
		      dir);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	assert_offers(dir, "iobisect build --repo repo --commit s", "slow-branch");
	/* The job file's "repo", when the command line names no --repo. */
	job = xstrfmt("%s/job.json", dir);
	cmd = xstrfmt("{\"repo\": \"%s/repo\", \"topology\": \"virtio\"}\n", dir);
	ck_assert_int_eq(write_file_atomic(job, cmd, strlen(cmd)), 0);
	free(cmd);
	assert_offers(dir, "iobisect measure job.json --commit \"\"", "slow-branch");
	assert_offers(dir, "iobisect run job.json --set bad=sl", "bad=slow-branch");
	assert_offers(dir, "iobisect measure job.json --commit \"\"",
		      "\\$\\(touch\\$\\{IFS\\}pwned\\)");
	complete(dir, "iobisect measure job.json --commit \"\"", &out);
	cmd = xstrfmt("%s/pwned", dir);
	ck_assert_msg(!file_exists(cmd), "a ref's name ran");
	free(cmd);
	cmd = xstrfmt("rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	free(job);
	strbuf_release(&out);
}
END_TEST

struct seen {
	struct strbuf page;
	int options;
};

static void count_options(const char *cmd, const char *synopsis,
			  const struct opt *opts, void *payload)
{
	struct seen *s = payload;

	(void)cmd;
	(void)synopsis;
	for (const struct opt *o = opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_ARG || !o->help)
			continue;
		s->options++;
		/* As roff writes it: every '-' is "\-". */
		struct strbuf name = STRBUF_INIT;
		for (const char *p = o->name; *p; p++)
			if (*p == '-')
				strbuf_addstr(&name, "\\-");
			else
				strbuf_addch(&name, *p);
		ck_assert_msg(strstr(s->page.buf, name.buf),
			      "%s: %s not on its page", cmd, o->name);
		strbuf_release(&name);
	}
}

/* Each command shows its table when asked, and its page lists it whole. */
START_TEST(every_command_shows_its_table)
{
	for (const struct command *c = commands; c->name; c++) {
		struct seen s = {STRBUF_INIT, 0};
		char *name = xstrfmt("iobisect-%s.1", c->name);
		ck_assert_int_eq(manpage_write(&s.page, name), 0);
		ck_assert_int_eq(command_read_table(c, count_options, &s), 0);
		ck_assert_msg(s.options || !strcmp(c->name, "version"),
			      "%s shows no options", c->name);
		strbuf_release(&s.page);
		free(name);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manpage");
	TCase *tc = tcase_create("manpage");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, pages_are_the_tables);
	tcase_add_test(tc, pages_hold_the_interface);
	tcase_add_test(tc, completion_is_the_tables);
	tcase_add_test(tc, completion_offers_values);
	tcase_add_test(tc, every_command_shows_its_table);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
