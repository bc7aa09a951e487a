#!/usr/bin/env bash
# 44-bisect-prebuilt: bisection over prebuilt images, with no build at all.
# A folder holds a bzImage per commit of the demo range (the fixture's own
# images, as `iobisect build` makes them for 40-bisect: cache hits on a
# warm machine), v6.1 under its tag and the rest under their short ids;
# the broken commit has none. The job names the folder ("prebuilt") and
# `iobisect bisect` must reach the culprit 40-bisect's building bisection
# names, skip the commit without an image, and never run make (a `make`
# first on PATH that records any call and fails). Then a command source:
# `iobisect run --commit` fetches the culprit's image through a command
# template and keys it by its hash.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
series=$("$IOB_ROOT/tests/fixture/demo-series.sh" 2>/dev/null)
field() { awk -v a="$1" -v b="$2" '$1 == a && (b == "" || $2 == b) { print $NF; exit }' <<<"$series"; }
large=$(field culprit iobisect-demo-large)
broken=$(field broken "")
[ -n "$large" ] && [ -n "$broken" ] || fail "demo-series printed no ids"

tmp=$(mktemp -d /tmp/iobisect-44.XXXXXX)
trap '[ -n "${IOB_KEEP:-}" ] || rm -rf "$tmp"' EXIT
start=$(date +%s)

# --- the folder: one image per commit, as a build farm would keep them
folder=$tmp/images
mkdir -p "$folder"
made=0 missing=0
for c in $(git -C "$repo" rev-list v6.1..iobisect-demo-large) v6.1; do
	if ! out=$(iob build --repo "$repo" --commit "$c" 2>/dev/null); then
		missing=$((missing + 1))
		continue
	fi
	if [ "$c" = v6.1 ]; then
		name=v6.1.bzImage
	else
		name=${c:0:12}.bzImage
	fi
	cp "$(iob_field image <<<"$out")" "$folder/$name"
	made=$((made + 1))
done
echo "folder: $made images, $missing commits without one ($(( $(date +%s) - start ))s)"
[ -e "$folder/${broken:0:12}.bzImage" ] && fail "the broken commit has an image"
[ "$made" -ge 12 ] || fail "only $made images for the 13 commits"

job() { # NAME SOURCE-JSON
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
	    -e "s|\"name\": \"demo\"|\"name\": \"$1\", \"prebuilt\": $2|" \
	    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/$1.json"
	grep -q '"prebuilt"' "$tmp/$1.json" || fail "demo.json changed shape: cannot add prebuilt"
}
job prebuilt-folder "{\"folder\": \"$folder\", \"name\": [\"{tag}.bzImage\", \"{short}.bzImage\"]}"

# A make that is never to run.
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "make $*" >>%s/make-ran\nexit 2\n' "$tmp" >"$tmp/bin/make"
chmod +x "$tmp/bin/make"

# --- the bisection, over the folder
t=$(date +%s)
rc=0
PATH=$tmp/bin:$PATH iob bisect "$tmp/prebuilt-folder.json" --results "$tmp/results" \
	>"$tmp/folder.out" 2>"$tmp/folder.err" || rc=$?
echo "prebuilt folder: exit $rc in $(( $(date +%s) - t ))s"
cat "$tmp/folder.out"
[ $rc -eq 0 ] || { tail -20 "$tmp/folder.err" >&2; fail "bisect over the prebuilt folder exited $rc"; }
grep -q "commit   $large" "$tmp/folder.out" || fail "culprit is not $large"
[ -e "$tmp/make-ran" ] && fail "make ran: $(cat "$tmp/make-ran")"
grep -q " 0 builds done, [0-9]* served from cache" "$tmp/folder.out" ||
	fail "the report counts builds: $(grep 'builds done' "$tmp/folder.out")"
iob bisect "$tmp/prebuilt-folder.json" --results "$tmp/results" --log >"$tmp/folder.log"
if grep -q "$broken" "$tmp/folder.log"; then
	grep -q "^git bisect skip $broken\$" "$tmp/folder.log" || fail "the commit without an image was not skipped"
	grep -q "no image for ${broken:0:12}" "$tmp/folder.log" "$tmp/folder.err" "$tmp/results"/prebuilt-folder/*.json 2>/dev/null ||
		fail "nothing says why ${broken:0:12} was skipped"
fi
# The build key of every boot is its image's hash (as git hashes a file).
key=$(git hash-object "$folder/${large:0:12}.bzImage")
grep -rqs "\"build_key\": *\"$key\"" "$tmp/results/prebuilt-folder/${large:0:12}" ||
	fail "no boot of $large under its image's hash $key"

# --- a command source: the culprit's image fetched by a template
job prebuilt-command "{\"command\": [\"cp\", \"$folder/{short}.bzImage\", \"{out}\"]}"
t=$(date +%s)
if ! out=$(PATH=$tmp/bin:$PATH iob run "$tmp/prebuilt-command.json" --commit "$large" \
	--results "$tmp/results" --boots 1 2>&1); then
	printf '%s\n' "$out" >&2
	fail "run --commit through the command source failed"
fi
echo "prebuilt command: run --commit ${large:0:12} in $(( $(date +%s) - t ))s"
image=$(sed -n "s/^kernel ${large:0:12}: \([^ ]*\).*/\1/p" <<<"$out")
[ -n "$image" ] || { printf '%s\n' "$out" >&2; fail "run did not say which image it booted"; }
case $image in */prebuilt/$key/bzImage) ;; *) fail "the fetched image '$image' is not kept by its hash $key" ;; esac
cmp -s "$image" "$folder/${large:0:12}.bzImage" || fail "the fetched image differs from the folder's"
[ -e "$tmp/make-ran" ] && fail "make ran: $(cat "$tmp/make-ran")"
echo "44-bisect-prebuilt: ok (culprit $large from $made prebuilt images, make never ran; $(( $(date +%s) - start ))s)"
