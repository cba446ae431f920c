#!/usr/bin/env python3
"""dem-step on MPI on a quiet many-core machine (issue 31), after the shared 16-core driver: run from the project's
root on the machine, after ../shared/tools/bench16/driver.py has set the chroot up (its files in ROOT/tmp):
    OUT=DIR python3 .bench16/driver_mpi.py ROOT
Strong scaling: the 160 000-sphere replica on 1, 2, 4, 8, 16 ranks of dem-step-mpi (one thread each) and as many
LAMMPS ranks (classic gran/hertz/history, the shared driver's input), ns per particle-step and per core, parallel
efficiency, every output cmp against one rank's; 4 ranks x 4 threads and 2 x 8 beside. Weak scaling: 20 000
spheres a rank (the settled bed tiled 1, 2, 4, 8, 16 times), dem-step-mpi and LAMMPS. Each rank's report (pairs
across its cuts, bytes exchanged) goes to the log. dem-step-mpi: wall(-n N) - wall(-n 0); LAMMPS: its Loop time.
Appends to $OUT/bench.log."""
import os, re, subprocess, sys, time

R = sys.argv[1]
OUT = os.environ.get("OUT", "/tmp")
STEPS = int(os.environ.get("STEPS2", "300"))
RANKS = [int(x) for x in os.environ.get("RANKS", "1 2 4 8 16").split()]
LAW = "--normal hertz --tangential history --damping restitution --gravity 0,0,-9.81 --dt 5e-6"
log = open(os.path.join(OUT, "bench.log"), "a")
T = os.path.join(R, "tmp")


def say(*a):
    s = " ".join(str(x) for x in a)
    print(s, flush=True)
    log.write(s + "\n")
    log.flush()


def ch(cmd, timeout=600):
    env = ("export OMPI_MCA_plm_rsh_agent=/bin/sh OMP_NUM_THREADS=1 PATH=/usr/local/bin:/usr/bin:/bin "
           "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;")
    t0 = time.perf_counter()
    p = subprocess.run(["chroot", R, "/bin/sh", "-c", f"cd /tmp && {env} {cmd}"], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def tiles(k):
    """The settled bed tiled k times (1, 2, 4, 8, 16: 1x1, 2x1, 2x2, 4x2, 4x4): its TSV, LAMMPS data and input."""
    name = f"weak{k}"
    tx, ty = {1: (1, 1), 2: (2, 1), 4: (2, 2), 8: (4, 2), 16: (4, 4)}[k]
    rows = [l.split("\t") for l in open(os.path.join(T, "settled.tsv")).read().splitlines()[1:] if l.strip()]
    out, n = [], 0
    for ix in range(tx):
        for iy in range(ty):
            for r in rows:
                n += 1
                out.append([str(n), repr(float(r[1]) + ix * 0.048), repr(float(r[2]) + iy * 0.03)] + r[3:11])
    L = (0.048 * tx, 0.03 * ty, 0.03)
    open(os.path.join(T, f"{name}.tsv"), "w").write("id\tx\ty\tz\tr\tvx\tvy\tvz\twx\twy\twz\n" + "\n".join("\t".join(r) for r in out) + "\n")
    with open(os.path.join(T, f"data.{name}"), "w") as f:
        f.write(f"bed\n\n{len(out)} atoms\n1 atom types\n\n0 {L[0]} xlo xhi\n0 {L[1]} ylo yhi\n0 {L[2]} zlo zhi\n\nAtoms\n\n")
        f.writelines(f"{r[0]} 1 {2 * float(r[4])!r} 2500 {r[1]} {r[2]} {r[3]}\n" for r in out)
        f.write("\nVelocities\n\n")
        f.writelines(f"{r[0]} {r[5]} {r[6]} {r[7]} {r[8]} {r[9]} {r[10]}\n" for r in out)
    tmpl = open(os.path.join(T, "in.template")).read()
    open(os.path.join(T, f"in.{name}"), "w").write(
        tmpl.replace("DATA", f"data.{name}").replace("LX", str(L[0])).replace("LY", str(L[1])).replace("LZ", str(L[2])))
    walls = " ".join(f"--wall {a}=0 --wall {a}={l}" for a, l in zip("xyz", L))
    c, o, e, t = ch(f"dem-pack --from {name}.tsv --density 2500 --young 5e6 --poisson 0.3 --friction 0.5 --restitution 0.8 {walls} > {name}.dem")
    if c:
        say("dem-pack failed:", e.strip()[-300:])
        sys.exit(1)
    return name, len(out)


def dem(name, n, ranks, threads=1, tag=""):
    run = f"mpirun --oversubscribe --bind-to none -np {ranks} dem-step-mpi" if ranks > 1 else "mpirun -np 1 dem-step-mpi"
    out = f"out.{name}.{ranks}x{threads}{tag}.dem"
    c, o, e, t = ch(f"{run} {LAW} -n {n} --threads {threads} -o {out} {name}.dem")
    if c:
        say("dem-step-mpi failed:", name, n, ranks, threads, (o + e).strip()[-300:])
        return float("nan"), out
    for line in e.splitlines():
        if "ranks x" in line and n > 0:
            say("   ", line.replace("dem-step: ", ""))
    return t, out


def lmp(name, n, np):
    for bind in ("core", "none"):
        run = f"mpirun --oversubscribe --bind-to {bind} -np {np} lmp" if np > 1 else "lmp"
        c, o, e, t = ch(f"{run} -in in.{name} -var nsteps {n} -log none")
        m = re.search(r"Loop time of ([0-9.eE+-]+) on (\d+) procs", o)
        if c == 0 and m:
            return float(m.group(1))
    say("lmp failed:", name, n, np, (o + e).strip()[-300:])
    return float("nan")


def same(a, b):
    return ch(f"cmp {a} {b}")[0] == 0


def main():
    say("dem-step-mpi on", os.cpu_count(), "cpus |", LAW, f"| {STEPS} steps")
    ns = lambda t, n: t / (n * STEPS) * 1e9
    big, nb = tiles(8)  # the 160 000-sphere replica, as the shared driver's
    say(f"strong scaling, {nb} spheres: ns/particle-step (dem-step-mpi ranks | LAMMPS ranks), x speed-up, efficiency")
    first, base = None, None
    for p in RANKS:
        t0, _ = dem(big, 0, p)
        t1, out = dem(big, STEPS, p)
        lt = lmp(big, STEPS, p)
        d = t1 - t0
        base = base or (d, lt)
        first = first or out
        say(f"  p={p:2d}: dem-step-mpi {ns(d, nb):.1f} (x{base[0] / d:.2f}, {base[0] / d / p:.0%}) | LAMMPS {ns(lt, nb):.1f} "
            f"(x{base[1] / lt:.2f}, {base[1] / lt / p:.0%}) | LAMMPS/dem-step {lt / d:.2f} | bytes as 1 rank: {same(first, out)}")
    for p, th in ((4, 4), (2, 8)):
        if p * th > (os.cpu_count() or 1):
            continue
        t0, _ = dem(big, 0, p, th)
        t1, out = dem(big, STEPS, p, th)
        say(f"  {p} ranks x {th} threads: dem-step-mpi {ns(t1 - t0, nb):.1f} (x{base[0] / (t1 - t0):.2f}) | bytes as 1 rank: {same(first, out)}")
    say("weak scaling, 20 000 spheres a rank: ns/particle-step, efficiency (time of 1 rank / time of p)")
    wbase = None
    for p in RANKS:
        name, n = tiles(p)
        t0, _ = dem(name, 0, p)
        t1, _ = dem(name, STEPS, p)
        lt = lmp(name, STEPS, p)
        d = t1 - t0
        wbase = wbase or (d, lt)
        say(f"  p={p:2d} ({n} spheres): dem-step-mpi {ns(d, n):.1f} ({wbase[0] / d:.0%}) | LAMMPS {ns(lt, n):.1f} ({wbase[1] / lt:.0%})")


main()
