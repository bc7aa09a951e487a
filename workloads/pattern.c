/*
 * pattern.c: the offset-encoding data pattern (see pattern.h). Offsets and
 * lengths are multiples of 512 everywhere the engines use it.
 */
#include "pattern.h"

#include <string.h>

uint64_t pattern_word(uint64_t off, uint32_t gen)
{
	return off ^ ((uint64_t)(gen + 1) * 0x9e3779b97f4a7c15ull);
}

void pattern_fill(void *buf, size_t len, uint64_t off, uint32_t gen)
{
	uint64_t *w = buf;
	uint64_t mix = pattern_word(0, gen);
	for (size_t i = 0; i < len / 8; i++)
		w[i] = (off + 8 * i) ^ mix;
}

void pattern_touch(void *buf, size_t len, uint64_t off, uint32_t gen)
{
	uint64_t *w = buf;
	for (size_t s = 0; s + 512 <= len; s += 512) {
		w[s / 8] = pattern_word(off + s, gen);
		w[s / 8 + 63] = pattern_word(off + s + 504, gen);
	}
}

uint64_t pattern_check(const void *buf, size_t len, uint64_t off, uint32_t gen,
		       int zero, uint64_t skip_below)
{
	const uint64_t *w = buf;
	for (size_t s = 0; s + 512 <= len; s += 512) {
		if (off + s < skip_below)
			continue;
		uint64_t head = zero ? 0 : pattern_word(off + s, gen);
		uint64_t tail = zero ? 0 : pattern_word(off + s + 504, gen);
		if (w[s / 8] != head)
			return off + s;
		if (w[s / 8 + 63] != tail)
			return off + s + 504;
	}
	return PATTERN_OK;
}
