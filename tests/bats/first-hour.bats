#!/usr/bin/env bats
# Issue 29, "the first hour": the messages a new user meets (text piped in, a terminal on
# stdin, -o ''), the unit warnings and the progress log.
load helpers
setup() { setup_tmp; }

TSV=$'x\ty\tz\tr\n0\t0\t0\t0.001\n0.003\t0\t0\t0.001'

@test "a TSV piped into a program that reads a stream: 'this looks like text: make a stream with dem-pack --from'" {
    for prog in "dem-step -n 1" "dem-reverse -n 1" "dem-probe" "dem-stress" "dem-energy"; do
        run --separate-stderr bash -c "printf '%s\n' \"\$1\" | $prog > /dev/null" _ "$TSV"
        [ "$status" -eq 1 ] || { echo "$prog: status $status"; return 1; }
        [[ "$stderr" == *"not a dem stream: this looks like text (it starts \"x\\ty\\tz\\tr\"): make a stream with dem-pack --from FILE"* ]] ||
            { echo "$prog: $stderr"; return 1; }
    done
    # binary that is no stream keeps the byte message
    run --separate-stderr bash -c 'printf "\001\002\003\004" | dem-step -n 1 > /dev/null'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"input starts with bytes 0x01 0x02, not a gzip member"* ]]
}

@test "the text message quotes the input escaped: no control byte reaches the terminal" {
    run --separate-stderr bash -c 'printf "a\"b\\\\c\x7e\xc3\xbc\tend of a long first line of text\n" | dem-step -n 1 > /dev/null'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *'this looks like text (it starts "a\x22b\x5cc~\xc3\xbc\tend of a long f..."'* ]]
}

@test "dem-step waiting on a terminal's stdin says so on stderr" {
    command -v script > /dev/null || skip "script (util-linux) is not installed"
    # script gives dem-step a terminal for stdin; its own stdin at EOF ends the input (Ctrl-D)
    run timeout 20 script -qec "dem-step -n 1 > /dev/null 2> '$TMP/err'" /dev/null < /dev/null
    grep -q "^dem-step: reading standard input, which is a terminal: waiting for input" "$TMP/err"
    grep -q "dem-step: empty input" "$TMP/err"
    # from a pipe or a file: no such line
    printf '%s\n' "$TSV" | dem-pack --from - > "$TMP/a.dem"
    run --separate-stderr dem-step -q -n 1 "$TMP/a.dem"
    [[ "$stderr" != *terminal* ]]
}

@test "-o '' is a usage error before any input is read or step taken (every program with -o)" {
    printf '%s\n' "$TSV" | dem-pack --from - > "$TMP/a.dem"
    cd "$TMP"
    for prog in "dem-step -n 100" "dem-reverse -n 1" "dem-probe --salvage" "dem-pack --from a.dem"; do
        # stdin is a FIFO nobody writes: a program that read it first would hang, not exit 2
        run --separate-stderr timeout 10 $prog -o '' < <(sleep 30)
        [ "$status" -eq 2 ] || { echo "$prog: status $status: $stderr"; return 1; }
        [[ "$stderr" == *"-o '': an empty file name"* ]]
    done
    run --separate-stderr dem-step -n 100 -o '' a.dem
    [ "$status" -eq 2 ]
    [ -z "$(ls | grep tmp-)" ]
}
