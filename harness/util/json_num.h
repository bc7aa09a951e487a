/*
 * json_num.h: a figure as JSON. JSON has no NaN nor infinity, so a figure
 * that was not measured (NAN) or has no finite value is null; every
 * document the harness writes (summary.json, the bisect state, table.json,
 * the HTML page's data) says so the same way. And a value's kind in
 * words, for the messages that refuse one.
 */
#ifndef IOBISECT_JSON_NUM_H
#define IOBISECT_JSON_NUM_H

#include <jansson.h>
#include <stdint.h>

/*
 * The largest count a document can keep: jansson's integers are int64,
 * so 2^63 would be written as a negative number.
 */
#define JSON_COUNT_MAX ((uint64_t)INT64_MAX)

/* A new reference: a real, or null when `v` is not finite. */
json_t *json_num(double v);

/* The number at `key` of object `o`; NAN when it is missing or not one. */
double json_num_at(const json_t *o, const char *key);
/* The count at `key`: a positive integer below UINT32_MAX, else 0. */
unsigned json_count_at(const json_t *o, const char *key);

/* "an integer", "a string", ... ("missing" for NULL). */
const char *json_kind(const json_t *v);

#endif
