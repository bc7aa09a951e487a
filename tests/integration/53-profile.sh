#!/usr/bin/env bash
# The profile on a real kernel: one boot of the fixture's v6.1 with
# iobisect's QEMU plugin (iobisect profile) must count the kernel's
# instructions inside the guest's measured samples only, fold them into
# functions that add up to the total, and name the block layer's and
# readahead's functions; then the demo's culprit against its parent
# (one boot each) must show the per-request path's instructions per MB
# rising as the readahead window shrinks, the functions' changes adding
# up to the total's; and a QEMU that loads no plugin must give one line
# saying so while `run` works as before.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/iobisect-53.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
demo_ids
demo_job e2e-profile "$tmp/job.json"
fixture_kernel >/dev/null || fail "no fixture kernel"

# A QEMU that loads plugins at all, else nothing here can run.
qemu-system-x86_64 -plugin help -M none -display none 2>&1 | grep -qi 'invalid option' && {
	echo "SKIP: this QEMU has no plugin support"; exit 77; }

# --- one profile of v6.1
t=$(date +%s)
iob profile "$tmp/job.json" --commit v6.1 --results "$tmp/res" --rows 40 >"$tmp/v61.out" 2>"$tmp/v61.err" ||
	{ cat "$tmp/v61.err" >&2; fail "iobisect profile v6.1 failed"; }
echo "profile of v6.1 in $(( $(date +%s) - t ))s:"
head -12 "$tmp/v61.out"
grep -q 'not cycles' "$tmp/v61.out" || fail "the table does not say what it counts"
doc=$(sed -n 's/^profile: //p' "$tmp/v61.out")
[ -f "$doc" ] || fail "no profile.json named"
jq -e '.kernel_insns > 0 and .io_bytes > 0 and .requests > 0' "$doc" >/dev/null ||
	fail "the profile counted nothing: $(jq -c 'del(.functions)' "$doc")"
# Warmups are not windows: one window per measured sample.
[ "$(jq '.windows == .samples and .samples == 3' "$doc")" = true ] ||
	fail "windows $(jq .windows "$doc") for $(jq .samples "$doc") measured samples"
# The functions and what lies outside the map make the kernel's total.
[ "$(jq '([.functions[].insns] | add) + .unknown_insns == .kernel_insns' "$doc")" = true ] ||
	fail "the functions do not add up to the kernel's instructions"
# Nearly all of it inside the map: the kernel ran where System.map says.
[ "$(jq '.unknown_insns < .kernel_insns / 20' "$doc")" = true ] ||
	fail "$(jq .unknown_insns "$doc") of $(jq .kernel_insns "$doc") instructions outside System.map (KASLR on?)"
# Buffered reads of a virtio disk: the page cache's and readahead's
# functions are among the top ones; with 128 KiB requests and more the
# block layer's and the driver's are further down, but there.
top=$(awk 'NR > 4 { print $NF }' "$tmp/v61.out")
for f in filemap_read 'page_cache_ra_unbounded|ondemand_readahead'; do
	grep -Eq "^($f)$" <<<"$top" || fail "no function matching '$f' among the top 40"
done
for f in blk_mq_submit_bio submit_bio_noacct virtqueue_add_split; do
	jq -e --arg f "$f" '[.functions[] | select(.name == $f and .insns > 0)] | length == 1' \
		"$doc" >/dev/null || fail "no instructions in $f"
done

# --- the demo's culprit against its parent
parent=$(git -C "$repo" rev-parse "$culprit^")
for c in "$parent" "$culprit"; do
	iob profile "$tmp/job.json" --commit "$c" --results "$tmp/res" >"$tmp/$c.out" 2>"$tmp/$c.err" ||
		{ cat "$tmp/$c.err" >&2; fail "iobisect profile ${c:0:12} failed"; }
done
iob compare "$parent" "$culprit" --results "$tmp/res" --job e2e-profile >"$tmp/diff" ||
	fail "compare of the two profiles failed"
echo "the demo's culprit against its parent:"
head -14 "$tmp/diff"
total=$(awk '$NF == "[all" || / \[all kernel\]$/ { print $2; exit }' "$tmp/diff")
[[ $total == +* ]] || fail "the culprit's kernel instructions per MB did not rise ($total)"
# A smaller window: more requests per MB, so readahead's and the request
# path's functions rise, and they lead the difference.
rows=$(sed -n '/\[all kernel\]$/,/more function/p' "$tmp/diff")
grep -Eq '\+[0-9.]+% .* (ondemand_readahead|page_cache_ra_unbounded|page_cache_ra_order)$' <<<"$rows" ||
	fail "no readahead function rises in the difference"
grep -Eq '\+[0-9.]+% .* (blk_mq_submit_bio|__blk_rq_map_sg|virtqueue_add_split|__bio_split_to_limits)$' <<<"$rows" ||
	fail "no request-path function rises in the difference"
line=$(grep 'add up to' "$tmp/diff")
sum=$(sed -n 's/.*add up to \([-+0-9]*\) .*/\1/p' <<<"$line") tot=$(awk '{ print $NF }' <<<"$line")
[ "$sum" = "$tot" ] || fail "the functions' changes ($sum) are not the total's ($tot)"

# --- a QEMU that loads no plugin: one line, and run works as before
mkdir "$tmp/bin"
cat >"$tmp/bin/qemu-noplugin" <<'SH'
#!/bin/sh
for a; do [ "$a" = -plugin ] && { echo "qemu-system-x86_64: -plugin: invalid option" >&2; exit 1; }; done
exec qemu-system-x86_64 "$@"
SH
chmod +x "$tmp/bin/qemu-noplugin"
rc=0
iob profile "$tmp/job.json" --commit v6.1 --results "$tmp/res" \
	--set "machine.qemu=$tmp/bin/qemu-noplugin" >"$tmp/np.out" 2>"$tmp/np.err" || rc=$?
echo "without plugins: exit $rc: $(cat "$tmp/np.err")"
[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/np.err")" -eq 1 ] && grep -q 'invalid option' "$tmp/np.err" ||
	fail "a QEMU without plugins did not get one line saying so"
iob run "$tmp/job.json" --kernel "$(fixture_kernel)" --boots 1 --results "$tmp/res" \
	--set "machine.qemu=$tmp/bin/qemu-noplugin" >"$tmp/run.out" 2>&1 ||
	{ cat "$tmp/run.out" >&2; fail "run failed with a QEMU without plugins"; }
echo "PASS"
