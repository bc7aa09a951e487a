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
#include "job_reference.h"
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

/* `words=<list>`, the list quoted, as each branch sets it. */
static void set_words(struct strbuf *out, const char *indent,
		      const struct strbuf *list)
{
	strbuf_addf(out, "%swords=", indent);
	add_quoted(out, list->buf);
}

/*
 * The keys --set takes, as "key=": every key of job_keys that holds a
 * value, then the workload's and the topology's (job_reference.h).
 */
static void set_keys(struct strbuf *out)
{
	struct strvec more = STRVEC_INIT;

	for (const struct job_key *k = job_keys; k->key; k++)
		if (k->type != JK_SECTION) {
			char *w = xstrfmt("%s=", k->key);
			add_word(out, w);
			free(w);
		}
	job_section_keys(&more, NULL);
	for (size_t i = 0; i < more.nr; i++) {
		char *w = xstrfmt("%s=", more.v[i]);
		add_word(out, w);
		free(w);
	}
	strvec_clear(&more);
}

/* One branch of the values of `--set KEY=`: `KEY) words='...' ;;`. */
static void value_branch(struct strbuf *out, const char *key,
			 const struct strbuf *list)
{
	if (!list->len)
		return;
	strbuf_addstr(out, "\t\t");
	add_escaped(out, key);
	set_words(out, ") ", list);
	strbuf_addstr(out, " ;;\n");
}

/*
 * The values `--set KEY=` takes where they are a few: each key's
 * choices, true or false; a revision's are the refs (_iobisect_refs).
 */
static void set_values(struct strbuf *out)
{
	struct strbuf list = STRBUF_INIT;
	struct strvec keys = STRVEC_INIT, choices = STRVEC_INIT;

	strbuf_addstr(out, "\t\tcase $key in\n"
			   "\t\tgood|bad) _iobisect_refs \"$cur\" \"$pre\"; "
			   "return ;;\n");
	for (const struct job_key *k = job_keys; k->key; k++) {
		strbuf_reset(&list);
		if (k->type == JK_BOOL) {
			add_word(&list, "true");
			add_word(&list, "false");
		}
		for (size_t i = 0; k->choices && k->choices[i]; i++)
			add_word(&list, k->choices[i]);
		value_branch(out, k->key, &list);
	}
	job_section_keys(&keys, &choices);
	for (size_t i = 0; i < keys.nr; i++) {
		struct strvec each = STRVEC_INIT;
		strbuf_reset(&list);
		strvec_split(&each, choices.v[i], ' ');
		for (size_t j = 0; j < each.nr; j++)
			add_word(&list, each.v[j]);
		value_branch(out, keys.v[i], &list);
		strvec_clear(&each);
	}
	strbuf_addstr(out, "\t\tesac\n");
	strvec_clear(&keys);
	strvec_clear(&choices);
	strbuf_release(&list);
}

/* The engines --workload takes. */
static void engine_names(struct strbuf *out)
{
	for (const char *const *e = job_engines(); *e; e++)
		add_word(out, *e);
}

/*
 * The refs a revision may be, of the repository the command line names
 * (--repo PATH, else its job file's "repo"), else of the working tree's:
 * asked of git when completing, each offered quoted (printf %q), as a
 * ref may hold what the shell would expand; never a word of compgen -W.
 */
static const char refs_fn[] =
	"# The refs starting with $1 (each after $2) of the repository the\n"
	"# command line names: --repo PATH, else the job file's \"repo\",\n"
	"# else the working tree's.\n"
	"_iobisect_refs()\n{\n"
	"\tlocal repo= w i r\n"
	"\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tif [ \"$w\" = --repo ]; then\n"
	"\t\t\trepo=${COMP_WORDS[i+1]}\n"
	"\t\telif [ -z \"$repo\" ] && [[ $w == *.json ]] && "
	"[ -f \"$w\" ]; then\n"
	"\t\t\trepo=$(sed -n 's/.*\"repo\"[[:space:]]*:[[:space:]]*"
	"\"\\([^\"]*\\)\".*/\\1/p' \"$w\" | head -n 1)\n"
	"\t\t\t[[ $repo == \"~/\"* ]] && repo=$HOME/${repo#\"~/\"}\n"
	"\t\tfi\n"
	"\tdone\n"
	"\tCOMPREPLY=()\n"
	"\twhile IFS= read -r r; do\n"
	"\t\t[[ $r == \"$1\"* ]] && COMPREPLY+=(\"$2$(printf %q \"$r\")\")\n"
	"\tdone < <(git -C \"${repo:-.}\" for-each-ref "
	"--format='%(refname:short)' 2>/dev/null; echo HEAD)\n"
	"}\n\n";

/*
 * `--set KEY=VALUE`: bash splits the word at '=' (COMP_WORDBREAKS),
 * "KEY" "=" "VALUE", unless told not to: both are read.
 */
static const char set_value_head[] =
	"\tlocal key= pre=\n"
	"\tif [ \"$prev\" = --set ] && [[ $cur == *=* ]]; then\n"
	"\t\tkey=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}\n"
	"\telif [ \"$COMP_CWORD\" -ge 3 ] && [ \"$cur\" = = ] &&\n"
	"\t\t[ \"${COMP_WORDS[COMP_CWORD-2]}\" = --set ]; then\n"
	"\t\tkey=$prev cur=\n"
	"\telif [ \"$COMP_CWORD\" -ge 4 ] && [ \"$prev\" = = ] &&\n"
	"\t\t[ \"${COMP_WORDS[COMP_CWORD-3]}\" = --set ]; then\n"
	"\t\tkey=${COMP_WORDS[COMP_CWORD-2]}\n"
	"\tfi\n"
	"\tif [ -n \"$key\" ]; then\n";
static const char set_value_tail[] =
	"\t\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$words\" -- \"$cur\"))\n"
	"\t\treturn\n\tfi\n";

/* The commands' names. */
static void command_names(struct strbuf *out)
{
	for (const struct command *c = commands; c->name; c++)
		add_word(out, c->name);
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
		"keys; do not edit.\n\n");
	strbuf_addstr(out, refs_fn);
	strbuf_addstr(
		out,
		"_iobisect()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		"prev=${COMP_WORDS[COMP_CWORD-1]} words=\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n");
	command_names(&words);
	add_word(&words, "help");
	add_word(&words, "--version");
	set_words(out, "\t\t", &words);
	strbuf_addf(out, "\n%s\t\treturn\n\tfi\n", reply);
	strbuf_addstr(out, set_value_head);
	set_values(out);
	strbuf_addstr(out, set_value_tail);
	strbuf_addstr(out, "\tcase $prev in\n\t--set)\n");
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
	strbuf_addf(out, "\n%s\t\treturn\n\t\t;;\n\t--workload)\n", reply);
	strbuf_reset(&words);
	engine_names(&words);
	set_words(out, "\t\t", &words);
	strbuf_addf(out, "\n%s\t\treturn\n\t\t;;\n", reply);
	strbuf_addstr(out, "\t--commit|--good|--bad)\n"
			   "\t\t_iobisect_refs \"$cur\"\n"
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
