/*
 * httpd.c: test_httpd.h as a program for the upload integration test:
 * `httpd DIR PORT [TOKEN [SCRIPT]]` serves on 127.0.0.1:PORT (0: any,
 * the port is printed on stdout) until killed. See test_httpd.h.
 */
#include "../test_httpd.h"

int main(int argc, char **argv)
{
	int port = 0, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: httpd DIR PORT [TOKEN [SCRIPT]]\n");
		return 2;
	}
	fd = httpd_listen(atoi(argv[2]), &port);
	if (fd < 0) {
		perror("httpd: listen");
		return 1;
	}
	printf("%d\n", port);
	fflush(stdout);
	httpd_serve(fd, argv[1], argc > 3 && *argv[3] ? argv[3] : NULL,
		    argc > 4 ? argv[4] : "");
	return 0;
}
