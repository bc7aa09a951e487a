# bash completion for iobisect(1). Made by `iobisect help --completion`
# from the program's tables of commands, options and job keys; do not edit.

# The refs starting with $1 (each after $2) of the repository the
# command line names: --repo PATH, else the job file's "repo",
# else the working tree's.
_iobisect_refs()
{
	local repo= w i r
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$w" = --repo ]; then
			repo=${COMP_WORDS[i+1]}
		elif [ -z "$repo" ] && [[ $w == *.json ]] && [ -f "$w" ]; then
			repo=$(sed -n 's/.*"repo"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$w" | head -n 1)
			[[ $repo == "~/"* ]] && repo=$HOME/${repo#"~/"}
		fi
	done
	COMPREPLY=()
	while IFS= read -r r; do
		[[ $r == "$1"* ]] && COMPREPLY+=("$2$(printf %q "$r")")
	done < <(git -C "${repo:-.}" for-each-ref --format='%(refname:short)' 2>/dev/null; echo HEAD)
}

_iobisect()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words=
	if [ "$COMP_CWORD" -eq 1 ]; then
		words='bisect test sweep run build measure profile report compare upload version help --version'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	local key= pre=
	if [ "$prev" = --set ] && [[ $cur == *=* ]]; then
		key=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}
	elif [ "$COMP_CWORD" -ge 3 ] && [ "$cur" = = ] &&
		[ "${COMP_WORDS[COMP_CWORD-2]}" = --set ]; then
		key=$prev cur=
	elif [ "$COMP_CWORD" -ge 4 ] && [ "$prev" = = ] &&
		[ "${COMP_WORDS[COMP_CWORD-3]}" = --set ]; then
		key=${COMP_WORDS[COMP_CWORD-2]}
	fi
	if [ -n "$key" ]; then
		case $key in
		good|bad) _iobisect_refs "$cur" "$pre"; return ;;
		bisect_type) words='perf build boot' ;;
		inputs_only) words='true false' ;;
		stand_in) words='true false' ;;
		direction) words='slower faster' ;;
		runs.revert) words='true false' ;;
		machine.accel) words='auto kvm tcg' ;;
		machine.pin) words='true false' ;;
		machine.clock) words='auto virtual wall' ;;
		machine.profile) words='true false' ;;
		executor.kind) words='local slurm' ;;
		workload) words='seqread seqwrite rawread bonnie fio' ;;
		workload.engine) words='seqread seqwrite rawread bonnie fio' ;;
		workload.direct) words='true false' ;;
		workload.fadvise) words='none sequential noreuse dontneed' ;;
		workload.fsync) words='true false' ;;
		topology) words='dm-linear loop nullb nvme passthrough raid0-4 raid5-4 virtio' ;;
		topology.preset) words='dm-linear loop nullb nvme passthrough raid0-4 raid5-4 virtio' ;;
		topology.disks.bus) words='virtio scsi nvme ide nullb' ;;
		topology.disks.backing) words='image tmpfs null host' ;;
		topology.disks.readonly) words='true false' ;;
		topology.disks.cache) words='none writeback writethrough directsync unsafe' ;;
		topology.disks.memory_backed) words='true false' ;;
		esac
		COMPREPLY=($(compgen -P "$pre" -W "$words" -- "$cur"))
		return
	fi
	case $prev in
	--set)
		words='name= description= repo= good= bad= kernel= metric= metric_point= threshold= bisect_type= inputs_only= stand_in= results= direction= confidence= runs.min= runs.max= runs.samples= runs.warmup= runs.wall_pairs= runs.revert= runs.changes= machine.cpus= machine.memory_mb= machine.accel= machine.qemu= machine.timeout_s= machine.append= machine.pin= machine.clock= machine.icount_shift= machine.profile= executor.kind= executor.partition= executor.account= executor.time_limit= executor.probes= executor.retries= workload= workload.engine= workload.target= workload.samples= workload.warmup= workload.threads= workload.bs_kb= workload.ra_kb= workload.size_mb= workload.ram_x= workload.direct= workload.fadvise= workload.runtime_ms= workload.fsync= workload.chunk_kb= workload.job= topology= topology.preset= topology.name= topology.description= topology.path= topology.disks= topology.layers= topology.extra_layers= topology.disks.name= topology.disks.bus= topology.disks.backing= topology.disks.path= topology.disks.size_mb= topology.disks.latency_ns= topology.disks.bps_max= topology.disks.iops_max= topology.disks.readonly= topology.disks.cache= topology.disks.max_sectors_kb= topology.disks.write_latency_ns= topology.disks.memory_backed='
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--topology)
		words='dm-linear loop nullb nvme passthrough raid0-4 raid5-4 virtio'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--workload)
		words='seqread seqwrite rawread bonnie fio'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--commit|--good|--bad)
		_iobisect_refs "$cur"
		return
		;;
	--results|--repo|--kernel|--base|--commit-list|--map|--html|--json|--spool)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	esac
	case ${COMP_WORDS[1]} in
	bisect) words='--log --json --results --upload --notify --destroy-data-on --force --executor --partition --account --time-limit --sbatch-arg --probes --help' ;;
	test) words='--repo --results --destroy-data-on --force --json --help' ;;
	sweep) words='--range --every --boots --tags --bisect-improvements --results --executor --partition --account --time-limit --sbatch-arg --probes --upload --notify --help' ;;
	run) words='--keep-images --kernel --commit --repo --label --destroy-data-on --force --topology --workload --boots --samples --warmup --timeout --set --results --json --help' ;;
	build) words='--no-cache --repo --commit --kconfig --base --cc --hostcc --jobs -j --help' ;;
	measure) words='--commit --commit-list --boots --results --help' ;;
	profile) words='--commit --kernel --map --rows --set --results --help' ;;
	report) words='--html --json --job --min-effect --help' ;;
	compare) words='--json --results --job --help' ;;
	upload) words='--flush --url --spool --help' ;;
	version) words='--json --help' ;;
	help)
		words='bisect test sweep run build measure profile report compare upload version job'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _iobisect iobisect
