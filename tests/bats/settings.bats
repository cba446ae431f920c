#!/usr/bin/env bats
# settings.bats - dem-step's settings come from one table (lib/laws/settings.c, issue 32): its
# options and help are built from the rows, -q silences notes and never warnings, and a mistyped
# option is answered with the nearest one (issue 29).
load helpers

setup() { setup_tmp; cd "$TMP"; }

@test "every setting row with an option is accepted by dem-step and documented in its help" {
    dem-step --help > help.txt
    # the rows, from the table itself through the library (dem-fields lists nothing of it: ask dem-step)
    for opt in integrator gravity normal tangential damping carry kn-from kn kt vc max-overlap gamma-n gamma-t \
               local-damping local-damping-form drag skin neighbor level-ratio cell-gain cell-max-rate ignore \
               alpha newton-tol newton-max krylov-tol jacobian rolling rolling-stiffness rolling-damping \
               twisting twisting-stiffness twisting-damping; do
        grep -qE "^      --$opt( |$)" help.txt || { echo "--$opt missing from --help"; return 1; }
    done
    # the model names in the help are the registry's
    grep -q -- "--normal hooke|hertz|dmt|jkr" help.txt
    grep -q -- "--rolling none|sds|epsd" help.txt
    grep -q -- "--jacobian symmetric|full" help.txt
}

@test "a setting's value is checked when the option is read, with the table's bounds" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    run dem-step -n 1 --level-ratio 1 one.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--level-ratio: setting neighbor.level_ratio = 1 must lie in (1, 1e6]"* ]]
    run dem-step -n 1 --drag 0 one.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"damping.drag = 0 must lie in (0, 1]"* ]]
    run dem-step -n 1 --newton-max 2.5 one.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"must be a whole number in 1..1e6"* ]]
    run dem-step -n 1 --jacobian diagonal one.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--jacobian: unknown 'diagonal' (symmetric, full)"* ]]
    run dem-step -n 1 --kn-from springs one.dem
    [ "$status" -eq 2 ]
    [[ "$output" == *"--kn-from: unknown 'springs' (given, hertz, yade, overlap)"* ]]
    # --jacobian full is stored as the frame's variational.full_jacobian 1
    dem-step -q -n 1 --dt 1e-7 --integrator variational --normal hooke --kn 1e3 --tangential none --jacobian full one.dem > v.dem 2> /dev/null
    command -v python3 > /dev/null || skip "python3 not installed"
    python3 "$REPO/tests/independent/demread.py" --dump v.dem | grep -qP '^0\tPARM\t-\tvariational.full_jacobian\t1$'
    python3 "$REPO/tests/independent/demread.py" --dump v.dem | grep -qP '^0\tPARM\t-\tmodel.kn_from\tgiven$'
}

@test "-q silences the notes, never a warning (issue 32: the inert-parameter warning was silenced)" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - --rolling-friction 0.5 > rf.dem
    run --separate-stderr bash -c 'dem-step -q -n 1 --dt 1e-7 --rolling none rf.dem > o.dem'
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: materials have rolling_friction 0.5 (material 'default') but --rolling is none: it has no effect"* ]]
    [[ "$stderr" != *"estimates"* ]]          # the time-step note is silenced
    run --separate-stderr bash -c 'dem-step -q -n 1 --dt 1e-7 --kt 5 rf.dem > o.dem'
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: --kt: only --normal hooke uses it, and --normal is hertz: it has no effect"* ]]
}

@test "a mistyped option: did you mean the nearest one? (issue 29)" {
    run dem-step --gravtiy 0,0,-9.81 -n 1
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown option '--gravtiy': did you mean --gravity?"* ]]
    run dem-step --rolling-stifness 3 -n 1
    [[ "$output" == *"did you mean --rolling-stiffness?"* ]]
    run dem-probe --partcles
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean --particles?"* ]]
    run dem-pack --radus 1
    [ "$status" -eq 2 ]
    [[ "$output" == *"did you mean --radius?"* ]]
    # nothing near: no guess
    run dem-step --frobnicate 1 -n 1
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown option '--frobnicate'"* ]]
    [[ "$output" != *"did you mean"* ]]
}

@test "option groups (bin/cli): frame selection, one input and the run options say the same in every program" {
    printf 'x\ty\tz\tr\n0\t0\t0\t0.001\n' | dem-pack --from - > one.dem
    for p in dem-probe dem-energy dem-stress; do
        run $p --frame 0 --last one.dem
        [ "$status" -eq 2 ] && [[ "$output" == *"--frame, --last and --every exclude each other"* ]] || { echo "$p: $output"; return 1; }
        run $p one.dem one.dem
        [ "$status" -eq 2 ] && [[ "$output" == *"one input at most: 'one.dem' and 'one.dem' given"* ]] || { echo "$p: $output"; return 1; }
    done
    for p in dem-step dem-reverse; do
        run $p one.dem
        [ "$status" -eq 2 ] && [[ "$output" == *"give exactly one of -n/--steps and --time"* ]] || { echo "$p: $output"; return 1; }
        run $p -n 1 one.dem one.dem
        [ "$status" -eq 2 ] && [[ "$output" == *"one input at most"* ]] || { echo "$p: $output"; return 1; }
        run $p -n 1 --level 10 one.dem
        [ "$status" -eq 2 ] && [[ "$output" == *"--level: '10' is not an integer in 0..9"* ]] || { echo "$p: $output"; return 1; }
    done
}

@test "the settings' help lines stay within the terminal: a long line of a row's text is broken at a space" {
    # the rows' text column starts at 24 and holds 70 columns (a renamed citation may lengthen a line)
    run bash -c "dem-step --help | sed -n '/^Integrator:/,/^Stability guards/p' | grep -vE '^(Deforming|  )' | awk 'length > 93'"
    [ -z "$output" ] || { echo "too wide: $output"; return 1; }
}
