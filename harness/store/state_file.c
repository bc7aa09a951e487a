/*
 * state_file.c: the bisection state's file (state.h): the atomic save
 * that keeps the previous copy, and the load that refuses a corrupt file
 * without touching it and names the previous copy when it would load.
 */
#include "state.h"
#include "results.h"
#include "run.h"
#include "store_file.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

char *state_path(const char *root, const char *job)
{
	return results_job_file(root, job, "bisect-state.json");
}

/* Would the previous copy load? Checked quietly, as its reader would. */
static int prev_loads(const char *prev)
{
	struct strbuf sb = STRBUF_INIT, quiet = STRBUF_INIT, *was;
	struct bisect_state s;
	json_t *root = NULL;
	int ok = 0;

	was = error_capture(&quiet);
	if (!store_file_read(prev, &sb, STORE_STATE_MAX) &&
	    (root = json_loadb(sb.buf, sb.len, 0, NULL))) {
		state_init(&s);
		ok = !state_from_json(&s, root, prev);
		state_release(&s);
	}
	error_capture(was);
	json_decref(root);
	strbuf_release(&sb);
	strbuf_release(&quiet);
	return ok;
}

/* Where the last good state is, only when there is one to point at. */
static const char *prev_note(struct strbuf *sb, const char *path)
{
	char *prev = xstrfmt("%s.prev", path);
	if (store_file_exists(prev) && prev_loads(prev))
		strbuf_addf(sb, "the previous state is in '%s'", prev);
	else if (store_file_exists(prev))
		strbuf_addf(sb, "its previous copy '%s' is spoiled too: move "
				"both away to start over",
			    prev);
	else
		strbuf_addf(sb, "there is no previous copy ('%s' does not "
				"exist)",
			    prev);
	free(prev);
	return sb->buf;
}

int state_load(struct bisect_state *s, const char *path)
{
	struct strbuf sb = STRBUF_INIT, note = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf *prev;
	json_error_t jerr;
	json_t *root;
	int ret;

	state_init(s);
	if (!store_file_exists(path))
		return 1;
	if (store_file_read(path, &sb, STORE_STATE_MAX))
		return -1;
	root = json_loadb(sb.buf, sb.len, 0, &jerr);
	strbuf_release(&sb);
	if (!root) {
		error("'%s' is corrupt (line %d: %s); %s", path, jerr.line,
		      jerr.text, prev_note(&note, path));
		strbuf_release(&note);
		return -1;
	}
	/* One line: what is wrong, then where the last good copy is. */
	prev = error_capture(&why);
	ret = state_from_json(s, root, path);
	error_capture(prev);
	json_decref(root);
	if (ret) {
		error("%s (not a valid bisection state); %s", why.buf,
		      prev_note(&note, path));
		strbuf_release(&note);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	return 0;
}

int state_save(struct bisect_state *s, const char *path)
{
	char ts[32];
	char *text, *prev;
	int ret;

	utc_timestamp(ts, sizeof(ts));
	free(s->updated);
	s->updated = xstrdup(ts);
	if (!s->started)
		s->started = xstrdup(ts);
	{
		const char *slash = strrchr(path, '/');
		if (slash) {
			char *dir = xstrndup(path, slash - path);
			ret = mkdir_p(dir, 0777);
			free(dir);
			if (ret)
				return -1;
		}
	}

	/*
	 * The copy of the last good state is itself written atomically, so
	 * a crash at any point leaves at least one readable state.
	 */
	if (store_file_exists(path)) {
		struct strbuf old = STRBUF_INIT;
		prev = xstrfmt("%s.prev", path);
		ret = store_file_read(path, &old, STORE_STATE_MAX);
		if (!ret)
			ret = write_file_atomic(prev, old.buf, old.len);
		strbuf_release(&old);
		free(prev);
		if (ret)
			return -1;
	}
	json_t *root = state_to_json(s);
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		return error("cannot render the state for '%s'", path);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
