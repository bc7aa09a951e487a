/*
 * init.c: the guest's PID 1. Mounts the kernel's file systems, says hello,
 * reads /spec, builds the topology, runs every point, says done, and
 * reboots (QEMU runs with -no-reboot, so that ends the boot). Whatever
 * fails is reported as an `error` frame and still ends in `done` and a
 * reboot: the guest never waits for a host that is not listening.
 */
#include "engine.h"
#include "kinds.h"
#include "layers.h"
#include "report.h"
#include "spec.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

static struct spec spec;

static void mount_one(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, "") < 0 && errno != EBUSY)
		say("cannot mount %s on '%s': %s", type, dir, strerror(errno));
}

/* PID 1 may start without stdio when the initramfs has no /dev/console. */
static void setup_console(void)
{
	if (fcntl(2, F_GETFD) >= 0)
		return;
	if (!sys_exists("/dev/console"))
		mknod("/dev/console", S_IFCHR | 0600, makedev(5, 1));
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fd != i)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

static void setup_mounts(void)
{
	mount_one("proc", "/proc", "proc");
	mount_one("sysfs", "/sys", "sysfs");
	mount_one("devtmpfs", "/dev", "devtmpfs");
	setup_console();
	/* Kernels without devtmpfs: the nodes init needs before scanning. */
	if (!sys_exists("/dev/ttyS1"))
		mknod("/dev/ttyS1", S_IFCHR | 0600, makedev(4, 65));
	if (!sys_exists("/dev/null"))
		mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3));
	mkdir("/tmp", 01777);
	mkdir("/mnt", 0755);
}

static int send_hello(uint64_t mem_kb)
{
	static struct json j;
	struct utsname u;
	uname(&u);
	json_begin(&j, "hello");
	json_str(&j, "kernel", u.release);
	json_str(&j, "version", u.version);
	json_str(&j, "machine", u.machine);
	json_u64(&j, "mem_total_kb", mem_kb);
	json_i64(&j, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_u64(&j, "boot", spec.boot_id);
	json_str(&j, "commit", spec.commit);
	json_end(&j);
	say("kernel %s, %llu kB, boot %u", u.release,
	    (unsigned long long)mem_kb, spec.boot_id);
	return report_frame(&j);
}

static void finish(void)
{
	static struct json j;
	json_begin(&j, "done");
	json_u64(&j, "samples", report_nr_samples);
	json_end(&j);
	report_frame(&j);
	say("done: %u samples", report_nr_samples);
	sync();
	report_flush();
	if (getpid() == 1 && spec.reboot)
		reboot(RB_AUTOBOOT);
	/* Not PID 1 (a test run by hand), or the reboot failed. */
	_exit(0);
}

int main(int argc, char **argv)
{
	const char *spec_path = "/spec";
	uint64_t mem_kb;

	/*
	 * A spec given by hand is a path. The kernel passes its command
	 * line's words it does not know to PID 1 as arguments as well
	 * (nokaslr, on a kernel built without KASLR): those are not one.
	 */
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '/' || argv[i][0] == '.') {
			spec_path = argv[i];
			break;
		}

	if (getpid() == 1)
		setup_mounts();
	report_open();
	mem_kb = sys_mem_total_kb();
	/* hello first, even when the spec is bad: the host sees a live guest.
	 */
	report_hold();
	int bad_spec = spec_load(&spec, spec_path);
	send_hello(mem_kb);
	report_release();
	if (bad_spec)
		finish();
	if (disks_find(&spec) || layers_build(&spec) || layers_report())
		finish();
	for (int i = 0; i < spec.nr_points; i++)
		if (engine_run_point(&spec.points[i], mem_kb))
			break; /* an error frame was sent; the boot is spoiled
				*/
	finish();
	return 0;
}
