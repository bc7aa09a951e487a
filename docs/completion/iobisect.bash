# bash completion for iobisect(1). Made by `iobisect help --completion`
# from the program's tables of commands, options and job keys; do not edit.

_iobisect()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words=
	if [ "$COMP_CWORD" -eq 1 ]; then
		words='bisect test sweep run build measure profile report compare upload version help --version'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	case $prev in
	--set)
		words='name= description= repo= good= bad= kernel= metric= metric_point= threshold= bisect_type= results= direction= confidence= runs.min= runs.max= runs.samples= runs.warmup= runs.wall_pairs= runs.revert= machine.cpus= machine.memory_mb= machine.accel= machine.qemu= machine.timeout_s= machine.append= machine.pin= machine.clock= machine.icount_shift= machine.profile= executor.kind= executor.partition= executor.account= executor.time_limit= executor.probes= executor.retries='
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--topology)
		words='dm-linear loop nullb nvme passthrough raid0-4 raid5-4 virtio'
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--results|--repo|--kernel|--base|--commit-list|--map|--html|--json|--spool)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	esac
	case ${COMP_WORDS[1]} in
	bisect) words='--log --results --upload --notify --destroy-data-on --force --executor --partition --account --time-limit --sbatch-arg --probes' ;;
	test) words='--repo --results --destroy-data-on --force' ;;
	sweep) words='--range --every --boots --tags --bisect-improvements --results --executor --partition --account --time-limit --sbatch-arg --probes --upload --notify' ;;
	run) words='-h --help --keep-images --kernel --commit --repo --label --destroy-data-on --force --topology --workload --boots --samples --warmup --timeout --set --results' ;;
	build) words='-h --help --no-cache --repo --commit --kconfig --base --cc --hostcc --jobs -j' ;;
	measure) words='--commit --commit-list --boots --results' ;;
	profile) words='-h --help --commit --kernel --map --rows --set --results' ;;
	report) words='--html --json --job --min-effect' ;;
	compare) words='--results --job' ;;
	upload) words='--flush --url --spool' ;;
	version) words='' ;;
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
