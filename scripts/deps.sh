#!/usr/bin/env bash
# Installs the Debian packages iobisect and its tests need (man-db: the
# installed man pages are read in 70-installed; dpkg-dev and debhelper:
# make package builds the .deb, whose other Build-Depends, debian/control,
# are among the rest); a no-op (no apt,
# no network) when all are present. Idempotent: run it as often as you like.
set -euo pipefail

pkgs=(
	build-essential pkg-config libgit2-dev libcurl4-openssl-dev libjansson-dev check
	musl-tools qemu-system-x86 qemu-utils
	linux-source-6.1 bc flex bison libelf-dev libssl-dev dwarves cpio xz-utils ccache
	git mdadm dmsetup e2fsprogs xfsprogs util-linux kmod
	python3 chromium jq clang-14 libclang-rt-14-dev
	slurmctld slurmd slurm-client munge
	gcc-11 debootstrap fio
	man-db
	dpkg-dev debhelper
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages and not root: apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
