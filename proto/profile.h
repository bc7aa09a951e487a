/*
 * proto/profile.h: the contract of a profiled boot between three
 * programs: the guest (workloads/), which marks the workload's window;
 * the QEMU plugin (qemu/plugin/), which counts the guest kernel's
 * instructions inside it; and the host (harness/), which reads what the
 * plugin wrote. Header-only and free of any library.
 *
 * The window is marked by the guest executing a marker, a 7-byte NOP
 * with a displacement no compiler emits (`nopl MAGIC(%rax)`, bytes
 * 0f 1f 80 and the displacement, little-endian). On any CPU and under
 * any QEMU it does nothing; the plugin sees it when it translates the
 * guest's user code and acts when it runs. The window is opened just
 * after the block-layer counters are read before a measured sample and
 * closed just before they are read after it: warmups are not marked.
 *
 * The plugin's output file, written when QEMU exits:
 *
 *     iobisect-tbcount 1
 *     windows <number of windows closed>
 *     user <guest user instructions inside the windows>
 *     <kernel address, hex without 0x> <instructions inside the windows>
 *     ...
 *
 * Each address is the first instruction of a translation block in kernel
 * space (the top bit set), each counted block once, its instructions all
 * charged to that address. Lines are in no particular order.
 */
#ifndef IOBISECT_PROTO_PROFILE_H
#define IOBISECT_PROTO_PROFILE_H

#define PROFILE_MARK_OPEN 0x10b15e01u
#define PROFILE_MARK_CLOSE 0x10b15e02u
/* nopl disp32(%rax): the opcode bytes before the displacement. */
#define PROFILE_MARK_B0 0x0f
#define PROFILE_MARK_B1 0x1f
#define PROFILE_MARK_B2 0x80
#define PROFILE_MARK_LEN 7

/* The first line of the plugin's output file. */
#define PROFILE_FILE_MAGIC "iobisect-tbcount 1"

/* The plugin's file and the word its probe prints when it loads. */
#define PROFILE_PLUGIN_NAME "iobisect-tbcount.so"
#define PROFILE_PROBE_WORD "iobisect-tbcount: loads, plugin api"

#endif
