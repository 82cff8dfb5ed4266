# bash completion for swstress(1): commands, options, config keys, config
# files and results folders. The words come from the program itself
# (swstress help --list=...), so they are always those of the swstress
# being completed. Installed by make install into
# PREFIX/share/bash-completion/completions/swstress.

_swstress()
{
	local sw=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} opt= value= o v

	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$sw" help --list=commands 2>/dev/null) --help --version" -- "$cur"))
		return
	fi
	# "--opt=value" arrives as three words: --opt, =, value
	if [ "$cur" = "=" ]; then
		opt=$prev cur=
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 3 ]; then
		opt=${COMP_WORDS[COMP_CWORD-2]}
	else
		opt=$prev
	fi
	while read -r o v; do
		[ "$o" = "$opt" ] && value=$v
	done < <("$sw" help --list=options "$cmd" 2>/dev/null)
	case $value in
	FILE)
		compopt -o filenames 2>/dev/null
		if [ "$opt" = -c ] || [ "$opt" = --config ]; then
			COMPREPLY=($(compgen -f -X '!*.conf' -- "$cur") $(compgen -d -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return ;;
	PATH | DIR)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	F)
		COMPREPLY=($(compgen -W "table classic csv" -- "$cur"))
		return ;;
	WHAT)
		COMPREPLY=($(compgen -W "commands keys options" -- "$cur"))
		return ;;
	?*)
		return ;;   # a number, a label, a date: nothing to offer
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("$sw" help --list=options "$cmd" 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
		return
	fi
	case $cmd in
	run | plan | check)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -X '!*.conf' -- "$cur") $(compgen -d -- "$cur")) ;;
	report | plot | compare | judge)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	help)
		COMPREPLY=($(compgen -W "$("$sw" help --list=commands 2>/dev/null)" -- "$cur")) ;;
	esac
	case $cmd in
	run | plan | check | report | judge)   # config keys as key=
		COMPREPLY+=($(compgen -S = -W "$("$sw" help --list=keys 2>/dev/null)" -- "$cur"))
		[[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace 2>/dev/null ;;
	esac
}
complete -F _swstress swstress
