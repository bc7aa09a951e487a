#!/usr/bin/env bash
# A one-node Slurm cluster on 127.0.0.1, for the tests and for trying
# `--executor slurm` on one machine:
#
#   scripts/slurm-local.sh start    # munged, slurmctld, slurmd; prints SLURM_CONF=...
#   scripts/slurm-local.sh status
#   scripts/slurm-local.sh stop
#
# Everything lives in one folder (IOBISECT_SLURM_DIR, default
# ${XDG_CACHE_HOME:-$HOME/.cache}/iobisect/slurm-local): its own slurm.conf,
# munge key and socket, spool and logs. /etc/slurm and a munged the host
# already runs are left alone: the clients find this cluster through
# SLURM_CONF, which `start` prints and writes to $dir/env. Root, because
# slurmd runs jobs as their submitter.
set -euo pipefail

dir=${IOBISECT_SLURM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/iobisect/slurm-local}
conf=$dir/slurm.conf
sock=$dir/munge/munge.socket

die() {
	echo "slurm-local: $*" >&2
	exit 1
}

running() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

write_conf() {
	local cpus mem
	# slurmd -C prints what this node has, in slurm.conf's words.
	cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
	mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
	cat >"$conf" <<EOF
ClusterName=iobisect-local
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=${IOBISECT_SLURM_PORT:-16817}
SlurmdPort=$((${IOBISECT_SLURM_PORT:-16817} + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
# Each task on CPUs of its own (sched_setaffinity, no cgroup needed): two
# probes at once put their QEMUs on different CPUs.
TaskPlugin=task/affinity
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Jobs stay visible to squeue for an hour: with no slurmdbd there is no
# sacct, and the executor reads an ended job's state from squeue.
MinJobAge=3600
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
	[ "$(id -u)" = 0 ] || die "start needs root (slurmd runs jobs as their submitter)"
	for p in munged slurmctld slurmd sbatch; do
		command -v "$p" >/dev/null || die "'$p' is missing: apt-get install slurm-wlm munge"
	done
	mkdir -p "$dir/ctld" "$dir/d" "$dir/munge"
	chmod 700 "$dir/munge"
	[ -f "$dir/munge.key" ] || {
		dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
		chmod 400 "$dir/munge.key"
	}
	write_conf
	echo "export SLURM_CONF=$conf" >"$dir/env"
	running munged || {
		munged --force --key-file="$dir/munge.key" --socket="$sock" \
			--pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
			--seed-file="$dir/munge.seed"
	}
	export SLURM_CONF=$conf
	running slurmctld || slurmctld -f "$conf" -c
	running slurmd || slurmd -f "$conf" -c
	# Up when the node takes jobs: idle, or mixed/allocated by ours.
	for _ in $(seq 1 60); do
		state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
		case $state in
		idle | mixed | allocated)
			echo "SLURM_CONF=$conf"
			return 0
			;;
		esac
		sleep 0.5
	done
	die "the node did not come up (state '${state:-none}'); logs in $dir"
}

stop() {
	local d
	for d in slurmd slurmctld munged; do
		if running "$d"; then
			kill "$(cat "$dir/$d.pid")"
			for _ in $(seq 1 40); do running "$d" || break; sleep 0.25; done
			running "$d" && kill -9 "$(cat "$dir/$d.pid")"
		fi
		rm -f "$dir/$d.pid"
	done
	return 0
}

case ${1:-} in
start) start ;;
stop) stop ;;
status)
	for d in munged slurmctld slurmd; do
		running "$d" && echo "$d: running" || echo "$d: stopped"
	done
	[ -f "$conf" ] && SLURM_CONF=$conf sinfo 2>/dev/null || true
	;;
*)
	echo "usage: $0 start|stop|status" >&2
	exit 2
	;;
esac
