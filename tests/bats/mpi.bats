#!/usr/bin/env bats
# dem-step on MPI (bin/dem-step-mpi, lib/sim/dist.c, issue 31): the same bytes as one process for
# 1 to 4 ranks, for uneven cuts, with threads per rank, and across a restart at another rank count;
# what is not yet distributed is refused by name. The ranks are oversubscribed on a small machine:
# these tests say nothing about speed (docs/performance.md, "On several processes").
load helpers

setup() {
    cd "$BATS_TEST_TMPDIR"
    if [ ! -x "$DEM_BIN/dem-step-mpi" ]; then
        skip "no $DEM_BIN/dem-step-mpi: a build without MPI (apt-get install libopenmpi-dev openmpi-bin, then make; the sanitizer builds leave it out)"
    fi
    command -v mpirun > /dev/null || skip "no mpirun: MPI is absent (apt-get install openmpi-bin)"
    # CI runs as root; Open MPI refuses root without these
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
}

# mpirun -np K dem-step-mpi ARGS... -o OUT
on_ranks() {
    local k=$1 out=$2
    shift 2
    mpirun --oversubscribe -np "$k" dem-step-mpi -q "$@" -o "$out"
}

# The one-process run of ARGS, then 2 and 4 ranks, and 3 ranks cut unevenly (skew) and anew at
# every rebuild (shift: every rebuild hands pairs to other ranks): every output cmp the same. The
# 3 ranks' runs fill the other ranks' stale particles with NaN (DEM_MPI_CHECK_STALE=1), where the
# others give their pages back: a read of what a rank does not keep would change the bytes; and
# they send a frame's particles and contacts to rank 0 five at a time (DEM_MPI_FRAME_CHUNK=5:
# many rounds, where the others' frames take a few).
# SAME_ALL=1 adds 1 rank, 3 ranks cut by work and by count (the first test; tests/unit/test_dist.c
# runs every cut too).
same_for_ranks() {
    dem-step -q "$@" > one.dem
    for k in ${SAME_ALL:+1} 2 ${SAME_ALL:+3} 4; do
        on_ranks "$k" "k$k.dem" "$@"
        cmp one.dem "k$k.dem"
    done
    for b in ${SAME_ALL:+count} skew shift; do
        DEM_MPI_FRAME_CHUNK=5 DEM_MPI_CHECK_STALE=1 DEM_MPI_BALANCE=$b on_ranks 3 "k3-$b.dem" "$@"
        cmp one.dem "k3-$b.dem"
    done
    if [ -n "${SAME_ALL:-}" ]; then # every rank stepping every particle, where the run lets each step its own
        DEM_MPI_REPLICATE=1 on_ranks 3 k3-replicated.dem "$@"
        cmp one.dem k3-replicated.dem
    fi
}

@test "mpi: a walled bed settling under gravity: the same bytes for 1-4 ranks and any cut" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    SAME_ALL=1 same_for_ranks -n 1500 --every 500 --gravity 0,0,-9.81 --dt 5e-6 --wall-velocity 5=0,0,-0.05 --local-damping 0.1 bed.dem
    # the largest overlaps the run reports (each rank's blocks' and wall slots', then the first
    # largest of the ranks' in their order): one process's records, on even and uneven cuts; in
    # the sparse layer the one at the end is a sphere's on a wall
    dem-pack --random 150 --box 0,0,0,0.02,0.02,0.004 --radius-uniform 3e-4,5e-4 --enclose --young 1e7 \
        --velocity-random 0.3 --seed 3 > sparse.dem
    for f in bed.dem sparse.dem; do
        want=$(dem-step -n 1000 --gravity 0,0,-9.81 --dt 5e-6 -o /dev/null "$f" 2>&1 | grep 'largest overlap')
        [ -n "$want" ]
        for b in work skew; do
            got=$(DEM_MPI_BALANCE=$b mpirun --oversubscribe -np 3 dem-step-mpi -n 1000 --gravity 0,0,-9.81 --dt 5e-6 \
                -o /dev/null "$f" 2>&1 | grep 'largest overlap')
            [ "$got" = "$want" ]
        done
    done
    [[ "$want" == *"on wall"* ]]
}

@test "mpi: each rank steps its own particles where the run allows, every particle otherwise; driven particles; --progress" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    # the spheres of the lowest 3 mm fixed and driven along x: the drives' power is a sum in particle order
    dem-probe --particles bed.dem | awk -F'\t' 'NR == 1 { print "x\ty\tz\tr\tvx\tvy\tvz\tfixed"; next }
        { f = $7 < 0.003; printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", $5, $6, $7, $17, f ? 0.05 : $8, f ? 0 : $9, f ? 0 : $10, f }' > t.tsv
    dem-pack --from t.tsv --young 5e6 --friction 0.5 --restitution 0.6 --enclose > driven.dem
    [ "$(dem-probe --particles driven.dem | awk -F'\t' 'NR > 1 && $8 == 0.05' | wc -l)" -gt 20 ]
    same_for_ranks -n 800 --every 400 --gravity 0,0,-9.81 --dt 5e-6 --local-damping 0.05 driven.dem
    dem-energy k4.dem > k4.tsv # the drives did work
    # a granular gas in a periodic cell (1 m/s for 2 ms: hundreds of spheres cross its faces, 10 mm
    # apart): the ranks wrap their own spheres, the halo's wraps follow
    dem-pack --random 1500 --box 0,0,0,0.01,0.01,0.01 --periodic 0,0,0,0.01,0.01,0.01 --radius-uniform 3e-4,4e-4 \
        --velocity-random 1 --seed 3 --young 1e7 --friction 0.4 > gas.dem
    dem-step -q -n 1000 --every 500 --dt 2e-6 gas.dem > g1.dem
    for k in 2 4; do
        DEM_MPI_STDERR=1 mpirun --oversubscribe -np "$k" dem-step-mpi -n 1000 --every 500 --dt 2e-6 gas.dem -o "g$k.dem" 2> "g$k.err"
        cmp g1.dem "g$k.dem"
        grep -q 'rank 0 .*stepping its own particles' "g$k.err"
    done
    # its rebuilds receive only the positions next to each rank's cells, and so does the re-sort at
    # step 1000 (the ranks share their spheres' cells, and each sorts), and the spheres that change
    # rank at the new cuts (every rebuild moves them, cut by shift; the re-sort renumbers them all)
    # come from their old rank: the same bytes
    dem-step -q -n 1200 --every 600 --dt 2e-6 gas.dem > g1.dem
    DEM_MPI_BALANCE=shift DEM_MPI_STDERR=1 mpirun --oversubscribe -np 3 dem-step-mpi -n 1200 --every 600 --dt 2e-6 gas.dem \
        -o g3.dem 2> g3.err
    cmp g1.dem g3.dem
    read -r nreb nnear npos nmig <<< "$(sed -n 's/.*rank 1 .*; \([0-9]*\) rebuilds from the ranks. states (\([0-9]*\) receiving only the \([0-9]*\) positions next to its cells, the others every position), \([0-9]*\) particles received at new cuts.*/\1 \2 \3 \4/p' g3.err)"
    [ "$nreb" -gt 5 ]
    [ "$nnear" -eq "$nreb" ] # the re-sort too: no rebuild gathered every position
    [ "$nmig" -gt 100 ]
    # fewer than every other rank's 1000 positions at each
    [ "$npos" -lt $((nnear * 1000)) ]
    # the report names the way: each rank its own, or (DEM_MPI_REPLICATE=1) all
    DEM_MPI_STDERR=1 mpirun --oversubscribe -np 2 dem-step-mpi -n 50 --dt 5e-6 bed.dem -o own.dem 2> own.err
    [ "$(grep -c 'stepping its own particles, [0-9]* of them in the halo' own.err)" -eq 2 ]
    # and what each keeps of the other ranks' particles: its halo's, the rest given back
    [ "$(grep -c 'the stale particles. pages given back [1-9][0-9]* times' own.err)" -eq 2 ]
    DEM_MPI_REPLICATE=1 DEM_MPI_STDERR=1 mpirun --oversubscribe -np 2 dem-step-mpi -n 50 --dt 5e-6 bed.dem -o all.dem 2> all.err
    [ "$(grep -c 'every rank stepping every particle' all.err)" -eq 2 ]
    cmp own.dem all.dem
    DEM_MPI_REPLICATE=2 run mpirun --oversubscribe -np 2 dem-step-mpi -n 5 bed.dem -o x.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"DEM_MPI_REPLICATE='2'"* ]]
    DEM_MPI_CHECK_STALE=x run mpirun --oversubscribe -np 2 dem-step-mpi -n 5 bed.dem -o x.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"DEM_MPI_CHECK_STALE='x'"* ]]
    # --progress: the ranks agree when a line is due (its measures gather the state); rank 0 prints
    dem-step -q -n 300 --dt 5e-6 bed.dem > p1.dem
    on_ranks 3 p3.dem -n 300 --dt 5e-6 --progress 1e-9 bed.dem 2> p3.err
    cmp p1.dem p3.dem
    [ "$(grep -c "^progress" p3.err)" -eq 301 ] # the header and one line a step
}

@test "mpi: a servo-controlled periodic cell of frictional spheres: the same bytes for 2-4 ranks" {
    dem-pack --random 600 --box 0,0,0,0.008,0.008,0.008 --periodic 0,0,0,0.008,0.008,0.008 --radius-uniform 3e-4,4.5e-4 \
        --velocity-random 0.2 --seed 5 --friction 0.4 --restitution 0.7 --young 1e7 > gas.dem
    same_for_ranks -n 1200 --every 400 --dt 1e-6 --integrator vv-improved --cell-stress xx=2e4,yy=2e4,zz=2e4 --cell-gain 1e-3 gas.dem
    # the servo's log: written by rank 0 alone, the same lines
    dem-step -q -n 300 --dt 1e-6 --cell-stress xx=2e4,yy=2e4,zz=2e4 --cell-gain 1e-3 --cell-log one.tsv gas.dem > /dev/null
    on_ranks 3 k.dem -n 300 --dt 1e-6 --cell-stress xx=2e4,yy=2e4,zz=2e4 --cell-gain 1e-3 --cell-log k3.tsv gas.dem
    cmp one.tsv k3.tsv
    [ "$(wc -l < k3.tsv)" -eq 301 ]
}

@test "mpi: a polydisperse bed on the hierarchical grid: the same bytes for 2-4 ranks" {
    dem-pack --random 1500 --box 0,0,0,0.006,0.006,0.006 --periodic 0,0,0,0.006,0.006,0.006 \
        --lognormal 1.5e-4,0.5 --velocity-random 0.05 --omega 0,0,20 --seed 4 > ln.dem
    same_for_ranks -n 400 --every 200 --dt 1e-6 --normal hooke --kn 20 --neighbor multi ln.dem
}

@test "mpi: a bonded crystal, and one bonded across a periodic cell's faces: the same bytes for 2-4 ranks" {
    dem-pack --lattice sc --cells 8,8,5 --radius 0.001 --bond-gap 2e-5 --bond-stiffness 1e4 --velocity-random 0.05 --seed 2 > bonded.dem
    same_for_ranks -n 1000 --every 500 --dt 1e-6 bonded.dem
    # the bonds across the faces keep their images while their spheres wrap (shaken hard)
    dem-pack --lattice sc --cells 8,8,6 --radius 0.001 --periodic 0,0,0,0.016,0.016,0.012 --bond-gap 2e-5 --bond-stiffness 1e4 \
        --velocity-random 0.3 --seed 2 > pbond.dem
    [ "$(dem-probe --bonds pbond.dem | awk -F'\t' 'NR > 1 && ($7 != 0 || $8 != 0 || $9 != 0)' | wc -l)" -gt 50 ]
    dem-step -q -n 1500 --every 500 --dt 1e-6 pbond.dem > p1.dem
    for k in 2 3; do
        on_ranks "$k" "p$k.dem" -n 1500 --every 500 --dt 1e-6 pbond.dem
        cmp p1.dem "p$k.dem"
    done
}

@test "mpi: 6000 steps through many rebuilds and sorts (past where LAMMPS' ranks part): the same bytes" {
    dem-pack --random 400 --box 0,0,0,0.006,0.006,0.012 --radius-uniform 3e-4,4e-4 --young 5e6 --friction 0.5 \
        --restitution 0.5 --enclose --velocity-random 0.3 --seed 7 > pour.dem
    dem-step -q -n 6000 --every 2000 --gravity 0,0,-9.81 --dt 5e-6 pour.dem > one.dem
    for k in 2 4; do
        on_ranks "$k" "k$k.dem" -n 6000 --every 2000 --gravity 0,0,-9.81 --dt 5e-6 pour.dem
        cmp one.dem "k$k.dem"
    done
}

@test "mpi: threads within ranks, and a restart across rank counts, give the same bytes" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    dem-step -q -n 1200 --gravity 0,0,-9.81 --dt 5e-6 bed.dem > one.dem
    on_ranks 2 t.dem -n 1200 --threads 2 --gravity 0,0,-9.81 --dt 5e-6 bed.dem
    cmp one.dem t.dem
    # 500 steps on 3 ranks, the rest on 2, on 4, in one process: each the bytes of the whole run
    on_ranks 3 half.dem -n 500 --gravity 0,0,-9.81 --dt 5e-6 bed.dem
    on_ranks 2 r2.dem -n 700 half.dem
    cmp one.dem r2.dem
    on_ranks 4 r4.dem -n 700 half.dem
    cmp one.dem r4.dem
    dem-step -q -n 700 half.dem > r1.dem
    cmp one.dem r1.dem
    # and a stream piped into rank 0's standard input
    cat half.dem | on_ranks 3 p.dem -n 700
    cmp one.dem p.dem
}

@test "mpi: each rank reads a file frame itself; where the ranks' copies differ (a node's own), rank 0's goes to all" {
    dem-pack --random 300 --box 0,0,0,0.008,0.008,0.008 --radius 3e-4 --young 5e6 --enclose --velocity-random 0.2 --seed 5 > a.dem
    dem-pack --random 300 --box 0,0,0,0.008,0.008,0.008 --radius 3e-4 --young 5e6 --enclose --velocity-random 0.2 --seed 6 > b.dem
    mkdir d0 d1
    cp a.dem d0/f.dem
    cp b.dem d1/f.dem
    dem-step -q -n 100 --dt 5e-6 a.dem > one.dem
    # the same path, another file on rank 1: the ranks see it and take rank 0's frame
    mpirun --oversubscribe -np 2 sh -c 'cd "d$OMPI_COMM_WORLD_RANK" && exec dem-step-mpi -q -n 100 --dt 5e-6 f.dem -o ../k.dem'
    cmp one.dem k.dem
    # a path only rank 0 can read likewise
    rm d1/f.dem
    mpirun --oversubscribe -np 2 sh -c 'cd "d$OMPI_COMM_WORLD_RANK" && exec dem-step-mpi -q -n 100 --dt 5e-6 f.dem -o ../m.dem'
    cmp one.dem m.dem
}

@test "mpi: each rank keeps only its share of a file frame's pair contacts; one that does not fit its particles, or one named twice, gives one process's message" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    dem-step -q -n 500 --gravity 0,0,-9.81 --dt 5e-6 bed.dem > half.dem
    # the frame's last pair contact is rank 2's of 3: its lower id past 448 (7 of 11 blocks of 64 spheres)
    dem-probe --contacts half.dem | awk -F'\t' 'NR > 1 && $6 == 0 { lo = $4 < $5 ? $4 : $5 } END { exit !(lo > 448) }'
    for how in 1e-5 twice; do
        dem-nudge-contact -1 "$how" < half.dem > bad.dem
        run --separate-stderr dem-step -q -n 10 bad.dem -o one.dem
        [ "$status" -eq 1 ]
        want=$(printf '%s\n' "$stderr" | grep '^dem-step: ')
        [[ "$want" == *"disagree with the positions"* || "$want" == *"appears more than once"* ]]
        run --separate-stderr mpirun --oversubscribe -np 3 dem-step-mpi -q -n 10 bad.dem -o k.dem
        [ "$status" -ne 0 ]
        [ "$(printf '%s\n' "$stderr" | grep '^dem-step: ')" = "$want" ]
        [ ! -e k.dem ]
    done
}

@test "mpi: the exact mode (each rank its own, a sheared cell), clumps in a stress-controlled cell, a periodic one and between walls: the same bytes for 2-4 ranks" {
    dem-pack --random 300 --box 0,0,0,0.01,0.01,0.01 --radius 4e-4 --enclose --velocity-random 0.5 \
        --friction 0 --restitution 1 --seed 3 |
        dem-step -q --exact --normal hooke --kn 1e4 --tangential none --damping none --dt 5e-7 -n 0 > exact.dem
    same_for_ranks -n 600 --every 300 exact.dem
    # each rank steps its own on the lattice too: kicks, drift, the sheared cell's integer map of its
    # spheres (its kinetic change a chain), through a flip of the cell
    L=0.0203098
    dem-pack --random 200 --box 0,0,0,$L,$L,$L --periodic 0,0,0,$L,$L,$L --radius 0.001 --friction 0 \
        --velocity-random 0.5 --seed 3 > sgas.dem
    same_for_ranks -n 6000 --every 3000 --dt 2e-6 --normal hooke --kn 1e4 --tangential none --damping none \
        --cell-rate xy=100 --exact sgas.dem
    [ "$(dem-probe --cell one.dem | awk -F'\t' 'NR > 1 { t = $10 / $9; if (t < p) f++; p = t } END { print f + 0 }')" -ge 1 ]
    DEM_MPI_STDERR=1 mpirun --oversubscribe -np 2 dem-step-mpi -n 10 exact.dem -o /dev/null 2> ex.err
    [ "$(grep -c 'stepping its own particles' ex.err)" -eq 2 ]
    # a sphere leaving the lattice's range, the last of 128 in a row (rank 1's): one process's
    # message (the ranks flag it, then gather the state)
    { printf 'x\ty\tz\tr\tvx\n'; awk 'BEGIN { for (k = 0; k < 127; k++) printf "%.6f\t0\t0\t1e-5\t0\n", -0.0075 + k * 5e-5
        print "0.007\t0\t0\t1e-5\t10" }'; } | dem-pack --from - > fly.dem
    A=(--exact=2^-60 --normal hertz --tangential none --damping none --stop-dt 0 --stop-move 0 --dt 1e-5 -n 100)
    run --separate-stderr dem-step -q "${A[@]}" fly.dem
    [ "$status" -eq 1 ]
    want=$(printf '%s\n' "$stderr" | grep "leaves the range")
    [[ "$want" == *"step 9: the position of particle 128 leaves the range of the exact lattice"* ]]
    run --separate-stderr mpirun --oversubscribe -np 2 dem-step-mpi -q "${A[@]}" fly.dem -o k.dem
    [ "$status" -ne 0 ]
    [ "$(printf '%s\n' "$stderr" | grep "leaves the range")" = "$want" ]
    L=0.016
    dem-pack --random 300 --box 0,0,0,$L,$L,$L --periodic 0,0,0,$L,$L,$L --radius 0.6e-3 --clump dimer --seed 1 \
        --velocity-random 0.2 --friction 0.3 > dimers.dem
    # in a stress-controlled cell: the servo's sums count each clump as one body (cell.c's clump_fabric)
    same_for_ranks -n 500 --every 250 --dt 2e-6 --cell-stress xx=1e3,yy=1e3,zz=1e3 --cell-gain 1e-2 dimers.dem
    # in a static periodic cell, through rebuilds and re-sorts: each rank moves the clumps with a
    # member of its own (their members' forces go point to point among those ranks), and a rank
    # that starts moving a clump at new cuts receives it from the rank of its first member
    same_for_ranks -n 1500 --every 750 --dt 2e-6 dimers.dem
    DEM_MPI_STDERR=1 DEM_MPI_BALANCE=shift mpirun --oversubscribe -np 3 dem-step-mpi -n 1500 --dt 2e-6 \
        dimers.dem -o /dev/null 2> d3.err
    [ "$(grep -c 'stepping its own particles, moving [0-9]* clumps ([1-9][0-9]* received at new cuts)' d3.err)" -eq 3 ]
    # trimers poured between walls, damped, until balanced: members of one clump on several ranks;
    # the measures with clumps (a clump counted at its first member, whose rank moves it)
    dem-pack --random 150 --box 0,0,0,0.012,0.012,0.02 --radius 6e-4 --clump trimer --enclose --velocity-random 0.2 \
        --seed 4 --young 5e6 --friction 0.4 > trimers.dem
    dem-step -q -n 2000 --every 500 --gravity 0,0,-9.81 --dt 5e-6 --local-damping 0.3 --until unbalanced=0.5 trimers.dem > t1.dem
    for k in 2 3; do
        DEM_MPI_STDERR=1 mpirun --oversubscribe -np "$k" dem-step-mpi -n 2000 --every 500 --gravity 0,0,-9.81 --dt 5e-6 \
            --local-damping 0.3 --until unbalanced=0.5 trimers.dem -o "t$k.dem" 2> "t$k.err"
        cmp t1.dem "t$k.dem"
        grep -q 'rank 0 .*stepping its own particles' "t$k.err"
    done
}

@test "mpi: every contact law, rolling and twisting, adhesion: the same bytes on 3 ranks" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --rolling-friction 0.1 --twisting-friction 0.05 --surface-energy 0.05 --enclose \
        --velocity-random 0.2 --seed 11 > bed.dem
    for opts in "--rolling epsd --twisting marshall" "--rolling sds --twisting sds --wall-velocity 5=0.02,0,-0.02" "--normal jkr" "--normal dmt" \
        "--tangential kuhn --normal hooke --kn 1e3" "--tangential incremental" \
        "--normal hooke --kn 1e3 --damping viscous --gamma-n 1e-3 --gamma-t 1e-3"; do
        dem-step -q -n 600 --every 300 --gravity 0,0,-9.81 --dt 5e-6 $opts bed.dem > one.dem
        on_ranks 3 k3.dem -n 600 --every 300 --gravity 0,0,-9.81 --dt 5e-6 $opts bed.dem
        cmp one.dem k3.dem || { echo "differs on 3 ranks: $opts"; false; }
    done
}

@test "mpi: a sheared periodic cell through a flip, and --until ke: the same bytes on 2-4 ranks" {
    dem-pack --random 600 --box 0,0,0,0.008,0.008,0.008 --periodic 0,0,0,0.008,0.008,0.008 --radius-uniform 3e-4,4.5e-4 \
        --velocity-random 0.2 --seed 5 --friction 0.4 --restitution 0.7 --young 1e7 > gas.dem
    # strain 1.5: the cell vector b leans past 0.55 a and the cell flips (between the 2nd and 3rd frames)
    same_for_ranks -n 1000 --every 250 --dt 1e-6 --cell-rate xy=1500 gas.dem
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    # the bed's kinetic energy falls below 4e-9 J a particle near step 1400: every rank stops there
    dem-step -q -n 3000 --gravity 0,0,-9.81 --dt 5e-6 --local-damping 0.3 --until ke=4e-9 bed.dem > one.dem
    for k in 2 3; do
        on_ranks "$k" "k$k.dem" -n 3000 --gravity 0,0,-9.81 --dt 5e-6 --local-damping 0.3 --until ke=4e-9 bed.dem
        cmp one.dem "k$k.dem"
    done
    [ "$(dem-probe one.dem | col step)" -lt 3000 ]
}

@test "mpi: a run the overlap guard stops stops on every rank, with one process's message" {
    dem-pack --random 200 --box 0,0,0,0.01,0.01,0.02 --radius 5e-4 --enclose --young 1e7 --velocity 0,0,-5 > fast.dem
    run --separate-stderr dem-step -q --stop-dt 0 --stop-move 0 --dt 5e-5 -n 20000 fast.dem -o one.dem
    [ "$status" -eq 1 ]
    want=$(printf '%s\n' "$stderr" | grep "overlap by")
    [ -n "$want" ]
    for k in 2 3; do
        run --separate-stderr mpirun --oversubscribe -np "$k" dem-step-mpi -q --stop-dt 0 --stop-move 0 --dt 5e-5 -n 20000 \
            -o k.dem fast.dem
        [ "$status" -ne 0 ]
        [ "$(printf '%s\n' "$stderr" | grep "overlap by")" = "$want" ]
        [ ! -e k.dem ]
    done
}

@test "mpi: SIGTERM to mpirun stops every rank after the same step, with one process's frame of that step" {
    dem-pack --random 700 --box 0,0,0,0.008,0.008,0.016 --radius-uniform 3e-4,4.5e-4 --young 5e6 --friction 0.5 \
        --restitution 0.6 --enclose --velocity-random 0.2 --seed 11 > bed.dem
    mpirun --oversubscribe -np 2 dem-step-mpi -q -n 100000000 --gravity 0,0,-9.81 --dt 5e-6 -o sig.dem bed.dem 2> sig.err &
    pid=$!
    sleep 1
    kill -TERM "$pid"
    wait "$pid" || true
    grep -q "interrupted (SIGTERM) after" sig.err
    n=$(dem-probe sig.dem 2> /dev/null | col step)
    [ "$n" -gt 0 ]
    dem-step -q -n "$n" --gravity 0,0,-9.81 --dt 5e-6 bed.dem > one.dem
    cmp one.dem sig.dem
}

@test "mpi: what is not yet distributed is refused by name, and stdout through mpirun is refused" {
    dem-pack --random 300 --box 0,0,0,0.008,0.008,0.008 --radius 4e-4 --enclose --seed 1 > s.dem
    run on_ranks 2 o.dem --minimize --normal hooke --kn 1e3 --tangential none s.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"--minimize is not yet distributed"* ]]
    # the variational integrator's refusal: tests/unit/test_dist.c
    # one rank needs none of it refused
    on_ranks 1 o.dem --minimize --normal hooke --kn 1e3 --tangential none s.dem
    # a damaged input: rank 0's message, and the job ends (the other ranks wait for the frame in vain)
    head -c 3000 s.dem > cut.dem
    run mpirun --oversubscribe -np 2 dem-step-mpi -q -n 10 -o o.dem cut.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"input ends inside the frame"* ]]
    # a test's switch out of its range is a usage error
    DEM_MPI_FRAME_CHUNK=0 run mpirun --oversubscribe -np 2 dem-step-mpi -q -n 1 -o o.dem s.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"DEM_MPI_FRAME_CHUNK"* ]]
    # mpirun relays rank 0's standard output through a terminal: a binary stream there is refused
    run mpirun --oversubscribe -np 2 dem-step-mpi -q -n 1 s.dem
    [ "$status" -ne 0 ]
    [[ "$output" == *"give -o FILE"* ]]
}

@test "mpi: --help under mpirun prints one process's help once, on stdout, and exits 0" {
    dem-step --help > one.txt
    run --separate-stderr mpirun --oversubscribe -np 3 dem-step-mpi --help
    [ "$status" -eq 0 ]
    [ -z "$stderr" ] # no message from mpirun about ranks that left without ending MPI
    diff one.txt <(printf '%s\n' "$output")
}
