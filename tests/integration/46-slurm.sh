#!/usr/bin/env bash
# Probes on a Slurm cluster: a one-node cluster on 127.0.0.1
# (scripts/slurm-local.sh) runs the demo sweep of 45-sweep with
# --executor slurm, one job array for the sample and a Slurm job per
# build and boot of the follow-up bisection:
#  - the same change point and culprit as 45-sweep finds locally, and a
#    local sweep over the same store then measures nothing new and agrees;
#  - a task cancelled with scancel mid-sweep is sent again, and the sweep
#    gets all its boots;
#  - iobisect stopped with SIGTERM mid-sweep leaves no Slurm job behind;
#  - multisection: the demo bisection with --probes 2 (and 3 with
#    IOBISECT_LONG=1: bench/long-repeats.sh) names the same culprit in
#    fewer rounds than steps.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

slurm_local="$IOB_ROOT/scripts/slurm-local.sh"
export IOBISECT_SLURM_DIR=$(mktemp -d /tmp/iobisect-slurm.XXXXXX)
# A port pair of its own: a cluster someone started for trying stays up.
export IOBISECT_SLURM_PORT=$((20000 + RANDOM % 20000 * 2))
tmp=$(mktemp -d /tmp/iobisect-46.XXXXXX)
cleanup() {
	rc=$?
	"$slurm_local" stop >/dev/null 2>&1 || true
	if [ $rc -eq 0 ]; then rm -rf "$tmp" "$IOBISECT_SLURM_DIR"; else echo "kept $tmp $IOBISECT_SLURM_DIR" >&2; fi
}
trap cleanup EXIT
"$slurm_local" start >"$tmp/start.out" || fail "the local Slurm cluster did not start"
. "$IOBISECT_SLURM_DIR/env"
# Slurm's own view: jobs of ours still queued or running.
ours_active() { squeue -h -t PENDING,RUNNING,CONFIGURING,COMPLETING -o %i | wc -l; }

demo_ids

demo_job slurm-sweep "$tmp/job.json"
sweep() { iob sweep "$tmp/job.json" --range v6.1..iobisect-demo-large --every 3 "$@"; }
found() {
	grep -Eq "^  regression +${c3:0:12}\.\.${c9:0:12} .* bisect\$" "$1" &&
		grep -q "^regression ${c3:0:12}\.\.${c9:0:12}: culprit $culprit " "$1"
}

# --- the sweep through Slurm, then locally over the same store
start=$(date +%s)
rc=0
sweep --results "$tmp/r1" --executor slurm >"$tmp/s1.out" 2>"$tmp/s1.err" || rc=$?
echo "slurm sweep: exit $rc in $(( $(date +%s) - start ))s"
# Two boots a commit leave the step undecided: the commits beside it,
# c3 and c9, get more through Slurm (a job array of two tasks a round),
# and no other commit does.
[ $rc -eq 1 ] || { tail -30 "$tmp/s1.err" >&2; fail "the Slurm sweep exited $rc, not 1"; }
found "$tmp/s1.out" || { cat "$tmp/s1.out"; fail "the Slurm sweep did not find c3..c9 and the culprit"; }
grep -q '^\[slurm\] job [0-9]*: 5 commits, 2 boots each' "$tmp/s1.err" ||
	fail "the sample was not one job array of 5 tasks"
if grep -q '^\[sweep\] a step undecided' "$tmp/s1.err"; then
	grep -q '^\[slurm\] job [0-9]*: 2 commits, [3-9][0-9]* boots each' "$tmp/s1.err" ||
		fail "the undecided step's boots were not asked of c3 and c9 through Slurm"
fi
[ "$(ours_active)" -eq 0 ] || fail "jobs left in the queue after the sweep"
rc=0
sweep --results "$tmp/r1" >"$tmp/l1.out" 2>"$tmp/l1.err" || rc=$?
[ $rc -eq 1 ] && found "$tmp/l1.out" || { cat "$tmp/l1.out"; fail "the local sweep over the Slurm store differs"; }
grep -q "^measured 0 new boots" "$tmp/l1.out" || { cat "$tmp/l1.out"; fail "the local sweep measured again what Slurm stored"; }
diff <(grep '^  regression' "$tmp/s1.out") <(grep '^  regression' "$tmp/l1.out") ||
	fail "change points differ between the Slurm and the local sweep"

# --- a task cancelled mid-sweep is sent again (v6.1..c3: no step, so
# no bisection follows; both commits are measured)
iob sweep "$tmp/job.json" --range "v6.1..$c3" --every 3 --results "$tmp/r2" \
	--executor slurm --boots 4 >"$tmp/s2.out" 2>"$tmp/s2.err" &
pid=$!
victim=
for _ in $(seq 1 120); do
	victim=$(squeue -h -t RUNNING -o %i | grep _ | head -1 || true)
	[ -n "$victim" ] && break
	sleep 0.5
done
[ -n "$victim" ] || { kill $pid; fail "no task of the sweep was seen running"; }
scancel "$victim"
echo "cancelled task $victim"
rc=0
wait $pid || rc=$?
[ $rc -eq 0 ] || { tail -30 "$tmp/s2.err" >&2; fail "the sweep with a cancelled task exited $rc"; }
grep -q "^measured 8 new boots (2 commits" "$tmp/s2.out" ||
	{ cat "$tmp/s2.out"; fail "the sweep with a cancelled task did not get its 2 x 4 boots"; }
grep -q 'tasks lost, sent again' "$tmp/s2.err" || fail "the cancelled task was not sent again"

# --- SIGTERM to iobisect leaves no job behind
# iobisect itself, not a shell around it, gets the signal.
"$IOB_ROOT/iobisect" sweep "$tmp/job.json" --range v6.1..iobisect-demo-large --every 3 \
	--results "$tmp/r3" --executor slurm --boots 4 >/dev/null 2>"$tmp/s3.err" &
pid=$!
for _ in $(seq 1 120); do
	[ "$(squeue -h -t RUNNING -o %i | grep -c _ || true)" -gt 0 ] && break
	sleep 0.5
done
kill -TERM $pid
rc=0
wait $pid || rc=$?
[ $rc -eq 130 ] || fail "iobisect stopped with SIGTERM exited $rc, not 130"
for _ in $(seq 1 20); do [ "$(ours_active)" -eq 0 ] && break; sleep 0.5; done
[ "$(ours_active)" -eq 0 ] || { squeue; fail "Slurm jobs left behind by a stopped iobisect"; }

# --- multisection: k commits at once per round
demo_job demo "$tmp/demo.json"
for k in 2 ${IOBISECT_LONG:+3}; do
	rc=0
	iob bisect "$tmp/demo.json" --results "$tmp/m$k" --executor slurm --probes $k \
		>"$tmp/m$k.out" 2>"$tmp/m$k.err" || rc=$?
	[ $rc -eq 0 ] || { tail -20 "$tmp/m$k.err" >&2; fail "k=$k: bisect exited $rc"; }
	grep -q "^  commit   $culprit" "$tmp/m$k.out" || fail "k=$k: not the culprit $culprit"
	rounds=$(sed -n 's/^\[bisect\] \([0-9]*\) rounds, up to.*/\1/p' "$tmp/m$k.err")
	steps=$(sed -n 's/^  \([0-9]*\) steps,.*/\1/p' "$tmp/m$k.out")
	[ -n "$rounds" ] || fail "k=$k: no rounds reported"
	echo "k=$k: culprit ${culprit:0:12}, $rounds rounds for $steps steps"
	[ "$rounds" -le "$steps" ] || fail "k=$k: $rounds rounds for $steps steps"
done
echo "46-slurm: ok"
