/*
 * kconfig.c: fragments, their merge and the config step (see kconfig.h).
 * The selection, merge text handling and the dropped-option check are pure;
 * only kconfig_fragment_path, kconfig_merge, kconfig_hash and
 * kconfig_configure touch the file system or run make.
 */
#include "kconfig.h"
#include "toolenv.h"
#include "job_datadir.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

void kconfig_select_fragments(const struct kconfig_spec *spec, unsigned kver,
			      struct strvec *out)
{
	for (size_t i = 0; i < spec->fragments.nr; i++)
		if (!strvec_has(out, spec->fragments.v[i]))
			strvec_push(out, spec->fragments.v[i]);
	for (size_t r = 0; r < spec->nr_rules; r++) {
		const struct kconfig_rule *rule = &spec->rules[r];
		if (!kver_in_range(kver, &rule->range))
			continue;
		for (size_t i = 0; i < rule->fragments.nr; i++)
			if (!strvec_has(out, rule->fragments.v[i]))
				strvec_push(out, rule->fragments.v[i]);
	}
}

char *kconfig_fragment_path(const char *name)
{
	const char *data = job_data_dir();
	char *path;
	if (strchr(name, '/')) {
		path = xstrdup(name);
	} else if (!data) {
		char *why = job_data_looked();
		error("unknown kconfig fragment '%s': %s", name, why);
		free(why);
		return NULL;
	} else {
		path = xstrfmt("%s/kconfigs/%s.config", data, name);
	}
	if (!file_exists(path)) {
		free(path);
		error("unknown kconfig fragment '%s'", name);
		return NULL;
	}
	return path;
}

/*
 * Appended last, so no fragment or base can undo it: a kernel release
 * string that does not depend on the tree's git state or the build.
 */
static const char reproducible_trailer[] =
	"# iobisect: a release string that does not depend on the build\n"
	"# CONFIG_LOCALVERSION_AUTO is not set\n"
	"CONFIG_LOCALVERSION=\"\"\n";

int kconfig_merge(const struct kconfig_spec *spec, unsigned kver,
		  struct strbuf *merged)
{
	struct strvec names = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	int ret = -1;

	kconfig_select_fragments(spec, kver, &names);
	for (size_t i = 0; i < names.nr; i++) {
		char *path = kconfig_fragment_path(names.v[i]);
		if (!path)
			goto out;
		strbuf_reset(&text);
		int rc = read_file(path, &text);
		free(path);
		if (rc)
			goto out;
		strbuf_addf(merged, "# fragment: %s\n", names.v[i]);
		strbuf_add(merged, text.buf, text.len);
		if (text.len && text.buf[text.len - 1] != '\n')
			strbuf_addch(merged, '\n');
	}
	strbuf_addstr(merged, reproducible_trailer);
	ret = 0;
out:
	strbuf_release(&text);
	strvec_clear(&names);
	return ret;
}

/*
 * Parse one config line into name and value: "CONFIG_X=v" or
 * "# CONFIG_X is not set" (value "n"). Returns 0 for anything else.
 */
static int parse_line(const char *line, size_t len, struct strbuf *name,
		      struct strbuf *value)
{
	static const char unset[] = " is not set";
	strbuf_reset(name);
	strbuf_reset(value);
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' ||
		       line[len - 1] == '\t'))
		len--;
	if (len > 9 && !strncmp(line, "# CONFIG_", 9)) {
		size_t ul = sizeof(unset) - 1;
		if (len <= 2 + ul || memcmp(line + len - ul, unset, ul))
			return 0;
		strbuf_add(name, line + 2, len - 2 - ul);
		if (strchr(name->buf, ' '))
			return 0;
		strbuf_addch(value, 'n');
		return 1;
	}
	if (len > 7 && !strncmp(line, "CONFIG_", 7)) {
		const char *eq = memchr(line, '=', len);
		if (!eq)
			return 0;
		strbuf_add(name, line, (size_t)(eq - line));
		strbuf_add(value, eq + 1, len - (size_t)(eq + 1 - line));
		return 1;
	}
	return 0;
}

/* Calls fn for every option line of text; fn gets name and value. */
static void each_option(const char *text,
			void (*fn)(const char *name, const char *value,
				   void *payload),
			void *payload)
{
	struct strbuf name = STRBUF_INIT, value = STRBUF_INIT;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (parse_line(p, len, &name, &value))
			fn(name.buf, value.buf, payload);
		p += len + (eol ? 1 : 0);
	}
	strbuf_release(&name);
	strbuf_release(&value);
}

static void add_requested(const char *name, const char *value, void *payload)
{
	struct strvec *out = payload;
	size_t nl = strlen(name);
	/* A later setting replaces an earlier one, as Kconfig reads them. */
	for (size_t i = 0; i < out->nr; i++)
		if (!strncmp(out->v[i], name, nl) && out->v[i][nl] == '=') {
			free(out->v[i]);
			memmove(&out->v[i], &out->v[i + 1],
				(out->nr - i) * sizeof(*out->v));
			out->nr--;
			break;
		}
	strvec_pushf(out, "%s=%s", name, value);
}

void kconfig_requested(const char *merged, struct strvec *out)
{
	each_option(merged, add_requested, out);
}

struct lookup {
	const char *name;
	char *value; /* NULL: not in the text */
};

static void find_option(const char *name, const char *value, void *payload)
{
	struct lookup *l = payload;
	if (!strcmp(name, l->name)) {
		free(l->value);
		l->value = xstrdup(value);
	}
}

int kconfig_check(const char *merged, const char *dotconfig,
		  struct strvec *dropped)
{
	struct strvec req = STRVEC_INIT;
	int n = 0;

	kconfig_requested(merged, &req);
	for (size_t i = 0; i < req.nr; i++) {
		char *name = xstrdup(req.v[i]);
		char *want = strchr(name, '=');
		*want++ = '\0';
		struct lookup l = {name, NULL};
		each_option(dotconfig, find_option, &l);
		/* An option asked off is satisfied when it is off or gone. */
		int ok = !strcmp(want, "n") ? !l.value || !strcmp(l.value, "n")
					    : l.value && !strcmp(l.value, want);
		if (!ok) {
			strvec_pushf(dropped, "%s (now: %s)", req.v[i],
				     !l.value || !strcmp(l.value, "n")
					     ? "not set"
					     : l.value);
			n++;
		}
		free(l.value);
		free(name);
	}
	strvec_clear(&req);
	return n;
}

static int base_is_tiny(const char *base)
{
	return !base || !*base || !strcmp(base, "tiny");
}

static int option_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kconfig_hash(const struct kconfig_spec *spec, const char *merged,
		 char out[41])
{
	struct strbuf sb = STRBUF_INIT;
	if (base_is_tiny(spec->base)) {
		strbuf_addstr(&sb, "base tiny\n");
	} else {
		strbuf_addstr(&sb, "base file\n");
		if (read_file(spec->base, &sb)) {
			strbuf_release(&sb);
			return error("cannot read the base config '%s'",
				     spec->base);
		}
		strbuf_addstr(&sb, "\nfragments\n");
	}
	/*
	 * The options as Kconfig reads them (the last setting of each, in name
	 * order), not the fragments' text: a comment, a repeat or a fragment
	 * that asks nothing new builds the same kernel, so it keeps the key.
	 */
	struct strvec req = STRVEC_INIT;
	kconfig_requested(merged, &req);
	if (req.nr) /* qsort's array may not be NULL, even empty */
		qsort(req.v, req.nr, sizeof(*req.v), option_cmp);
	strbuf_addstr(&sb, "options\n");
	for (size_t i = 0; i < req.nr; i++)
		strbuf_addf(&sb, "%s\n", req.v[i]);
	strvec_clear(&req);
	hash_hex(sb.buf, sb.len, out);
	strbuf_release(&sb);
	return 0;
}

static int run_make(const struct kconfig_step *step, const char *target,
		    const char *allconfig, const char *stdin_path)
{
	struct strvec argv = STRVEC_INIT;
	strvec_push(&argv, "make");
	strvec_pushf(&argv, "-C%s", step->srcdir);
	strvec_pushf(&argv, "O=%s", step->objdir);
	for (const char *const *v = step->make_vars; v && *v; v++)
		strvec_push(&argv, *v);
	if (allconfig)
		strvec_pushf(&argv, "KCONFIG_ALLCONFIG=%s", allconfig);
	strvec_push(&argv, target);

	struct run_opts o = RUN_OPTS_INIT;
	o.argv = (const char *const *)argv.v;
	o.env = step->env;
	o.stdin_path = stdin_path;
	o.stdout_path = step->log;
	o.stderr_to_stdout = 1;
	int rc = step->toolenv ? toolenv_run(step->toolenv, step->srcdir,
					     step->objdir, &o)
			       : run_command(&o);
	strvec_clear(&argv);
	if (rc)
		return error("'make %s' failed (exit %d), see '%s'", target, rc,
			     step->log);
	return 0;
}

/* Trees before 3.7 have no olddefconfig; oldconfig reading "\n"s does it. */
static int has_olddefconfig(const char *srcdir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/scripts/kconfig/Makefile", srcdir);
	int found = 1;
	error_capture(&sb);
	if (!read_file(path, &sb))
		found = strstr(sb.buf, "olddefconfig") != NULL;
	error_capture(NULL);
	strbuf_release(&sb);
	free(path);
	return found;
}

int kconfig_configure(const struct kconfig_step *step)
{
	char *dotconfig = xstrfmt("%s/.config", step->objdir);
	char *fragment = xstrfmt("%s/iobisect.fragment", step->objdir);
	char *answers = NULL;
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT;
	struct strvec dropped = STRVEC_INIT;
	struct stat old_st;
	int had_old = !stat(dotconfig, &old_st);
	int ret = -1;

	if (mkdir_p(step->objdir, 0755))
		goto out;
	if (had_old && read_file(dotconfig, &old))
		goto out;
	if (write_file_atomic(fragment, step->merged, strlen(step->merged)))
		goto out;

	if (base_is_tiny(step->base)) {
		/* What tinyconfig does: allnoconfig, then the fragment. */
		if (run_make(step, "allnoconfig", fragment, NULL))
			goto out;
	} else {
		struct strbuf full = STRBUF_INIT;
		if (read_file(step->base, &full)) {
			strbuf_release(&full);
			goto out;
		}
		strbuf_addch(&full, '\n');
		strbuf_addstr(&full, step->merged);
		int rc = write_file_atomic(dotconfig, full.buf, full.len);
		strbuf_release(&full);
		if (rc)
			goto out;
		if (has_olddefconfig(step->srcdir)) {
			if (run_make(step, "olddefconfig", NULL, NULL))
				goto out;
		} else {
			/* Enough empty answers for every new symbol. */
			struct strbuf nl = STRBUF_INIT;
			for (int i = 0; i < 20000; i++)
				strbuf_addch(&nl, '\n');
			answers = xstrfmt("%s/iobisect.answers", step->objdir);
			rc = write_file_atomic(answers, nl.buf, nl.len);
			strbuf_release(&nl);
			if (rc || run_make(step, "oldconfig", NULL, answers))
				goto out;
		}
	}

	if (read_file(dotconfig, &now))
		goto out;
	if (kconfig_check(step->merged, now.buf, &dropped)) {
		struct strbuf msg = STRBUF_INIT;
		for (size_t i = 0; i < dropped.nr; i++)
			strbuf_addf(&msg, "%s%s", i ? ", " : "", dropped.v[i]);
		error("requested kconfig options did not survive: %s", msg.buf);
		strbuf_release(&msg);
		ret = -2;
		goto out;
	}
	/*
	 * The config step rewrites .config every time; when nothing changed,
	 * give it back its old mtime so make skips its own config pass.
	 */
	if (had_old && old.len == now.len &&
	    !memcmp(old.buf, now.buf, old.len)) {
		struct timespec times[2] = {old_st.st_atim, old_st.st_mtim};
		utimensat(AT_FDCWD, dotconfig, times, 0);
	}
	ret = 0;
out:
	strvec_clear(&dropped);
	strbuf_release(&old);
	strbuf_release(&now);
	free(answers);
	free(fragment);
	free(dotconfig);
	return ret;
}
