/*
 * kvm.c: whether this host can run a guest under KVM (kvm.h).
 */
#include "kvm.h"
#include "util.h"

#include <fcntl.h>
#include <linux/kvm.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/*
 * Whether the host CPU shows hardware virtualisation. A host that is itself
 * a VM may hand out a working /dev/kvm whose guests still hang in the
 * firmware (seen here: KVM_RUN runs a HLT, but QEMU stops after SeaBIOS's
 * "Booting from ROM"), and such hosts hide vmx/svm from /proc/cpuinfo.
 */
static int cpu_has_virt(void)
{
	struct strbuf sb = STRBUF_INIT;
	int found = 0;
	if (!read_file("/proc/cpuinfo", &sb))
		found = strstr(sb.buf, " vmx") || strstr(sb.buf, " svm");
	strbuf_release(&sb);
	return found;
}

static int probe_kvm(void)
{
	if (!cpu_has_virt())
		return 0;
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	int ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
	if (ok) {
		/* Opening is not enough: nested set-ups may refuse a VM. */
		int vm = ioctl(fd, KVM_CREATE_VM, 0);
		ok = vm >= 0;
		if (vm >= 0)
			close(vm);
	}
	close(fd);
	return ok;
}

int kvm_usable(void)
{
	/*
	 * Asked once a process: every job read (its default vCPUs) and every
	 * boot ask, and the answer is the host's, which a run does not change.
	 */
	static int usable = -1;

	if (usable < 0)
		usable = probe_kvm();
	return usable;
}
