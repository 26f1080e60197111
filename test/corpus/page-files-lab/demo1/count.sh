printf "%s lines\n" "$(printf "a\nb\nc\n" | wc -l)"
