#!/bin/sh
# mkman.sh - a man page (roff, section 1) from a program's --help, so the two never disagree.
#
# Usage: tools/mkman.sh PROGRAM VERSION > PROGRAM.1     (PROGRAM: a path to a built dem-* program)
#
# The help's first line (Usage: ...) becomes the SYNOPSIS, its unindented lines ending in ':'
# (Modes:, Options:, Examples:, ...) become sub-headings, and everything else is kept as written,
# preformatted: the help is laid out for an 80-column terminal already. The one-line NAME comes
# from the table below. Not help2man: the help has no --version and its layout is its own.
set -eu
[ $# -eq 2 ] || { sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2; }
prog=$1 version=$2
name=$(basename "$prog")
case $name in
    dem-pack) what="make a particle system: lattices, random packings, tables, and edits of a stream" ;;
    dem-step) what="advance a particle system in time with the discrete element method" ;;
    dem-reverse) what="run a particle system backwards in time, bit-exact in integer mode" ;;
    dem-probe) what="print what a dem stream holds: summaries, particles, contacts, walls, profiles; VTK and LAMMPS dumps" ;;
    dem-stress) what="the Love-Weber stress of the contact forces, the strains of the periodic cell, wall forces" ;;
    dem-energy) what="the energy budget of a dem stream: kinetic, elastic, dissipated, work, residual" ;;
    *) echo "mkman.sh: no NAME line for '$name'" >&2; exit 1 ;;
esac
help=$("$prog" --help)
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d)

# roff: a backslash is \e; a line may not start with . or '; a hyphen-minus in options is \-.
roff_escape() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"; }

printf '.TH %s 1 "%s" "dem %s" "dem toolchain"\n' "$(printf %s "$name" | tr a-z A-Z)" "$date" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf %s "$what" | roff_escape)"
printf '.SH SYNOPSIS\n.nf\n%s\n.fi\n' "$(printf '%s\n' "$help" | sed -n '1s/^Usage: //p' | roff_escape)"
printf '.SH DESCRIPTION\n.nf\n'
printf '%s\n' "$help" | sed '1,2d' | roff_escape | awk '
    /^[A-Z][^\t]*:$/ && !/^ / { sub(/:$/, ""); printf ".fi\n.SS %s\n.nf\n", $0; next }
    { print }'
printf '.fi\n.SH SEE ALSO\n'
for p in dem-pack dem-step dem-reverse dem-probe dem-stress dem-energy; do
    [ "$p" = "$name" ] || printf '.BR %s (1),\n' "$p"
done | sed '$s/,$//'
printf '.PP\nThe stream format: formats/dem-stream.md (installed in share/doc/dem). The README: the\nworkflows of common studies, with the commands that reproduce its figures.\n'
