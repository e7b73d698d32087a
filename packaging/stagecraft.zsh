#compdef stagecraft
# zsh completion for stagecraft: the commands with their one-line summaries,
# then each command's options as its own --help lists them (so they are
# never out of date), then files.
_stagecraft() {
    if (( CURRENT == 2 )); then
        local -a commands
        commands=(${(f)"$(stagecraft --help 2>/dev/null |
            sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)/\1:\2/p')"})
        _describe -t commands 'stagecraft command' commands
        return
    fi
    if [[ $PREFIX == -* ]]; then
        local -a options
        options=(${(f)"$(stagecraft $words[2] --help 2>/dev/null |
            grep -o -- '--[a-z][a-z0-9-]*' | sort -u)"})
        compadd -a options
        return
    fi
    _files
}
_stagecraft "$@"
