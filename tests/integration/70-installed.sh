#!/usr/bin/env bash
# 70-installed: iobisect as a user has it after `make install`. The tree
# is installed into a DESTDIR (a staged prefix, as a package build does),
# then run from / with nothing of the source tree in reach (no IOBISECT_*
# in the environment, no build/ under the working folder): --version
# names the installed guest and data folder, `help` and `help run`
# print, `run` boots the fixture's kernel once on the installed virtio
# preset with the installed guest, its stored documents name the program,
# `man` finds and renders an installed page, and the installed completion
# completes a command, an option, a preset and a job key in bash. Then
# `make uninstall` leaves no file behind.
# One short boot (about half a minute under TCG).
#
# IOBISECT_KERNEL=path/to/bzImage skips the fixture build.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${IOBISECT_KERNEL:-}
[ -n "$kernel" ] || kernel=$(fixture_kernel) || fail "no kernel"
[ -r "$kernel" ] || fail "kernel '$kernel' is not readable"

work=$(mktemp -d /tmp/iob-70.XXXXXX)
trap 'rm -rf "$work"' EXIT
# man drops root's privileges to read a page: the stage must be readable.
chmod 755 "$work"
stage=$work/stage
prefix=/usr/local

make -s -C "$IOB_ROOT" install DESTDIR="$stage" prefix=$prefix >/dev/null ||
	fail "make install DESTDIR=$stage failed"
bin=$stage$prefix/bin/iobisect
[ -x "$bin" ] || fail "no $bin"

# The installed program alone: from /, its environment cleared but for
# what any program gets, so only its own folder can lead it to its parts.
installed() {
	(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$HOME" \
		"$bin" "$@")
}

version=$(installed --version) || fail "--version failed"
printf '%s\n' "$version"
[ "$(installed version)" = "$version" ] || fail "version and --version differ"
grep -q "^iobisect [0-9][^ ]* (git [^)]*)$" <<<"$version" ||
	fail "--version: no release and describe"
guest=$(iob_field guest <<<"$version")
[[ $guest == "$stage$prefix/bin/../libexec/iobisect/iobisect-guest (build id "[0-9a-f]*")" ]] ||
	fail "--version: the guest is not the installed one: $guest"
[ "$(iob_field data <<<"$version")" = "$stage$prefix/bin/../share/iobisect" ] ||
	fail "--version: the data folder is not the installed one"

installed help | grep -q '^  run ' || fail "help lists no run"
installed help run | grep -q -- '--topology' || fail "help run shows no --topology"

# One boot of the fixture's kernel, from the installed preset and guest.
if ! out=$(installed run --kernel "$kernel" --topology virtio \
	--workload rawread,target=d0,bs_kb=128,size_mb=16,direct=1 \
	--boots 1 --samples 1 --warmup 0 --timeout 120 \
	--results "$work/results" 2>&1); then
	printf '%s\n' "$out"
	fail "installed iobisect run failed"
fi
printf '%s\n' "$out" | grep -E '^boot' || true
boot=$(ls "$work"/results/run/*/virtio-*/boot-1.json | head -1)
[ -f "$boot" ] || fail "no boot document under $work/results"
[ "$(jq -r .outcome "$boot")" = ok ] || fail "outcome $(jq -r .outcome "$boot")"
release=$(head -1 <<<"$version" | cut -d' ' -f2-)
[ "$(jq -r .iobisect "$boot")" = "$release" ] ||
	fail "the boot's document names '$(jq -r .iobisect "$boot")', not '$release'"
for s in "$(dirname "$boot")"/*/boot-1-sample-*.json; do
	[ "$(jq -r .iobisect "$s")" = "$release" ] || fail "$s does not name the program"
done

# The installed page, found by name under the installed mandir.
page=$(cd / && MANPATH=$stage$prefix/share/man man -P cat iobisect-run 2>&1) ||
	fail "man iobisect-run: $page"
grep -q 'boot one kernel' <<<"$page" || fail "man iobisect-run: no NAME line"
grep -q -- '--topology' <<<"$page" || fail "man iobisect-run: no --topology"
(cd / && MANPATH=$stage$prefix/share/man man -P cat 5 iobisect-job) |
	grep -q 'runs.max' || fail "man 5 iobisect-job: no runs.max"

# The installed completion, in a bash of its own.
comp=$stage$prefix/share/bash-completion/completions/iobisect
complete_words() {
	bash --norc -c 'source "$1"; shift; COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _iobisect
		echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
[ "$(complete_words iobisect bis)" = bisect ] || fail "completion: command"
[ "$(complete_words iobisect run --keep)" = --keep-images ] || fail "completion: option"
[ "$(complete_words iobisect run --topology raid)" = "raid0-4 raid5-4" ] ||
	fail "completion: presets"
[ "$(complete_words iobisect run --set runs.ma)" = "runs.max=" ] ||
	fail "completion: job keys"

make -s -C "$IOB_ROOT" uninstall DESTDIR="$stage" prefix=$prefix >/dev/null ||
	fail "make uninstall failed"
left=$(find "$stage" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "installed: version, help, run, man and completion as installed; uninstall clean"
