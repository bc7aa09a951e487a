#!/usr/bin/env bash
# 44-bisect-prebuilt: bisection over prebuilt images, with no build at all.
# The demo job is bisected as 40-bisect does (builds from the cache on a
# machine that ran 40-bisect); the images it booted, found by the build
# keys its results name, go into a folder as a build farm would keep them
# (v6.1 under its tag, the others under their short ids; the commit that
# does not build has none). The same job with "prebuilt" naming that
# folder must reach the same culprit, skip the commit without an image,
# and never run make (a `make` first on PATH records any call and fails).
# Then a command source: `iobisect run --commit` fetches the culprit's
# image through a command template and keys it by its hash.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

repo=$(fixture_repo)
demo_ids
cache=${XDG_CACHE_HOME:-$HOME/.cache}/iobisect
tmp=$(mktemp -d /tmp/iobisect-44.XXXXXX)
trap '[ -n "${IOB_KEEP:-}" ] || rm -rf "$tmp"' EXIT
start=$(date +%s)

job() { # NAME [SOURCE-JSON]
	local extra=${2:+, \"prebuilt\": $2}
	sed -e "s|\"~/.cache/iobisect/fixture/linux\"|\"$repo\"|" \
	    -e "s|\"name\": \"demo\"|\"name\": \"$1\"$extra|" \
	    "$IOB_ROOT/tests/jobs/demo.json" >"$tmp/$1.json"
	grep -q "\"name\": \"$1\"" "$tmp/$1.json" || fail "demo.json changed shape"
	answer_only "$tmp/$1.json"
}
culprit_of() { sed -n 's/^  commit   \([0-9a-f]*\)$/\1/p' "$1"; }

# --- the building bisection
job building
t=$(date +%s)
rc=0
iob bisect "$tmp/building.json" --results "$tmp/results" >"$tmp/building.out" 2>"$tmp/building.err" || rc=$?
[ $rc -eq 0 ] || { tail -20 "$tmp/building.err" >&2; fail "the building bisection exited $rc"; }
built=$(culprit_of "$tmp/building.out")
echo "building bisection: culprit $built in $(( $(date +%s) - t ))s"
[ "$built" = "$large" ] || fail "the building bisection named $built, not $large"

# --- the folder: the images it booted, by the build keys of its results
folder=$tmp/images
mkdir -p "$folder"
v61=$(git -C "$repo" rev-parse 'v6.1^{commit}')
for doc in "$tmp"/results/building/*/*/boot-1.json; do
	commit=$(jq -r .commit "$doc") key=$(jq -r .build_key "$doc")
	name=${commit:0:12}.bzImage
	[ "$commit" = "$v61" ] && name=v6.1.bzImage
	cp "$cache/images/$key/bzImage" "$folder/$name" || fail "no image for $commit under $key"
done
echo "folder: $(ls "$folder" | wc -l) images"
[ -e "$folder/${broken:0:12}.bzImage" ] && fail "the broken commit has an image"
[ -e "$folder/v6.1.bzImage" ] && [ -e "$folder/${large:0:12}.bzImage" ] || fail "the folder lacks an endpoint or the culprit"

# A make that is never to run.
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "make $*" >>%s/make-ran\nexit 2\n' "$tmp" >"$tmp/bin/make"
chmod +x "$tmp/bin/make"

# --- the bisection over the folder
job prebuilt-folder "{\"folder\": \"$folder\", \"name\": [\"{tag}.bzImage\", \"{short}.bzImage\"]}"
t=$(date +%s)
rc=0
PATH=$tmp/bin:$PATH iob bisect "$tmp/prebuilt-folder.json" --results "$tmp/results" \
	>"$tmp/folder.out" 2>"$tmp/folder.err" || rc=$?
echo "prebuilt folder: exit $rc in $(( $(date +%s) - t ))s"
cat "$tmp/folder.out"
[ $rc -eq 0 ] || { tail -20 "$tmp/folder.err" >&2; fail "bisect over the prebuilt folder exited $rc"; }
[ "$(culprit_of "$tmp/folder.out")" = "$built" ] || fail "the prebuilt bisection's culprit is not the building one's ($built)"
[ -e "$tmp/make-ran" ] && fail "make ran: $(cat "$tmp/make-ran")"
grep -q " 0 builds done, [0-9]* served from cache" "$tmp/folder.out" ||
	fail "the report counts builds: $(grep 'builds done' "$tmp/folder.out")"
iob bisect "$tmp/prebuilt-folder.json" --results "$tmp/results" --log >"$tmp/folder.log"
if grep -q "$broken" "$tmp/folder.log"; then
	grep -q "^git bisect skip $broken\$" "$tmp/folder.log" || fail "the commit without an image was not skipped"
	grep -q "no image for ${broken:0:12}" "$tmp/folder.log" || fail "the log does not say why ${broken:0:12} was skipped"
	echo "the commit without an image: skipped ($(grep -m1 "no image for" "$tmp/folder.log" | sed 's/^# *//'))"
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
echo "44-bisect-prebuilt: ok (culprit $built, building and prebuilt alike; make never ran; $(( $(date +%s) - start ))s)"
