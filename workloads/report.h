/*
 * report.h: the guest's voice. Frames on the result port (/dev/ttyS1) in
 * the framing of proto/frame.h, a small JSON writer for their
 * payloads, and human-readable progress lines on the kernel console.
 */
#ifndef IOBISECT_GUEST_REPORT_H
#define IOBISECT_GUEST_REPORT_H

#include "proto/frame.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * A JSON object built in place, bounded by PROTO_MAX_PAYLOAD. Overflow is
 * sticky and makes report_frame() refuse the payload, so a truncated
 * object can never be sent.
 */
#define JSON_MAX_DEPTH 8
struct json {
	char buf[PROTO_MAX_PAYLOAD + 1];
	unsigned len;
	int depth;
	bool first[JSON_MAX_DEPTH];
	char closer[JSON_MAX_DEPTH];
	bool overflow;
};

/* Start a top-level object with "type": type. */
void json_begin(struct json *j, const char *type);
/* key is NULL inside arrays. */
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_obj_begin(struct json *j, const char *key);
void json_arr_begin(struct json *j, const char *key);
/* Close the innermost object or array (and the top-level one). */
void json_end(struct json *j);

/* Open the result port; falls back to the console so nothing is lost. */
int report_open(void);
/* Send one framed payload (j must be complete). Returns 0 or -1. */
int report_frame(struct json *j);
/* Send an `error` frame (and say it on the console). Always returns -1. */
int report_error(const char *stage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Hold `error` frames back (the first one is kept) until report_release()
 * sends it: the spec is read before `hello` can be sent, but `hello` must
 * come first on the wire.
 */
void report_hold(void);
void report_release(void);
/* Frames sent so far that were `sample`s. */
extern unsigned report_nr_samples;
/* Wait for the port to drain, so a reboot loses nothing. */
void report_flush(void);

/* A progress line on the kernel console ("iobisect-guest: ..."). */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
