#!/usr/bin/env bash
# cli-output.sh [IOBISECT]: what the commands print, for programs and for
# people, against the stand-in QEMU (tests/standin-qemu.py) over fake
# images of a small repository (6 commits, the 4th and its descendants
# slow), so `run`, `bisect` and `test` boot in seconds and build nothing.
#
# --json (version, run, bisect, test, compare): the standard output is
# one JSON document and nothing else, with the keys docs/commands.md
# gives; the progress and the lines for people go to stderr. `run` for a
# person: the results folder named absolute, each sample shown while the
# guest still runs, a warmup named as such (not a second "#0"), and no
# folder left behind by a run that stopped before its first boot. Needs
# no kernel and no QEMU. The closing line:
#
#   cli-output: N checks, N as expected, N not
set -u
. "$(dirname "$0")/standin-lib.sh" cli-output "${1:-}"
py=$(command -v /usr/bin/python3 || command -v python3) ||
	{ echo "cli-output: SKIP: no python3 for the stand-in QEMU"; exit 0; }
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$S"
}
trap cleanup EXIT
standin_range 6 4 "$py"
cat >job.json <<EOF
{"name": "cli", "repo": "$S/repo", "good": "$good", "bad": "$tip",
 "machine": {"cpus": 1, "accel": "tcg", "clock": "virtual",
             "qemu": "$S/qemu-system-x86_64", "timeout_s": 30,
             "profile": false},
 "topology": "virtio",
 "workload": {"engine": "rawread", "target": "d0", "bs_kb": 4, "size_mb": 16},
 "runs": {"min": 2, "max": 10, "samples": 2, "warmup": 1},
 "metric": "read", "threshold": "auto",
 "prebuilt": {"folder": "$S/images", "name": ["{short}.bzImage"]}}
EOF

# json_has FILE EXPR: FILE is one JSON document (the whole of it) and the
# python expression EXPR, over it as d, is true.
json_has() {
	"$py" - "$1" "$2" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit("cli-output: %s is not one JSON document: %s" % (sys.argv[1], e))
if not eval(sys.argv[2]):
    sys.exit("cli-output: %s: not %s" % (sys.argv[1], sys.argv[2]))
PY
}

# version
"$bin" version --json >version.json 2>version.err
check "version --json is one document with the release and QEMU" \
	json_has version.json '{"iobisect", "release", "git", "guest", "data", "qemu"} <= set(d)'

# run: a prebuilt image, 2 boots of 1 warmup and 2 samples
img=images/${tip:0:12}.bzImage
"$bin" run job.json --kernel "$img" --results res-run --json >run.json 2>run.err
rc=$?
check "run --json exits 0" [ $rc = 0 ]
check "run --json: one document, the boots, their samples and the summary" \
	json_has run.json 'd["exit_code"] == 0 and len(d["boots"]) == 2 and all(len(b["samples"]) == 3 and b["status"] == "ok" and "total_s" in b for b in d["boots"]) and d["summary"][0]["samples"] == 4 and d["summary"][0]["median_mbps"] > 60 and d["clock"] == "virtual" and d["kernel"]["image"].startswith("/")'
check "run --json: the warmup says so; the results folder, absolute, is there" \
	json_has run.json '[s["warmup"] for s in d["boots"][0]["samples"]] == [True, False, False] and d["results"] == "'"$S"'/res-run/cli/" + d["kernel"]["commit"]'
check "run --json: the lines for people go to stderr" \
	grep -q "^results: $S/res-run/cli/" run.err

"$bin" run job.json --kernel "$img" --results res-text --boots 1 >text.out 2>text.err
check "run: the results folder is named absolute" \
	grep -q "^results: $S/res-text/cli/" text.out
check "run: the warmup is named a warmup, and one sample is #0" \
	bash -c 'grep -q "read    warmup#0 " text.out && [ "$(grep -c " #0 " text.out)" = 1 ]'

# A sample is shown while its boot runs: the guest holds 8 s after it.
STANDIN_HOLD_S=8 "$bin" run job.json --kernel "$img" --results res-hold \
	--boots 1 >hold.out 2>hold.err &
pid=$!
seen=
for ((i = 0; i < 120; i++)); do
	grep -qs " #0 " hold.out && { kill -0 "$pid" 2>/dev/null && seen=1; break; }
	sleep 0.05
done
check "run: a sample is printed while the guest still runs" [ -n "$seen" ]
wait "$pid"
pid=

# Stopped before the first boot: no folder of the run is left.
"$bin" run job.json --kernel "$img" --results res-noqemu \
	--set machine.qemu="$S/no-such-qemu" >noqemu.out 2>noqemu.err
rc=$?
check "run: a missing QEMU is refused (128)" [ $rc = 128 ]
check "run: a missing QEMU leaves no results folder" [ ! -e res-noqemu ]
IOBISECT_GUEST=$S/no-such-guest "$bin" run job.json --kernel "$img" \
	--results res-noguest >noguest.out 2>noguest.err
rc=$?
check "run: a missing guest program is refused (128)" [ $rc = 128 ]
check "run: a missing guest program leaves no results folder" [ ! -e res-noguest ]
mkdir res-kept
"$bin" run job.json --kernel "$img" --results res-kept \
	--set machine.qemu="$S/no-such-qemu" >/dev/null 2>&1
check "run: a results folder that was there stays" [ -d res-kept ]

# bisect: the answer as summary.json's document
"$bin" bisect job.json --results res-bisect --json >bisect.json 2>bisect.err
rc=$?
check "bisect --json exits 0" [ $rc = 0 ]
check "bisect --json: one document naming the culprit" \
	json_has bisect.json 'd["status"] == "done" and d["culprit"]["id"] == "'"$culprit"'" and d["exit_code"] == 0 and d["metrics"][0]["change_pct"] < -20'
check "bisect --json: the report for people goes to stderr" \
	grep -q "^  commit   $culprit" bisect.err
"$bin" bisect job.json --results res-bisect --json >bisect2.json 2>/dev/null
check "bisect --json of a finished bisection: the same answer" \
	json_has bisect2.json 'd["culprit"]["id"] == "'"$culprit"'"'

# test: git bisect run's question, on the slow culprit
git -C repo checkout -q "$culprit"
(cd repo && "$bin" test ../job.json --results ../res-test --json >../test.json 2>../test.err)
rc=$?
check "test --json: the culprit is slow (exit 1)" [ $rc = 1 ]
check "test --json: one document with its mark" \
	json_has test.json 'd["commit"] == "'"$culprit"'" and d["mark"] == "bad" and d["exit_code"] == 1'

# compare: two stored commits of the bisection
"$bin" compare --results res-bisect/cli "$good" "$tip" --json >compare.json 2>compare.err
rc=$?
check "compare --json exits 0" [ $rc = 0 ]
check "compare --json: a row with both medians and the change" \
	json_has compare.json 'd["base"]["commit"] == "'"$good"'" and d["rows"] and d["rows"][0]["base_median_mbps"] > d["rows"][0]["head_median_mbps"] and d["rows"][0]["change_pct"] < -20 and d["rows"][0]["clock"] == "virtual"'
# compare for people: under the table, what the finished bisection found
# (summary.json): its change, and its revert check (prebuilt: not measured)
"$bin" compare --results res-bisect/cli "$good" "$tip" >compare.txt 2>compare.err
check "compare: a line for the bisection's change and one for its revert" \
	bash -c "grep -q '^    ${culprit:0:12} -[0-9.]*% against its parent .*(the answer)\$' compare.txt && grep -q '^  reverting ${culprit:0:12} on the bad tip: not measured: ' compare.txt"
"$bin" compare --results res-bisect/cli "$good" 0123abcd --json >compare2.json 2>compare2.err
rc=$?
check "compare --json of a commit with no results: exit 1, stdout empty" \
	bash -c "[ $rc = 1 ] && [ ! -s compare2.json ] && grep -q 'no results' compare2.err"

echo "cli-output: $n checks, $((n - bad)) as expected, $bad not"
[ "$bad" -eq 0 ]
