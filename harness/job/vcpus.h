/*
 * vcpus.h: how many vCPUs a guest gets when the job names none
 * (machine.cpus). A default of the job, read when it is loaded; the CPUs
 * those vCPUs run on are cpus.h's.
 */
#ifndef IOBISECT_VCPUS_H
#define IOBISECT_VCPUS_H

/*
 * The guest's vCPUs when the job names none. Under TCG (`kvm` 0) one: the
 * virtual clock, TCG's default (clock.h), takes no more, and on the wall
 * clock a second vCPU on the 2-CPU development machine spread the per-boot
 * figures 12.1% against 2.7% (same kernel, same hour). Under KVM as many
 * as leave one host CPU to QEMU's main loop and the builds (so the vCPUs
 * measured have CPUs of their own, which pinning needs), at most 2.
 */
int vcpus_default_for(int host_cpus, int kvm);
/* The same for this host's allowed CPUs and whether KVM is usable. */
int vcpus_default(void);

#endif
