/*
 * check_upload.c: upload.c against a real HTTP server on 127.0.0.1
 * (test_httpd.h), forked by each test: accepted; 500 then accepted; the
 * server down then back (spooled, then flushed); a wrong token (a clear
 * error, documents kept); an answer lost after the server stored the
 * document (the retry carries the same idempotency key: stored once).
 */
#include "run.h"
#include "test_httpd.h"
#include "upload.h"
#include "util.h"

#include <check.h>
#include <dirent.h>
#include <git2.h>
#include <time.h>

static char tmp[64];

/* Strings made by the tests live until teardown (LeakSanitizer-clean). */
static struct strvec kept;
static char *keep(char *s)
{
	strvec_push(&kept, s);
	free(s);
	return kept.v[kept.nr - 1];
}
#define T(...) keep(xstrfmt(__VA_ARGS__))

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/check_upload.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	git_libgit2_init();
	unsetenv(UPLOAD_TOKEN_ENV);
}

static void teardown(void)
{
	remove_tree(tmp);
	strvec_clear(&kept);
}

static size_t count_files(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		n += e->d_name[0] != '.' && l > strlen(suffix) &&
		     !strcmp(e->d_name + l - strlen(suffix), suffix);
	}
	if (d)
		closedir(d);
	return n;
}

static size_t count_lines(const char *path, const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	if (!file_exists(path) || read_file(path, &sb))
		return 0;
	for (char *p = sb.buf; *p; p = strchr(p, '\n') + 1) {
		n += !strncmp(p, prefix, strlen(prefix));
		if (!strchr(p, '\n'))
			break;
	}
	strbuf_release(&sb);
	return n;
}

/* A job folder with three sample documents and a summary. */
static char *make_job(void)
{
	char *job = T("%s/results/demo", tmp);
	char *p = T("%s/0123456789ab/virtio-rawread/bs_kb=128", job);
	ck_assert_int_eq(mkdir_p(p, 0755), 0);
	for (int i = 0; i < 3; i++) {
		char *f = T("%s/boot-1-sample-%d.json", p, i);
		char *doc = T("{\"index\": %d, \"read\": {\"bw_bytes\": "
				    "%d}}\n", i, 800000000 + i);
		ck_assert_int_eq(write_file_atomic(f, doc, strlen(doc)), 0);
	}
	p = T("%s/summary.json", job);
	ck_assert_int_eq(write_file_atomic(p, "{\"status\": \"done\"}\n", 19), 0);
	return job;
}

static void options(struct upload_options *o, int port, char **url,
		    char **spool)
{
	struct upload_options d = UPLOAD_OPTIONS_INIT;
	*o = d;
	*url = T("http://127.0.0.1:%d/ingest", port);
	*spool = T("%s/spool", tmp);
	o->url = *url;
	o->spool = *spool;
	o->backoff_ms = 20;
	o->tries = 3;
	o->connect_timeout_ms = 2000;
	o->timeout_ms = 5000;
}

START_TEST(accepted_documents_are_stored_and_unspooled)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *job = make_job(), *sd, *srv;

	srv = T("%s/srv", tmp);
	mkdir_p(srv, 0755);
	setenv(UPLOAD_TOKEN_ENV, "s3cret", 1);
	ck_assert_int_eq(httpd_start(&h, 0, srv, "s3cret", ""), 0);
	options(&o, h.port, &url, &spool);
	ck_assert_int_eq(upload_job(&o, job, &c), 0);
	ck_assert_uint_eq(c.sent, 4);
	ck_assert_uint_eq(c.kept, 0);
	char *stored = T("%s/stored", srv);
	ck_assert_uint_eq(count_files(stored, ".json"), 4);
	char *req = T("%s/requests", srv);
	ck_assert_uint_eq(count_lines(req, "201 "), 4);
	sd = keep(upload_spool_dir(&o, url));
	ck_assert_uint_eq(count_files(sd, ".json"), 0);
	/* A second run sends nothing: the ledger knows. */
	ck_assert_int_eq(upload_job(&o, job, &c), 0);
	ck_assert_uint_eq(c.sent, 0);
	ck_assert_uint_eq(c.already, 4);
	ck_assert_uint_eq(count_lines(req, ""), 4);
	httpd_stop(&h);
}
END_TEST

START_TEST(content_type_and_key_sent)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *srv = T("%s/srv", tmp);
	char key[41];
	const char *doc = "{\"a\": 1}";

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, ""), 0);
	options(&o, h.port, &url, &spool);
	ck_assert_int_eq(upload_document(&o, doc, strlen(doc), &c), 0);
	hash_hex(doc, strlen(doc), key);
	char *line = T("201 %s application/json", key);
	ck_assert_uint_eq(count_lines(T("%s/requests", srv), line), 1);
	httpd_stop(&h);
}
END_TEST

START_TEST(server_error_then_accepted)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *srv = T("%s/srv", tmp);
	const char *doc = "{\"summary\": true}";

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, "500,503"), 0);
	options(&o, h.port, &url, &spool);
	ck_assert_int_eq(upload_document(&o, doc, strlen(doc), &c), 0);
	ck_assert_uint_eq(c.sent, 1);
	char *req = T("%s/requests", srv);
	ck_assert_uint_eq(count_lines(req, "500 "), 1);
	ck_assert_uint_eq(count_lines(req, "503 "), 1);
	ck_assert_uint_eq(count_lines(req, "201 "), 1);
	ck_assert_uint_eq(count_files(T("%s/stored", srv), ".json"), 1);
	httpd_stop(&h);
}
END_TEST

START_TEST(server_down_then_back_spools_then_flushes)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	int port = httpd_free_port();
	char *url, *spool, *job = make_job(), *srv = T("%s/srv", tmp);
	struct strbuf err = STRBUF_INIT;

	mkdir_p(srv, 0755);
	options(&o, port, &url, &spool);
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, job, &c), -1);
	error_capture(NULL);
	ck_assert_uint_eq(c.sent, 0);
	ck_assert_uint_eq(c.kept, 4);
	ck_assert_ptr_nonnull(strstr(err.buf, url));
	ck_assert_ptr_nonnull(strstr(err.buf, "--flush"));
	char *sd = keep(upload_spool_dir(&o, url));
	ck_assert_uint_eq(count_files(sd, ".json"), 4);

	/* Back: a flush without a URL finds the endpoint in the spool. */
	ck_assert_int_eq(httpd_start(&h, port, srv, NULL, ""), 0);
	o.url = NULL;
	ck_assert_int_eq(upload_flush(&o, &c), 0);
	ck_assert_uint_eq(c.sent, 4);
	ck_assert_uint_eq(count_files(sd, ".json"), 0);
	ck_assert_uint_eq(count_files(T("%s/stored", srv), ".json"), 4);
	/* And the next run has nothing new to send. */
	o.url = url;
	ck_assert_int_eq(upload_job(&o, job, &c), 0);
	ck_assert_uint_eq(c.already, 4);
	httpd_stop(&h);
	strbuf_release(&err);
}
END_TEST

/*
 * Two flushes of one spool at once: each document is sent once and both
 * end well (they used to send most documents twice, and each counted as
 * "kept" what the other had sent, exit 1).
 */
START_TEST(two_flushes_at_once_send_each_document_once)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *srv = T("%s/srv", tmp), *sd;
	pid_t kid[2];
	int status, n = 40;

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, ""), 0);
	options(&o, h.port, &url, &spool);
	sd = keep(upload_spool_dir(&o, url));
	for (int i = 0; i < n; i++) {
		char key[41], *doc = T("{\"boot\": %d}", i);
		hash_hex(doc, strlen(doc), key);
		char *path = T("%s/%s.json", sd, key);
		ck_assert_int_eq(write_file_atomic(path, doc, strlen(doc)), 0);
	}
	o.url = NULL;
	for (int k = 0; k < 2; k++) {
		kid[k] = fork();
		ck_assert_int_ge(kid[k], 0);
		if (!kid[k])
			_exit(upload_flush(&o, &c) ? 1 : 0);
	}
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(waitpid(kid[k], &status, 0), kid[k]);
		ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
			      "flush %d ended with %d", k, status);
	}
	ck_assert_uint_eq(count_lines(T("%s/requests", srv), ""), (size_t)n);
	ck_assert_uint_eq(count_files(sd, ".json"), 0);
	httpd_stop(&h);
}
END_TEST

/*
 * A server that accepts the connection and never answers: SIGINT and
 * SIGTERM end the wait within a second or so (they used to be ignored
 * through 60 s x 5 tries), and the documents stay in the spool.
 */
static const int stop_signals[] = { SIGINT, SIGTERM };

START_TEST(silent_server_gives_way_to_a_signal)
{
	struct upload_options o;
	struct upload_counts c;
	struct strbuf err = STRBUF_INIT;
	int port = httpd_free_port(), fd;
	char *url, *spool, *job = make_job();

	options(&o, port, &url, &spool);
	o.tries = 1;
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, job, &c), -1);
	ck_assert_uint_eq(c.kept, 4);
	/* Listening, never accepting: the handshake completes, then silence. */
	fd = httpd_listen(port, &port);
	ck_assert_int_ge(fd, 0);
	o.tries = 5;
	o.timeout_ms = 60000;
	run_install_signal_handlers();
	pid_t me = getpid(), pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct timespec ts = { 0, 500 * 1000000 };
		nanosleep(&ts, NULL);
		kill(me, stop_signals[_i]);
		_exit(0);
	}
	uint64_t t0 = now_ns();
	ck_assert_int_eq(upload_flush(&o, &c), -1);
	double s = (now_ns() - t0) / 1e9;
	error_capture(NULL);
	waitpid(pid, NULL, 0);
	close(fd);
	ck_assert_msg(s < 4, "the signal was waited out: %.1f s", s);
	ck_assert_uint_eq(c.sent, 0);
	ck_assert_uint_eq(c.kept, 4);
	ck_assert_msg(strstr(err.buf, "interrupted"), "%s", err.buf);
	ck_assert_uint_eq(count_files(keep(upload_spool_dir(&o, url)), ".json"),
			  4);
	strbuf_release(&err);
}
END_TEST

START_TEST(wrong_token_is_a_clear_error_and_keeps_documents)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *job = make_job(), *srv = T("%s/srv", tmp);
	struct strbuf err = STRBUF_INIT;

	mkdir_p(srv, 0755);
	setenv(UPLOAD_TOKEN_ENV, "wrong", 1);
	ck_assert_int_eq(httpd_start(&h, 0, srv, "right", ""), 0);
	options(&o, h.port, &url, &spool);
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, job, &c), -1);
	error_capture(NULL);
	ck_assert_uint_eq(c.kept, 4);
	ck_assert_ptr_nonnull(strstr(err.buf, url));
	ck_assert_ptr_nonnull(strstr(err.buf, UPLOAD_TOKEN_ENV));
	ck_assert_ptr_nonnull(strstr(err.buf, "401"));
	/* One refused request, not one per document or per retry. */
	ck_assert_uint_eq(count_lines(T("%s/requests", srv), "401 "), 1);
	ck_assert_uint_eq(count_files(keep(upload_spool_dir(&o, url)), ".json"), 4);
	/* With the right token the same spool goes through. */
	setenv(UPLOAD_TOKEN_ENV, "right", 1);
	ck_assert_int_eq(upload_flush(&o, &c), 0);
	ck_assert_uint_eq(c.sent, 4);
	httpd_stop(&h);
	strbuf_release(&err);
}
END_TEST

START_TEST(lost_answer_retry_is_stored_once)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *srv = T("%s/srv", tmp);
	const char *doc = "{\"boot\": 1}";
	char key[41];

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, "drop"), 0);
	options(&o, h.port, &url, &spool);
	ck_assert_int_eq(upload_document(&o, doc, strlen(doc), &c), 0);
	hash_hex(doc, strlen(doc), key);
	char *req = T("%s/requests", srv);
	/* Two requests with the same key, one stored document. */
	ck_assert_uint_eq(count_lines(req, T("0 %s", key)), 1);
	ck_assert_uint_eq(count_lines(req, T("201 %s", key)), 1);
	ck_assert_uint_eq(count_files(T("%s/stored", srv), ".json"), 1);
	httpd_stop(&h);
}
END_TEST

START_TEST(rejected_document_kept_others_sent)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *job = make_job(), *srv = T("%s/srv", tmp);

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, "422"), 0);
	options(&o, h.port, &url, &spool);
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, job, &c), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "422"));
	strbuf_release(&err);
	ck_assert_uint_eq(c.sent, 3);
	ck_assert_uint_eq(c.kept, 1);
	httpd_stop(&h);
}
END_TEST

/* The server's words reach the user's terminal escaped, on one line. */
START_TEST(server_answer_is_shown_safely)
{
	struct httpd h;
	struct upload_options o;
	struct upload_counts c;
	char *url, *spool, *srv = T("%s/srv", tmp);
	const char *doc = "{\"boot\": 1}";
	struct strbuf err = STRBUF_INIT;

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, "evil"), 0);
	options(&o, h.port, &url, &spool);
	error_capture(&err);
	ck_assert_int_eq(upload_document(&o, doc, strlen(doc), &c), -1);
	error_capture(NULL);
	httpd_stop(&h);
	ck_assert_msg(strstr(err.buf, "HTTP 400"), "%s", err.buf);
	ck_assert_msg(!strchr(err.buf, '\x1b') && !strchr(err.buf, '\x07') &&
			      !strchr(err.buf, '\n') && !strstr(err.buf, "\x9b"),
		      "raw server bytes: %s", err.buf);
	ck_assert_msg(strstr(err.buf, "\\x1b[31mbad\\x0anext line"), "%s",
		      err.buf);
	strbuf_release(&err);
}
END_TEST

/*
 * Not an http(s) URL, or no job folder: one error before anything is
 * spooled (upload /nonexistent --url used to succeed, sending nothing).
 */
static const char *const bad_urls[] = {
	"", "file:///etc/passwd", "not a url", "ftp://127.0.0.1/x",
	"http://", "gopher://x", "http://exa mple.com/",
};

START_TEST(bad_url_is_refused_before_spooling)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	struct upload_counts c;
	struct strbuf err = STRBUF_INIT;
	char *spool = T("%s/spool", tmp), *job = make_job();
	const char *doc = "{}";

	o.spool = spool;
	o.url = bad_urls[_i];
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, job, &c), -1);
	ck_assert_int_eq(upload_document(&o, doc, 2, &c), -1);
	ck_assert_int_eq(upload_flush(&o, &c), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "is not an http:// or https:// URL"),
		      "'%s': %s", bad_urls[_i], err.buf);
	ck_assert_msg(!file_exists(spool), "'%s' was spooled", bad_urls[_i]);
	strbuf_release(&err);
}
END_TEST

START_TEST(missing_job_folder_is_an_error)
{
	struct upload_options o = UPLOAD_OPTIONS_INIT;
	struct upload_counts c;
	struct strbuf err = STRBUF_INIT;
	char *file = T("%s/file", tmp);

	o.spool = T("%s/spool", tmp);
	o.url = "http://127.0.0.1:9/x";
	ck_assert_int_eq(write_file_atomic(file, "x", 1), 0);
	error_capture(&err);
	ck_assert_int_eq(upload_job(&o, T("%s/nonexistent", tmp), &c), -1);
	ck_assert_int_eq(upload_job(&o, file, &c), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "nonexistent") && strstr(err.buf, file),
		      "%s", err.buf);
	ck_assert(!file_exists(o.spool));
	strbuf_release(&err);
}
END_TEST

START_TEST(notify_posts_the_regression)
{
	struct httpd h;
	struct upload_options o;
	char *url, *spool, *srv = T("%s/srv", tmp);
	struct upload_notice n = { "99ecd36e9878c0da63346ca80792c0a324775211",
				   "block: slow path", "virtio/rawread read",
				   -14.5, "file:///tmp/report.html", "demo",
				   "5ca50121b814..99ecd36e9878" };
	struct strbuf sb = STRBUF_INIT;

	mkdir_p(srv, 0755);
	ck_assert_int_eq(httpd_start(&h, 0, srv, NULL, ""), 0);
	options(&o, h.port, &url, &spool);
	ck_assert_int_eq(upload_notify(&o, url, &n), 0);
	httpd_stop(&h);
	DIR *d = opendir(T("%s/stored", srv));
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			read_file(T("%s/stored/%s", srv, e->d_name), &sb);
	closedir(d);
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"change_pct\":-14.5"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"culprit\":\"99ecd36e"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "report.html"));
	/* A sweep's notice names its change point. */
	ck_assert_ptr_nonnull(
		strstr(sb.buf, "\"range\":\"5ca50121b814..99ecd36e9878\""));
	strbuf_release(&sb);
}
END_TEST

static Suite *upload_suite(void)
{
	Suite *s = suite_create("upload");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, accepted_documents_are_stored_and_unspooled);
	tcase_add_test(tc, content_type_and_key_sent);
	tcase_add_test(tc, server_error_then_accepted);
	tcase_add_test(tc, server_down_then_back_spools_then_flushes);
	tcase_add_test(tc, two_flushes_at_once_send_each_document_once);
	tcase_add_test(tc, wrong_token_is_a_clear_error_and_keeps_documents);
	tcase_add_loop_test(tc, silent_server_gives_way_to_a_signal, 0,
			    ARRAY_SIZE(stop_signals));
	tcase_add_test(tc, server_answer_is_shown_safely);
	tcase_add_loop_test(tc, bad_url_is_refused_before_spooling, 0,
			    ARRAY_SIZE(bad_urls));
	tcase_add_test(tc, missing_job_folder_is_an_error);
	tcase_add_test(tc, lost_answer_retry_is_stored_once);
	tcase_add_test(tc, rejected_document_kept_others_sent);
	tcase_add_test(tc, notify_posts_the_regression);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(upload_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
