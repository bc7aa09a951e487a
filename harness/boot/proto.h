/*
 * proto.h: the host side of the guest's result port. proto_parse_line()
 * checks one framed line (proto/frame.h); struct proto_report
 * accumulates a whole boot's stream, fed in arbitrary chunks as they arrive
 * from QEMU, and gives typed access to what the guest said. Pure: no I/O,
 * no messages printed; reasons for rejected lines are kept in the report.
 */
#ifndef IOBISECT_PROTO_H
#define IOBISECT_PROTO_H

#include "proto/frame.h"
#include "util.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Results of proto_parse_line(); proto_strerror() names them for people. */
enum proto_status {
	PROTO_OK = 0,
	PROTO_NOT_FRAME = -1, /* does not start with the magic: noise */
	PROTO_BAD_HEADER = -2, /* seq/len/crc fields malformed */
	PROTO_BAD_LEN = -3,    /* payload length differs from <len> */
	PROTO_BAD_CRC = -4,    /* CRC-32 of the payload differs from <crc> */
	PROTO_BAD_JSON = -5,   /* payload is not a JSON object with a "type" */
	PROTO_TOO_LONG = -6,   /* payload longer than PROTO_MAX_PAYLOAD */
};
const char *proto_strerror(int status);

struct proto_frame {
	uint64_t seq;
	const char *type; /* points into payload; valid while payload lives */
	json_t *payload;  /* owned: the JSON object */
};
#define PROTO_FRAME_INIT { 0, NULL, NULL }

/*
 * Parse one line (without its '\n'; a trailing '\r' is tolerated) of
 * exactly `len` bytes. On PROTO_OK `out` owns the payload; release it with
 * proto_frame_release(). Any other status leaves `out` empty.
 */
int proto_parse_line(const char *line, size_t len, struct proto_frame *out);
void proto_frame_release(struct proto_frame *f);

/* One `sample` frame. */
struct proto_sample {
	char *point;  /* point id */
	int index;    /* 0-based, warmups excluded */
	int warmup;   /* a warmup sample: never evidence */
	char *metric; /* "read", "write", "rewrite" */
	uint64_t io_bytes;
	uint64_t runtime_ns;
	uint64_t bw_bytes; /* bytes per second */
	uint64_t usr_ns;
	uint64_t sys_ns;
	double cpu_pct;
	int verified; /* data read back matched the pattern */
	/* The block layer's counters (PROTO_COUNTERS_KEY, "block_v1"), or NULL. */
	json_t *block;
	/* The fio engine's figures (iops, clat_ns, ...), or NULL. */
	json_t *fio;
};

/* One `error` frame. */
struct proto_error {
	char *stage; /* spec, disk, md, dm, loop, fs, workload, verify */
	char *message;
};

struct proto_report {
	/* Bytes of a line not yet ended by '\n'. */
	struct strbuf partial;
	uint64_t next_seq;

	/*
	 * The stream is broken once a frame is lost (a corrupt line, or a gap
	 * or repeat in seq): a lost frame might have been an error, so nothing
	 * after it is trusted. Frames after the break are rejected and
	 * counted; those before it stay available.
	 */
	int broken;
	unsigned nr_frames;   /* accepted frames */
	unsigned nr_rejected; /* lines with the magic that were refused */
	unsigned nr_noise;    /* lines without the magic, ignored */
	/* Why lines were refused, first few only ("frame 7: bad crc"). */
	struct strvec rejects;

	json_t *hello;    /* the hello payload, or NULL */
	char *kernel;     /* hello.kernel (uname -r), or NULL */
	json_t *topology; /* the topology payload's "layers" array, or NULL */
	json_t *points;   /* array of `point` payloads, in arrival order */

	struct proto_sample *samples;
	size_t nr_samples, alloc_samples;
	struct proto_error *errors;
	size_t nr_errors, alloc_errors;

	int done;             /* a `done` frame was accepted */
	long done_samples;    /* its "samples" count */
	/*
	 * The boot the stream must come from (the spec's boot id, which
	 * hello names), or 0 for any: a stream of another boot, or frames
	 * before hello, are refused, so no boot takes another's samples.
	 */
	unsigned expect_boot;
	/*
	 * What the spec asked of each point, 0 for no bound: a sample past
	 * its count (or its warmups), or more sample frames than the spec's
	 * points can make, is the guest's error, said once; the sample is
	 * dropped. A flood of 20,000 samples for 3 is no evidence.
	 */
	unsigned expect_samples, expect_warmups, expect_points;
	/*
	 * The spec's point ids (empty: any). A sample of another point, of
	 * a metric no document can hold, or with a figure the store would
	 * refuse (sample_check.h) is the guest's error in the same way:
	 * said once, with the reason, and dropped, so `run` never calls a
	 * boot "ok" whose samples a bisection could not use.
	 */
	struct strvec expect_ids;
	int samples_said; /* the samples' error is said */
	unsigned nr_refused; /* samples dropped so */
};

/* Readings one sample may carry (read, write, ...: workloads/engine.c). */
#define PROTO_METRICS_MAX 3

void proto_report_init(struct proto_report *r);
void proto_report_release(struct proto_report *r);

/*
 * Feed bytes as they come from the result port; lines may be split across
 * calls anyhow. Returns the number of frames accepted by this call.
 */
int proto_report_feed(struct proto_report *r, const char *data, size_t len);

/*
 * The stream has ended (QEMU exited): an unfinished last line is a
 * truncated frame (rejected) or noise.
 */
void proto_report_finish(struct proto_report *r);

/*
 * What a boot did not measure: the first of the spec's points
 * (expect_ids) that sent no sample past its warmups, or "" when none was
 * expected by name and no such sample came at all; NULL when nothing is
 * missing. A boot that measured nothing is no evidence.
 */
const char *proto_report_unmeasured(const struct proto_report *r);

/*
 * A boot whose report can be used as evidence: `done` arrived, its count
 * matches the samples received, nothing was lost, no error frame came,
 * and nothing is unmeasured.
 */
int proto_report_complete(const struct proto_report *r);

#endif
