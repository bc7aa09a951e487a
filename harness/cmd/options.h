/*
 * options.h: the command line of every subcommand. A command declares one
 * table of its options and positional arguments (OPT_* below, closed by
 * OPT_END()); opt_parse() reads argv against it, word by word, and stops
 * at the first word it cannot take, naming it.
 *
 * The rules every command shares, so one command line means the same to
 * each of them:
 *  - a word that starts with '-' is an option ("-" and "--" too);
 *    anything else is the next positional argument;
 *  - an option that takes a value takes the next word, whatever it is
 *    ("--results --log" names a folder called "--log");
 *  - "--name=VALUE" is one word for "--name VALUE" only where the entry
 *    says so (OPT_JOINED): elsewhere it is an unknown option, as it
 *    always was;
 *  - an option given twice keeps the last value;
 *  - "-h" and "--help" (or "--help=...") ask for the usage in every
 *    table, where the table has no entry of its own by that name;
 *  - a number (OPT_INT, OPT_UNSIGNED, OPT_DECIMAL) is checked against
 *    the entry's range as it is read, and refused in one message
 *    ("--boots: '0' is not a count of boots (1..1000)").
 */
#ifndef IOBISECT_OPTIONS_H
#define IOBISECT_OPTIONS_H

#include <stdio.h>

struct strbuf;

enum opt_type {
	OPTION_END,	 /* closes a table */
	OPTION_FLAG,	 /* "--name": *(int *)value = 1 */
	OPTION_STRING,	 /* "--name VALUE": *(const char **)value = VALUE */
	OPTION_INT,	 /* "--name N": *(int *)value = N, min..max */
	OPTION_UNSIGNED, /* "--name N": *(unsigned *)value = N, min..max */
	OPTION_DECIMAL,	 /* "--name X": *(double *)value = X, min to max */
	OPTION_CALLBACK, /* "--name VALUE": cb(opt, VALUE) */
	OPTION_ARG,	 /* the next positional: *(const char **)value */
};

/* Entry flags. */
enum {
	/* "--name=VALUE" too; a flag so written is refused, not ignored. */
	OPT_JOINED = 1 << 0,
	/* The rest of argv is not read: -h and --help win over what follows. */
	OPT_STOP = 1 << 1,
};

struct opt {
	const char *name; /* "--results", "-j"; a placeholder for OPTION_ARG */
	enum opt_type type;
	unsigned flags;
	void *value; /* where the value goes; the callback's data */
	/*
	 * Takes VALUE (never NULL), with opt->value as its own data; nonzero
	 * refuses it, once the callback has said why.
	 */
	int (*cb)(const struct opt *opt, const char *arg);
	const char *argh; /* the value's placeholder in usage ("DIR") */
	const char *help; /* one line for usage; NULL: not shown */
	/* A number's range, and what it counts, for the message refusing it. */
	long long min, max;
	const char *what; /* "a count of boots" */
};

/*
 * The value pointer, as void *, once the compiler has checked its type:
 * a flag's int stored through a const char ** would be silent otherwise.
 */
#define OPT_TYPED(type, v) ((void *)(1 ? (v) : (type)0))

/* Entries, by kind (clang-format would spread each over four lines). */
/* clang-format off */
#define OPT_FLAG_F(n, v, f, h) \
	{ (n), OPTION_FLAG, (f), OPT_TYPED(int *, v), 0, NULL, (h), 0, 0, NULL }
#define OPT_FLAG(n, v, h) OPT_FLAG_F(n, v, 0, h)
#define OPT_STRING_F(n, v, f, a, h) \
	{ (n), OPTION_STRING, (f), OPT_TYPED(const char **, v), 0, (a), (h), \
	  0, 0, NULL }
#define OPT_STRING(n, v, a, h) OPT_STRING_F(n, v, 0, a, h)
#define OPT_INT_F(n, v, lo, hi, what, f, a, h) \
	{ (n), OPTION_INT, (f), OPT_TYPED(int *, v), 0, (a), (h), \
	  (lo), (hi), (what) }
#define OPT_INT(n, v, lo, hi, what, a, h) OPT_INT_F(n, v, lo, hi, what, 0, a, h)
#define OPT_UNSIGNED(n, v, lo, hi, what, a, h) \
	{ (n), OPTION_UNSIGNED, 0, OPT_TYPED(unsigned *, v), 0, (a), (h), \
	  (lo), (hi), (what) }
#define OPT_DECIMAL(n, v, lo, hi, what, a, h) \
	{ (n), OPTION_DECIMAL, 0, OPT_TYPED(double *, v), 0, (a), (h), \
	  (lo), (hi), (what) }
#define OPT_CALLBACK_F(n, fn, data, f, a, h) \
	{ (n), OPTION_CALLBACK, (f), (data), (fn), (a), (h), 0, 0, NULL }
#define OPT_CALLBACK(n, fn, data, a, h) OPT_CALLBACK_F(n, fn, data, 0, a, h)
#define OPT_ARG(n, v, h) \
	{ (n), OPTION_ARG, 0, OPT_TYPED(const char **, v), 0, NULL, (h), \
	  0, 0, NULL }
#define OPT_END() { 0, OPTION_END, 0, 0, 0, NULL, NULL, 0, 0, NULL }
/* clang-format on */

enum opt_status {
	OPT_OK,
	OPT_ERR_UNKNOWN,	/* no such option (or not in the "=" form) */
	OPT_ERR_NO_VALUE,	/* the last word, and it takes a value */
	OPT_ERR_TAKES_NO_VALUE, /* "--flag=VALUE" for an OPT_JOINED flag */
	OPT_ERR_EXTRA,		/* a positional past the table's last */
	OPT_ERR_VALUE,		/* a number out of range, or a callback refused */
	OPT_HELP,		/* "-h" or "--help": the usage is asked for */
};

/* Why opt_parse() stopped. */
struct opt_error {
	enum opt_status status;
	const char *arg; /* the word at fault, as given */
	int len;	 /* how much of it names the option (up to any '=') */
};

/*
 * Parse argv[1..argc-1] (argv[0] is the command's name) against `opts`,
 * in order: each value is stored, each callback run, as its word is
 * read, so the first bad word is the one reported. Returns 0, or -1 with
 * `err` (which may be NULL) saying why. Nothing is printed here but a
 * refused value's one message (a number's here, else the callback's):
 * each command says what else is wrong its own way (most print their
 * usage). Positionals a command requires are its to check.
 */
int opt_parse(const struct opt *opts, int argc, char **argv,
	      struct opt_error *err);

/*
 * A command's reading of its command line, the same for every command,
 * as git's and fio's: opt_parse() with `opts`, then
 *  - "-h" or "--help": the usage (opt_usage) on stdout, *code 0;
 *  - a word refused: one line naming it ("error: unknown option
 *    '--bogus'", "error: option '--x' needs a value") and the short
 *    usage (opt_usage_short) on stderr, *code EXIT_ABORT; a value
 *    refused has said why in its one line already.
 * Returns 0 when the command goes on, else 1 and the command returns
 * *code. `cmd` and `synopsis` as opt_usage() takes them.
 */
int opt_parse_command(const char *cmd, const char *synopsis,
		      const struct opt *opts, int argc, char **argv,
		      int *code);

/*
 * The usage line alone, and where the rest is, on `f`: what a command
 * prints under the error line of a bad command line. Returns EXIT_ABORT.
 */
int opt_usage_short(FILE *f, const char *cmd, const char *synopsis,
		    const struct opt *opts);

/*
 * The command's usage, made from its table: "usage: iobisect CMD ARGS
 * [options]" (or `synopsis` in place of what follows CMD, when a command
 * has more than one form), then each positional and option with its
 * help, in the table's order.
 */
void opt_usage(FILE *f, const char *cmd, const char *synopsis,
	       const struct opt *opts);

/*
 * What usage prints after "iobisect CMD": `synopsis`, or the table's
 * positionals and "[options]".
 */
void opt_synopsis(struct strbuf *out, const char *synopsis,
		  const struct opt *opts);

/*
 * A reader of a command's table other than its parser: while one is set,
 * opt_usage() hands it the table and prints nothing. `iobisect help CMD`,
 * the man pages and the completion read every command's table this way,
 * by running the command with "--help", as git's completion asks each
 * command for its options (--git-completion-helper): the table a command
 * parses is the one its page describes. NULL: print again.
 */
typedef void opt_table_fn(const char *cmd, const char *synopsis,
			  const struct opt *opts, void *payload);
void opt_usage_capture(opt_table_fn *fn, void *payload);

#endif
