/*
 * proto.c: the host side of the guest's result port (framing in
 * proto/frame.h, payloads in workloads/PROTOCOL.md). Pure: bytes in,
 * typed data out. A line is a frame only when every field checks out, and
 * once one frame is lost nothing after it is believed, because the lost
 * one could have been the error that made the rest meaningless.
 */
#include "proto.h"
#include "sample_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* How many reasons for refused lines a report keeps. */
#define PROTO_MAX_REJECTS 8

const char *proto_strerror(int status)
{
	switch (status) {
	case PROTO_OK:
		return "ok";
	case PROTO_NOT_FRAME:
		return "not a frame";
	case PROTO_BAD_HEADER:
		return "malformed header";
	case PROTO_BAD_LEN:
		return "payload length does not match";
	case PROTO_BAD_CRC:
		return "bad crc";
	case PROTO_BAD_JSON:
		return "payload is not a JSON object with a type";
	case PROTO_TOO_LONG:
		return "payload too long";
	}
	return "unknown status";
}

/* A decimal field of 1..20 digits, no sign, no leading zero but "0". */
static int parse_dec(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	size_t n = 0;
	while (s < end && isdigit((unsigned char)*s)) {
		if (n == 19)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		s++;
		n++;
	}
	if (!n || (n > 1 && **p == '0'))
		return -1;
	*p = s;
	*out = v;
	return 0;
}

void proto_frame_release(struct proto_frame *f)
{
	json_decref(f->payload);
	f->payload = NULL;
	f->type = NULL;
	f->seq = 0;
}

int proto_parse_line(const char *line, size_t len, struct proto_frame *out)
{
	const size_t mlen = strlen(PROTO_MAGIC);
	const char *p = line, *end = line + len;
	uint64_t seq, plen;
	uint32_t crc = 0;
	json_t *payload;
	json_t *type;

	out->seq = 0;
	out->type = NULL;
	out->payload = NULL;
	if (len && line[len - 1] == '\r')
		end--;
	if ((size_t)(end - p) < mlen || memcmp(p, PROTO_MAGIC, mlen))
		return PROTO_NOT_FRAME;
	p += mlen;
	if (p >= end || *p++ != ' ' || parse_dec(&p, end, &seq) ||
	    p >= end || *p++ != ' ' || parse_dec(&p, end, &plen) ||
	    p >= end || *p++ != ' ')
		return PROTO_BAD_HEADER;
	if (end - p < 9)
		return PROTO_BAD_HEADER;
	for (int i = 0; i < 8; i++) {
		char c = p[i];
		uint32_t d;
		if (c >= '0' && c <= '9')
			d = (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (uint32_t)(c - 'a' + 10);
		else
			return PROTO_BAD_HEADER;
		crc = crc << 4 | d;
	}
	p += 8;
	if (*p++ != ' ')
		return PROTO_BAD_HEADER;
	if (plen > PROTO_MAX_PAYLOAD)
		return PROTO_TOO_LONG;
	if ((uint64_t)(end - p) != plen)
		return PROTO_BAD_LEN;
	if (proto_crc32(p, plen) != crc)
		return PROTO_BAD_CRC;
	payload = json_loadb(p, plen, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(payload)) {
		json_decref(payload);
		return PROTO_BAD_JSON;
	}
	type = json_object_get(payload, "type");
	if (!json_is_string(type) || !*json_string_value(type)) {
		json_decref(payload);
		return PROTO_BAD_JSON;
	}
	out->seq = seq;
	out->payload = payload;
	out->type = json_string_value(type);
	return PROTO_OK;
}

void proto_report_init(struct proto_report *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->partial);
	r->points = json_array();
}

void proto_report_release(struct proto_report *r)
{
	strbuf_release(&r->partial);
	strvec_clear(&r->rejects);
	strvec_clear(&r->expect_ids);
	json_decref(r->hello);
	json_decref(r->topology);
	json_decref(r->points);
	free(r->kernel);
	for (size_t i = 0; i < r->nr_samples; i++) {
		free(r->samples[i].point);
		free(r->samples[i].metric);
		json_decref(r->samples[i].block);
		json_decref(r->samples[i].fio);
	}
	free(r->samples);
	for (size_t i = 0; i < r->nr_errors; i++) {
		free(r->errors[i].stage);
		free(r->errors[i].message);
	}
	free(r->errors);
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->partial);
}

__attribute__((format(printf, 2, 3))) static void reject(struct proto_report *r,
							 const char *fmt, ...)
{
	r->nr_rejected++;
	if (r->rejects.nr >= PROTO_MAX_REJECTS)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(&r->rejects, sb.buf);
	strbuf_release(&sb);
}

static int get_u64(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static const char *get_string(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The figures every sample frame carries (sample_check.h's rule). */
static const char *const figures[] = { "io_bytes", "runtime_ns", "bw_bytes",
				       "usr_ns",   "sys_ns",     "cpu_pct",
				       "verified" };

/*
 * A sample frame into `s`: -1 when it lacks a key of the protocol (the
 * stream breaks, as for any malformed payload), 1 with the reason in `why`
 * when a figure breaks the rule the store keeps (`s` is then empty), 0
 * when taken.
 */
static int sample_parse(json_t *o, struct proto_sample *s, struct strbuf *why)
{
	const char *point = get_string(o, "point"),
		   *metric = get_string(o, "metric");
	json_t *warm = json_object_get(o, "warmup"),
	       *idx = json_object_get(o, "index"), *block;
	memset(s, 0, sizeof(*s));
	if (!point || !metric || !json_is_boolean(warm) ||
	    !json_is_integer(idx) || json_integer_value(idx) < 0 ||
	    json_integer_value(idx) > 1000000)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++)
		if (!json_object_get(o, figures[i]))
			return -1;
	if (sample_figures_check(o, why))
		return 1;
	get_u64(o, "io_bytes", &s->io_bytes);
	get_u64(o, "runtime_ns", &s->runtime_ns);
	get_u64(o, "bw_bytes", &s->bw_bytes);
	get_u64(o, "usr_ns", &s->usr_ns);
	get_u64(o, "sys_ns", &s->sys_ns);
	/* The guest's names reach terminals and report.txt: escaped. */
	s->point = xstrdup_safe(point);
	s->metric = xstrdup_safe(metric);
	s->index = (int)json_integer_value(idx);
	s->warmup = json_is_true(warm);
	s->verified = json_is_true(json_object_get(o, "verified"));
	s->cpu_pct = json_number_value(json_object_get(o, "cpu_pct"));
	/*
	 * The counters explain a sample, they are not it: a guest that sends
	 * none (older) or a malformed object keeps the sample without them.
	 */
	block = json_object_get(o, PROTO_COUNTERS_KEY);
	if (json_is_object(block) &&
	    json_is_array(json_object_get(block, "devices")))
		s->block = json_incref(block);
	/* fio's own names, stored as they came (results.c): an object. */
	if (json_is_object(json_object_get(o, "fio")))
		s->fio = json_incref(json_object_get(o, "fio"));
	return 0;
}

static void sample_release(struct proto_sample *s)
{
	free(s->point);
	free(s->metric);
	json_decref(s->block);
	json_decref(s->fio);
	memset(s, 0, sizeof(*s));
}

/*
 * A sample refused: the first says why as the guest's error (stage
 * "samples"), in the guest's words escaped; the rest are counted. `text`
 * is taken.
 */
static void sample_refuse(struct proto_report *r, char *text)
{
	r->nr_refused++;
	if (!r->samples_said) {
		ALLOC_GROW(r->errors, r->nr_errors + 1, r->alloc_errors);
		r->errors[r->nr_errors].stage = xstrdup("samples");
		r->errors[r->nr_errors++].message = xstrdup_safe(text);
		r->samples_said = 1;
	}
	free(text);
}

/* Why the store could not keep sample `s`, or NULL (the caller frees). */
static char *sample_unknown(const struct proto_report *r,
			    const struct proto_sample *s)
{
	int known = !r->expect_ids.nr;

	for (size_t i = 0; i < r->expect_ids.nr && !known; i++)
		known = !strcmp(r->expect_ids.v[i], s->point);
	if (!known)
		return xstrfmt("a sample of point '%s', which the spec does "
			       "not hold",
			       s->point);
	if (!sample_metric_known(s->metric))
		return xstrfmt("point '%s' sent metric '%s', not read, write, "
			       "rewrite or trim",
			       s->point, s->metric);
	return NULL;
}

/* A sample the spec did not ask for, or NULL (the caller frees). */
static char *sample_over(const struct proto_report *r,
			 const struct proto_sample *s)
{
	unsigned bound = s->warmup ? r->expect_warmups : r->expect_samples;
	size_t most = (size_t)r->expect_points *
		      (r->expect_samples + r->expect_warmups) *
		      PROTO_METRICS_MAX;

	if (r->expect_samples && (unsigned)s->index >= bound)
		return xstrfmt("point '%s' sent %s %d, but the spec asked "
			       "for %u",
			       s->point, s->warmup ? "warmup" : "sample",
			       s->index, bound);
	if (r->expect_points && r->nr_samples >= most)
		return xstrfmt("more than %zu samples, but the spec's %u "
			       "points make at most that",
			       most, r->expect_points);
	return NULL;
}

/*
 * One sample frame: -1 when it breaks the protocol; otherwise taken, or
 * refused (sample_refuse) when the store could not keep it or the spec
 * did not ask for it. A flood of bad samples is one error, not one line
 * each.
 */
static int sample_accept(struct proto_report *r, json_t *o)
{
	struct strbuf why = STRBUF_INIT;
	struct proto_sample s;
	char *text;
	int rc = sample_parse(o, &s, &why);

	if (rc < 0) {
		strbuf_release(&why);
		return -1;
	}
	if (rc > 0) {
		json_t *idx = json_object_get(o, "index");
		text = xstrfmt("point '%s' %s %s %lld: %s",
			       get_string(o, "point"), get_string(o, "metric"),
			       json_is_true(json_object_get(o, "warmup"))
				       ? "warmup"
				       : "sample",
			       (long long)json_integer_value(idx), why.buf);
	} else if (!(text = sample_unknown(r, &s))) {
		text = sample_over(r, &s);
	}
	strbuf_release(&why);
	if (text) {
		sample_refuse(r, text);
		sample_release(&s);
		return 0;
	}
	ALLOC_GROW(r->samples, r->nr_samples + 1, r->alloc_samples);
	r->samples[r->nr_samples++] = s;
	return 0;
}

/* Take in one checked frame; -1 when its payload breaks the protocol. */
static int accept(struct proto_report *r, struct proto_frame *f)
{
	json_t *o = f->payload;
	const char *type = f->type;

	if (r->expect_boot && strcmp(type, "hello") && !r->hello)
		return -1;
	if (!strcmp(type, "hello")) {
		const char *k = get_string(o, "kernel");
		uint64_t boot;
		if (!k)
			return -1;
		if (r->expect_boot &&
		    (get_u64(o, "boot", &boot) || boot != r->expect_boot))
			return -1;
		json_decref(r->hello);
		r->hello = json_incref(o);
		free(r->kernel);
		r->kernel = xstrdup(k);
	} else if (!strcmp(type, "topology")) {
		json_t *layers = json_object_get(o, "layers");
		if (!json_is_array(layers))
			return -1;
		json_decref(r->topology);
		r->topology = json_incref(layers);
	} else if (!strcmp(type, "point")) {
		if (!get_string(o, "id"))
			return -1;
		json_array_append(r->points, o);
	} else if (!strcmp(type, "sample")) {
		return sample_accept(r, o);
	} else if (!strcmp(type, "error")) {
		const char *stage = get_string(o, "stage"),
			   *msg = get_string(o, "message");
		if (!stage || !msg)
			return -1;
		ALLOC_GROW(r->errors, r->nr_errors + 1, r->alloc_errors);
		/* The guest's words reach warnings, logs and the summary. */
		r->errors[r->nr_errors].stage = xstrdup_safe(stage);
		r->errors[r->nr_errors++].message = xstrdup_safe(msg);
	} else if (!strcmp(type, "done")) {
		json_t *n = json_object_get(o, "samples");
		if (!json_is_integer(n) || json_integer_value(n) < 0)
			return -1;
		r->done = 1;
		r->done_samples = (long)json_integer_value(n);
	}
	/* Unknown types are accepted and ignored: a newer guest may say more. */
	return 0;
}

static int feed_line(struct proto_report *r, const char *line, size_t len)
{
	const size_t mlen = strlen(PROTO_MAGIC);
	struct proto_frame f;
	const char *m;
	int st;

	/* Noise glued in front of a frame (a stray byte, an echo) is cut. */
	m = len >= mlen ? memmem(line, len, PROTO_MAGIC, mlen) : NULL;
	if (!m) {
		r->nr_noise++;
		return 0;
	}
	len -= (size_t)(m - line);
	line = m;
	st = proto_parse_line(line, len, &f);
	if (st != PROTO_OK) {
		r->broken = 1;
		reject(r, "frame after %llu: %s",
		       (unsigned long long)r->next_seq, proto_strerror(st));
		return 0;
	}
	if (r->broken) {
		reject(r, "frame %llu: after a lost frame",
		       (unsigned long long)f.seq);
	} else if (f.seq != r->next_seq) {
		r->broken = 1;
		reject(r, "frame %llu: expected %llu", (unsigned long long)f.seq,
		       (unsigned long long)r->next_seq);
	} else if (r->done) {
		r->broken = 1;
		reject(r, "frame %llu: after done", (unsigned long long)f.seq);
	} else if (accept(r, &f)) {
		r->broken = 1;
		reject(r, "frame %llu: '%s' payload lacks keys or is of "
		       "another boot",
		       (unsigned long long)f.seq, f.type);
	} else {
		r->next_seq++;
		r->nr_frames++;
		proto_frame_release(&f);
		return 1;
	}
	proto_frame_release(&f);
	return 0;
}

int proto_report_feed(struct proto_report *r, const char *data, size_t len)
{
	/* A line longer than any frame can be is cut and counted as noise. */
	const size_t max_line = PROTO_MAX_PAYLOAD + 64;
	int accepted = 0;

	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		if (r->partial.len + n > max_line) {
			size_t keep = max_line > r->partial.len
					      ? max_line - r->partial.len
					      : 0;
			strbuf_add(&r->partial, data, keep < n ? keep : n);
		} else {
			strbuf_add(&r->partial, data, n);
		}
		if (!nl)
			break;
		if (r->partial.len >= max_line)
			feed_line(r, "", 0); /* counted as noise */
		else
			accepted += feed_line(r, r->partial.buf,
					      r->partial.len);
		strbuf_reset(&r->partial);
		data = nl + 1;
		len -= n + 1;
	}
	return accepted;
}

void proto_report_finish(struct proto_report *r)
{
	if (r->partial.len) {
		const size_t mlen = strlen(PROTO_MAGIC);
		if (memmem(r->partial.buf, r->partial.len, PROTO_MAGIC, mlen)) {
			r->broken = 1;
			reject(r, "frame after %llu: truncated",
			       (unsigned long long)r->next_seq);
		} else {
			r->nr_noise++;
		}
		strbuf_reset(&r->partial);
	}
}

const char *proto_report_unmeasured(const struct proto_report *r)
{
	for (size_t i = 0; i < r->expect_ids.nr; i++) {
		size_t k = 0;
		while (k < r->nr_samples &&
		       (r->samples[k].warmup ||
			strcmp(r->samples[k].point, r->expect_ids.v[i])))
			k++;
		if (k == r->nr_samples)
			return r->expect_ids.v[i];
	}
	for (size_t k = 0; k < r->nr_samples; k++)
		if (!r->samples[k].warmup)
			return NULL;
	return "";
}

int proto_report_complete(const struct proto_report *r)
{
	size_t measured = 0;
	for (size_t i = 0; i < r->nr_samples; i++)
		measured += !r->samples[i].warmup;
	/* done's count may or may not include warmups; either must match. */
	return r->done && !r->broken && !r->nr_errors && r->hello &&
	       !proto_report_unmeasured(r) &&
	       ((size_t)r->done_samples == r->nr_samples ||
		(size_t)r->done_samples == measured);
}
