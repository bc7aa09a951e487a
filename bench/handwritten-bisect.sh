#!/usr/bin/env bash
# handwritten-bisect.sh: the `git bisect run` script a user writes by hand,
# the baseline iobisect is measured against (bench/bisect-vs-script).
# Run from inside a throwaway clone of the kernel, as
#     git bisect run /path/to/handwritten-bisect.sh
# Each step: `make olddefconfig`, `make bzImage` in the same tree (so make
# rebuilds only what changed), boot QEMU (TCG) with a tiny initramfs whose
# init is iobisect's static guest doing one dd-like read of the whole
# null-co disk (4 KiB buffered reads, 128 MiB, as the demo job), and compare
# the MB/s with a fixed number. 0 fast, 1 slow, 125 does not build.
#
# Environment: HB_GUEST (static guest binary; default build/iobisect-guest
# of this tree), HB_LIMIT_MBS (the fixed number; 100), HB_LOG (a file that
# gets one "step <commit> build_s boot_s mbs rc" line per step), HB_CLEAN=1
# (make mrproper first and restore the saved config: ktest's default),
# HB_CONFIG (the .config restored after mrproper), HB_CC (the compiler,
# e.g. "ccache gcc"; default gcc).
set -u
here=$(cd "$(dirname "$0")" && pwd)
guest=${HB_GUEST:-$here/../build/iobisect-guest}
limit=${HB_LIMIT_MBS:-100}
log=${HB_LOG:-/dev/null}
jobs=$(nproc)
commit=$(git rev-parse HEAD)
now() { date +%s.%N; }

t0=$(now)
if [ "${HB_NOBUILD:-0}" = 1 ]; then
	: # testing the boot half on a tree that is already built
elif [ "${HB_CLEAN:-0}" = 1 ]; then
	make -s mrproper >/dev/null 2>&1
	cp "$HB_CONFIG" .config
fi
cc=${HB_CC:-gcc}
if [ "${HB_NOBUILD:-0}" = 1 ]; then
	:
elif ! make -s CC="$cc" olddefconfig >/dev/null 2>&1 ||
   ! make -s -j"$jobs" CC="$cc" bzImage >build.log 2>&1; then
	t1=$(now)
	echo "step $commit $(echo "$t1 - $t0" | bc) 0 - 125" >>"$log"
	exit 125
fi
t1=$(now)

# The initramfs: the guest as /init and its spec.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/dev"
cp "$guest" "$tmp/root/init"
cat >"$tmp/root/spec" <<SPEC
version 1
boot id=1 commit=$commit reboot=1
disk name=d0 bus=virtio serial=iob0 size_mb=1024 null=1
point id=dd engine=rawread target=d0 samples=1 warmup=0 bs_kb=4 size_mb=128 direct=0
SPEC
(cd "$tmp/root" && find . | cpio -o -H newc --quiet >"$tmp/initramfs.cpio")

timeout 300 qemu-system-x86_64 -nodefaults -nographic -no-reboot \
	-machine pc -accel tcg -smp 1 -m 512 \
	-kernel arch/x86/boot/bzImage -initrd "$tmp/initramfs.cpio" \
	-append "console=ttyS0 panic=-1" \
	-chardev file,id=c,path="$tmp/console.log" -serial chardev:c \
	-chardev file,id=r,path="$tmp/result.log" -serial chardev:r \
	-blockdev driver=null-co,node-name=p0,size=1073741824,read-zeroes=on,latency-ns=200000 \
	-blockdev driver=raw,node-name=r0,file=p0 \
	-device virtio-blk-pci,drive=r0,serial=iob0 </dev/null >/dev/null 2>&1
t2=$(now)

# "bw_bytes": bytes per second of the one sample.
bw=$(grep -o '"bw_bytes":[0-9.]*' "$tmp/result.log" | head -1 | cut -d: -f2)
if [ -z "$bw" ]; then
	echo "step $commit $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc) - 125" >>"$log"
	exit 125
fi
mbs=$(echo "scale=1; $bw / 1000000" | bc)
rc=1
[ "$(echo "$mbs >= $limit" | bc)" = 1 ] && rc=0
echo "step $commit $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc) $mbs $rc" >>"$log"
exit $rc
