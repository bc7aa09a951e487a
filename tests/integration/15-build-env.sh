#!/usr/bin/env bash
# 15-build-env: old-kernel toolchains on this machine. The fixture's v6.1
# with the smallest config that still boots the guest on a virtio disk
# (base, virtio, and loop for CONFIG_BLK_DEV), built by
#  - Debian's second compiler, gcc-11, as a plain toolchain entry, and
#  - the same gcc-11 inside a real environment: a minimal Debian chroot
#    made once by debootstrap and kept in the cache folder
#    (tests/fixture/build-chroot.sh), entered through a "chroot" entry;
# each booted once and measured through `iobisect run --commit`, the
# console saying gcc-11 built it. The two get different build keys (the
# environment is part of the toolchain's identity), the chroot's build
# is not the host's (a compiler only the host has is not found in it),
# and a second run of each is a cache hit. The chroot has a ccache of its
# own, bound to the host's cache folder, so its build after the host's
# takes the host's objects (the same gcc-11 package in both).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

command -v gcc-11 >/dev/null || fail "gcc-11 missing (scripts/deps.sh installs it)"
repo=$(fixture_repo)
tmp=$(mktemp -d /tmp/iobisect-15.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

job() { # NAME TOOLCHAIN-JSON
	cat >"$tmp/$1.json" <<JOB
{
  "name": "$1",
  "repo": "$repo",
  "kconfig": {"fragments": ["base", "virtio", "loop"]},
  "toolchain": [$2],
  "machine": {"cpus": 1, "memory_mb": 256, "timeout_s": 240},
  "topology": "virtio",
  "workload": {"engine": "rawread", "target": "d0", "bs_kb": 1024, "size_mb": 64},
  "runs": {"samples": 2, "warmup": 1}
}
JOB
}

# Build, boot once, measure; print the image's build key.
run_one() { # NAME
	local t=$(date +%s) out image key mbs console
	if ! out=$("$IOB_ROOT/iobisect" run "$tmp/$1.json" --commit v6.1 \
		--results "$tmp/results" --boots 1 2>&1); then
		printf '%s\n' "$out" >&2
		fail "$1: run --commit v6.1 failed"
	fi
	image=$(sed -n 's/^kernel [0-9a-f]*: \([^ ]*\).*/\1/p' <<<"$out")
	key=$(basename "$(dirname "$image")")
	[[ $key =~ ^[0-9a-f]{40}$ ]] || { printf '%s\n' "$out" >&2; fail "$1: no build key in '$image'"; }
	console=$(ls "$tmp/results/$1"/*/virtio-rawread/boot-*.console.log | tail -1)
	grep -q "Linux version 6\.1.*gcc-11" "$console" || fail "$1: the booted kernel was not built by gcc-11"
	mbs=$(grep -rho '"bw_bytes": *[0-9]*' "$tmp/results/$1" | awk '{ s += $2; n++ } END { if (n) printf "%.1f", s / n / 1e6 }')
	awk -v m="${mbs:-0}" 'BEGIN { exit !(m > 0) }' || fail "$1: no throughput measured"
	echo "$1: key $key, $mbs MB/s, $(( $(date +%s) - t ))s$(grep -q '(cached)' <<<"$out" && echo ', cached')" >&2
	grep -q '(cached)' <<<"$out" || touch "$tmp/$1.built"
	echo "$key"
}

# ccache's hits so far (direct and preprocessed), 0 without ccache.
ccache_hits() {
	command -v ccache >/dev/null || { echo 0; return; }
	ccache --print-stats | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { s += $2 } END { print s + 0 }'
}

job gcc11-plain '{"cc": "gcc-11"}'
plain=$(run_one gcc11-plain)

[ "$(id -u)" = 0 ] || { echo "SKIP: the chroot part needs root (debootstrap, chroot)"; exit 0; }
chroot=$("$IOB_ROOT/tests/fixture/build-chroot.sh")
job gcc11-chroot "{\"cc\": \"gcc-11\", \"chroot\": \"$chroot\"}"
job gcc12-chroot "{\"cc\": \"gcc-12\", \"chroot\": \"$chroot\"}"
hits=$(ccache_hits)
inenv=$(run_one gcc11-chroot)
# The chroot's ccache shares the host's cache: gcc-11 is the same package
# in both, so a chroot build right after the host's compiles almost nothing.
if [ -e "$tmp/gcc11-plain.built" ] && [ -e "$tmp/gcc11-chroot.built" ]; then
	got=$(( $(ccache_hits) - hits ))
	[ "$got" -ge 900 ] || fail "the chroot's build took $got objects from ccache, not the host build's ~1,100"
	echo "gcc11-chroot: $got objects from the host build's ccache"
fi
[ "$plain" != "$inenv" ] || fail "the chroot's build shares the plain build's key $plain"
grep -q "\"toolchain\": \"cc=gcc-11 hostcc=gcc-11 .* env=chroot:$chroot id=" \
		"${XDG_CACHE_HOME:-$HOME/.cache}/iobisect/images/$inenv/key.json" ||
	fail "the chroot build's key.json does not name the environment"

# Asked again: the cache answers, the key unchanged.
again=$(run_one gcc11-chroot)
[ "$again" = "$inenv" ] || fail "the chroot build's key changed: $inenv then $again"

# The compiler is looked up inside the chroot: the host's gcc-12 is not there.
rc=0
"$IOB_ROOT/iobisect" run "$tmp/gcc12-chroot.json" --commit v6.1 --results "$tmp/results" \
	--boots 1 >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc = 128 ] || fail "gcc-12 in the chroot: exit $rc, not 128: $(cat "$tmp/err")"
grep -q "'gcc-12' failed in $chroot" "$tmp/err" || fail "gcc-12 in the chroot: $(cat "$tmp/err")"
echo "gcc-12 in the chroot: $(head -1 "$tmp/err")"
echo "15-build-env: ok (plain gcc-11 $plain, chroot gcc-11 $inenv)"
