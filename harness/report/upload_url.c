/*
 * upload_url.c: what an upload or a webhook endpoint must be before
 * anything is sent (upload.h): an http(s) URL of bounded length with a
 * host, shown with its password masked, and a token that can go into a
 * header as it is. Checked when the command line is read, so a bad
 * --notify fails in a second rather than after a bisection.
 */
#include "upload.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char *upload_url_shown(const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	const char *auth = url ? strstr(url, "://") : NULL;
	const char *end, *at, *colon;

	if (!url)
		return xstrdup("");
	if (auth) {
		auth += 3;
		end = auth + strcspn(auth, "/?#");
		/* userinfo is what comes before the authority's last '@'. */
		at = NULL;
		for (const char *p = auth; p < end; p++)
			if (*p == '@')
				at = p;
		colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		if (colon) {
			strbuf_addsafe(&sb, url, (size_t)(colon + 1 - url));
			strbuf_addstr(&sb, "***");
			strbuf_addsafe(&sb, at, strlen(at));
			return strbuf_detach(&sb);
		}
	}
	strbuf_addsafe(&sb, url, strlen(url));
	return strbuf_detach(&sb);
}

int upload_check_url(const char *url)
{
	CURLU *h;
	char *scheme = NULL, *host = NULL, *shown;
	int ok;

	/* The spool's url file and a flush read at most this much back. */
	if (url && strlen(url) > UPLOAD_URL_MAX) {
		char *head = xstrndup(url, 60);
		shown = upload_url_shown(head);
		error("'%s...' is longer than %zu characters: not a URL to "
		      "send to",
		      shown, UPLOAD_URL_MAX);
		free(shown);
		free(head);
		return -1;
	}
	/*
	 * libcurl would take file:// or guess a scheme for "not a url", and
	 * the spool would keep what can never be sent. Only http(s) with a
	 * host is an endpoint.
	 */
	h = curl_url();
	ok = h && url && !curl_url_set(h, CURLUPART_URL, url, 0) &&
	     !curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) &&
	     !curl_url_get(h, CURLUPART_HOST, &host, 0) && *host &&
	     (!strcmp(scheme, "http") || !strcmp(scheme, "https"));
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(h);
	if (ok)
		return 0;
	shown = upload_url_shown(url);
	error("'%s' is not an http:// or https:// URL", shown);
	free(shown);
	return -1;
}

const char *upload_token(const struct upload_options *o)
{
	const char *t = o->token ? o->token : getenv(UPLOAD_TOKEN_ENV);
	return t && *t ? t : NULL;
}

int upload_check_token(const struct upload_options *o)
{
	const char *t = upload_token(o);

	/*
	 * A CR or LF would end the Authorization header and start one of
	 * the token's choosing in every request. The token is not shown.
	 */
	for (const char *p = t; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return error("the upload token ($%s) holds a control "
				     "character (byte %u): not sent in a "
				     "header",
				     UPLOAD_TOKEN_ENV, (unsigned char)*p);
	return 0;
}

int upload_check_endpoint(const struct upload_options *o, const char *url)
{
	char *shown;

	if (upload_check_url(url) || upload_check_token(o))
		return -1;
	if (upload_token(o) && !strncasecmp(url, "http://", 7)) {
		shown = upload_url_shown(url);
		warning("the upload token goes to '%s' over plain http://: "
			"anyone on the way can read it",
			shown);
		free(shown);
	}
	return 0;
}
