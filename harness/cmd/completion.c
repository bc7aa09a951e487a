/*
 * completion.c: the bash completion script, from the tables
 * (completion.h). Static words, so completing costs no run of the
 * program; the presets are the data folder's when it was made, which
 * is the installed one's (both come from the same qemu/ folder). Every
 * word is quoted for bash, and a preset is listed only by a name a job
 * may give (job_presets): a file named as shell code never runs.
 */
#include "completion.h"
#include "commands.h"
#include "job.h"
#include "job_keys.h"
#include "util.h"

#include <ctype.h>
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

/*
 * One word as the script's bash reads it twice: compgen -W expands each
 * word of its list (variables, $(...), quotes), and a case pattern
 * matches * and [. Every character but the plainest is escaped, so a
 * word is offered as it is, never run or split.
 */
static void add_escaped(struct strbuf *out, const char *w)
{
	for (; *w; w++) {
		if (!isalnum((unsigned char)*w) && !strchr("-_.=,/+:@%", *w))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *w);
	}
}

/* A word on a list for compgen -W: escaped, after a blank. */
static void add_word(struct strbuf *list, const char *w)
{
	if (list->len)
		strbuf_addch(list, ' ');
	add_escaped(list, w);
}

/* `list` as one single-quoted word of the script: nothing in it expands. */
static void add_quoted(struct strbuf *out, const char *list)
{
	strbuf_addch(out, '\'');
	for (; *list; list++)
		if (*list == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *list);
	strbuf_addch(out, '\'');
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
		add_word(w->opts, o->name);
		if (takes_path(o->argh) && strvec_index(w->paths, o->name) < 0)
			strvec_push(w->paths, o->name);
	}
	add_word(w->opts, "--help"); /* every command's (options.h) */
}

/* The presets the data folder holds (job_presets: only safe names). */
static void presets(struct strbuf *out)
{
	struct strvec names = STRVEC_INIT;

	job_presets(&names);
	for (size_t i = 0; i < names.nr; i++)
		add_word(out, names.v[i]);
	strvec_clear(&names);
}

/* The keys --set takes: every key that holds a value, as "key=". */
static void set_keys(struct strbuf *out)
{
	for (const struct job_key *k = job_keys; k->key; k++)
		if (k->type != JK_SECTION) {
			char *w = xstrfmt("%s=", k->key);
			add_word(out, w);
			free(w);
		}
}

/* The commands' names. */
static void command_names(struct strbuf *out)
{
	for (const struct command *c = commands; c->name; c++)
		add_word(out, c->name);
}

/* `words=<list>`, the list quoted, as each branch sets it. */
static void set_words(struct strbuf *out, const char *indent,
		      const struct strbuf *list)
{
	strbuf_addf(out, "%swords=", indent);
	add_quoted(out, list->buf);
}

static const char reply[] =
	"\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n";

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
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n");
	command_names(&words);
	add_word(&words, "help");
	add_word(&words, "--version");
	set_words(out, "\t\t", &words);
	strbuf_addf(out, "\n%s\t\treturn\n\tfi\n\tcase $prev in\n\t--set)\n",
		    reply);
	strbuf_reset(&words);
	set_keys(&words);
	set_words(out, "\t\t", &words);
	strbuf_addf(out,
		    "\n\t\tcompopt -o nospace 2>/dev/null\n%s"
		    "\t\treturn\n\t\t;;\n\t--topology)\n",
		    reply);
	strbuf_reset(&words);
	presets(&words);
	set_words(out, "\t\t", &words);
	strbuf_addf(out, "\n%s\t\treturn\n\t\t;;\n", reply);

	/* Each command's options; the options taking a path, any command's. */
	strbuf_reset(&words);
	for (const struct command *c = commands; c->name; c++) {
		struct command_words w = {&opts, &paths};
		strbuf_reset(&opts);
		if (command_read_table(c, command_words, &w)) {
			ret = -1;
			goto out;
		}
		strbuf_addch(&words, '\t');
		add_escaped(&words, c->name);
		set_words(&words, ") ", &opts);
		strbuf_addstr(&words, " ;;\n");
	}
	for (size_t i = 0; i < paths.nr; i++) {
		strbuf_addstr(out, i ? "|" : "\t");
		add_escaped(out, paths.v[i]);
	}
	if (paths.nr)
		strbuf_addstr(out,
			      ")\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
			      "\t\treturn\n\t\t;;\n");
	strbuf_addstr(out, "\tesac\n\tcase ${COMP_WORDS[1]} in\n");
	strbuf_addstr(out, words.buf);
	strbuf_addstr(out, "\thelp)\n");
	strbuf_reset(&words);
	command_names(&words);
	add_word(&words, "job");
	set_words(out, "\t\t", &words);
	strbuf_addf(out,
		    "\n%s\t\treturn\n\t\t;;\n\tesac\n"
		    "\tif [[ $cur == -* ]]; then\n%s"
		    "\telse\n"
		    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		    "\tfi\n}\n"
		    "complete -F _iobisect iobisect\n",
		    reply, reply);
out:
	strbuf_release(&words);
	strbuf_release(&opts);
	strvec_clear(&paths);
	return ret;
}
