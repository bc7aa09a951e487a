/*
 * upload.h: sending result documents and summaries to an HTTP(S) endpoint
 * on libcurl, without losing any. Every document is first written to a
 * spool folder (atomically, named by its idempotency key, the SHA-1 of its
 * bytes), then POSTed as application/json with an `Idempotency-Key` header
 * and `Authorization: Bearer $IOBISECT_UPLOAD_TOKEN` when that is set; a
 * 2xx answer removes it from the spool and records the key in the spool's
 * `sent` ledger so the next run does not send it again. TLS peers are
 * verified; connect failures, timeouts, 429 and 5xx are retried with
 * exponential backoff up to `tries`; what still fails stays in the spool
 * for `iobisect upload --flush` or the next run. 401/403 stop the batch
 * with an error naming the URL and the token variable; the documents stay.
 *
 * Spool layout: <spool>/<sha1(url)[:16]>/{url, sent, <key>.json}, so one
 * spool serves several endpoints and a flush knows where each goes.
 */
#ifndef IOBISECT_UPLOAD_H
#define IOBISECT_UPLOAD_H

#include <curl/curl.h>
#include <stddef.h>

#define UPLOAD_TOKEN_ENV "IOBISECT_UPLOAD_TOKEN"

struct upload_options {
	const char *url;         /* the endpoint; NULL for "every spooled" */
	const char *token;       /* NULL: $IOBISECT_UPLOAD_TOKEN (or none) */
	const char *spool;       /* NULL: cache_dir()/spool */
	long connect_timeout_ms; /* per try */
	long timeout_ms;         /* per try, whole request */
	int tries;               /* attempts per document, >= 1 */
	long backoff_ms;         /* wait before the 2nd try, doubled after */
	const char *ca_file;     /* extra CA bundle (tests); NULL: system */
};
#define UPLOAD_OPTIONS_INIT { NULL, NULL, NULL, 10000, 60000, 5, 500, NULL }

/* What happened to one POST (after its retries). */
enum upload_result {
	UPLOAD_ACCEPTED = 0,  /* 2xx (or 409: the key is already stored) */
	UPLOAD_FAILED = -1,   /* unreachable, timeouts, 5xx: try later */
	UPLOAD_AUTH = -2,     /* 401 or 403: the token is wrong */
	UPLOAD_REJECTED = -3, /* another 4xx: this document is refused */
};

struct upload_counts {
	size_t sent;    /* accepted now */
	size_t already; /* found in the ledger, not sent again */
	size_t kept;    /* left in the spool */
};

/*
 * POST `body` to `url` with `key` as Idempotency-Key, retrying as above.
 * Says what failed with error() (the URL, the HTTP status or libcurl's
 * message) unless accepted. `status` (may be NULL) gets the last HTTP
 * status, 0 when no answer came.
 */
enum upload_result upload_post(const struct upload_options *o,
			       const char *url, const char *body, size_t len,
			       const char *key, long *status);

/* The spool folder of `url` (caller frees), created when missing. */
char *upload_spool_dir(const struct upload_options *o, const char *url);

/*
 * Spool then send every JSON document under `job_dir` (sample documents,
 * boot documents, then summary.json last), after the documents already
 * spooled for o->url. Documents whose key is in the ledger are counted in
 * `already`. Once the endpoint is unreachable or refuses the token, the
 * remaining documents are spooled without trying. Returns 0 when nothing
 * is left in the spool, -1 otherwise (after error()).
 */
int upload_job(const struct upload_options *o, const char *job_dir,
	       struct upload_counts *c);

/*
 * Spool and send one document. Only the tests call it: it puts one
 * document of their making through the spool, ledger and retries that
 * upload_job's folders go through.
 */
int upload_document(const struct upload_options *o, const char *body,
		    size_t len, struct upload_counts *c);

/*
 * Send what is spooled: for o->url only, or for every endpoint in the
 * spool when o->url is NULL. Returns 0 when the spool is empty after it.
 */
int upload_flush(const struct upload_options *o, struct upload_counts *c);

/* A webhook's message: a regression found. */
struct upload_notice {
	const char *culprit;  /* full id */
	const char *subject;
	const char *metric;   /* "virtio/rawread bs_kb=2048 read MB/s" */
	double change_pct;
	const char *report;   /* a link or path to the report */
	const char *job;
	const char *range;    /* a sweep's change point, "good12..bad12" */
};

/*
 * POST {"job", "culprit", "subject", "metric", "change_pct", "report",
 * and "range" when set} to
 * `url` (same headers, retries and token as uploads, no spool: a late
 * notice is worth less than none). 0 when accepted, -1 after error().
 */
int upload_notify(const struct upload_options *o, const char *url,
		  const struct upload_notice *n);

/* A spool's url file holds one URL: anything longer is not ours. */
#define UPLOAD_URL_MAX ((size_t)8192)

/*
 * 0 when `url` is an http:// or https:// URL with a host, of at most
 * UPLOAD_URL_MAX characters, else -1 after an error naming it (escaped,
 * its password masked). Every entry point checks it before the spool is
 * touched.
 */
int upload_check_url(const char *url);
/*
 * `url` as error lines and output show it: escaped, and with the
 * password of a user:password@ masked as ***. Caller frees.
 */
char *upload_url_shown(const char *url);
/* The bearer token: o->token, else $IOBISECT_UPLOAD_TOKEN; NULL: none. */
const char *upload_token(const struct upload_options *o);
/* 0 when the token can go into a header as it is (no CR, LF, control). */
int upload_check_token(const struct upload_options *o);
/*
 * What a command checks when it reads --upload, --notify or --url: the
 * URL and the token, with a warning when a token would cross plain
 * http://. 0, or -1 after one error line.
 */
int upload_check_endpoint(const struct upload_options *o, const char *url);

/*
 * The one place libcurl failures become messages: "cannot post to '<url>':
 * <libcurl's detail or its generic text>". Returns -1.
 */
int upload_curl_error(CURLcode rc, const char *errbuf, const char *url);

#endif
