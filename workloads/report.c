/*
 * report.c: frames on the result port and the JSON writer for their
 * payloads. Every frame is drained to the UART before the call returns:
 * the guest may reboot or die right after, and a frame still queued in the
 * tty layer would be lost.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

unsigned report_nr_samples;
static int port_fd = -1;
static uint64_t port_seq;

static void json_raw(struct json *j, const char *s, size_t n)
{
	if (j->overflow || j->len + n > PROTO_MAX_PAYLOAD) {
		j->overflow = true;
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void json_quoted(struct json *j, const char *s)
{
	json_raw(j, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			json_raw(j, esc, 2);
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			json_raw(j, esc, 6);
		} else if (c >= 0x80) {
			/* Kernel text is not guaranteed UTF-8; keep JSON valid.
			 */
			json_raw(j, "?", 1);
		} else {
			json_raw(j, (const char *)&c, 1);
		}
	}
	json_raw(j, "\"", 1);
}

static void json_key(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth - 1])
			json_raw(j, ",", 1);
		j->first[j->depth - 1] = false;
	}
	if (key) {
		json_quoted(j, key);
		json_raw(j, ":", 1);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	json_raw(j, &c, 1);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->closer[j->depth] = c == '{' ? '}' : ']';
	j->first[j->depth++] = true;
}

void json_begin(struct json *j, const char *type)
{
	j->len = 0;
	j->depth = 0;
	j->overflow = false;
	j->buf[0] = '\0';
	json_open(j, NULL, '{');
	json_str(j, "type", type);
}

void json_obj_begin(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_arr_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_end(struct json *j)
{
	if (j->depth == 0) {
		j->overflow = true;
		return;
	}
	j->depth--;
	json_raw(j, &j->closer[j->depth], 1);
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_quoted(j, val ? val : "");
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	char num[32];
	json_key(j, key);
	json_raw(j, num,
		 (size_t)snprintf(num, sizeof(num), "%llu",
				  (unsigned long long)val));
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	char num[32];
	json_key(j, key);
	json_raw(j, num,
		 (size_t)snprintf(num, sizeof(num), "%lld", (long long)val));
}

void json_double(struct json *j, const char *key, double val)
{
	char num[64];
	json_key(j, key);
	if (val != val || val > 1e300 || val < -1e300)
		val = 0; /* JSON has no NaN or infinity */
	json_raw(j, num, (size_t)snprintf(num, sizeof(num), "%.3f", val));
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_key(j, key);
	json_raw(j, val ? "true" : "false", val ? 4 : 5);
}

void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	dprintf(2, "iobisect-guest: %s\n", line);
}

int report_open(void)
{
	struct termios t;
	if (getpid() != 1) {
		/* Run by hand on a host: frames on stdout, never a real port.
		 */
		port_fd = 1;
		return 0;
	}
	port_fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (port_fd < 0) {
		say("cannot open '/dev/ttyS1': %s; frames go to the console",
		    strerror(errno));
		port_fd = 2;
		return -1;
	}
	if (tcgetattr(port_fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_lflag &= ~(tcflag_t)ECHO;
		cfsetispeed(&t, B115200);
		cfsetospeed(&t, B115200);
		if (tcsetattr(port_fd, TCSANOW, &t) < 0)
			say("cannot set up '/dev/ttyS1': %s", strerror(errno));
	}
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int report_frame(struct json *j)
{
	char head[96];
	int n;
	if (j->overflow || j->depth != 0) {
		say("frame not sent: payload overflow or unbalanced");
		return -1;
	}
	if (port_fd < 0)
		report_open();
	n = snprintf(head, sizeof(head), PROTO_MAGIC " %llu %u %08x ",
		     (unsigned long long)port_seq, j->len,
		     proto_crc32(j->buf, j->len));
	j->buf[j->len] = '\n';
	/* One write for the whole line keeps it in one piece on the wire. */
	static char line[sizeof(head) + PROTO_MAX_PAYLOAD + 2];
	memcpy(line, head, (size_t)n);
	memcpy(line + n, j->buf, j->len + 1);
	j->buf[j->len] = '\0';
	if (write_all(port_fd, line, (size_t)n + j->len + 1) < 0) {
		say("cannot write frame: %s", strerror(errno));
		return -1;
	}
	port_seq++;
	if (strncmp(j->buf, "{\"type\":\"sample\"", 16) == 0)
		report_nr_samples++;
	report_flush();
	return 0;
}

void report_flush(void)
{
	if (port_fd > 2)
		tcdrain(port_fd);
	else
		fsync(port_fd);
}

static int holding;
static char held_stage[16], held_msg[1024];

void report_hold(void)
{
	holding = 1;
}

static void send_error(const char *stage, const char *msg)
{
	static struct json j;
	json_begin(&j, "error");
	json_str(&j, "stage", stage);
	json_str(&j, "message", msg);
	json_end(&j);
	report_frame(&j);
}

void report_release(void)
{
	holding = 0;
	if (held_msg[0])
		send_error(held_stage, held_msg);
	held_msg[0] = '\0';
}

int report_error(const char *stage, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say("error (%s): %s", stage, msg);
	if (holding) {
		if (!held_msg[0]) {
			snprintf(held_stage, sizeof(held_stage), "%s", stage);
			snprintf(held_msg, sizeof(held_msg), "%s", msg);
		}
		return -1;
	}
	send_error(stage, msg);
	return -1;
}
