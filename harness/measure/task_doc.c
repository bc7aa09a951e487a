/*
 * task_doc.c: the document a remote probe leaves (task_doc.h), in JSON
 * through jansson, read back with every field checked: it comes from a
 * shared folder other hosts write.
 */
#include "task_doc.h"
#include "store_file.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TASK_DOC_VERSION 1
/*
 * A document holds a commit's boots, about 100 bytes each, and one error
 * line: 1 MiB is thousands of boots, far past any probe's.
 */
#define TASK_DOC_MAX ((size_t)1 << 20)

void task_doc_init(struct task_doc *t)
{
	memset(t, 0, sizeof(*t));
	t->set = (struct sample_set)SAMPLE_SET_INIT;
}

void task_doc_release(struct task_doc *t)
{
	free(t->first_error);
	free(t->log);
	free(t->host);
	sample_set_release(&t->set);
	task_doc_init(t);
}

char *task_doc_path(const char *results, const char *job, const char *commit)
{
	char *name = xstrfmt(".tasks/%.12s.json", commit);
	char *path = results_job_file(results, job, name);

	free(name);
	return path;
}

int task_doc_write(const struct task_doc *t, const char *path)
{
	json_t *doc = json_object(), *boots = json_array();
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ret = -1;

	for (size_t i = 0; i < t->set.nr; i++)
		json_array_append_new(
			boots,
			json_pack("{s:I, s:f, s:f}", "boot",
				  (json_int_t)t->set.boots[i], "bw_bytes",
				  t->set.values[i], "cpu_pct",
				  t->set.cpu_pct ? t->set.cpu_pct[i] : 0.0));
	json_object_set_new(doc, "version", json_integer(TASK_DOC_VERSION));
	json_object_set_new(doc, "commit", json_string(t->commit));
	json_object_set_new(doc, "key", json_string(t->key));
	json_object_set_new(doc, "ok", json_boolean(t->ok));
	json_object_set_new(
		doc, "outcome",
		json_string(t->ok ? "ok" : probe_outcome_name(t->outcome)));
	json_object_set_new(doc, "cached", json_boolean(t->cached));
	if (t->first_error)
		json_object_set_new(doc, "first_error",
				    json_string(t->first_error));
	if (t->log)
		json_object_set_new(doc, "log", json_string(t->log));
	json_object_set_new(doc, "host", json_string(host_name()));
	json_object_set_new(doc, "boots", boots);

	char *text = json_dumps(doc, JSON_INDENT(2));
	if (slash)
		*slash = '\0';
	if (text && !mkdir_p(dir, 0755))
		ret = write_file_atomic(path, text, strlen(text));
	free(text);
	free(dir);
	json_decref(doc);
	return ret;
}

static int bad(const char *path, const char *what)
{
	return error("%s: %s", path, what);
}

int task_doc_read(struct task_doc *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	json_error_t jerr;
	json_t *doc, *boots, *b;
	const char *commit = NULL, *key = NULL, *outcome = NULL, *fe = NULL,
		   *log = NULL, *host = NULL;
	int ok = 0, cached = 0, version = 0, ret = -1;
	size_t i;

	if (!store_file_exists(path))
		return 1;
	if (store_file_read(path, &sb, TASK_DOC_MAX))
		return -1;
	doc = json_loads(sb.buf, 0, &jerr);
	strbuf_release(&sb);
	if (!doc)
		return error("%s: not JSON (%s)", path, jerr.text);
	if (json_unpack(
		    doc, "{s:i, s:s, s:s, s:b, s:s, s:b, s?s, s?s, s?s, s:o}",
		    "version", &version, "commit", &commit, "key", &key, "ok",
		    &ok, "outcome", &outcome, "cached", &cached, "first_error",
		    &fe, "log", &log, "host", &host, "boots", &boots) ||
	    !json_is_array(boots)) {
		bad(path, "not a task document");
		goto out;
	}
	if (version != TASK_DOC_VERSION || strlen(commit) != 40 ||
	    (*key && strlen(key) != 40)) {
		bad(path, "unknown version, or a bad commit or key");
		goto out;
	}
	/* A failed task names its failure ("ok" is none). */
	if (!ok && probe_outcome_parse(outcome, &t->outcome) != 0) {
		bad(path, "unknown outcome");
		goto out;
	}
	memcpy(t->commit, commit, 41);
	memcpy(t->key, key, strlen(key) + 1);
	t->ok = ok;
	t->cached = cached;
	t->first_error = fe ? xstrdup(fe) : NULL;
	t->log = log ? xstrdup(log) : NULL;
	t->host = xstrdup(host ? host : "");
	json_array_foreach(boots, i, b) {
		json_int_t id = 0;
		double bw = NAN, cpu = 0;
		if (json_unpack(b, "{s:I, s:F, s:F}", "boot", &id, "bw_bytes",
				&bw, "cpu_pct", &cpu) ||
		    id < 1 || id > (json_int_t)UINT32_MAX || !isfinite(bw) ||
		    bw < 0) {
			bad(path, "a bad boot entry");
			task_doc_release(t);
			goto out;
		}
		sample_set_push(&t->set, (unsigned)id, bw, cpu);
	}
	ret = 0;
out:
	json_decref(doc);
	return ret;
}
