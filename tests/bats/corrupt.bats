#!/usr/bin/env bats
# The corrupt-input corpus: every file in tests/corrupt/ must give exactly the message in its
# .expected file and exit status 1, through the library and through the programs.
load helpers

CORPUS="$BATS_TEST_DIRNAME/../corrupt"

@test "the corpus is what tests/tools/mkcorrupt writes today" {
    run mkcorrupt "$BATS_TEST_TMPDIR"
    [ "$status" -eq 0 ]
    for f in "$BATS_TEST_TMPDIR"/*.dem; do
        cmp "$f" "$CORPUS/$(basename "$f")"
    done
    [ "$(ls "$BATS_TEST_TMPDIR"/*.dem | wc -l)" -eq "$(ls "$CORPUS"/*.dem | wc -l)" ]
}

@test "every corpus file has its expected message" {
    for f in "$CORPUS"/*.dem; do
        [ -s "${f%.dem}.expected" ] || { echo "no message for $f"; return 1; }
    done
}

@test "library reader: each corrupt file fails with its message and exit 1" {
    for f in "$CORPUS"/*.dem; do
        run --separate-stderr readall "$f"
        [ "$status" -eq 1 ] || { echo "$f: status $status"; return 1; }
        [ "$stderr" = "$(cat "${f%.dem}.expected")" ] || { echo "$f: got '$stderr'"; return 1; }
    done
}

@test "dem-probe: each corrupt file fails with 'dem-probe: <message>' and exit 1" {
    for f in "$CORPUS"/*.dem; do
        run --separate-stderr dem-probe "$f"
        [ "$status" -eq 1 ] || { echo "$f: status $status"; return 1; }
        [ "$stderr" = "dem-probe: $(cat "${f%.dem}.expected")" ] || { echo "$f: got '$stderr'"; return 1; }
    done
}

@test "dem-probe: a stream truncated after 2 frames prints those 2 frames, then fails" {
    run --separate-stderr dem-probe "$CORPUS/truncated-after-2-frames.dem"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 3 ]          # header + 2 frames
    [[ "${lines[1]}" == 0$'\t'* ]]
    [[ "${lines[2]}" == 1$'\t'* ]]
    [[ "$stderr" == *"frame 2 (byte 616): input ends inside the frame"*"truncated stream" ]]
}

@test "dem-probe: corrupt input on stdin is reported the same way" {
    run --separate-stderr dem-probe - < "$CORPUS/crc-mismatch.dem"
    [ "$status" -eq 1 ]
    [ "$stderr" = "dem-probe: $(cat "$CORPUS/crc-mismatch.expected")" ]
}

@test "standard tools see the damage too: gzip -t rejects the CRC and truncation cases" {
    ! gzip -t < "$CORPUS/crc-mismatch.dem" 2>/dev/null || false
    ! gzip -t < "$CORPUS/truncated-member.dem" 2>/dev/null
}
