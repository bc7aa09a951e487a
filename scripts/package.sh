#!/usr/bin/env bash
# package.sh: builds the Debian package as a user would, from a clean
# export of the committed tree (`git archive HEAD` into a scratch folder,
# so no build folder, object or result of the work tree leaks in), with
# dpkg-buildpackage -us -uc -b, its checks included (debian/rules), then
# unpacks the .deb into a scratch root (dpkg -x) and runs the installed
# program from there. The packages it needs come from `make deps`
# (dpkg-dev, debhelper and debian/control's Build-Depends). The closing
# line:
#
#   package: iobisect_V_amd64.deb built and run in N s
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)
git -C "$root" rev-parse --verify -q HEAD >/dev/null ||
	{ echo "package: '$root' is not a git checkout: nothing to export" >&2; exit 1; }
S=$(mktemp -d /tmp/iobisect-package.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$S"' EXIT
mkdir "$S/src" "$S/root"
git -C "$root" archive HEAD | tar -x -C "$S/src"
version=$(sed -n 's/^VERSION *:= *//p' "$S/src/Makefile")
# The host's CPUs, unless the caller said otherwise (parallel=N).
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=$(nproc)}
if ! (cd "$S/src" && dpkg-buildpackage -us -uc -b) >"$S/build.log" 2>&1; then
	tail -n 40 "$S/build.log" >&2
	echo "package: dpkg-buildpackage failed (the log's end above)" >&2
	exit 1
fi
deb=$(ls "$S"/iobisect_*_amd64.deb)
dpkg -x "$deb" "$S/root"
# The program as installed: it says the package's release.
out=$("$S/root/usr/bin/iobisect" --version)
case $out in
"iobisect $version "*) ;;
*)
	echo "package: the installed program says '${out%%$'\n'*}', not $version" >&2
	exit 1
	;;
esac
echo "package: $(basename "$deb") built and run in $(($(date +%s) - t0)) s"
