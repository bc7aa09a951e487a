#!/usr/bin/env python3
"""standin-qemu.py: a QEMU for tests that boots nothing.

It answers `--version` as QEMU 7.2 does, takes the command line the
harness gives QEMU (harness/boot/qemu.c), reads the guest's spec from the
-initrd archive (an uncompressed newc cpio holding /spec,
harness/boot/initramfs.c), and writes on the result port (the file behind
`-chardev file,id=result`) the frames a guest would (workloads/PROTOCOL.md,
proto/frame.h): hello, topology, then per point its point frame and a
sample per warmup and sample, then done; then it exits 0, as QEMU does
when the guest powers off (-no-reboot). The figure of every sample comes
from the -kernel file: a fake image says `IOBISECT_STANDIN bw=<bytes/s>`
in its text, so fast and slow commits differ, with a jitter of a few per
mille drawn from the boot id so boots are not all alike; at bw=0 the
guest measures nothing and sends no sample at all (hello, topology and
its points, then done).

  standin-qemu.py --make-image BW PATH   writes such an image: a bzImage
                                         boot header ("HdrS" at 0x202),
                                         then the text and its file name.

A plugin (-plugin) is refused as a QEMU without plugins refuses it. With
STANDIN_QEMU_LOG set, each boot appends "<pid> <kernel> <boot id>" to it.
With STANDIN_HOLD_S set, the guest stops that many seconds after its
first measured sample (a slow workload), so a test sees what the harness
shows while a boot runs.
"""
import json
import os
import sys
import time
import zlib

VERSION = "QEMU emulator version 7.2.0 (iobisect stand-in)"
METRICS = {
    "rawread": ["read"],
    "seqread": ["read"],
    "seqwrite": ["write"],
    "bonnie": ["write", "rewrite", "read"],
    "fio": ["read"],
}


def make_image(bw, path):
    head = bytearray(0x206)
    head[0x202:0x206] = b"HdrS"
    # Its own name too: each commit's image has bytes of its own, as
    # real builds have, so none takes another's verdict by its image.
    text = b"\nIOBISECT_STANDIN bw=%d\nimage %s\n" % (
        int(bw), os.path.basename(path).encode())
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(bytes(head) + text)
    os.rename(tmp, path)


def qemu_value(opt, key):
    """key=value of a QEMU option (commas doubled in values)."""
    parts, cur, i = [], "", 0
    while i < len(opt):
        if opt[i] == ",":
            if i + 1 < len(opt) and opt[i + 1] == ",":
                cur += ","
                i += 2
                continue
            parts.append(cur)
            cur = ""
        else:
            cur += opt[i]
        i += 1
    parts.append(cur)
    fields = dict(p.split("=", 1) for p in parts if "=" in p)
    return fields.get(key), fields


def cpio_file(path, want):
    """The data of entry `want` of a newc archive, or None."""
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off + 110 <= len(data):
        if data[off:off + 6] != b"070701":
            return None
        fields = [int(data[off + 6 + 8 * k:off + 14 + 8 * k], 16)
                  for k in range(13)]
        size, namesize = fields[6], fields[11]
        name_at = off + 110
        name = data[name_at:name_at + namesize - 1].decode()
        off = (name_at + namesize + 3) & ~3
        body = data[off:off + size]
        off = (off + size + 3) & ~3
        if name == "TRAILER!!!":
            return None
        if name == want:
            return body.decode()
    return None


class Port:
    def __init__(self, path):
        self.f = open(path, "a")
        self.seq = 0

    def frame(self, obj):
        payload = json.dumps(obj, separators=(",", ":"))
        raw = payload.encode()
        crc = zlib.crc32(raw) & 0xFFFFFFFF
        self.f.write("@IOB1 %d %d %08x %s\n" % (self.seq, len(raw), crc,
                                                payload))
        self.f.flush()
        self.seq += 1


def main(argv):
    if len(argv) > 1 and argv[1] == "--version":
        print(VERSION)
        return 0
    if len(argv) == 4 and argv[1] == "--make-image":
        make_image(argv[2], argv[3])
        return 0
    kernel = initrd = result = console = None
    i = 1
    while i < len(argv):
        a = argv[i]
        v = argv[i + 1] if i + 1 < len(argv) else ""
        if a == "-plugin":
            sys.stderr.write("qemu-system-x86_64: -plugin: this QEMU has "
                             "no plugin support\n")
            return 1
        if a == "-kernel":
            kernel = v
        elif a == "-initrd":
            initrd = v
        elif a == "-chardev":
            ident, fields = qemu_value(v, "id")
            if ident == "result":
                result = fields.get("path")
            elif ident == "console":
                console = fields.get("path")
        if a.startswith("-") and a not in ("-nodefaults", "-nographic",
                                           "-no-reboot"):
            i += 2
        else:
            i += 1
    if not (kernel and initrd and result):
        sys.stderr.write("qemu-system-x86_64: -kernel, -initrd and the "
                         "result chardev are needed\n")
        return 1
    with open(kernel, "rb") as f:
        text = f.read().decode("latin-1")
    at = text.find("IOBISECT_STANDIN bw=")
    if at < 0:
        sys.stderr.write("qemu-system-x86_64: '%s' is no stand-in image\n"
                         % kernel)
        return 1
    bw = int(text[at + len("IOBISECT_STANDIN bw="):].split()[0])
    spec = cpio_file(initrd, "spec")
    if spec is None:
        sys.stderr.write("qemu-system-x86_64: no /spec in '%s'\n" % initrd)
        return 1
    boot, points = 0, []
    for line in spec.splitlines():
        words = line.split()
        if not words:
            continue
        keys = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if words[0] == "boot":
            boot = int(keys.get("id", "0"))
        elif words[0] == "point":
            points.append(keys)
    if os.environ.get("STANDIN_QEMU_LOG"):
        with open(os.environ["STANDIN_QEMU_LOG"], "a") as f:
            f.write("%d %s %d\n" % (os.getpid(), kernel, boot))
    if console:
        with open(console, "a") as f:
            f.write("Linux version 6.1.0-standin (iobisect stand-in)\n"
                    "Run /init as init process\n")
    port = Port(result)
    port.frame({"type": "hello", "kernel": "6.1.0-standin",
                "version": "#1 stand-in", "machine": "x86_64",
                "mem_total_kb": 500000, "cpus": 1, "boot": boot})
    port.frame({"type": "topology", "layers": []})
    sent = 0
    for p in points:
        n, warm = int(p.get("samples", "5")), int(p.get("warmup", "0"))
        port.frame({"type": "point", "id": p.get("id", ""),
                    "engine": p.get("engine", ""),
                    "target": p.get("target", ""), "file_size_bytes": 0,
                    "mem_total_kb": 500000, "ra_kb": 128})
        if not bw:
            continue
        for warmup, k in [(True, k) for k in range(warm)] + \
                [(False, k) for k in range(n)]:
            for metric in METRICS.get(p.get("engine"), ["read"]):
                # a few per mille, the same for a boot id and sample
                jitter = 1 + ((boot * 7 + k * 3) % 9 - 4) / 1000.0
                rate = int(bw * jitter)
                port.frame({"type": "sample", "point": p.get("id", ""),
                            "index": k, "warmup": warmup, "metric": metric,
                            "io_bytes": rate, "runtime_ns": 1000000000,
                            "bw_bytes": rate, "usr_ns": 1000000,
                            "sys_ns": 2000000, "cpu_pct": 0.3,
                            "verified": True})
                sent += 1
                if not warmup and k == 0 and os.environ.get("STANDIN_HOLD_S"):
                    time.sleep(float(os.environ["STANDIN_HOLD_S"]))
    port.frame({"type": "done", "samples": sent})
    if console:
        with open(console, "a") as f:
            f.write("reboot: Power down\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
