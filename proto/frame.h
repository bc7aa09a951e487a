/*
 * proto/frame.h: the framing of the guest's result port, shared by the
 * guest (workloads/, built with musl) and the host parser (harness/proto.c),
 * and the limits of the spec both sides hold to. Header-only and free of
 * any library so both sides compile it.
 *
 * The guest writes to its own serial port (ttyS1), never to the kernel
 * console, one frame per line:
 *
 *     @IOB1 <seq> <len> <crc> <payload>\n
 *
 * <seq> counts frames from 0 in decimal, <len> is the payload's length in
 * bytes in decimal, <crc> is the CRC-32 (IEEE, as zlib computes it) of the
 * payload as 8 lowercase hex digits, and <payload> is one JSON object on one
 * line. A line that does not match exactly (wrong length, wrong CRC, a gap in
 * <seq>, bytes lost or doubled on the wire) is rejected: a crash mid-line or
 * kernel noise can never become a sample.
 */
#ifndef IOBISECT_PROTO_FRAME_H
#define IOBISECT_PROTO_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_MAGIC "@IOB1"
/* Longest payload either side accepts; longer frames are rejected. */
#define PROTO_MAX_PAYLOAD 65536

/*
 * What one /spec may hold (workloads/PROTOCOL.md). The guest has room for
 * no more; the host refuses a job past them before anything is built.
 */
#define PROTO_SPEC_MAX_DISKS 32
#define PROTO_SPEC_MAX_LAYERS 32
#define PROTO_SPEC_MAX_POINTS 256 /* per topology: one boot runs them all */
#define PROTO_SPEC_MAX_VALUE 223  /* bytes of one key=value's value */

/*
 * The key of the block layer's counters in a sample frame (and in the
 * documents the host stores from it): what changed in /proc/diskstats
 * and the queue's settings over the sample (workloads/PROTOCOL.md).
 */
#define PROTO_COUNTERS_KEY "block_v1"

static inline uint32_t proto_crc32(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = 0xffffffffu;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

#endif
