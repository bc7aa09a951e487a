/*
 * completion.c: the bash completion script, from the tables
 * (completion.h). Static words, so completing costs no run of the
 * program; the presets are the data folder's when it was made, which
 * is the installed one's (both come from the same qemu/ folder).
 */
#include "completion.h"
#include "commands.h"
#include "job_datadir.h"
#include "job_keys.h"
#include "util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* Placeholders whose value is a file or folder to complete. */
static int takes_path(const char *argh)
{
	static const char *const paths[] = {"DIR",     "PATH",	 "FILE",
					    "BZIMAGE", "CONFIG", "tiny|CONFIG"};
	for (size_t i = 0; argh && i < ARRAY_SIZE(paths); i++)
		if (!strcmp(argh, paths[i]))
			return 1;
	return 0;
}

struct command_words {
	struct strbuf *opts;  /* the command's options */
	struct strvec *paths; /* options whose value is a path, any command */
};

static void command_words(const char *cmd, const char *synopsis,
			  const struct opt *opts, void *payload)
{
	struct command_words *w = payload;

	(void)cmd;
	(void)synopsis;
	for (const struct opt *o = opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_ARG || !o->help)
			continue;
		strbuf_addf(w->opts, "%s%s", w->opts->len ? " " : "", o->name);
		if (takes_path(o->argh) && strvec_index(w->paths, o->name) < 0)
			strvec_push(w->paths, o->name);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The presets: qemu/NAME.json in the data folder, sorted. */
static void presets(struct strbuf *out)
{
	char *dir = xstrfmt("%s/qemu", job_data_dir());
	struct strvec names = STRVEC_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] != '.' && n > 5 &&
		    !strcmp(e->d_name + n - 5, ".json"))
			strvec_pushf(&names, "%.*s", (int)(n - 5), e->d_name);
	}
	if (d)
		closedir(d);
	qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", names.v[i]);
	strvec_clear(&names);
	free(dir);
}

/* The keys --set takes: every key that holds a value, as "key=". */
static void set_keys(struct strbuf *out)
{
	for (const struct job_key *k = job_keys; k->key; k++)
		if (k->type != JK_SECTION)
			strbuf_addf(out, "%s%s=", out->len ? " " : "", k->key);
}

int completion_bash(struct strbuf *out)
{
	struct strbuf words = STRBUF_INIT, opts = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	int ret = 0;

	strbuf_addstr(
		out,
		"# bash completion for iobisect(1). Made by `iobisect help "
		"--completion`\n"
		"# from the program's tables of commands, options and job "
		"keys; do not edit.\n\n"
		"_iobisect()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		"prev=${COMP_WORDS[COMP_CWORD-1]} words=\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		"\t\twords=\"");
	for (const struct command *c = commands; c->name; c++)
		strbuf_addf(out, "%s ", c->name);
	strbuf_addstr(out,
		      "help --version\"\n"
		      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		      "\t\treturn\n\tfi\n"
		      "\tcase $prev in\n\t--set)\n\t\twords=\"");
	set_keys(&words);
	strbuf_addf(out, "%s\"\n", words.buf);
	strbuf_addstr(out,
		      "\t\tcompopt -o nospace 2>/dev/null\n"
		      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		      "\t\treturn\n\t\t;;\n\t--topology)\n\t\twords=\"");
	strbuf_reset(&words);
	presets(&words);
	strbuf_addf(out, "%s\"\n", words.buf);
	strbuf_addstr(out,
		      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		      "\t\treturn\n\t\t;;\n");

	/* Each command's options; the options taking a path, any command's. */
	strbuf_reset(&words);
	for (const struct command *c = commands; c->name; c++) {
		struct command_words w = {&opts, &paths};
		strbuf_reset(&opts);
		if (command_read_table(c, command_words, &w)) {
			ret = -1;
			goto out;
		}
		strbuf_addf(&words, "\t%s) words=\"%s\" ;;\n", c->name,
			    opts.buf);
	}
	for (size_t i = 0; i < paths.nr; i++)
		strbuf_addf(out, "%s%s", i ? "|" : "\t", paths.v[i]);
	if (paths.nr)
		strbuf_addstr(out,
			      ")\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
			      "\t\treturn\n\t\t;;\n");
	strbuf_addstr(out, "\tesac\n\tcase ${COMP_WORDS[1]} in\n");
	strbuf_addstr(out, words.buf);
	strbuf_addstr(out, "\thelp)\n\t\twords=\"");
	for (const struct command *c = commands; c->name; c++)
		strbuf_addf(out, "%s ", c->name);
	strbuf_addstr(out,
		      "job\"\n"
		      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		      "\t\treturn\n\t\t;;\n\tesac\n"
		      "\tif [[ $cur == -* ]]; then\n"
		      "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		      "\telse\n"
		      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		      "\tfi\n}\n"
		      "complete -F _iobisect iobisect\n");
out:
	strbuf_release(&words);
	strbuf_release(&opts);
	strvec_clear(&paths);
	return ret;
}
