/*
 * upload.c: the spool and the POSTs (see upload.h). The spool is written
 * before the first try, so a crash, a dead server or a wrong token never
 * loses a document; the server's answer alone removes it.
 */
#include "upload.h"
#include "results.h"
#include "run.h"
#include "store_file.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int upload_curl_error(CURLcode rc, const char *errbuf, const char *url)
{
	char *shown = upload_url_shown(url);
	error("cannot post to '%s': %s", shown,
	      errbuf && *errbuf ? errbuf : curl_easy_strerror(rc));
	free(shown);
	return -1;
}

static void curl_init_once(void)
{
	static int done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
}

/* The answer body is kept (bounded) for the error message. */
static size_t on_body(char *data, size_t size, size_t n, void *payload)
{
	struct strbuf *sb = payload;
	if (sb->len < 512)
		strbuf_add(sb, data, size * n < 512 ? size * n : 512);
	return size * n;
}

static int retryable_curl(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
		return 1;
	default:
		return 0;
	}
}

/*
 * libcurl calls this about once a second even while it only waits for an
 * answer, so a server that accepts and never answers cannot hold the
 * harness through SIGINT or SIGTERM (it used to, 60 s x 5 tries).
 */
static int on_progress(void *payload, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	(void)payload;
	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return run_interrupted() != 0;
}

/* The request's headers, made of checked values only. */
static struct curl_slist *post_headers(const char *key, const char *token)
{
	struct curl_slist *hdr = NULL;

	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	hdr = curl_slist_append(hdr, "Expect:"); /* no 100-continue wait */
	if (key) {
		char *h = xstrfmt("Idempotency-Key: %s", key);
		hdr = curl_slist_append(hdr, h);
		free(h);
	}
	if (token) {
		char *h = xstrfmt("Authorization: Bearer %s", token);
		hdr = curl_slist_append(hdr, h);
		free(h);
	}
	return hdr;
}

/*
 * A handle that posts `body` to `url` with `hdr`, the server's answer
 * into `answer`, libcurl's words into `errbuf`; NULL when libcurl cannot
 * start.
 */
static CURL *post_handle(const struct upload_options *o, const char *url,
			 const char *body, size_t len, struct curl_slist *hdr,
			 char *errbuf, struct strbuf *answer)
{
	CURL *c;

	curl_init_once();
	c = curl_easy_init();
	if (!c)
		return NULL;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "iobisect");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o->timeout_ms);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	/* A redirect would drop the token or resend the body elsewhere. */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	if (o->ca_file)
		curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, answer);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	return c;
}

enum upload_result upload_post(const struct upload_options *o,
			       const char *url, const char *body, size_t len,
			       const char *key, long *status)
{
	struct curl_slist *hdr;
	struct strbuf answer = STRBUF_INIT;
	char errbuf[CURL_ERROR_SIZE];
	const char *token = upload_token(o);
	char *shown = upload_url_shown(url);
	enum upload_result res = UPLOAD_FAILED;
	long code = 0, wait = o->backoff_ms;
	int tries = o->tries > 0 ? o->tries : 1;
	CURL *c;

	if (upload_check_token(o)) {
		free(shown);
		return UPLOAD_AUTH;
	}
	hdr = post_headers(key, token);
	c = post_handle(o, url, body, len, hdr, errbuf, &answer);
	if (!c) {
		error("cannot post to '%s': libcurl could not start", shown);
		curl_slist_free_all(hdr);
		free(shown);
		return UPLOAD_FAILED;
	}

	for (int t = 1; t <= tries; t++) {
		CURLcode rc;
		errbuf[0] = '\0';
		strbuf_reset(&answer);
		code = 0;
		if (run_interrupted()) {
			error("cannot post to '%s': interrupted", shown);
			break;
		}
		rc = curl_easy_perform(c);
		if (rc == CURLE_ABORTED_BY_CALLBACK) {
			error("cannot post to '%s': interrupted", shown);
			break;
		}
		if (rc == CURLE_OK)
			curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
		if (rc == CURLE_OK && ((code >= 200 && code < 300) ||
				       code == 409)) {
			res = UPLOAD_ACCEPTED;
			break;
		}
		if (rc == CURLE_OK && (code == 401 || code == 403)) {
			error("'%s' refused the upload (HTTP %ld): check the "
			      "token in $%s%s; the documents stay in the spool",
			      shown, code, UPLOAD_TOKEN_ENV,
			      token ? "" : " (it is not set)");
			res = UPLOAD_AUTH;
			break;
		}
		if (rc == CURLE_OK && code >= 400 && code < 500 && code != 429 &&
		    code != 408) {
			/* The server's words, never its terminal escapes. */
			struct strbuf said = STRBUF_INIT;
			strbuf_trim(&answer);
			strbuf_addsafe(&said, answer.buf,
				       answer.len < 200 ? answer.len : 200);
			error("'%s' refused a document (HTTP %ld)%s%s", shown,
			      code, said.len ? ": " : "", said.buf);
			strbuf_release(&said);
			res = UPLOAD_REJECTED;
			break;
		}
		if (rc != CURLE_OK && !retryable_curl(rc)) {
			upload_curl_error(rc, errbuf, url);
			break;
		}
		if (t == tries) {
			if (rc != CURLE_OK)
				upload_curl_error(rc, errbuf, url);
			else
				error("cannot post to '%s': HTTP %ld after %d "
				      "tries", shown, code, tries);
			break;
		}
		run_sleep_ms(wait);
		wait *= 2;
	}
	if (status)
		*status = code;
	curl_slist_free_all(hdr);
	curl_easy_cleanup(c);
	strbuf_release(&answer);
	free(shown);
	return res;
}

/* ------------------------------------------------------------------ */
/* The spool. */

static const char *spool_root(const struct upload_options *o)
{
	static char *dflt;
	if (o->spool)
		return o->spool;
	if (!dflt)
		dflt = xstrfmt("%s/spool", cache_dir());
	return dflt;
}

char *upload_spool_dir(const struct upload_options *o, const char *url)
{
	char h[41];
	char *dir, *path;

	hash_hex(url, strlen(url), h);
	dir = xstrfmt("%s/%.16s", spool_root(o), h);
	path = xstrfmt("%s/url", dir);
	/* The cache's spool folder is checked as the rest, links refused. */
	if (mkdir_below(o->spool ? o->spool : cache_dir(), dir, 0700) ||
	    (!file_exists(path) &&
	     write_file_atomic(path, url, strlen(url)))) {
		free(path);
		free(dir);
		return NULL;
	}
	free(path);
	return dir;
}

static int ledger_has(const char *dir, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/sent", dir);
	int found = 0;

	if (file_exists(path) && !read_file(path, &sb)) {
		for (const char *p = sb.buf; (p = strstr(p, key)); p += 40)
			if ((p == sb.buf || p[-1] == '\n') &&
			    (p[40] == '\n' || !p[40])) {
				found = 1;
				break;
			}
	}
	strbuf_release(&sb);
	free(path);
	return found;
}

static void ledger_add(const char *dir, const char *key)
{
	char *path = xstrfmt("%s/sent", dir);
	char *line = xstrfmt("%s\n", key);
	int fd = open_nofollow(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	/* One write of a whole line: two flushes' lines never mix. */
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		warning("cannot record '%s' in '%s'", key, path);
	if (fd >= 0)
		close(fd);
	free(line);
	free(path);
}

/* Batch state: once the endpoint is down or refuses us, stop trying. */
struct batch {
	const struct upload_options *o;
	const char *url;
	char *dir;
	struct upload_counts *c;
	enum upload_result stop; /* UPLOAD_ACCEPTED: go on */
	int lock_fd;             /* the spool folder's, held for the batch */
};

/* Send the spooled file <dir>/<key>.json; remove it when accepted. */
static void send_spooled(struct batch *b, const char *key)
{
	struct strbuf doc = STRBUF_INIT;
	char *path = xstrfmt("%s/%s.json", b->dir, key);
	enum upload_result r;

	if (b->stop != UPLOAD_ACCEPTED || read_file(path, &doc)) {
		b->c->kept++;
		goto out;
	}
	r = upload_post(b->o, b->url, doc.buf, doc.len, key, NULL);
	if (r == UPLOAD_ACCEPTED) {
		ledger_add(b->dir, key);
		if (unlink(path))
			warning("cannot remove '%s': %s", path,
				strerror(errno));
		b->c->sent++;
	} else {
		b->c->kept++;
		if (r == UPLOAD_FAILED || r == UPLOAD_AUTH)
			b->stop = r;
	}
out:
	strbuf_release(&doc);
	free(path);
}

/* Spool one document, then send it (unless already sent before). */
static int spool_and_send(struct batch *b, const char *body, size_t len)
{
	char key[41];
	char *path;

	hash_hex(body, len, key);
	if (ledger_has(b->dir, key)) {
		b->c->already++;
		return 0;
	}
	path = xstrfmt("%s/%s.json", b->dir, key);
	if (!file_exists(path) && write_file_atomic(path, body, len)) {
		free(path);
		return -1;
	}
	free(path);
	send_spooled(b, key);
	return 0;
}

static int is_key_file(const char *name)
{
	size_t n = strlen(name);
	if (n != 45 || strcmp(name + 40, ".json"))
		return 0;
	for (size_t i = 0; i < 40; i++)
		if (!strchr("0123456789abcdef", name[i]))
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Send everything spooled in b->dir, oldest name order (stable). */
static void flush_dir(struct batch *b)
{
	struct strvec keys = STRVEC_INIT;
	DIR *d = opendir(b->dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (is_key_file(e->d_name)) {
			char *k = xstrndup(e->d_name, 40);
			strvec_push(&keys, k);
			free(k);
		}
	if (d)
		closedir(d);
	if (keys.nr)
		qsort(keys.v, keys.nr, sizeof(*keys.v), cmp_str);
	for (size_t i = 0; i < keys.nr; i++) {
		/* What is not sent stays in the spool, counted as kept. */
		if (run_interrupted())
			b->stop = UPLOAD_FAILED;
		send_spooled(b, keys.v[i]);
	}
	strvec_clear(&keys);
}

/*
 * One sender per spool folder at a time: two flushes at once sent each
 * document twice, and counted as "kept" what the other had just sent.
 * The second waits for the first, then finds what is left.
 */
static int spool_lock(struct batch *b)
{
	char *path = xstrfmt("%s/.lock", b->dir);
	int said = 0;

	b->lock_fd = open_nofollow(path, O_RDWR | O_CREAT, 0600);
	free(path);
	if (b->lock_fd < 0)
		return -1;
	while (flock(b->lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return error("cannot lock the spool folder '%s': %s",
				     b->dir, strerror(errno));
		if (run_interrupted())
			return error("interrupted while waiting for the "
				     "spool folder '%s'",
				     b->dir);
		if (!said++)
			fprintf(stderr, "upload: waiting for another upload "
					"from '%s'\n",
				b->dir);
		run_sleep_ms(100);
	}
	return 0;
}

static void batch_end(struct batch *b)
{
	if (b->lock_fd >= 0)
		close(b->lock_fd);
	b->lock_fd = -1;
	free(b->dir);
	b->dir = NULL;
}

static int batch_begin(struct batch *b, const struct upload_options *o,
		       const char *url, struct upload_counts *c)
{
	memset(b, 0, sizeof(*b));
	b->o = o;
	b->url = url;
	b->c = c;
	b->stop = UPLOAD_ACCEPTED;
	b->lock_fd = -1;
	if (upload_check_url(url) || upload_check_token(o))
		return -1;
	b->dir = upload_spool_dir(o, url);
	if (!b->dir || spool_lock(b)) {
		batch_end(b);
		return -1;
	}
	return 0;
}

/* 1 for a folder; otherwise 0, with errno saying why (0: not a folder). */
static int is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	errno = 0;
	return S_ISDIR(st.st_mode);
}

/* Paths of the JSON documents under a job folder, summary last. */
static void collect_docs(const char *dir, int depth, struct strvec *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strvec names = STRVEC_INIT;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "spool"))
			strvec_push(&names, e->d_name);
	if (d)
		closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++) {
		const char *n = names.v[i];
		size_t len = strlen(n);
		char *path = xstrfmt("%s/%s", dir, n);
		struct stat st;
		/* Only what is inside: a symbolic link, to a file or a
		 * folder, could lead anywhere (/etc/shadow). */
		if (lstat(path, &st) || S_ISLNK(st.st_mode))
			;
		else if (S_ISDIR(st.st_mode) && depth < 4)
			collect_docs(path, depth + 1, out);
		else if (S_ISREG(st.st_mode) && depth > 0 && len > 5 &&
			 !strcmp(n + len - 5, ".json") &&
			 !strncmp(n, "boot-", 5))
			strvec_push(out, path);
		free(path);
	}
	strvec_clear(&names);
}

/*
 * The text of a document to send, or -1 after a warning: a sample
 * document must pass the checks a report makes (results_doc_read), any
 * other must be a JSON object; none may be a symbolic link.
 */
static int upload_doc_read(const char *path, struct strbuf *out)
{
	const char *name = strrchr(path, '/');
	json_t *doc;
	int ret = -1;

	name = name ? name + 1 : path;
	if (strstr(name, "-sample-")) {
		doc = results_doc_read(path);
		json_decref(doc);
		if (!doc)
			return -1;
	}
	struct strbuf why = STRBUF_INIT;
	struct strbuf *prev = error_capture(&why);
	int rc = store_file_read(path, out, RESULTS_DOC_MAX);
	error_capture(prev);
	if (rc)
		warning("not sending a document: %s", why.buf);
	strbuf_release(&why);
	if (rc)
		return -1;
	doc = json_loadb(out->buf, out->len, 0, NULL);
	if (json_is_object(doc))
		ret = 0;
	else
		warning("not sending '%s': not a JSON object", path);
	json_decref(doc);
	return ret;
}

int upload_job(const struct upload_options *o, const char *job_dir,
	       struct upload_counts *c)
{
	struct batch b;
	struct strvec docs = STRVEC_INIT;
	char *summary = xstrfmt("%s/summary.json", job_dir);
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (!o->url) {
		free(summary);
		return error("no upload URL given");
	}
	/* A missing folder sent nothing and said it had succeeded. */
	if (!is_dir(job_dir)) {
		free(summary);
		return error("'%s' is not a results folder: %s", job_dir,
			     errno == ENOTDIR || !errno ? "not a folder"
							: strerror(errno));
	}
	if (batch_begin(&b, o, o->url, c)) {
		free(summary);
		return -1;
	}
	flush_dir(&b);
	collect_docs(job_dir, 0, &docs);
	struct stat sst;
	if (!lstat(summary, &sst) && S_ISREG(sst.st_mode))
		strvec_push(&docs, summary);
	for (size_t i = 0; i < docs.nr && !ret && !run_interrupted(); i++) {
		struct strbuf sb = STRBUF_INIT;
		if (!upload_doc_read(docs.v[i], &sb))
			ret = spool_and_send(&b, sb.buf, sb.len);
		strbuf_release(&sb);
	}
	if (!ret && c->kept) {
		char *shown = upload_url_shown(o->url);
		ret = error("%zu document(s) wait in '%s': run 'iobisect "
			    "upload --flush' when '%s' is back",
			    c->kept, b.dir, shown);
		free(shown);
	}
	strvec_clear(&docs);
	free(summary);
	batch_end(&b);
	return ret;
}

int upload_document(const struct upload_options *o, const char *body,
		    size_t len, struct upload_counts *c)
{
	struct batch b;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!o->url)
		return error("no upload URL given");
	if (batch_begin(&b, o, o->url, c))
		return -1;
	ret = spool_and_send(&b, body, len);
	if (!ret && c->kept)
		ret = -1;
	batch_end(&b);
	return ret;
}

int upload_flush(const struct upload_options *o, struct upload_counts *c)
{
	const char *root = spool_root(o);
	DIR *d;
	struct dirent *e;
	int failed = 0;

	memset(c, 0, sizeof(*c));
	if (o->url) {
		struct batch b;
		if (batch_begin(&b, o, o->url, c))
			return -1;
		flush_dir(&b);
		batch_end(&b);
		return c->kept ? -1 : 0;
	}
	d = opendir(root);
	if (!d)
		return errno == ENOENT ? 0 :
		       error("cannot open '%s': %s", root, strerror(errno));
	while (!run_interrupted() && (e = readdir(d))) {
		struct strbuf url = STRBUF_INIT;
		char *path = xstrfmt("%s/%s/url", root, e->d_name);
		struct batch b;
		/* A folder whose URL cannot be read or used keeps its
		 * documents: that is a failure, said and counted. */
		if (e->d_name[0] == '.' || !file_exists(path))
			;
		else if (read_file_max(path, &url, UPLOAD_URL_MAX))
			failed = 1;
		else {
			strbuf_trim(&url);
			if (batch_begin(&b, o, url.buf, c)) {
				failed = 1;
			} else {
				flush_dir(&b);
				batch_end(&b);
			}
		}
		strbuf_release(&url);
		free(path);
	}
	closedir(d);
	return failed || c->kept ? -1 : 0;
}

int upload_notify(const struct upload_options *o, const char *url,
		  const struct upload_notice *n)
{
	json_t *j = json_pack("{s:s?, s:s?, s:s?, s:s?, s:f, s:s?}", "job",
			      n->job, "culprit", n->culprit, "subject",
			      n->subject, "metric", n->metric, "change_pct",
			      n->change_pct, "report", n->report);
	if (j && n->range)
		json_object_set_new(j, "range", json_string(n->range));
	char *body = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	char key[41];
	int ret;

	json_decref(j);
	if (!body)
		return error("cannot build the notice for job '%s'",
			     n->job ? n->job : "");
	if (upload_check_url(url)) {
		free(body);
		return -1;
	}
	hash_hex(body, strlen(body), key);
	ret = upload_post(o, url, body, strlen(body), key, NULL) ==
			      UPLOAD_ACCEPTED ?
		      0 :
		      -1;
	free(body);
	return ret;
}
