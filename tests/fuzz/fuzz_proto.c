/*
 * fuzz_proto.c: libFuzzer target for the guest's result port parser
 * (harness/boot/proto.c). The guest's output is untrusted: a broken kernel can
 * print anything. The first byte picks a mode:
 *
 *   even: the rest is raw port bytes, fed to proto_parse_line (first line)
 *         and to a proto_report in chunks whose sizes come from the input;
 *   odd:  the rest is payload lines that this target frames correctly
 *         (seq, len, crc), so the fuzzer reaches the JSON handling past
 *         the checksum, which random bytes almost never pass.
 */
#include "proto.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void use_report(struct proto_report *r)
{
	proto_report_finish(r);
	(void)proto_report_complete(r);
}

static void raw_mode(const uint8_t *data, size_t size)
{
	struct proto_frame f = PROTO_FRAME_INIT;
	struct proto_report r;
	const uint8_t *nl = memchr(data, '\n', size);
	size_t linelen = nl ? (size_t)(nl - data) : size;

	if (proto_parse_line((const char *)data, linelen, &f) == PROTO_OK)
		(void)f.type;
	proto_frame_release(&f);

	proto_report_init(&r);
	/* Chunk sizes 1..16 from the bytes themselves: splits fall anywhere. */
	for (size_t off = 0; off < size;) {
		size_t n = (data[off] & 15) + 1;
		if (n > size - off)
			n = size - off;
		proto_report_feed(&r, (const char *)data + off, n);
		off += n;
	}
	use_report(&r);
	proto_report_release(&r);
}

static void framed_mode(const uint8_t *data, size_t size)
{
	struct proto_report r;
	struct strbuf sb = STRBUF_INIT;
	uint64_t seq = 0;

	proto_report_init(&r);
	for (size_t off = 0; off < size;) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (data + off)) : size - off;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s %llu %zu %08x ", PROTO_MAGIC,
			    (unsigned long long)seq++, len,
			    proto_crc32(data + off, len));
		strbuf_add(&sb, data + off, len);
		strbuf_addch(&sb, '\n');
		proto_report_feed(&r, sb.buf, sb.len);
		off += len + 1;
	}
	use_report(&r);
	proto_report_release(&r);
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf quiet = STRBUF_INIT;

	error_capture(&quiet);
	strbuf_reset(&quiet);
	if (size < 1)
		return 0;
	if (data[0] & 1)
		framed_mode(data + 1, size - 1);
	else
		raw_mode(data + 1, size - 1);
	return 0;
}
