# bash completion for stagecraft: the commands, then each command's options
# as its own --help lists them (so they are never out of date), then files.
_stagecraft() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        local commands
        commands=$(stagecraft --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        local options
        options=$(stagecraft "${COMP_WORDS[1]}" --help 2>/dev/null |
                  grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _stagecraft stagecraft
