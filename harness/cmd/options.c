/*
 * options.c: one parser for every subcommand's command line (options.h).
 */
#include "options.h"
#include "exit_code.h"
#include "util.h"

#include <string.h>

static int fail(struct opt_error *err, enum opt_status status, const char *arg,
		size_t len)
{
	if (err) {
		err->status = status;
		err->arg = arg;
		err->len = (int)len;
	}
	return -1;
}

/* The option named by the first `len` bytes of `name`. */
static const struct opt *find(const struct opt *o, const char *name, size_t len)
{
	for (; o->type != OPTION_END; o++)
		if (o->type != OPTION_ARG && !strncmp(o->name, name, len) &&
		    !o->name[len])
			return o;
	return NULL;
}

/*
 * A number option's value: whole (OPTION_INT, OPTION_UNSIGNED) or a
 * plain decimal, within the entry's range; else one error naming both.
 */
static int take_number(const struct opt *o, const char *arg)
{
	long n;
	double x;

	if (o->type == OPTION_DECIMAL) {
		if (parse_decimal(arg, &x) || x < o->min || x > o->max)
			return error("%s: '%s' is not %s (%lld to %lld)",
				     o->name, arg, o->what, o->min, o->max);
		*(double *)o->value = x;
		return 0;
	}
	if (parse_long(arg, &n) || n < o->min || n > o->max)
		return error("%s: '%s' is not %s (%lld..%lld)", o->name, arg,
			     o->what, o->min, o->max);
	if (o->type == OPTION_INT)
		*(int *)o->value = (int)n;
	else
		*(unsigned *)o->value = (unsigned)n;
	return 0;
}

/* The next positional's entry at or after `o` (the end entry if none). */
static const struct opt *next_arg(const struct opt *o)
{
	while (o->type != OPTION_END && o->type != OPTION_ARG)
		o++;
	return o;
}

int opt_parse(const struct opt *opts, int argc, char **argv,
	      struct opt_error *err)
{
	const struct opt *pos = next_arg(opts);

	if (err)
		fail(err, OPT_OK, NULL, 0);
	for (int i = 1; i < argc; i++) {
		const char *word = argv[i], *value, *eq = NULL;
		size_t len = strlen(word);
		const struct opt *o;

		if (word[0] != '-') {
			if (pos->type == OPTION_END)
				return fail(err, OPT_ERR_EXTRA, word, len);
			*(const char **)pos->value = word;
			pos = next_arg(pos + 1);
			continue;
		}
		/* Only a long option may carry its value after '='. */
		if (!strncmp(word, "--", 2) && (eq = strchr(word, '=')))
			len = (size_t)(eq - word);
		o = find(opts, word, len);
		/* Every table's, unless it has its own. */
		if (!o && ((len == 2 && !strncmp(word, "-h", 2)) ||
			   (len == 6 && !strncmp(word, "--help", 6))))
			return fail(err, OPT_HELP, word, len);
		if (!o || (eq && !(o->flags & OPT_JOINED)))
			return fail(err, OPT_ERR_UNKNOWN, word, len);
		if (o->type == OPTION_FLAG) {
			/* "--help=x" asks for help; "--force=x" is a typo. */
			if (eq && !(o->flags & OPT_STOP))
				return fail(err, OPT_ERR_TAKES_NO_VALUE, word,
					    len);
			*(int *)o->value = 1;
			if (o->flags & OPT_STOP)
				return 0;
			continue;
		}
		if (eq)
			value = eq + 1;
		else if (i + 1 < argc)
			value = argv[++i];
		else
			return fail(err, OPT_ERR_NO_VALUE, word, len);
		if (o->type == OPTION_STRING)
			*(const char **)o->value = value;
		else if (o->type == OPTION_CALLBACK ? o->cb(o, value)
						    : take_number(o, value))
			return fail(err, OPT_ERR_VALUE, word, len);
	}
	return 0;
}

void opt_synopsis(struct strbuf *out, const char *synopsis,
		  const struct opt *opts)
{
	if (synopsis) {
		strbuf_addstr(out, synopsis);
		return;
	}
	for (const struct opt *o = opts; o->type != OPTION_END; o++)
		if (o->type == OPTION_ARG)
			strbuf_addf(out, "%s ", o->name);
	strbuf_addstr(out, "[options]");
}

int opt_usage_short(FILE *f, const char *cmd, const char *synopsis,
		    const struct opt *opts)
{
	struct strbuf line = STRBUF_INIT;

	opt_synopsis(&line, synopsis, opts);
	fprintf(f, "usage: iobisect %s %s\n"
		   "'iobisect %s --help' lists its options\n",
		cmd, line.buf, cmd);
	strbuf_release(&line);
	return EXIT_ABORT;
}

int opt_parse_command(const char *cmd, const char *synopsis,
		      const struct opt *opts, int argc, char **argv, int *code)
{
	struct opt_error e;

	*code = 0;
	if (!opt_parse(opts, argc, argv, &e))
		return 0;
	switch (e.status) {
	case OPT_HELP:
		opt_usage(stdout, cmd, synopsis, opts);
		return 1;
	case OPT_ERR_UNKNOWN:
		error("unknown option '%.*s'", e.len, e.arg);
		break;
	case OPT_ERR_NO_VALUE:
		error("option '%.*s' needs a value", e.len, e.arg);
		break;
	case OPT_ERR_TAKES_NO_VALUE:
		error("option '%.*s' takes no value", e.len, e.arg);
		break;
	case OPT_ERR_EXTRA:
		error("unexpected argument '%s'", e.arg);
		break;
	default:
		/* The number's or the callback's one line said why. */
		*code = EXIT_ABORT;
		return 1;
	}
	*code = opt_usage_short(stderr, cmd, synopsis, opts);
	return 1;
}

static opt_table_fn *capture_fn;
static void *capture_payload;

void opt_usage_capture(opt_table_fn *fn, void *payload)
{
	capture_fn = fn;
	capture_payload = payload;
}

void opt_usage(FILE *f, const char *cmd, const char *synopsis,
	       const struct opt *opts)
{
	struct strbuf line = STRBUF_INIT;

	if (capture_fn) {
		capture_fn(cmd, synopsis, opts, capture_payload);
		return;
	}

	opt_synopsis(&line, synopsis, opts);
	fprintf(f, "usage: iobisect %s %s\n", cmd, line.buf);
	for (const struct opt *o = opts; o->type != OPTION_END; o++) {
		if (!o->help)
			continue;
		strbuf_reset(&line);
		strbuf_addstr(&line, o->name);
		if (o->argh)
			strbuf_addf(&line, " %s", o->argh);
		fprintf(f, "  %-26s %s\n", line.buf, o->help);
	}
	if (!find(opts, "--help", 6))
		fprintf(f, "  %-26s %s\n", "-h, --help", "this help");
	strbuf_release(&line);
}
