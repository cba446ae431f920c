#!/usr/bin/env bats
# dem-probe --vtk: the container (walls_N.vtp, cell_N.vtp), --vtk-prefix, and every export read by
# VTK itself (tests/tools/vtkcheck.py, python3-vtk9; those tests skip without it). The always-run
# checks use the C checker tests/tools/vtpcheck. The particle and contact files and the .pvd
# bookkeeping are tested in probe.bats; the LAMMPS dump's grammar (what OVITO reads) there too.
load helpers

T=$'\t'
VTKCHECK="$BATS_TEST_DIRNAME/../tools/vtkcheck.py"

setup() {
    setup_tmp
    cd "$TMP"
}

need_vtk() {
    python3 -c 'import vtk' 2> /dev/null ||
        skip "python3-vtk9 is not installed (python3 -c 'import vtk' fails): VTK's own reader is not tested"
}

# A silo: 150 spheres in a cylinder of radius 2 cm about x = 0.01, y = 0.02, closed by z = 0 and
# z = 0.06 (dem-pack --enclose: wall 0 the mantle, 1 the floor, 2 the lid).
silo() {
    dem-pack --random 150 --cylinder z,0.01,0.02,0.02,0,0.06 --radius 0.002 --enclose --seed 3 > silo.dem
}

# Eight spheres on a floor under a lid moving down at 1 cm/s: both walls feel the spheres.
pressed() {
    dem-pack --lattice sc --cells 2,2,2 --radius 0.001 --spacing 0.0021 --origin 0,0,0 --wall z=0 \
        --wall z=0.00405@0,0,-0.01 > box.dem
    dem-step -q -n 200 --every 100 --dt 1e-6 --normal hooke --kn 1e4 box.dem > run.dem
}

@test "--vtk walls: a cylinder's mantle of 48 quads at its radius between its end planes, the ends as quads" {
    silo
    run --separate-stderr dem-probe --vtk out silo.dem
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -z "$stderr" ]
    [ "$(ls out | tr '\n' ' ')" = "contacts.pvd contacts_000000.vtp particles.pvd particles_000000.vtp walls.pvd walls_000000.vtp " ]
    grep -q '<DataSet timestep="0" group="" part="0" file="walls_000000.vtp"/>' out/walls.pvd
    run vtpcheck out/walls_000000.vtp
    [ "$status" -eq 0 ]
    [ "$output" = "CellData wall UInt32 1 50
CellData kind UInt8 1 50
CellData material UInt32 1 50
CellData velocity Float64 3 50
CellData angular_velocity Float64 3 50
CellData force Float64 3 50
CellData torque Float64 3 50
CellData work Float64 1 50
Points Points Float64 3 104
Polys connectivity Int64 1 200
Polys offsets Int64 1 50" ]
    grep -q 'NumberOfPoints="104" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="50"' out/walls_000000.vtp
    [ "$(vtpcheck -a kind out/walls_000000.vtp | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "1:2 2:48 " ]
    [ "$(vtpcheck -a wall out/walls_000000.vtp | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "0:48 1:1 2:1 " ]
    # the mantle: 96 ring points at R = 0.02 from the axis (1e-15 relative), z exactly 0 or 0.06
    vtpcheck -a Points out/walls_000000.vtp | head -n 96 | awk -F'\t' '
        { d = sqrt(($1 - 0.01) ^ 2 + ($2 - 0.02) ^ 2); if ((d - 0.02) ^ 2 > (0.02 * 1e-15) ^ 2) { print "r", d; bad = 1 }
          if (!($3 == 0 && NR <= 48 || $3 == 0.06 && NR > 48)) { print "z", NR, $3; bad = 1 } }
        END { exit bad || NR != 96 }'
    # the end planes: at z = 0 and 0.06 exactly, spanning the cylinder's footprint enlarged by 5% of
    # the box's largest edge (0.06): x from -0.013 to 0.033, y from -0.003 to 0.043
    vtpcheck -a Points out/walls_000000.vtp | tail -n 8 | awk -F'\t' '
        function near(a, b) { return (a - b) ^ 2 < 1e-34 }
        { if (!(near($1, -0.013) || near($1, 0.033)) || !(near($2, -0.003) || near($2, 0.043))) { print "xy", $0; bad = 1 }
          if (!($3 == 0 && NR <= 4 || $3 == 0.06 && NR > 4)) { print "z", $0; bad = 1 } }
        END { exit bad || NR != 8 }'
}

@test "--vtk walls: a moving lid's quad follows it, force and velocity are dem-probe --walls's" {
    pressed
    dem-probe --vtk out run.dem
    dem-probe --walls run.dem > walls.tsv
    [ "$(grep -c '<DataSet ' out/walls.pvd)" -eq 2 ]
    for f in 0 1; do
        vtpcheck out/walls_00000$f.vtp > /dev/null
        # the lid (wall 1, the second quad) lies at its pz in every frame
        lid=$(awk -F'\t' -v f=$f 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } $1 == f && $4 == 1 { print $c["pz[m]"] }' walls.tsv)
        [ -n "$lid" ]
        [ "$(vtpcheck -a Points out/walls_00000$f.vtp | sed -n 5,8p | cut -f3 | sort -u)" = "$lid" ]
        [ "$(vtpcheck -a force out/walls_00000$f.vtp)" = "$(awk -F'\t' -v f=$f 'NR > 1 && $1 == f { print $21 "\t" $22 "\t" $23 }' walls.tsv)" ]
        [ "$(vtpcheck -a velocity out/walls_00000$f.vtp)" = "$(awk -F'\t' -v f=$f 'NR > 1 && $1 == f { print $15 "\t" $16 "\t" $17 }' walls.tsv)" ]
    done
    # the lid went down 2 um in 200 us; the floor feels the spheres
    [ "$(vtpcheck -a Points out/walls_000001.vtp | sed -n 5p | cut -f3)" != 0.00405 ]
    vtpcheck -a force out/walls_000001.vtp | head -n 1 | awk -F'\t' '{ exit !($3 < 0) }'
}

@test "--vtk cell: the 12 edges from o along a, b, c follow the cell as it is sheared" {
    dem-pack --lattice fcc --cells 3,2,2 --radius 0.001 --periodic lattice --friction 0 > fcc.dem
    dem-step -q -n 200 --every 100 --normal hooke --kn 1e5 --dt 1e-6 --tangential none --cell-rate xy=500 fcc.dem > sh.dem
    dem-probe --vtk out sh.dem
    [ "$(ls out | grep -c '^cell_')" -eq 2 ]
    [ "$(grep -c '<DataSet ' out/cell.pvd)" -eq 2 ]
    [ ! -e out/walls.pvd ]
    run vtpcheck out/cell_000001.vtp
    [ "$status" -eq 0 ]
    [ "$output" = "CellData vector UInt8 1 12
CellData periodic UInt8 1 12
Points Points Float64 3 8
Lines connectivity Int64 1 24
Lines offsets Int64 1 12" ]
    [ "$(vtpcheck -a vector out/cell_000001.vtp | tr -d '\n')" = 000011112222 ]
    [ "$(vtpcheck -a periodic out/cell_000001.vtp | tr -d '\n')" = 111111111111 ]
    # corners 1, 2, 4 are o + a, o + b, o + c with H from dem-probe --cell (o = 0: the columns exactly)
    dem-probe --cell --frame 1 sh.dem > cell.tsv
    [ "$(col 'ox[m]' < cell.tsv)$(col 'oy[m]' < cell.tsv)$(col 'oz[m]' < cell.tsv)" = 000 ]
    h() { col "h$1[m]" < cell.tsv; }
    [ "$(vtpcheck -a Points out/cell_000001.vtp | sed -n 2p)" = "$(h 11)$T$(h 21)$T$(h 31)" ]
    [ "$(vtpcheck -a Points out/cell_000001.vtp | sed -n 3p)" = "$(h 12)$T$(h 22)$T$(h 32)" ]
    [ "$(vtpcheck -a Points out/cell_000001.vtp | sed -n 5p)" = "$(h 13)$T$(h 23)$T$(h 33)" ]
    # sheared: b leans by 500 * 200e-6 = 0.1 of its length along x
    awk -v x="$(h 12)" -v y="$(h 22)" 'BEGIN { exit !((x / y - 0.1) ^ 2 < 1e-20) }'
    # edge 4 (the first along b) joins corners 0 and 2
    [ "$(vtpcheck -a connectivity out/cell_000001.vtp | sed -n 9,10p | tr '\n' ' ')" = "0 2 " ]
}

@test "--vtk-prefix: two streams into one folder keep their own files and series" {
    silo
    mkframes -n 2 -m cell > c.dem
    dem-probe --vtk out --vtk-prefix silo silo.dem
    dem-probe --vtk out --vtk-prefix shear c.dem
    [ "$(ls out | tr '\n' ' ')" = "shear_cell.pvd shear_cell_000000.vtp shear_cell_000001.vtp shear_contacts.pvd shear_contacts_000000.vtp shear_contacts_000001.vtp shear_particles.pvd shear_particles_000000.vtp shear_particles_000001.vtp silo_contacts.pvd silo_contacts_000000.vtp silo_particles.pvd silo_particles_000000.vtp silo_walls.pvd silo_walls_000000.vtp " ]
    grep -q 'file="silo_particles_000000.vtp"' out/silo_particles.pvd
    grep -q 'file="shear_particles_000001.vtp"' out/shear_particles.pvd
    ! grep -q 'file="particles' out/*.pvd || false
    [ "$(vtpcheck -a id out/silo_particles_000000.vtp | wc -l)" -eq 150 ]
    [ "$(vtpcheck -a id out/shear_particles_000001.vtp | wc -l)" -eq 3 ]
    # usage: with --vtk only, a file name part
    for args in "--vtk-prefix a" "--vtk o --vtk-prefix a/b" "--vtk o --vtk-prefix ''" "--particles --vtk-prefix a"; do
        eval "run --separate-stderr dem-probe $args c.dem"
        [ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
        [[ "$stderr" == "dem-probe: --vtk-prefix"* ]] || { echo "$args: $stderr"; return 1; }
    done
    [ ! -e o ]
}

@test "--vtk: walls and cell files from the first frame that has them; a frame without: an empty file" {
    mkframes -n 1 -m open > open.dem
    mkframes -n 1 -m walls > walls.dem
    dem-probe --vtk none open.dem
    [ "$(ls none | tr '\n' ' ')" = "contacts.pvd contacts_000000.vtp particles.pvd particles_000000.vtp " ]
    cat open.dem walls.dem open.dem | dem-probe --vtk mixed
    [ "$(grep -c '<DataSet ' mixed/walls.pvd)" -eq 2 ]
    [ ! -e mixed/walls_000000.vtp ]
    grep -q 'NumberOfPolys="54"' mixed/walls_000001.vtp   # six planes and a 48-quad cylinder
    grep -q 'NumberOfPoints="0" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="0"' mixed/walls_000002.vtp
    vtpcheck mixed/walls_000002.vtp > /dev/null
}

@test "VTK reads every export: counts and arrays, values equal dem-probe's TSV" {
    need_vtk
    silo
    dem-step -q -n 400 --every 200 --gravity 0,0,-9.81 silo.dem > srun.dem
    dem-probe --vtk s --vtk-prefix silo srun.dem
    run python3 "$VTKCHECK" summary s/silo_walls.pvd s/silo_particles.pvd s/silo_contacts.pvd
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 6 ]
    [[ "${lines[1]}" == *" silo_walls_000001.vtp points=104 verts=0 lines=0 polys=50 point= cell=wall,kind,material,velocity,angular_velocity,force,torque,work" ]]
    [[ "${lines[3]}" == *" silo_particles_000001.vtp points=150 verts=150 lines=0 polys=0 point=id,radius,velocity,angular_velocity,force,material,fixed cell=" ]]
    dem-probe --walls srun.dem > w.tsv
    python3 "$VTKCHECK" walls w.tsv s/silo_walls_000001.vtp 1
    dem-probe --particles --fields material,flags --frame 1 srun.dem > p.tsv
    python3 "$VTKCHECK" particles p.tsv s/silo_particles_000001.vtp
    # the pressed box: walls with forces; the hand-made periodic frame: contacts across the boundary
    pressed
    dem-probe --vtk b run.dem
    dem-probe --walls run.dem > bw.tsv
    python3 "$VTKCHECK" walls bw.tsv b/walls_000001.vtp 1
    mkframes -n 2 -m cell > c.dem
    dem-probe --vtk c c.dem
    dem-probe --contacts --frame 1 c.dem > cc.tsv
    python3 "$VTKCHECK" contacts cc.tsv c/contacts_000001.vtp
    dem-probe --particles --fields material,flags --frame 1 c.dem > cp.tsv
    python3 "$VTKCHECK" particles cp.tsv c/particles_000001.vtp
    dem-probe --cell c.dem > cell.tsv
    python3 "$VTKCHECK" cell cell.tsv c/cell_000001.vtp 1
    python3 "$VTKCHECK" summary c/cell.pvd c/contacts.pvd
    # the checker itself: a wrong value, a damaged file and a missing one fail
    awk -F'\t' -v OFS='\t' 'NR > 1 && $1 == 1 && $4 == 1 { $23 = $23 + 1 } 1' bw.tsv > bad.tsv
    run python3 "$VTKCHECK" walls bad.tsv b/walls_000001.vtp 1
    [ "$status" -eq 1 ]
    [[ "$output" == *"(wall 1) force: VTK has"* ]]
    head -c -60 c/cell_000001.vtp > c/cut.vtp   # the appended block cut short
    run python3 "$VTKCHECK" summary c/cut.vtp
    [ "$status" -eq 1 ]
    sed -i 's/cell_000001/cell_000009/' c/cell.pvd
    run python3 "$VTKCHECK" summary c/cell.pvd
    [ "$status" -eq 1 ] && [[ "$output" == *"cell_000009.vtp: no such file"* ]]
}
