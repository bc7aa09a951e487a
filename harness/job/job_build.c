/*
 * job_build.c: how a job's kernels are had. "toolchain" maps kernel
 * versions to compilers, each on the host or in an environment (a command
 * prefix or a chroot folder, toolenv.h); "prebuilt" names a folder or a
 * command giving an image per commit, instead of builds (prebuilt.h).
 * Templates are checked here, placeholder by placeholder, so a typo costs
 * seconds and not a kernel build.
 */
#include "job_parse.h"

#include "prebuilt.h"
#include "template.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "{a}, {b}" of a placeholder list, for messages. */
static char *placeholder_list(const char *const *names)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; names[i]; i++)
		strbuf_addf(&sb, "%s{%s}", i ? ", " : "", names[i]);
	return strbuf_detach(&sb);
}

/* Each word's placeholders among `known`. */
static int check_placeholders(struct keypath *c, const struct strvec *words,
			      const char *const *known)
{
	for (size_t i = 0; i < words->nr; i++) {
		char *bad = template_unknown(words->v[i], known);
		if (bad) {
			char *list = placeholder_list(known);
			kp_fail(c, "unknown placeholder '%s' (known: %s)", bad,
				list);
			free(list);
			free(bad);
			return -1;
		}
	}
	return 0;
}

/*
 * A command or a list of names: a non-empty string (split at blanks when
 * `split`) or a non-empty list of non-empty strings.
 */
static int get_words(struct keypath *c, json_t *obj, const char *key, int split,
		     struct strvec *out)
{
	json_t *v = json_object_get(obj, key);
	size_t old = kp_push(c, key);
	int rc = -1;

	if (json_is_string(v)) {
		if (split)
			template_split_words(out, json_string_value(v));
		else if (*json_string_value(v))
			strvec_push(out, json_string_value(v));
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			const char *s;
			size_t o2 = kp_push_idx(c, i);
			int bad = kp_str(c, json_array_get(v, i), &s) ||
				  (!*s && kp_fail(c, "empty"));
			kp_pop(c, o2);
			if (bad)
				goto out;
			strvec_push(out, s);
		}
	} else {
		kp_fail(c, "expected a string or a list of strings");
		goto out;
	}
	rc = out->nr ? 0 : kp_fail(c, "empty");
out:
	kp_pop(c, old);
	return rc;
}

/* A folder that exists, `~` expanded, into *out. */
static int get_folder(struct keypath *c, json_t *obj, const char *key,
		      char **out)
{
	char *s = NULL;
	struct stat st;

	if (kp_strf(c, obj, key, &s))
		return -1;
	*out = job_expand_home(s);
	free(s);
	if (stat(*out, &st) || !S_ISDIR(st.st_mode)) {
		size_t old = kp_push(c, key);
		kp_fail(c, "'%s' is not a folder", *out);
		kp_pop(c, old);
		return -1;
	}
	return 0;
}

static int parse_toolenv(struct keypath *c, json_t *r, struct toolenv *env)
{
	int prefix = json_object_get(r, "prefix") != NULL;
	int chroot = json_object_get(r, "chroot") != NULL;

	if (prefix && chroot)
		return kp_fail(c, "give 'prefix' or 'chroot', not both");
	if (json_object_get(r, "identity") && !prefix && !chroot)
		return kp_fail(c, "'identity' names an environment: give "
				  "'prefix' or 'chroot' too");
	if (prefix) {
		env->kind = TOOLENV_PREFIX;
		if (get_words(c, r, "prefix", 1, &env->prefix))
			return -1;
		size_t old = kp_push(c, "prefix");
		int bad = check_placeholders(c, &env->prefix,
					     toolenv_placeholders);
		kp_pop(c, old);
		if (bad)
			return -1;
	}
	if (chroot) {
		env->kind = TOOLENV_CHROOT;
		if (get_folder(c, r, "chroot", &env->root))
			return -1;
		if (!strcmp(env->root, "/"))
			return kp_fail(c, "chroot: '/' is the host itself");
	}
	if (json_object_get(r, "identity") &&
	    get_words(c, r, "identity", 1, &env->identity))
		return -1;
	return 0;
}

int job_parse_toolchain(struct keypath *c, json_t *v, struct job *job)
{
	static const char *const keys[] = {"min",      "max",	 "cc",
					   "hostcc",   "prefix", "chroot",
					   "identity", NULL};
	if (!json_is_array(v) || !json_array_size(v))
		return kp_fail(c, "expected a non-empty list");
	job->toolchains = xcalloc(json_array_size(v), sizeof(*job->toolchains));
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *r = json_array_get(v, i);
		struct toolchain_rule *t =
			&job->toolchains[job->nr_toolchains++];
		size_t old = kp_push_idx(c, i);
		int bad = !json_is_object(r)
				  ? kp_fail(c, "expected an object")
				  : kp_check_keys(c, r, keys) ||
					    kp_kver_range(c, r, &t->range) ||
					    kp_strf(c, r, "cc", &t->cc) ||
					    kp_strf(c, r, "hostcc", &t->hostcc);
		if (!bad && !t->cc)
			bad = kp_fail(c, "missing 'cc'");
		if (!bad)
			bad = parse_toolenv(c, r, &t->env);
		kp_pop(c, old);
		if (bad)
			return -1;
	}
	return 0;
}

int job_parse_prebuilt(struct keypath *c, json_t *v, struct job *job)
{
	static const char *const keys[] = {"folder", "name", "command", NULL};
	struct prebuilt_source *src;
	int folder, command;
	size_t old;

	if (!json_is_object(v))
		return kp_fail(c, "expected an object");
	if (kp_check_keys(c, v, keys))
		return -1;
	folder = json_object_get(v, "folder") != NULL;
	command = json_object_get(v, "command") != NULL;
	if (folder == command)
		return kp_fail(c, "give 'folder' or 'command' (one of them)");
	if (command && json_object_get(v, "name"))
		return kp_fail(c, "'name' is for a folder; a command names "
				  "its own");
	if (job->kernel)
		return kp_fail(c, "give 'kernel' or 'prebuilt', not both");
	src = job->prebuilt = xcalloc(1, sizeof(*src));
	if (command) {
		if (get_words(c, v, "command", 1, &src->command))
			return -1;
		old = kp_push(c, "command");
		int bad = check_placeholders(c, &src->command,
					     prebuilt_command_placeholders);
		if (!bad) {
			bad = 1;
			for (size_t i = 0; i < src->command.nr && bad; i++)
				bad = !template_uses(src->command.v[i], "out");
			if (bad)
				kp_fail(c, "no '{out}': where is the image to "
					   "go?");
		}
		kp_pop(c, old);
		return bad ? -1 : 0;
	}
	if (get_folder(c, v, "folder", &src->folder))
		return -1;
	if (!json_object_get(v, "name")) {
		strvec_push(&src->names, PREBUILT_DEFAULT_NAME);
		return 0;
	}
	if (get_words(c, v, "name", 0, &src->names))
		return -1;
	old = kp_push(c, "name");
	int bad =
		check_placeholders(c, &src->names, prebuilt_name_placeholders);
	for (size_t i = 0; i < src->names.nr && !bad; i++) {
		/* A name without the commit's id gives every commit one image.
		 */
		const char *n = src->names.v[i];
		if (!template_uses(n, "commit") && !template_uses(n, "short") &&
		    !template_uses(n, "tag"))
			bad = kp_fail(c,
				      "'%s' names no {commit}, {short} or "
				      "{tag}: every commit would get one image",
				      n);
		else if (n[0] == '/' || strstr(n, ".."))
			bad = kp_fail(c, "'%s' is not a name inside the folder",
				      n);
	}
	kp_pop(c, old);
	return bad ? -1 : 0;
}

void job_build_request(struct build_request *req, const struct job *job,
		       const char *repo, const char *rev)
{
	memset(req, 0, sizeof(*req));
	req->repo = repo;
	req->rev = rev;
	req->kconfig = &job->kconfig;
	req->toolchains = job->toolchains;
	req->nr_toolchains = job->nr_toolchains;
	req->prebuilt = job->prebuilt;
}

void job_build_release(struct job *job)
{
	for (size_t i = 0; i < job->nr_toolchains; i++) {
		free(job->toolchains[i].cc);
		free(job->toolchains[i].hostcc);
		toolenv_release(&job->toolchains[i].env);
	}
	free(job->toolchains);
	prebuilt_source_free(job->prebuilt);
}
