/*
 * kvm.h: whether KVM can run this host's guests. Apart from qemu.h so
 * that the defaults of a job (cpus.h: one vCPU under TCG) can ask without
 * reading a job's QEMU.
 */
#ifndef IOBISECT_KVM_H
#define IOBISECT_KVM_H

/*
 * 1 when KVM can be trusted to boot a kernel: the CPU shows vmx/svm (a
 * nested set-up without them was seen to hang in the firmware), /dev/kvm
 * opens and lets us create a VM. machine.accel "kvm" skips this guess.
 * Probed once a process.
 */
int kvm_usable(void);

#endif
