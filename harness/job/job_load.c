/*
 * job_load.c: a job from its file or text, with the command line's
 * overrides (`--set key.path=value`, `--results`) set into the JSON
 * before it is read, so an override meets the same checks as the file.
 */
#include "job_parse.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int job_parse(struct job *job, const char *text, const char *origin)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	int ret;
	if (!root) {
		memset(job, 0, sizeof(*job));
		return error("%s: not valid JSON: %s at line %d", origin,
			     jerr.text, jerr.line);
	}
	ret = job_parse_json(job, root, origin);
	json_decref(root);
	return ret;
}

int job_load(struct job *job, const char *path)
{
	return job_load_overrides(job, path, NULL);
}

/* "-12345": an optional minus, then digits only. */
static int whole_number(const char *s)
{
	s += *s == '-';
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* Set root.a.b = value, making objects on the way (strings become presets). */
static int set_dotted(json_t *root, const char *spec, const char *origin)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec)
		return error("%s: override '%s' is not key=value", origin,
			     spec);
	/* jansson refuses other bytes, and the override was lost unsaid. */
	if (!utf8_valid(spec)) {
		struct strbuf shown = STRBUF_INIT;
		strbuf_addsafe(&shown, spec, strlen(spec));
		error("%s: override '%s' is not valid UTF-8", origin,
		      shown.buf);
		strbuf_release(&shown);
		return -1;
	}
	/*
	 * A value that opens a list or an object is JSON, or a mistake: read
	 * as a string, "[1,2,3" met a type check with a message about
	 * something else. Keys given twice are refused as in a job file.
	 */
	json_error_t jerr;
	json_t *value = json_loads(eq + 1,
				   JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
				   &jerr);
	if (!value && (eq[1] == '[' || eq[1] == '{'))
		return error("%s: override '%s': not valid JSON: %s", origin,
			     spec, jerr.text);
	/*
	 * A whole number too big for JSON's integers (2^63 and past) is
	 * still a number, which the key's range then refuses by name.
	 */
	if (!value && whole_number(eq + 1))
		value = json_real(strtod(eq + 1, NULL));
	if (!value)
		value = json_string(eq + 1);
	char *path = xstrndup(spec, eq - spec);
	json_t *obj = root;
	char *p = path, *dot;
	int ret = 0;
	while ((dot = strchr(p, '.'))) {
		*dot = '\0';
		json_t *next = json_object_get(obj, p);
		if (json_is_string(next) && !strcmp(p, "topology")) {
			next = json_pack("{s:s}", "preset",
					 json_string_value(next));
			json_object_set_new(obj, p, next);
		} else if (json_is_string(next) && !strcmp(p, "workload")) {
			next = json_pack("{s:s}", "engine",
					 json_string_value(next));
			json_object_set_new(obj, p, next);
		} else if (!next) {
			next = json_object();
			json_object_set_new(obj, p, next);
		} else if (!json_is_object(next)) {
			ret = error("%s: override '%s': '%s' is not an object",
				    origin, spec, p);
			goto out;
		}
		obj = next;
		p = dot + 1;
	}
	if (json_object_set(obj, p, value))
		ret = error("%s: override '%s' cannot be set", origin, spec);
out:
	json_decref(value);
	free(path);
	return ret;
}

int job_load_overrides(struct job *job, const char *path,
		       const char *const *overrides)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root;
	const char *origin = path ? path : "command line";
	int ret = -1;

	memset(job, 0, sizeof(*job));
	if (path) {
		if (read_file_max(path, &text, JOB_FILE_MAX))
			return -1;
		root = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES,
				  &jerr);
		if (!root) {
			error("%s: not valid JSON: %s at line %d", path,
			      jerr.text, jerr.line);
			goto out;
		}
	} else {
		root = json_pack("{s:s}", "name", "run");
	}
	for (size_t i = 0; overrides && overrides[i]; i++)
		if (set_dotted(root, overrides[i], origin)) {
			json_decref(root);
			goto out;
		}
	ret = job_parse_json(job, root, origin);
	json_decref(root);
out:
	strbuf_release(&text);
	return ret;
}

int job_override_results(struct strvec *ov, const char *dir)
{
	struct strbuf shown = STRBUF_INIT;
	json_t *s;
	char *text;

	if (!utf8_valid(dir)) {
		strbuf_addsafe(&shown, dir, strlen(dir));
		error("--results: '%s' is not valid UTF-8 (a job is JSON text)",
		      shown.buf);
		strbuf_release(&shown);
		return -1;
	}
	s = json_string(dir);
	text = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
	json_decref(s);
	if (!text)
		return error("--results: cannot use '%s'", dir);
	strvec_pushf(ov, "results=%s", text);
	free(text);
	return 0;
}

int job_load_results(struct job *job, const char *path, const char *results)
{
	struct strvec ov = STRVEC_INIT;
	int ret;

	if (results && job_override_results(&ov, results))
		return -1;
	ret = job_load_overrides(job, path, (const char *const *)ov.v);
	strvec_clear(&ov);
	return ret;
}
