#!/usr/bin/env bash
# resume-everywhere.sh [IOBISECT]: a bisection stopped at any moment
# resumes with the same command to the same answer, booting nothing it
# already has evidence for. Needs no kernel and no QEMU: a stand-in QEMU
# (tests/standin-qemu.py) answers every boot at once with the figure its
# fake image names, and the job's "prebuilt" folder holds an image per
# commit of a small repository made here (14 commits; the 10th and its
# descendants slow), so nothing is built.
#
# The bisection is run once to the end, to learn its answer and its
# progress lines (stderr). Then, each in a fresh results folder:
#   - for every progress line k: run until line k shows, SIGKILL, and run
#     the same command again to the end;
#   - SIGKILL within the answer's pairs (which print no line of their
#     own), after their 1st boot (half a pair) and their 2nd (a pair
#     before its verdict's line);
#   - SIGKILL within the answer's pairs on the wall clock (which print no
#     line), after their 1st, 2nd and 5th boot;
#   - SIGINT and SIGTERM at a few lines, then the same;
#   - a full disk: the results folder on a tmpfs too small for the whole
#     run (several sizes), then room made and the same command again.
# Each resumed run must exit 0 naming the same commit, keep every sample
# document stored before the stop unchanged, and give no new boot to a
# commit judged before it (a mark in the state), but the good endpoint
# (the baseline refreshed beside a probe, by design). The culprit and its
# parent, judged before their pairs, get the answer's pairs still missing
# and no more: together no more boots than the whole run gave them, but
# one (the first half of a pair the stop cut, which is no pair: the pair
# is taken again whole). A stop within the answer's pairs, or after them
# before the answer is saved, keeps the pairs stored (the state's
# "confirm"). The pairs on the wall clock are taken once too: at most
# half a pair again. RESUME_LINE sets the job's threshold (auto by
# default): under "10%" steps stand in for bad before it is built (the
# 30% drop is more than twice the line), one at good's level and one
# below the line, so the stops fall in those too. The closing line:
#
#   resume-everywhere: N stops, N resumed to the same answer, N not
set -u
. "$(dirname "$0")/standin-lib.sh" resume-everywhere "${1:-}"
py=$(command -v /usr/bin/python3 || command -v python3) ||
	{ echo "resume-everywhere: SKIP: no python3 for the stand-in QEMU"; exit 0; }
mounted=
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	wait 2>/dev/null
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	rm -rf "$S"
}
trap cleanup EXIT
t0=$(date +%s)

# The range: 14 commits, the 10th the culprit; an image per commit.
standin_range 14 10 "$py"
bad=$tip
parent=$(git -C repo rev-parse "$culprit~1")
# The virtual clock (TCG), so the run's levels and the answer's pairs on
# the wall clock are taken as on a real TCG host; no profile (the
# stand-in has no plugins); one sample a boot.
cat >job.json <<EOF
{"name": "resume", "repo": "$S/repo", "good": "$good", "bad": "$bad",
 "machine": {"cpus": 1, "accel": "tcg", "clock": "virtual",
             "qemu": "$S/qemu-system-x86_64", "timeout_s": 30,
             "profile": false},
 "topology": "virtio",
 "workload": {"engine": "rawread", "target": "d0", "bs_kb": 4, "size_mb": 16},
 "runs": {"max": 4, "samples": 1, "warmup": 0},
 "metric": "read", "threshold": "${RESUME_LINE:-auto}",
 "prebuilt": {"folder": "$S/images", "name": ["{short}.bzImage"]}}
EOF

stops=0 same=0 bad_runs=0
fail() { echo "resume-everywhere: FAIL: $*"; }
answer_of() { sed -n 's/^  commit   \([0-9a-f]*\)$/\1/p' "$1"; }

# start RESULTS TAG: the bisection in the background ($pid), its output
# in TAG.out and TAG.err.
start() {
	: >"$2.out"
	: >"$2.err"
	"$bin" bisect job.json --results "$1" >"$2.out" 2>"$2.err" &
	pid=$!
}
# wait_line FILE K: until FILE has K lines, or the run ended (1).
wait_line() {
	while [ "$(wc -l <"$1")" -lt "$2" ]; do
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.01
	done
	return 0
}
# What the state says was judged: the commits with a mark.
judged() {
	"$py" - "$1/resume/bisect-state.json" <<'PY' 2>/dev/null
import json, sys
try:
    st = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
print("\n".join(sorted({m["commit"] for m in st.get("marks", [])})))
PY
}
count_boots() { # RESULTS COMMIT
	ls "$1/resume/${2:0:12}"/*/boot-*.json 2>/dev/null | wc -l
}
wall_boots() { # RESULTS: boots of the answer's pairs on the wall clock
	grep -l '"clock": "wall"' "$1"/resume/*/*/boot-*.json 2>/dev/null | wc -l
}
answer_boots() { # RESULTS: the culprit's and its parent's, not on the wall clock
	grep -L '"clock": "wall"' "$1/resume/${culprit:0:12}"/*/boot-*.json \
		"$1/resume/${parent:0:12}"/*/boot-*.json 2>/dev/null | wc -l
}
snapshot() { # the sample documents and their checksums
	[ -d "$1" ] || return 0
	(cd "$1" && find . -name 'boot-*-sample-*.json' -print0 |
		xargs -0 -r sha1sum | LC_ALL=C sort)
}

# resume WHAT RESULTS TAG: what the stopped run left, then the same
# command to the end, checked.
resume() {
	local what=$1 res=$2 tag=$3 rc=0 got ok=1 c now
	local -A had=()
	stops=$((stops + 1))
	snapshot "$res" >"$tag.before"
	for c in $(judged "$res"); do had[$c]=$(count_boots "$res" "$c"); done
	"$bin" bisect job.json --results "$res" >"$tag.out2" 2>"$tag.err2" || rc=$?
	got=$(answer_of "$tag.out2")
	if [ $rc -ne 0 ] || [ "$got" != "$answer" ]; then
		fail "$what: the resumed run exited $rc naming '${got:-nothing}'," \
			"not $answer: $(grep -m1 '^error' "$tag.err2")"
		ok=0
	fi
	snapshot "$res" >"$tag.after"
	if [ -n "$(LC_ALL=C comm -23 "$tag.before" "$tag.after")" ]; then
		fail "$what: sample documents stored before the stop changed or vanished"
		ok=0
	fi
	for c in "${!had[@]}"; do
		case $c in "$good" | "$culprit" | "$parent") continue ;; esac
		now=$(count_boots "$res" "$c")
		if [ "$now" -ne "${had[$c]}" ]; then
			fail "$what: ${c:0:12}, judged before the stop, booted again (${had[$c]} -> $now boots)"
			ok=0
		fi
	done
	# The culprit and its parent: the boots the whole run gave them, but
	# the first half of a pair the stop cut.
	now=$(answer_boots "$res")
	if [ "$now" -gt $((ref_answer + 1)) ]; then
		fail "$what: the culprit and its parent booted $now times (not on the wall clock), where the whole run took $ref_answer: the answer's pairs were taken again"
		ok=0
	fi
	# The wall-clock pairs (runs.wall_pairs, 3) are taken once: a stop
	# within them may leave half a pair, booted again.
	now=$(wall_boots "$res")
	if [ "$now" -gt 7 ]; then
		fail "$what: $now boots on the wall clock, where the answer's 3 pairs take 6"
		ok=0
	fi
	if [ $ok -eq 1 ]; then
		same=$((same + 1))
	else
		bad_runs=$((bad_runs + 1))
	fi
}

# --- the run to the end: its answer and its lines
rc=0
"$bin" bisect job.json --results ref >ref.out 2>ref.err || rc=$?
answer=$(answer_of ref.out)
lines=$(wc -l <ref.err)
if [ $rc -ne 0 ] || [ "$answer" != "$culprit" ]; then
	echo "resume-everywhere: FAIL: the whole run exited $rc naming '${answer:-nothing}', not $culprit"
	tail -5 ref.err
	exit 1
fi
ref_answer=$(answer_boots ref)
echo "resume-everywhere: the whole run (threshold ${RESUME_LINE:-auto}): ${answer:0:12} in $lines progress lines, $(ls ref/resume/*/*/boot-*.json | wc -l) boots"
if [ -n "${RESUME_LINE:-}" ] && ! grep -q 'stands in for bad' ref.err; then
	echo "resume-everywhere: FAIL: under a ${RESUME_LINE} line no step stood in for bad"
	exit 1
fi

# --- SIGKILL at each progress line
for ((k = 1; k <= lines; k++)); do
	start "k$k" "k$k"
	if wait_line "k$k.err" "$k"; then
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	pid=
	resume "kill -9 at line $k ($(sed -n "${k}p" "k$k.err" | cut -c1-60))" "k$k" "k$k"
done

# --- SIGKILL within the answer's pairs, which print no line of their
# own: after their first boot (half a pair) and their second (the pair
# whole, before the line of its verdict), counted from the line that
# begins them
for j in 1 2; do
	tag=a$j
	start "$tag" "$tag"
	while ! grep -q '^\[bisect\] confirm: ' "$tag.err" && kill -0 "$pid" 2>/dev/null; do
		sleep 0.01
	done
	before=$(answer_boots "$tag")
	while [ "$(answer_boots "$tag")" -lt $((before + j)) ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.01
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
	resume "kill -9 after $j boots of the answer's pairs" "$tag" "$tag"
done

# --- SIGKILL within the answer's pairs on the wall clock, which print
# no line: after each of their boots
for j in 1 2 5; do
	start "w$j" "w$j"
	while [ "$(wall_boots "w$j")" -lt $j ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.01
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=
	resume "kill -9 after $j boots of the wall-clock pairs" "w$j" "w$j"
done

# --- SIGINT and SIGTERM at a few lines: the run stops with its state
for sig in INT TERM; do
	for k in $((lines / 2)) $((lines - 3)); do
		tag=$sig$k
		start "$tag" "$tag"
		wait_line "$tag.err" "$k" && kill -"$sig" "$pid" 2>/dev/null
		rc=0
		wait "$pid" 2>/dev/null || rc=$?
		pid=
		# Interrupted (130), or done before the signal came (0).
		[ $rc -eq 130 ] || [ $rc -eq 0 ] ||
			fail "SIG$sig at line $k: exited $rc, not 130: $(grep -m1 '^error' "$tag.err")"
		resume "SIG$sig at line $k" "$tag" "$tag"
	done
done

# --- a full disk: the results folder on a tmpfs too small for the run
mkdir full
if mount -t tmpfs -o size=64m tmpfs full 2>/dev/null; then
	mounted=$S/full
	"$bin" bisect job.json --results full/ref >full.out 2>full.err
	used=$(df -k --output=used full | tail -1)
	rm -rf full/ref
	for pct in 15 40 65; do
		tag=full$pct
		mount -o remount,size=$((used * pct / 100 + 4))k full
		rc=0
		"$bin" bisect job.json --results "full/$tag" >"$tag.out" 2>"$tag.err" || rc=$?
		[ $rc -ne 0 ] || echo "resume-everywhere: note: the run fitted in $pct% of the disk it needs"
		mount -o remount,size=64m full
		resume "a full disk at $pct% (exit $rc: $(grep -m1 '^error' "$tag.err" | cut -c1-70))" "full/$tag" "$tag"
		rm -rf "full/$tag"
	done
	umount full && mounted=
else
	echo "resume-everywhere: SKIP: a full disk (cannot mount a tmpfs here)"
fi

echo "resume-everywhere: $stops stops, $same resumed to the same answer, $bad_runs not (threshold ${RESUME_LINE:-auto}, $(($(date +%s) - t0)) s)"
[ "$bad_runs" -eq 0 ]
