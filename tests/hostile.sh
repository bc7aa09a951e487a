#!/usr/bin/env bash
# hostile.sh [IOBISECT]: bad input as a careless user or script gives it,
# one table row per input: options, job files, bisect states, results
# stores and upload endpoints. Each input must end in a correct result or
# in one clear error line (exit 128 for bad input, 1 for a failure, 130
# when interrupted): never a crash, a sanitizer report, a hang, a process
# left running, a file changed outside the results folder, or a device
# replaced. Everything runs in a scratch folder that is also HOME and the
# cache. Needs no kernel and no QEMU. The closing line counts the inputs:
#
#   hostile: N inputs, N as expected, N not
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/iobisect}")
[ -x "$bin" ] || { echo "hostile: '$bin' is not built" >&2; exit 1; }
S=$(mktemp -d /tmp/hostile.XXXXXX)
L=$(mktemp -d /tmp/hostile-logs.XXXXXX)
servers=()
cleanup() {
	for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$S" "$L"
}
trap cleanup EXIT
export HOME=$S/home XDG_CACHE_HOME=$S/cache IOBISECT_DATA=$root LC_ALL=C
unset IOBISECT_UPLOAD_TOKEN
mkdir -p "$HOME"
# Without sanitizers, a runaway read fails the input, not the machine.
grep -qa __asan_init "$bin" || ulimit -v $((4 << 20))

# ---------------------------------------------------------------- fixtures
cd "$S"
printf 'not a kernel, but a regular file\n' >k
mkfifo fifo fifo.json
head -c $((5 << 20)) /dev/zero | tr '\0' ' ' >big.json
mkdir -p jobs out
python3 - "$S/jobs" <<'PY'
import json, sys
d = sys.argv[1]
def dump(name, job):
    json.dump(job, open("%s/%s.json" % (d, name), "w"))
dump("disks-5000", {"topology": {"disks": [{"name": "d%d" % i, "size_mb": 16}
                                           for i in range(5000)]},
                    "workload": "rawread"})
dump("targets-100k", {"topology": {"preset": "virtio", "layers": [
    {"kind": "fs", "name": "f", "on": "d0", "type": "ext4"}]},
    "workload": {"engine": "seqread",
                 "target": ["/mnt/t%d" % i for i in range(100000)]}})
dump("append-1mb", {"topology": "virtio", "workload": "rawread",
                    "machine": {"append": "quiet " * ((1 << 20) // 6)}})
dump("tmpfs-1tib", {"topology": {"disks": [{"backing": "tmpfs",
                                            "size_mb": 1 << 20}]},
                    "workload": "rawread"})
PY
# Deeper than any JSON parser should follow.
printf '{"topology": "virtio", "workload": "rawread", "machine": %s%s}' \
	"$(printf '[%.0s' $(seq 5000))" "$(printf ']%.0s' $(seq 5000))" >jobs/nested.json
python3 "$root/tests/fixture/synth-results.py" results synth >culprit
culprit=$(cut -c1-12 culprit)
good=$(python3 -c 'import hashlib; print(hashlib.sha1(b"commit 0").hexdigest()[:12])')
# Spoiled copies of the store, one hostile thing each.
store() {
	cp -r results/synth "results/$1"
	doc=$(ls -d "results/$1/$culprit/virtio-rawread/bs_kb=128")/boot-3-sample-1.json
}
store fifo-doc; rm "$doc"; mkfifo "$doc"
store neg-bw; sed -i 's/"bw_bytes": [0-9]*/"bw_bytes": -5/' "$doc"
store str-bw; sed -i 's/"bw_bytes": \([0-9]*\)/"bw_bytes": "\1"/' "$doc"
store big-doc; head -c $((2 << 20)) /dev/zero | tr '\0' ' ' >>"$doc"
store dir-doc; rm "$doc"; mkdir "$doc"
store loop-doc; rm "$doc"; ln -s "$(basename "$doc")" "$doc"
store array-doc; echo '[1, 2]' >"$doc"
store not-json; printf '{"bw_bytes": 1' >"$doc"
store corrupt-state; echo '{"version": 1, "probes": [' >results/corrupt-state/bisect-state.json
store corrupt-both; echo '{"version": 1, "probes": [' >results/corrupt-both/bisect-state.json
echo '{"version": 1, "marks": 7}' >results/corrupt-both/bisect-state.json.prev
store fifo-state; rm results/fifo-state/bisect-state.json
mkfifo results/fifo-state/bisect-state.json
# The other files of a job folder, each a link to a file outside, a
# FIFO, or past its kind's cap (store_file.h): a profile and a table
# whose names must not reach a page, and the states.
mkdir -p secret
python3 - secret <<'PY'
import json, sys
d = sys.argv[1]
prof = {"type": "profile_v1", "unit": "insns", "label": "HOSTILE-LABEL",
        "kernel_insns": 10**6, "user_insns": 10, "unknown_insns": 0,
        "io_bytes": 10**6, "requests": 10, "runtime_ns": 1000, "windows": 1,
        "samples": 1, "wall_s": 1.0,
        "functions": [{"name": "HOSTILE_SECRET_FN", "insns": 9 * 10**5},
                      {"name": "other", "insns": 10**5}]}
table = {"title": "t", "row_keys": ["topology"], "column_key": "bs_kb",
         "columns": ["HOSTILE-SECRET-COLUMN"],
         "rows": [{"topology": "virtio", "cells": [{"mbps": 1.0}]}]}
json.dump(prof, open(d + "/profile.json", "w"))
json.dump(table, open(d + "/table.json", "w"))
# Valid documents past the caps: 16 MiB for a profile, 4 MiB for a table.
for name, doc, mib in (("big-profile.json", prof, 17), ("big-table.json", table, 5)):
    with open(d + "/" + name, "w") as f:
        json.dump(doc, f)
        f.write(" " * (mib << 20))
PY
for kind in profile table; do
	store "link-$kind"
	for c in "results/link-$kind"/*/; do ln -s "$S/secret/$kind.json" "$c$kind.json"; done
	store "fifo-$kind"
	for c in "results/fifo-$kind"/*/; do mkfifo "$c$kind.json"; done
	store "big-$kind"
	for c in "results/big-$kind"/*/; do cp "secret/big-$kind.json" "$c$kind.json"; done
done
# The stored answer a page and compare read beside the state: a FIFO.
store fifo-summary; mkfifo results/fifo-summary/summary.json
store link-state; mv results/link-state/bisect-state.json secret/state.json
ln -s "$S/secret/state.json" results/link-state/bisect-state.json
store fifo-sweep; rm results/fifo-sweep/bisect-state.json
mkfifo results/fifo-sweep/sweep-state.json
store link-sweep; rm results/link-sweep/bisect-state.json
echo '{"commits": []}' >secret/sweep-state.json
ln -s "$S/secret/sweep-state.json" results/link-sweep/sweep-state.json
store bad-mark
python3 - results/bad-mark/bisect-state.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["marks"].append({"commit": "f" * 40, "mark": "good"})
json.dump(s, open(sys.argv[1], "w"))
PY
# The changes found beside the answer, spoiled: a commit that is no id.
store bad-change
python3 - results/bad-change/bisect-state.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["changes"] = [{"commit": "../../etc", "parent": "f" * 40}]
json.dump(s, open(sys.argv[1], "w"))
PY
# Names from the data that a page must show as text, never run.
store xss
python3 - results/xss <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*/*/*/boot-*-sample-*.json"):
    d = json.load(open(f))
    if d["topology"] == "virtio":
        d["topology"] = "<script>alert(1)</script>"
    d["point"] = '"><img src=x onerror=alert(2)>' + d["point"]
    d["<b onclick=alert(3)>"] = d.pop("read")
    json.dump(d, open(f, "w"))
PY
# What the stored answer explains (summary.json): a file the revert
# conflicts in, a change whose commit is no id.
python3 - results/xss "$(cat culprit)" <<'PY'
import json, sys
json.dump({"job": "synth", "status": "done", "culprit": {"id": sys.argv[2]},
           "parent": "0" * 40, "metrics": [],
           "changes": [{"commit": "<i onmouseover=alert(6)>", "parent": "",
                        "change_pct": -9, "explains_pct": 100, "pairs": 4}],
           "revert": {"state": "conflicts", "culprit": sys.argv[2],
                      "commit": "", "conflicts": ["<svg onload=alert(5)>"]}},
          open(sys.argv[1] + "/summary.json", "w"))
PY
xss_names=('<script>alert(1)</script>' '"><img src=x onerror=alert(2)>' '<b onclick=alert(3)>' '<svg onload=alert(5)>' '<i onmouseover=alert(6)>')
# Names a terminal must show as text: a sample's point, a profile's
# function and label (profile.json as a hand or a bug wrote it).
store esc-names
python3 - results/esc-names <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*/*/*/boot-*-sample-*.json"):
    d = json.load(open(f))
    d["point"] = "\x1b]0;owned\x07" + d["point"]
    json.dump(d, open(f, "w"))
PY
for c in aaaaaaaaaaaa bbbbbbbbbbbb; do
	mkdir -p "results/prof/${c}0000000000000000000000000000"
	python3 - "results/prof/${c}0000000000000000000000000000/profile.json" "$c" <<'PY'
import json, sys
json.dump({"type": "profile_v1", "label": sys.argv[2] + "\x1b[2J\x9b",
           "kernel_insns": 110, "io_bytes": 1000000, "requests": 10,
           "samples": 3, "windows": 3,
           "functions": [{"name": "evil\x1b]0;owned\x07", "insns": 100},
                         {"name": "plain", "insns": 10}]},
          open(sys.argv[1], "w"))
PY
done
# A results root of one job.
mkdir -p one
cp -r results/synth one/synth
# Job files whose names would name the results root or its parent.
for f in ..json ...json; do
	printf '{"topology": "virtio", "workload": "rawread", "repo": "/nonexistent", "good": "a", "bad": "b"}' >"jobs/$f"
done
# A job folder whose documents lead out of it: a sample that is a link to
# a file outside, a point folder that is a link to a folder outside, and
# a sample that is no sample (a negative rate).
mkdir -p secret/p results/leaky/aaaaaaaaaaaa/virtio-rawread/bs_kb=4
echo '{"boot": 1, "leak": "HOSTILE-SECRET-FILE"}' >secret/boot-1-sample-0.json
echo '{"boot": 1, "leak": "HOSTILE-SECRET-DIR"}' >secret/p/boot-1-sample-0.json
L1=results/leaky/aaaaaaaaaaaa/virtio-rawread
cp "results/synth/$culprit/virtio-rawread/bs_kb=128/boot-1-sample-0.json" "$L1/bs_kb=4/"
ln -s "$S/secret/boot-1-sample-0.json" "$L1/bs_kb=4/boot-2-sample-0.json"
ln -s "$S/secret/p" "$L1/bs_kb=8"
echo '{"boot": 3, "read": {"bw_bytes": -5}, "leak": "HOSTILE-INVALID"}' >"$L1/bs_kb=4/boot-3-sample-0.json"
# A cache folder anyone may write to; with root, one of another user.
mkdir -p wcache/iobisect ocache/iobisect
chmod 0777 wcache/iobisect
chown nobody ocache/iobisect 2>/dev/null || rm -rf ocache
# One its group may write to; with root, a link another user planted.
mkdir -p gcache/iobisect lcache mine
chmod 0775 gcache/iobisect
ln -s "$S/mine" lcache/iobisect
chown -h nobody lcache/iobisect 2>/dev/null || rm -rf lcache
# A finished state whose culprit the bisection was told is fast.
store good-culprit
python3 - results/good-culprit/bisect-state.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["marks"].append({"commit": s["culprit"], "mark": "good"})
json.dump(s, open(sys.argv[1], "w"))
PY
# A repository of two commits that are no kernel: a bisection of them
# aborts at its first build, and its report must say why.
git init -q tree
git -C tree -c user.email=h@h -c user.name=h commit -q --allow-empty -m one
git -C tree -c user.email=h@h -c user.name=h commit -q --allow-empty -m two
printf '{"topology": "virtio", "workload": "rawread", "repo": "%s", "good": "%s", "bad": "%s"}' \
	"$S/tree" "$(git -C tree rev-parse HEAD~1)" "$(git -C tree rev-parse HEAD)" >jobs/notkernel.json
# A bisection of it whose state says it took -50 s so far.
mkdir -p out/neg/notkernel
python3 - out/neg/notkernel "$(git -C tree rev-parse HEAD~1)" "$(git -C tree rev-parse HEAD)" \
	"$(git hash-object jobs/notkernel.json)" <<'PY'
import json, sys
d, good, bad, h = sys.argv[1:]
json.dump({"version": 1, "job_hash": h, "job": "notkernel", "good_rev": good,
           "bad_rev": bad, "good": good, "bad": bad, "merge_base": "",
           "candidates": [bad], "probes": [], "marks": [], "status": "running", "culprit": "",
           "suspects": [], "builds": 0, "builds_cached": 0, "boots": 0,
           "samples": 0, "seconds": -50.0, "started": "2026-12-02T08:00:00Z",
           "updated": "2026-12-02T09:00:00Z"},
          open(d + "/bisect-state.json", "w"))
PY
# A finished bisection of that repository, as a run that confirmed its
# culprit left it: its report's parent/culprit table must survive a re-run.
printf '{"topology": "virtio", "workload": "rawread", "repo": "%s", "good": "HEAD~1", "bad": "HEAD"}' \
	"$S/tree" >jobs/done.json
mkdir -p out/done/done
python3 - out/done/done "$(git -C tree rev-parse HEAD~1)" "$(git -C tree rev-parse HEAD)" \
	"$(git hash-object jobs/done.json)" <<'PY'
import json, sys
d, good, bad, h = sys.argv[1:]
json.dump({"version": 1, "job_hash": h, "job": "done", "good_rev": "HEAD~1",
           "bad_rev": "HEAD", "good": good, "bad": bad, "merge_base": "",
           "candidates": [bad], "probes": [],
           "marks": [{"commit": good, "mark": "good"}, {"commit": bad, "mark": "bad"}],
           "status": "done", "culprit": bad, "suspects": [], "confidence": 0.97,
           "builds": 2, "builds_cached": 0, "boots": 6, "samples": 18, "seconds": 60.0,
           "started": "2026-12-02T08:00:00Z", "updated": "2026-12-02T09:00:00Z"},
          open(d + "/bisect-state.json", "w"))
json.dump({"job": "done", "status": "done", "culprit": {"id": bad, "subject": "two"},
           "parent": good, "confidence": 0.97, "identical_image": False, "suspects": [],
           "metrics": [{"metric": "read parent/culprit", "unit": "MB/s",
                        "good_median": 200.0, "good_stddev_pct": 1.0,
                        "bad_median": 150.0, "bad_stddev_pct": 1.0,
                        "change_pct": -25.0, "significant": True}],
           "steps": 0, "builds": 2, "boots": 6, "samples": 18, "total_seconds": 60.0},
          open(d + "/summary.json", "w"))
open(d + "/report.txt", "w").write(
    "first slow commit: %s two\n  200.00  -25.0%%*  150.00  read parent/culprit MB/s\n" % bad)
PY
cp out/done/done/report.txt out/done-report.txt
cp out/done/done/summary.json out/done-summary.json
# A spool whose URL files are a scheme no upload may use, and a FIFO.
mkdir -p badspool/iobisect/spool/aaaa badspool/iobisect/spool/bbbb
printf 'file:///etc/passwd' >badspool/iobisect/spool/aaaa/url
echo '{"boot": 1}' >badspool/iobisect/spool/aaaa/0123456789012345678901234567890123456789.json
mkfifo badspool/iobisect/spool/bbbb/url
echo old >out/target.html
ln -s target.html out/link.html
mkfifo out/fifo.html
# Copies of /dev/null and /dev/full: a binary that replaces its output
# (as root) must not take the machine's own. Without root there are none,
# and the real /dev/full is safe: only root could replace it.
mknod out/devnull c 1 3 2>/dev/null || true
full=/dev/full
mknod out/full c 1 7 2>/dev/null && full=out/full
printf '#!/bin/sh\nexec sleep 60\n' >hang.sh
chmod +x hang.sh
# Stand-in QEMUs (each qemu-system-x86_64 in a folder, for PATH): one
# whose answers to --version and to the plugin probe hold terminal
# escapes and invalid UTF-8, and one that loads the plugin but boots
# nothing. The plugin itself is never run: any file will do.
esc=$'\x1b'
mkdir -p evilq okq
cat >evilq/qemu-system-x86_64 <<'SH'
#!/bin/sh
case "$1" in --version) printf 'QEMU emulator version 7.2.0 \033]0;owned\007\n'; exit 0 ;; esac
printf 'iobisect-tbcount: \033[2Jrefused \377\n'
exit 1
SH
cat >okq/qemu-system-x86_64 <<'SH'
#!/bin/sh
case "$1" in --version) echo 'QEMU emulator version 7.2.0'; exit 0 ;; esac
echo 'iobisect-tbcount: loads, plugin api 2'
exit 1
SH
chmod +x evilq/qemu-system-x86_64 okq/qemu-system-x86_64
printf '{"topology": "virtio", "workload": "rawread", "machine": {"qemu": "%s"}}' \
	"$S/okq/qemu-system-x86_64" >jobs/prof.json
mkdir -p kernels/a-folder-named-at-length
cp k kernels/a-folder-named-at-length/bzImage
# A stand-in QEMU's image whose guest says hello and done, and sends no
# sample.
python3 "$root/tests/standin-qemu.py" --make-image 0 nosample.img

# Upload endpoints: one that accepts and never answers, one that answers
# 400 with terminal escapes; a spool holding one document for the first,
# and one for a URL no upload may go to; a job folder of one document.
for kind in silent evil; do
	python3 - "$kind" >"$L/$kind.port" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept()
    if sys.argv[1] == "silent":
        held.append(c)  # keep it open, say nothing
        continue
    c.recv(65536)
    body = b"\x1b]0;owned\x07\x1b[2J\x1b[31mbad\nnext line\x9b"
    c.sendall(b"HTTP/1.1 400 X\r\nContent-Length: %d\r\nConnection: close"
              b"\r\n\r\n%s" % (len(body), body))
    c.close()
PY
	servers+=($!)
done
for kind in silent evil; do
	for ((i = 0; i < 50; i++)); do
		[ -s "$L/$kind.port" ] && break
		sleep 0.1
	done
done
# One that takes every document, 200, and keeps what it was sent.
python3 - "$L/sink.body" >"$L/sink.port" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    data = b""
    while b"\r\n\r\n" not in data:
        got = c.recv(65536)
        if not got:
            break
        data += got
    head, _, body = data.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    while len(body) < n:
        got = c.recv(65536)
        if not got:
            break
        body += got
    open(sys.argv[1], "ab").write(body + b"\n")
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    c.close()
PY
servers+=($!)
for ((i = 0; i < 50; i++)); do
	[ -s "$L/sink.port" ] && break
	sleep 0.1
done
sink=http://127.0.0.1:$(cat "$L/sink.port")/ingest
silent=http://127.0.0.1:$(cat "$L/silent.port")/ingest
evil=http://127.0.0.1:$(cat "$L/evil.port")/ingest
spool_doc() {
	local dir doc='{"boot": 1}'
	dir=cache/iobisect/spool/$(printf '%s' "$1" | git hash-object --stdin | cut -c1-16)
	mkdir -p "$dir"
	printf '%s' "$1" >"$dir/url"
	echo "$doc" >"$dir/$(echo "$doc" | git hash-object --stdin).json"
}
spool_doc "$silent"
spool_doc "file:///etc/passwd"
mkdir -p results/tiny/aaaaaaaaaaaa/virtio-rawread/bs_kb=4
echo '{"boot": 1}' >results/tiny/aaaaaaaaaaaa/virtio-rawread/bs_kb=4/boot-1-sample-0.json

# ---------------------------------------------------------------- runner
n=0 ok=0 failed=()

# Folders by name only: a file added or removed shows up by itself.
snapshot() {
	find "$S" -path "$S/results" -prune -o -type d -printf 'd %m %p\n' -o \
		-printf '%y %m %s %T@ %l %p\n' | sort
}

# check EXPECT PATTERN [may=PATH] [secs=N] [sig=SIG] [after=CMD] -- ARGS
#   EXPECT  ok: exit 0, no error line; bad: exit 1 or 128, one error (or a
#           usage) line; a number: that exit code
#   PATTERN extended regex stderr must match ('' for none)
#   may     a file under the scratch folder this input may write
#   secs    the most it may take (default 20)
#   sig     send this signal after a second
#   after   a shell test that must hold afterwards (run in the folder)
check() {
	local expect=$1 pattern=$2 secs=20 sig= after= why= rc i
	local may=()
	shift 2
	while [ "$1" != -- ]; do
		case $1 in
		may=*) may+=("$S/${1#may=}") ;;
		secs=*) secs=${1#secs=} ;;
		sig=*) sig=${1#sig=} ;;
		after=*) after=${1#after=} ;;
		esac
		shift
	done
	shift
	n=$((n + 1))
	local tag=hostile-$$-$n
	snapshot >"$L/before"
	local t0=$SECONDS
	(cd "$S" && exec env HOSTILE_CASE=$tag "$bin" "$@") >"$L/out" 2>"$L/err" &
	local pid=$!
	# The budget is wall time (a loaded machine makes each `sleep` late);
	# the signal goes after a second: 50 sleeps, or 2 s on the clock.
	local sent=
	for ((i = 0; SECONDS - t0 <= secs; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		if [ -n "$sig" ] && [ -z "$sent" ] &&
			{ [ "$i" -ge 50 ] || [ $((SECONDS - t0)) -ge 2 ]; }; then
			kill -s "$sig" "$pid"
			sent=1
		fi
		sleep 0.02
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		why="still running after ${secs}s"
	fi
	wait "$pid"
	rc=$?
	local errors
	errors=$(grep -caE '^(error|fatal): ' "$L/err")
	if [ -z "$why" ]; then
		case $expect in
		ok) [ "$rc" = 0 ] && [ "$errors" = 0 ] ||
			why="exit $rc, $errors error line(s)" ;;
		bad) if [ "$rc" != 1 ] && [ "$rc" != 128 ]; then
			why="exit $rc"
		elif [ "$errors" != 1 ] && ! head -1 "$L/err" | grep -q '^usage: '; then
			why="$errors error lines"
		fi ;;
		*) [ "$rc" = "$expect" ] || why="exit $rc, not $expect" ;;
		esac
	fi
	if [ -z "$why" ] && grep -qaE 'Sanitizer|runtime error:' "$L/err"; then
		why="sanitizer report"
	fi
	if [ -z "$why" ] && [ -n "$pattern" ] && ! grep -qaE -e "$pattern" "$L/err"; then
		why="stderr does not match /$pattern/"
	fi
	local left
	left=$(grep -laF "HOSTILE_CASE=$tag" /proc/[0-9]*/environ 2>/dev/null |
		cut -d/ -f3 | tr '\n' ' ')
	if [ -n "$left" ]; then
		kill -KILL $left 2>/dev/null
		why="${why:+$why; }left running: $left"
	fi
	snapshot >"$L/after"
	local changed allowed=(-e "$L/none")
	for i in "${may[@]}"; do allowed+=(-e " $i"); done
	changed=$(diff "$L/before" "$L/after" | grep '^[<>]' |
		grep -vF "${allowed[@]}" | sed 's/.* //' | sort -u | tr '\n' ' ')
	[ -n "$changed" ] && why="${why:+$why; }changed: $changed"
	for i in /dev/null /dev/full /dev/zero; do
		[ -c $i ] || why="${why:+$why; }$i is no longer a device"
	done
	if [ -n "$after" ] && ! (cd "$S" && eval "$after"); then
		why="${why:+$why; }afterwards, not: $after"
	fi
	if [ -z "$why" ]; then
		ok=$((ok + 1))
	else
		failed+=("$n")
		printf 'hostile: FAIL #%d %s: %s\n' "$n" "$*" "$why" | cat -v
		sed 's/^/    /' "$L/err" | head -5 | cat -v
	fi
}

# ---------------------------------------------------------------- the CLI
K=(--kernel k --topology virtio --workload rawread)
check bad '^usage: ' --
check bad "^error: 'frobnicate' is not a command" -- frobnicate
check bad "^error: 'frobnicate' is not a command" -- help frobnicate
check bad "'nosuch.1' is not a page" -- help --man nosuch.1
check bad "'iobisect-help.1' is not a page" -- help --man iobisect-help.1
check bad "'iobisect-.1' is not a page" -- help --man iobisect-.1
check bad "'iobisect-run.1x' is not a page" -- help --man iobisect-run.1x
check bad '^usage: iobisect version' -- version --frobnicate
check ok '' -- help --man iobisect-run.1
# The completion made from a data folder holding presets named as shell
# code, or with a quote, runs none and still offers the others.
mkdir -p evil/qemu evil/kconfigs
cp "$root"/qemu/*.json evil/qemu/
touch 'evil/qemu/$(touch pwned).json' 'evil/qemu/`touch pwned`.json' \
	'evil/qemu/a"b.json' "evil/qemu/a'b.json" 'evil/qemu/a b.json'
presets=$(cd "$root/qemu" && printf '%s\n' *.json | sed 's/\.json$//' | sort | paste -sd' ')
complete_topology() {
	bash --norc -c 'source "$1" && COMP_WORDS=(iobisect run --topology "") &&
		COMP_CWORD=3 && _iobisect && echo "${COMPREPLY[*]}"' _ "$L/out"
}
IOBISECT_DATA=$S/evil check ok '' after='[ "$(complete_topology 2>&1)" = "$presets" ] && [ ! -e pwned ]' -- help --completion
rm -rf evil pwned
check ok '' -- help run
check ok '' -- --version
check bad '^usage: ' -- run
check bad '^usage: ' -- measure
check bad '^usage: ' -- measure job.json --boots 1
check bad '^usage: ' -- measure job.json --commit HEAD --commit-list l --boots 1
check bad "'-1' is not a count of boots" -- measure job.json --commit HEAD --boots -1
check bad "SLURM_ARRAY_TASK_ID is not set" -- measure job.json --commit-list l --boots 1
check bad "--executor: 'pbs' is not local or slurm" -- bisect job.json --executor pbs
check bad "--probes: '0' is not a number of commits" -- bisect job.json --probes 0
check bad "--probes 2 needs --executor slurm" -- bisect "$root/tests/jobs/demo.json" --probes 2 --results out/r
check bad "--probes: '65' is not a number of commits" -- sweep job.json --range a..b --probes 65
check bad 'is not a count of boots' -- run "${K[@]}" --boots 0
check bad 'is not a count of boots' -- run "${K[@]}" --boots=-1
check bad 'is not a count of boots' -- run "${K[@]}" --boots 99999999999999999999
check bad "'x' is not a count" -- run "${K[@]}" --warmup x
check bad "needs a value" -- run "${K[@]}" --set
check bad "unknown option '--frob'" -- run "${K[@]}" --frob
check bad "option '--keep-images' takes no value" -- run "${K[@]}" --keep-images=banana
check bad "option '--force' takes no value" -- run "${K[@]}" --force=1
check bad "give one" -- run --kernel k --commit HEAD --topology virtio --workload rawread
check bad "'/dev/zero' is a character device" -- run --kernel /dev/zero --topology virtio --workload rawread
check bad "'/dev/zero' is a character device" -- run /dev/zero
check bad "'fifo.json' is a FIFO" -- run fifo.json --kernel k
check bad "is a directory" -- run "$S" --kernel k
check bad "'big.json' is larger than 4 MiB" -- run big.json --kernel k
check bad "'fifo' is a FIFO" -- run --kernel fifo --topology virtio --workload rawread
check bad "does not exist" -- run --kernel /nonexistent --topology virtio --workload rawread
check bad "^error: --topology: 'virtio,\\\\xff=1' is not valid UTF-8" -- run --kernel k --topology $'virtio,\xff=1' --workload rawread
check bad "^error: --set: 'results=\\\\xfe\\\\x1b\[31m' is not valid UTF-8" -- run "${K[@]}" --set $'results=\xfe\x1b[31m'
check bad "^error: --workload: .* is not valid UTF-8" -- run --kernel k --topology virtio --workload $'rawread,bs_kb=\xc0\x80'
check bad "^error: --results: .* is not valid UTF-8" -- run "${K[@]}" --results $'r\xff'
check bad "^error: --set: .* is not valid UTF-8" -- run "${K[@]}" --set $'\xed\xa0\x80=1'
check bad "unknown key 'frob'" -- run "${K[@]}" --set frob=1
# A whole number past JSON's integers is out of the key's range, by name.
check bad "runs.min: 9223372036854775808 is out of range \(1\.\.100\)" -- run "${K[@]}" --set runs.min=9223372036854775808
# A value's newline or escape stays inside the one error line.
check bad "threshold: 'a\\\\x0aerror: forged\\\\x1b\[2J' is not a threshold" -- run "${K[@]}" --set $'threshold=a\nerror: forged\x1b[2J'
check bad "override 'workload.bs_kb=\[1,2,3': not valid JSON" -- run --kernel k --topology virtio --workload 'rawread,bs_kb=[1,2,3'
check bad "not valid JSON: duplicate object key" -- run "${K[@]}" --set 'machine={"cpus": 1, "cpus": 2}'
check bad "--label '$culprit' could be a commit's id" -- run "${K[@]}" --label "$culprit"
# A results folder that cannot be written to stops the run before QEMU.
check bad "cannot create 'k/" secs=8 -- run "${K[@]}" --results k --set "machine.qemu=$S/hang.sh"
check bad "not key=value" -- run "${K[@]}" --set =1
for th in infMB/s nanMB/s 1e308MB/s 1e-300% 0x10% ' 10%' '10 %' +10% -10% 100% 0% 0.001% 2000000MB/s 99999999999999999999MB/s %; do
	check bad "threshold: '.*' is (not a threshold|out of range)" -- run "${K[@]}" --set "threshold=$th"
done
check bad "5000 disks: a boot takes at most 32" secs=3 -- run jobs/disks-5000.json --kernel k
check bad "the matrix has more than 4096 points" secs=5 -- run jobs/targets-100k.json --kernel k
check bad "more than 4096 points" secs=5 -- run "${K[@]}" --set "workload.bs_kb=[$(seq -s, 1 5000)]"
check bad "tmpfs disks need 1048576 MiB" -- run jobs/tmpfs-1tib.json --kernel k
check bad "machine.append: [0-9]+ characters; at most 1024" -- run jobs/append-1mb.json --kernel k
check bad "^error: --timeout: '0' is not a positive number" -- run "${K[@]}" --timeout 0
check bad "not valid JSON: maximum parsing depth" -- run jobs/nested.json --kernel k
# machine.qemu is a program, never shell text, and a hung one gives way.
check bad "cannot run 'touch pwned; false'" after='[ ! -e pwned ]' -- run "${K[@]}" --set 'machine.qemu=touch pwned; false'
# A copied binary takes nothing from the folder it runs in: no guest or
# QEMU plugin from ./build/, no preset from ./qemu/ (the planted plugin
# would leave planted-ran when QEMU loads it; with no compiler, or no
# QEMU, the guest and the preset still tell). Copied into the folder,
# and staged as an install without its libexec/ and share/.
mkdir -p build qemu kconfigs stage/usr/bin
printf 'planted\n' >build/iobisect-guest
printf '{"planted": ' >qemu/virtio.json
printf '#include <stdio.h>\n__attribute__((constructor)) static void f(void)\n{ fclose(fopen("%s/planted-ran", "w")); }\n' "$S" >plant.c
cc -shared -fPIC -o build/iobisect-tbcount.so plant.c 2>/dev/null ||
	printf 'planted\n' >build/iobisect-tbcount.so
cp "$bin" iobisect
cp "$bin" stage/usr/bin/iobisect
for copy in "$S/iobisect" "$S/stage/usr/bin/iobisect"; do
	bin=$copy IOBISECT_DATA= check ok '' after='[ ! -e planted-ran ] && ! grep -qE "$S/build|^data +(\.|$S)$" "$L/out"' -- version
	bin=$copy IOBISECT_DATA= check bad "cannot create 'k/" secs=8 -- run "${K[@]}" --results k --set "machine.qemu=$S/hang.sh"
done
rm -rf build qemu kconfigs stage iobisect plant.c planted-ran
# A boot whose guest sends no sample measured nothing: the boot is a
# workload error that says so, and the run a failure.
IOBISECT_GUEST=$S/k check 1 '' may=out/ns may=cache after='grep -q "point .default. sent no sample" "$L/out"' -- run --kernel nosample.img --topology virtio --workload rawread --results out/ns --boots 1 --set "machine.qemu=$root/tests/standin-qemu.py"
# A signal while QEMU is asked its version is an interruption (130), not
# a missing QEMU; the probe's file goes where $TMPDIR says.
check 130 "interrupted while asking '.*hang.sh' its version" secs=5 sig=TERM -- run "${K[@]}" --set "machine.qemu=$S/hang.sh"
check 130 "interrupted while asking '.*hang.sh' its version" secs=5 sig=INT -- run "${K[@]}" --set "machine.qemu=$S/hang.sh"
# QEMU's answers (its version, why it will not load the plugin) are
# printed escaped, as error lines are.
PATH=$S/evilq:$PATH IOBISECT_PLUGIN=$S/k check ok '' after='! grep -qa "$esc" "$L/out" && grep -q "plugin   none: .*x1b\[2Jrefused .xff" "$L/out"' -- version
# A variable that names a missing part says so by name.
IOBISECT_PLUGIN=$S/no-plugin check bad "cannot profile: .*IOBISECT_PLUGIN names '.*no-plugin', which does not exist" may=cache -- profile jobs/prof.json --kernel k
IOBISECT_GUEST=$S/no-guest check bad "IOBISECT_GUEST names '.*no-guest', which does not exist" may=cache may=out/ng -- run jobs/prof.json --kernel k --results out/ng
# A kernel by its whole path; a --map that names nothing is not "beside".
IOBISECT_PLUGIN=$S/k check bad "the System.map given for '.*bzImage' \('.*no-map'\) does not exist" may=cache may=out/pm after='grep -q "^profile: kernels/a-folder-named-at-length/bzImage, one boot" "$L/err"' -- profile jobs/prof.json --kernel kernels/a-folder-named-at-length/bzImage --map no-map --results out/pm
TMPDIR=$S/no-such-tmp check bad "cannot make a temporary file in '.*no-such-tmp'" -- run "${K[@]}"
for job in "$root"/tests/jobs/bad/*.json; do
	check bad "^error: .*$(basename "$job"): " -- run "$job" --kernel k
done

# ---------------------------------------------------------------- reports
R=results/synth
check ok '^report: out/report.html' may=out/report.html may=out/report.json -- report $R --html out/report.html --json out/report.json --min-effect 2.5
rm -f out/report.html out/report.json
check bad "cannot write '$full': No space left" after='[ -c $full ]' -- report $R --html $full
check bad "cannot write '$full'" may=out/x.html after='[ -c $full ]' -- report $R --html out/x.html --json $full
rm -f out/x.html
check ok '' may=out/target.html after='[ -L out/link.html ] && grep -q "<svg" out/target.html' -- report $R --html out/link.html
if [ -c out/devnull ]; then
	check ok '' after='[ -c out/devnull ]' -- report $R --html out/devnull
fi
check bad "'out/fifo.html': it is a FIFO nobody reads" secs=5 -- report $R --html out/fifo.html
check bad "not writing 'out': it is a directory" -- report $R --html out
for me in inf nan -1 1e3 5% ' 5' 1001 0x10; do
	check 128 "--min-effect: '.*' is not a percentage" -- report $R --html out/x.html --min-effect "$me"
done
check bad "'/nonexistent' is not a results folder" -- report /nonexistent --html out/x.html
check bad "is not a results folder" -- report $R/bisect-state.json --html out/x.html
check bad '^usage: ' -- report $R
check bad '^usage: ' -- report --html out/x.html
for s in fifo-doc big-doc dir-doc loop-doc array-doc not-json neg-bw str-bw; do
	check ok "warning: ignoring .*boot-3-sample-1.json" may=out/$s.html -- report results/$s --html out/$s.html
	rm -f "out/$s.html"
done
check bad "bisect-state.json' is corrupt .*there is no previous copy" -- report results/corrupt-state --html out/x.html
check bad "bisect-state.json' is corrupt .*previous copy '.*bisect-state.json.prev' is spoiled too" -- report results/corrupt-both --html out/x.html
check bad "bisect-state.json' is a FIFO" -- report results/fifo-state --html out/x.html
check bad "not reading '.*link-state/bisect-state.json': it is a symbolic link" -- report results/link-state --html out/x.html
check bad "sweep-state.json' is a FIFO" secs=5 -- report results/fifo-sweep --html out/x.html
check bad "not reading '.*sweep-state.json': it is a symbolic link" -- report results/link-sweep --html out/x.html
# A profile or a table that cannot be read is left out of the page, said
# once each; what a link points to never reaches it.
for kind in profile table; do
	check ok "warning: ignoring a $kind: not reading '.*$kind.json': it is a symbolic link" may=out/x.html after='! grep -q HOSTILE out/x.html' -- report results/link-$kind --html out/x.html
	check ok "warning: ignoring a $kind: '.*$kind.json' is a FIFO" secs=5 may=out/x.html -- report results/fifo-$kind --html out/x.html
	rm -f out/x.html
done
check ok "warning: ignoring the stored answer: '.*summary.json' is a FIFO" secs=5 may=out/x.html -- report results/fifo-summary --html out/x.html
check ok "warning: ignoring the stored answer: '.*summary.json' is a FIFO" secs=5 -- compare "$good" "$culprit" --results results/fifo-summary
check ok "warning: ignoring a profile: '.*profile.json' is larger than 16 MiB" may=out/x.html -- report results/big-profile --html out/x.html
check ok "warning: ignoring a table: '.*table.json' is larger than 4 MiB" may=out/x.html -- report results/big-table --html out/x.html
rm -f out/x.html
check bad "mark of f{40}: not a commit of the bisection" -- report results/bad-mark --html out/x.html
check bad "'commit' is not a commit id" -- report results/bad-change --html out/x.html
# Hostile names are shown as text: a parser finds nothing that runs.
check ok '' may=out/xss.html after='python3 "$root/tests/html-check.py" out/xss.html "${xss_names[@]}"' -- report results/xss --html out/xss.html
rm -f out/xss.html
# No output lands on the store: the state, a sample document.
check bad "'$R/bisect-state.json': it is inside the results folder" after='grep -q culprit $R/bisect-state.json' -- report $R --html $R/bisect-state.json
sdoc=$R/$culprit/virtio-rawread/bs_kb=128/boot-3-sample-1.json
check bad "it is inside the results folder" after='grep -q bw_bytes $sdoc' -- report $R --html out/x.html --json "$sdoc"
check bad "it is inside the results folder" -- report results --job synth --html out/x.html --json "$R/../synth/bisect-state.json"
check bad "--html and --json name the same file" -- report $R --html out/same --json ./out/same
check ok '' after='[ ! -e ./- ] && grep -q "<svg" "$L/out"' -- report $R --html -
check bad "no samples under" -- report results/tiny --html out/x.html
check bad "culprit [0-9a-f]{40} is also marked good" -- report results/good-culprit --html out/x.html
check ok "warning: .*also marked good.*going on without it" -- compare "$good" "$culprit" --results results/good-culprit

# ---------------------------------------------------------------- compare
check ok '' -- compare "$good" "$culprit" --results results --job synth
check ok "warning: .*corrupt.*going on without it" -- compare "$good" "$culprit" --results results --job corrupt-state
check ok "warning: .*bad-mark.*going on without it" -- compare "$good" "$culprit" --results results/bad-mark
check ok "ignoring .*: read.bw_bytes is -5, not a byte rate" -- compare "$good" "$culprit" --results results/neg-bw
check ok "ignoring .*: read.bw_bytes is a string" -- compare "$good" "$culprit" --results results/str-bw
check ok "ignoring a sample document: .* is a FIFO" secs=5 -- compare "$good" "$culprit" --results results/fifo-doc
check bad "not reading '.*profile.json': it is a symbolic link" after='! grep -q HOSTILE "$L/out"' -- compare "$good" "$culprit" --results results/link-profile
check bad "'.*profile.json' is a FIFO" secs=5 -- compare "$good" "$culprit" --results results/fifo-profile
check bad "'.*profile.json' is larger than 16 MiB" -- compare "$good" "$culprit" --results results/big-profile
check ok "warning: .*sweep-state.json' is a FIFO.*going on without it" secs=5 -- compare "$good" "$culprit" --results results/fifo-sweep
check bad "no results for '${culprit}zzzz'" -- compare "$good" "${culprit}zzzz" --results $R
check bad "'../..' is not the name of a job" -- report $R --job ../.. --html out/x.html
check bad "no results for 'ffffffff'" -- compare ffffffff "$culprit" --results $R
check bad "no results for 'a'" -- compare a "$culprit" --results $R
check bad "holds [0-9]+ jobs" -- compare "$good" "$culprit" --results results
check bad '^usage: ' -- compare "$good"
check bad "no results for 'a\\\\x1b\[31m\\\\x0aerror: x'" -- compare $'a\x1b[31m\nerror: x' "$culprit" --results $R
# Names from sample documents and from profile.json reach stdout escaped.
check ok '' after='! grep -qa "$esc" "$L/out" && grep -q "x1b]0;owned" "$L/out"' -- compare "$good" "$culprit" --results results/esc-names
check ok '' after='! grep -qa "$esc" "$L/out" && grep -q "evil.x1b]0;owned.x07" "$L/out"' -- compare aaaaaaaaaaaa bbbbbbbbbbbb --results results/prof
# A job named is that job or none, even when the folder has one.
check bad "no job 'no-such-job' under 'one' \(its job is 'synth'\)" -- compare "$good" "$culprit" --results one --job no-such-job
check bad "no job 'no-such-job' in '$R'" -- compare "$good" "$culprit" --results $R --job no-such-job
check ok '' -- compare "$good" "$culprit" --results $R --job synth

# ---------------------------------------------------------------- names
# A job named by its file name stays inside the results root.
for f in ..json ...json; do
	check bad "is not a git repository" may=out/r after='[ ! -e out/.lock ] && [ ! -e out/r/.lock ]' -- bisect "jobs/$f" --results out/r
done
rm -rf out/r
check bad "has no top Makefile" may=out/ab may=cache after='grep -q "no top Makefile" out/ab/notkernel/report.txt' -- bisect jobs/notkernel.json --results out/ab

# ---------------------------------------------------------------- links
# Nothing is written through a link under the results folder: a .lock
# that points outside (its target kept), a dangling one (nothing made),
# a job folder that is a link; each is one line naming it.
printf '{"topology": "virtio", "workload": "rawread", "repo": "/nonexistent", "good": "a", "bad": "b"}' >jobs/lk.json
echo 'keep me' >victim
mkdir -p out/lk1/lk out/lk2/lk out/lk3 linked
ln -s "$S/victim" out/lk1/lk/.lock
ln -s "$S/made-by-lock" out/lk2/lk/.lock
ln -s "$S/linked" out/lk3/lk
check bad "not writing '.*out/lk1/lk/.lock': it is a symbolic link" -- bisect jobs/lk.json --results out/lk1
check bad "not writing '.*out/lk2/lk/.lock': it is a symbolic link" after='[ ! -e made-by-lock ]' -- bisect jobs/lk.json --results out/lk2
check bad "not writing through '.*out/lk3/lk': it is a symbolic link" after='[ -z "$(ls -A linked)" ]' -- bisect jobs/lk.json --results out/lk3
check bad "not writing through '.*out/lk3/lk': it is a symbolic link" after='[ -z "$(ls -A linked)" ]' -- run jobs/lk.json --kernel k --results out/lk3
# A FIFO where the lock goes: one line, not two.
mkdir -p out/lk4/lk
mkfifo out/lk4/lk/.lock
check bad "'out/lk4/lk/.lock' is a FIFO" secs=5 -- bisect jobs/lk.json --results out/lk4
# A bisection's state is read only from its folder: a state that is a
# link is refused before anything runs. One whose previous copy is a link
# cannot be saved, and the run that stops there was aborted by it, not
# interrupted. A build bisection of three commits, images from a folder
# (no build, no boot): the middle one's step is the second save.
git init -q tree3
for m in one two three; do
	git -C tree3 -c user.email=h@h -c user.name=h commit -q --allow-empty -m $m
done
for c in $(git -C tree3 rev-parse HEAD~2 HEAD~1); do
	mkdir -p "images/$c"
	python3 -c 'import sys; d = bytearray(1024); d[0x202:0x206] = b"HdrS"; sys.stdout.buffer.write(d)' >"images/$c/bzImage"
done
printf '{"topology": "virtio", "workload": "rawread", "repo": "%s", "good": "HEAD~2", "bad": "HEAD", "bisect_type": "build", "prebuilt": {"folder": "%s"}}' \
	"$S/tree3" "$S/images" >jobs/bt.json
mkdir -p out/lst/bt out/pv/bt
cp secret/state.json secret/bt-state.json
ln -s "$S/secret/bt-state.json" out/lst/bt/bisect-state.json
ln -s "$S/victim" out/pv/bt/bisect-state.json.prev
check bad "not reading '.*out/lst/bt/bisect-state.json': it is a symbolic link" may=out/lst may=cache -- bisect jobs/bt.json --results out/lst
check bad "not writing '.*out/pv/bt/bisect-state.json.prev': it is a symbolic link" may=out/pv may=cache after='grep -q "^bt: aborted" "$L/out" && grep -q "keep me" victim' -- bisect jobs/bt.json --results out/pv

check bad "has no top Makefile" may=out/neg may=cache after='grep -q "boots, 0 samples, [0-9]" out/neg/notkernel/report.txt' -- bisect jobs/notkernel.json --results out/neg
# A finished bisection run again prints its stored answer and rewrites
# nothing; its notice carries the stored change, not 0.0.
check ok '' may=out/done after='cmp -s out/done/done/report.txt out/done-report.txt && cmp -s out/done/done/summary.json out/done-summary.json && grep -q "read parent/culprit" "$L/out" && grep -qE "\"change_pct\": ?-25" "$L/sink.body"' -- bisect jobs/done.json --results out/done --notify "$sink"
# A results folder where nothing can be made (sysfs: even root cannot)
# says why, not "cannot lock ...: No such file or directory".
printf '{"topology": "virtio", "workload": "rawread"}' >jobs/sys.json
check bad "cannot create the run folder '.*sys/.run-[^']*': (Operation not permitted|Read-only file system|Permission denied)" -- run jobs/sys.json --kernel k --results /

# ---------------------------------------------------------------- cache
# No cache in a folder that is not the user's own, none without HOME, and
# a relative XDG_CACHE_HOME is ignored (the XDG spec), not made here.
XDG_CACHE_HOME=$S/wcache check bad "not using the cache folder .*anyone may write" -- upload --flush
if [ -d ocache ]; then
	XDG_CACHE_HOME=$S/ocache check bad "not using the cache folder .*belongs to uid" -- upload --flush
fi
XDG_CACHE_HOME=$S/gcache check bad "not using the cache folder .*its group may write" -- upload --flush
if [ -d lcache ]; then
	XDG_CACHE_HOME=$S/lcache check bad "not using the cache folder .*symbolic link of uid" after='[ -z "$(ls -A mine)" ]' -- upload --flush
fi
HOME= XDG_CACHE_HOME= check bad "no folder for the cache" -- upload --flush
HOME=/proc XDG_CACHE_HOME= check bad "cannot create '/proc/.cache/iobisect'" -- upload --flush
XDG_CACHE_HOME=$S/k check bad "cannot (create|use) .*k/iobisect" -- upload --flush
# A spool folder whose URL cannot be used is a failure, not a success.
XDG_CACHE_HOME=$S/badspool check 1 "'file:///etc/passwd' is not an http" secs=5 -- upload --flush
XDG_CACHE_HOME=relcache check ok '' may=home/.cache after='[ ! -e relcache ]' -- upload --flush

# ---------------------------------------------------------------- upload
check 128 "'' is not an http:// or https:// URL" -- upload --flush --url ''
check 128 "'file:///etc/passwd' is not an http" -- upload --flush --url file:///etc/passwd
check 128 "'not a url' is not an http" -- upload --flush --url 'not a url'
check 128 "'not a url\\\\x1b\[2J' is not an http" -- upload --flush --url $'not a url\x1b[2J'
check 128 "'gopher://x' is not an http" -- upload $R --url gopher://x
check bad "'/nonexistent' is not a results folder" -- upload /nonexistent --url "$evil"
check bad "'k' is not a results folder" -- upload k --url "$evil"
check bad '^usage: ' -- upload $R
check bad '^usage: ' -- upload --flush $R --url "$evil"
check 130 "cannot post to '$silent': interrupted" may=cache secs=5 sig=INT -- upload --flush --url "$silent"
check 130 "cannot post to '$silent': interrupted" may=cache secs=5 sig=TERM -- upload --flush --url "$silent"
check 130 "interrupted" may=cache secs=5 sig=INT -- upload --flush
check 130 "cannot post to '$silent': interrupted" may=cache secs=5 sig=QUIT -- upload --flush --url "$silent"
# Only documents inside the folder, and only valid samples, are sent.
check ok "warning: .*boot-3-sample-0.json" may=cache after='[ -s "$L/sink.body" ] && ! grep -q HOSTILE "$L/sink.body"' -- upload results/leaky --url "$sink"
# The server's words arrive escaped, on the one error line.
check 1 "refused a document \(HTTP 400\): .*x1b\[31mbad\\\\x0anext line" may=cache -- upload results/tiny --url "$evil"

# A bad --notify or --upload URL is refused when the command is read,
# before any bisection (it was found at the end, hours later, exit 0).
check 128 "'file:///etc/passwd' is not an http" secs=5 -- bisect jobs/notkernel.json --results out/ab6 --notify file:///etc/passwd
check 128 "'not-a-url' is not an http" secs=5 -- bisect jobs/notkernel.json --results out/ab6 --upload not-a-url
check 128 "'not-a-url' is not an http" secs=5 -- sweep jobs/notkernel.json --range a..b --results out/ab6 --notify not-a-url
# A URL no flush could read back from the spool is no URL.
long=http://127.0.0.1/$(head -c 9000 /dev/zero | tr '\0' a)
check 128 "is longer than 8192 characters" -- upload --flush --url "$long"
check 128 "is longer than 8192 characters" -- bisect jobs/notkernel.json --results out/ab6 --notify "$long"
# Secrets: a URL's password is never printed, a token that would end
# its header is refused, and one sent over plain http:// is warned of.
pw=${evil/http:\/\//http://user:s3cret@}
check 1 "'http://user:\*\*\*@127" may=cache after='! grep -q s3cret "$L/err" "$L/out"' -- upload results/tiny --url "$pw"
IOBISECT_UPLOAD_TOKEN=$'tok\r\nX-Injected: 1' check 128 "upload token .* holds a control character" after='! grep -q X-Injected "$L/err"' -- upload results/tiny --url "$sink"
IOBISECT_UPLOAD_TOKEN=tok check ok "warning: the upload token goes to '.*' over plain http://" may=cache -- upload results/tiny --url "$sink"

# A reader that goes away (`| head`) costs one error line and exit 1, not
# a silent death by SIGPIPE (141). A pipe is more than check() runs.
n=$((n + 1))
(cd "$S" && exec "$bin" report $R --html -) 2>"$L/err" | (exec 0<&-; sleep 1)
rc=${PIPESTATUS[0]}
if [ "$rc" = 1 ] && [ "$(grep -c '^error: ' "$L/err")" = 1 ] &&
	grep -q 'Broken pipe' "$L/err"; then
	ok=$((ok + 1))
else
	failed+=("$n")
	echo "hostile: FAIL #$n report $R --html - | closed reader: exit $rc"
fi

# What a command prints must reach its reader: a full disk under a man
# page or the completion (`make man`) is one error line and exit 1.
for args in "help job" "help --completion" "help --man" "help --man iobisect-run.1" "help run" "version"; do
	n=$((n + 1))
	(cd "$S" && exec "$bin" $args) >"$full" 2>"$L/err"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(grep -c '^error: ' "$L/err")" = 1 ] &&
		grep -q 'cannot write to the standard output: No space left' "$L/err"; then
		ok=$((ok + 1))
	else
		failed+=("$n")
		echo "hostile: FAIL #$n $args >$full: exit $rc"
		sed 's/^/    /' "$L/err" | head -5 | cat -v
	fi
done

echo "hostile: $n inputs, $ok as expected, ${#failed[@]} not"
[ ${#failed[@]} -eq 0 ]
