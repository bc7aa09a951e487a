/* vcpus.c: the guest's vCPUs when the job names none (vcpus.h). */
#include "vcpus.h"
#include "kvm.h"

#include <sched.h>

int vcpus_default_for(int host_cpus, int kvm)
{
	int n = host_cpus - 1;

	if (!kvm)
		return 1;
	return n < 1 ? 1 : n > 2 ? 2 : n;
}

int vcpus_default(void)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 1;
	return vcpus_default_for(CPU_COUNT(&allowed), kvm_usable());
}
