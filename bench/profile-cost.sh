#!/usr/bin/env bash
# profile-cost.sh: what the profile's plugin costs. For each commit, N
# rounds of one plain boot (`iobisect run --boots 1`) and one profiled
# boot (`iobisect profile`), in turns, on the same job; per boot the
# wall time QEMU ran (boot_ns of the stored boot, wall_s of profile.json)
# and the MB/s of the measured samples (their bytes over their time, on
# the job's clock). Prints one line per boot and the medians per commit.
#
#   bench/profile-cost.sh [--boots N] [--job FILE] [--out DIR] REV...
#
# The job defaults to tests/jobs/demo.json on the fixture repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
boots=5 job= out=
while [ $# -gt 0 ]; do
	case $1 in
	--boots) boots=$2; shift 2 ;;
	--job) job=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-*) echo "usage: $0 [--boots N] [--job FILE] [--out DIR] REV..." >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--boots N] [--job FILE] [--out DIR] REV..." >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/profile-cost.XXXXXX)}
mkdir -p "$out"
if [ -z "$job" ]; then
	job=$out/job.json
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$HOME/.cache/iobisect/fixture/linux\"|" \
		-e 's|"name": "demo"|"name": "cost"|' "$root/tests/jobs/demo.json" >"$job"
fi
name=$(jq -r .name "$job")
iob=$root/iobisect
repo=$(jq -r .repo "$job" | sed "s|^~|$HOME|")

printf '%-12s %-8s %5s %10s %10s\n' commit mode boot wall_s MB/s
for rev in "$@"; do
	c=$(git -C "$repo" rev-parse "$rev^{commit}")
	for i in $(seq 1 "$boots"); do
		"$iob" run "$job" --commit "$c" --boots 1 --results "$out/plain" >/dev/null 2>&1
		dir=$out/plain/$name/${c:0:12}
		doc=$(ls -t "$dir"/*/boot-*.json | head -1)
		n=$(basename "$doc" .json)
		mbps=$(jq -s '(map(.read.io_bytes) | add) / (map(.read.runtime_ns) | add) * 1000' \
			$(ls "$(dirname "$doc")"/*/"$n"-sample-*.json))
		printf '%-12s %-8s %5d %10.2f %10.2f\n' "${c:0:12}" plain "$i" \
			"$(jq '.boot_ns / 1e9' "$doc")" "$mbps" | tee -a "$out/lines"
		"$iob" profile "$job" --commit "$c" --results "$out/prof" >/dev/null 2>&1
		p=$out/prof/$name/${c:0:12}/profile.json
		printf '%-12s %-8s %5d %10.2f %10.2f\n' "${c:0:12}" profiled "$i" \
			"$(jq .wall_s "$p")" "$(jq '.io_bytes / .runtime_ns * 1000' "$p")" | tee -a "$out/lines"
	done
done
echo "medians:"
awk '{ k = $1 " " $2; w[k] = w[k] " " $4; m[k] = m[k] " " $5 }
END { for (k in w) { print k, w[k] "|" m[k] } }' "$out/lines" | sort |
while read -r c mode rest; do
	med() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
	printf '%-12s %-8s wall %6.2f s  %8.2f MB/s\n' "$c" "$mode" \
		"$(cut -d'|' -f1 <<<"$rest" | med)" "$(cut -d'|' -f2 <<<"$rest" | med)"
done
echo "raw: $out"
