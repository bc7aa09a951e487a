/*
 * spec.h: the guest's reading of /spec (workloads/PROTOCOL.md). Lines are
 * kept as directive + key=value pairs; every key is checked against the
 * directive's (and, for points, the engine's) list, so a typo in the host
 * is an `error` frame, not a silently ignored setting.
 */
#ifndef IOBISECT_GUEST_SPEC_H
#define IOBISECT_GUEST_SPEC_H

#include "proto/frame.h"

#include <stdint.h>

#define SPEC_MAX_KV 24
#define SPEC_MAX_DISKS PROTO_SPEC_MAX_DISKS
#define SPEC_MAX_LAYERS PROTO_SPEC_MAX_LAYERS
#define SPEC_MAX_POINTS PROTO_SPEC_MAX_POINTS

struct spec_kv {
	char key[32];
	char val[PROTO_SPEC_MAX_VALUE + 1];
};

struct spec_line {
	char word[8]; /* disk, part, md, dm, loop, fs, point */
	int lineno;
	int nr;
	struct spec_kv kv[SPEC_MAX_KV];
};

struct spec {
	unsigned boot_id;
	char commit[128];
	int reboot;
	int nr_disks, nr_layers, nr_points;
	struct spec_line disks[SPEC_MAX_DISKS];
	struct spec_line layers[SPEC_MAX_LAYERS]; /* in file order */
	struct spec_line points[SPEC_MAX_POINTS];
};

/*
 * Parse the text of /spec into `s`. Returns 0, or -1 after an `error`
 * frame (stage "spec") naming the line and the key.
 */
int spec_parse(struct spec *s, const char *text);
int spec_load(struct spec *s, const char *path);

/* The value of `key`, or NULL when absent. */
const char *spec_get(const struct spec_line *l, const char *key);
/*
 * Numeric values: `def` when absent; -1 after an `error` frame when the
 * value is not a number.
 */
int spec_u64(const struct spec_line *l, const char *key, uint64_t def,
	     uint64_t *out);
int spec_double(const struct spec_line *l, const char *key, double def,
		double *out);
/* The name of a line ("name=" or, for points, "id="). */
const char *spec_name(const struct spec_line *l);
/*
 * The keys a directive or an engine takes, " a b c ", as the guest checks
 * them; NULL for a word it does not know.
 */
const char *spec_keys(const char *word);

#endif
