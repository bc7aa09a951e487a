/*
 * pattern.h: the data pattern the guest writes and checks. Every 8-byte
 * word encodes its own byte offset (in the coordinates of the device or
 * file the pattern was written through) and a generation, so a block read
 * from the wrong place, a stale block and a lost write all fail the check.
 *
 * Checks are sparse: the first and last word of every 512-byte sector.
 * That catches any misplaced, stale or zeroed sector at a CPU cost of 1/32
 * of the data, which matters under TCG where CPU per byte is the limit.
 */
#ifndef IOBISECT_GUEST_PATTERN_H
#define IOBISECT_GUEST_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PATTERN_OK UINT64_MAX

uint64_t pattern_word(uint64_t off, uint32_t gen);
/* Fill every word of buf, which holds bytes [off, off + len). */
void pattern_fill(void *buf, size_t len, uint64_t off, uint32_t gen);
/* Rewrite only the checked words (sector heads and tails). */
void pattern_touch(void *buf, size_t len, uint64_t off, uint32_t gen);
/*
 * Check the sector heads and tails of buf against generation gen, or
 * against zeroes when `zero`. Offsets below `skip_below` are not checked
 * (a partition table written over the pattern). Returns PATTERN_OK or the
 * offset of the first bad word.
 */
uint64_t pattern_check(const void *buf, size_t len, uint64_t off, uint32_t gen,
		       int zero, uint64_t skip_below);

#endif
