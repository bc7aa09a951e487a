/*
 * test_httpd.h: a tiny HTTP/1.1 server on 127.0.0.1 for the upload tests
 * (check_upload.c forks it; tests/httpd/httpd.c wraps it as a program for
 * the integration test). It plays an upload endpoint that stores each
 * document once per Idempotency-Key, under <dir>/stored/<key>.json, and
 * logs every request to <dir>/requests as "<status> <key> <content-type>".
 *
 * Its behaviour is a script, one word per POST, then "201" for the rest:
 * a status ("500", "503", "201") answers with it (storing on 2xx),
 * "drop" stores the document and closes the connection without an answer
 * (an answer lost on the way back), and "evil" answers 400 with a body of
 * terminal escapes and a newline. With a token set, any request without
 * "Authorization: Bearer <token>" gets 401 before the script is consulted.
 *
 * Header-only on purpose: the Makefile builds each tests/check_*.c alone.
 */
#ifndef IOBISECT_TEST_HTTPD_H
#define IOBISECT_TEST_HTTPD_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct httpd {
	pid_t pid;
	int port;
};

/* A socket listening on 127.0.0.1:port (0: any free port). */
static inline int httpd_listen(int port, int *bound)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((unsigned short)port);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		close(fd);
		return -1;
	}
	*bound = ntohs(a.sin_port);
	return fd;
}

/* A port that nothing listens on (yet). */
static inline int httpd_free_port(void)
{
	int port = 0, fd = httpd_listen(0, &port);
	if (fd >= 0)
		close(fd);
	return port;
}

static inline void httpd_header(const char *head, const char *name, char *out,
			 size_t size)
{
	size_t n = strlen(name);
	out[0] = '\0';
	for (const char *p = head; (p = strchr(p, '\n')); ) {
		p++;
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1, *end;
			while (*v == ' ')
				v++;
			end = strpbrk(v, "\r\n");
			if (!end)
				end = v + strlen(v);
			snprintf(out, size, "%.*s", (int)(end - v), v);
			return;
		}
	}
}

/* What a hostile server says: escapes that would act on a terminal. */
#define HTTPD_EVIL_BODY "\x1b]0;owned\x07\x1b[2J\x1b[31mbad\nnext line\x9b"

static inline void httpd_answer(int c, int status, const char *body)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf),
			 "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n%s",
			 status, strlen(body), body);
	if (write(c, buf, (size_t)n) < 0)
		return;
}

/* Serve forever on `fd` (the caller kills us). */
static inline void httpd_serve(int fd, const char *dir, const char *token,
			const char *script)
{
	char *words = strdup(script ? script : ""), *save = NULL;
	char *next = strtok_r(words, ",", &save);
	char path[4096];

	snprintf(path, sizeof(path), "%s/stored", dir);
	mkdir(path, 0755);
	for (;;) {
		int c = accept(fd, NULL, NULL);
		char *req = NULL, *body;
		size_t len = 0, cap = 0;
		long clen = 0;
		char key[128], type[128], auth[256], want[300];
		int status, evil = 0;

		if (c < 0)
			continue;
		/* Read the head, then the body by Content-Length. */
		for (;;) {
			if (len + 4096 + 1 > cap) {
				cap = (cap + 4096) * 2;
				req = realloc(req, cap);
			}
			ssize_t r = read(c, req + len, 4096);
			if (r <= 0)
				break;
			len += (size_t)r;
			req[len] = '\0';
			body = strstr(req, "\r\n\r\n");
			if (body) {
				char cl[32];
				httpd_header(req, "Content-Length", cl, sizeof(cl));
				clen = atol(cl);
				if ((long)(len - (size_t)(body + 4 - req)) >= clen)
					break;
			}
		}
		if (!req || !(body = strstr(req, "\r\n\r\n"))) {
			free(req);
			close(c);
			continue;
		}
		*body = '\0';
		body += 4;
		httpd_header(req, "Idempotency-Key", key, sizeof(key));
		httpd_header(req, "Content-Type", type, sizeof(type));
		httpd_header(req, "Authorization", auth, sizeof(auth));
		snprintf(want, sizeof(want), "Bearer %s", token ? token : "");
		if (token && strcmp(auth, want)) {
			status = 401;
		} else {
			const char *w = next ? next : "201";
			if (next)
				next = strtok_r(NULL, ",", &save);
			evil = !strcmp(w, "evil");
			status = evil		     ? 400
				 : strcmp(w, "drop") ? atoi(w)
						     : 0;
		}
		if ((status == 0 || (status >= 200 && status < 300)) && *key) {
			char *p;
			if (asprintf(&p, "%s/stored/%s.json", dir, key) > 0) {
				FILE *f = fopen(p, "wx"); /* once per key */
				if (f) {
					fwrite(body, 1, (size_t)clen, f);
					fclose(f);
				}
				free(p);
			}
		}
		snprintf(path, sizeof(path), "%s/requests", dir);
		FILE *log = fopen(path, "a");
		if (log) {
			fprintf(log, "%d %s %s\n", status, *key ? key : "-",
				*type ? type : "-");
			fclose(log);
		}
		if (status)
			httpd_answer(c, status, evil ? HTTPD_EVIL_BODY : "ok");
		free(req);
		close(c);
	}
}

/* Fork a server; 0 when it listens (port in h->port), -1 otherwise. */
static inline int httpd_start(struct httpd *h, int port, const char *dir,
		       const char *token, const char *script)
{
	int fd = httpd_listen(port, &h->port);
	if (fd < 0)
		return -1;
	h->pid = fork();
	if (h->pid < 0) {
		close(fd);
		return -1;
	}
	if (!h->pid) {
		/* Check's runner forwards SIGTERM to its whole group: not us. */
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		httpd_serve(fd, dir, token, script);
		_exit(0);
	}
	close(fd);
	return 0;
}

static inline void httpd_stop(struct httpd *h)
{
	if (h->pid > 0) {
		kill(h->pid, SIGTERM);
		waitpid(h->pid, NULL, 0);
		h->pid = 0;
	}
}

#endif
