#!/usr/bin/env python3
# mpi-arrays.py PID - what one running dem-step (or dem-step-mpi rank) holds in memory, array by
# array: the resident bytes of each of the sim's large arrays against its size. gdb (attached for
# a moment) reads the arrays' addresses and lengths from the sim in cli_run_steps_hooked's frame
# (a build with -g, the default); /proc/PID/pagemap says which of their pages are in memory
# (root, or the right to ptrace the process). Sizes: particles' arrays n elements, the pair
# list's its capacity. Used for docs/performance.md ("What a rank keeps of the particles"):
#   mpirun -np 4 sh -c 'exec bin/dem-step-mpi -q -n 3000 --dt 2e-6 -o /dev/null FRAME' &
#   sleep 12; tools/bench/mpi-arrays.py $(pgrep -x dem-step-mpi | sed -n 2p)
import subprocess, sys, struct, re
if len(sys.argv) != 2:
    sys.exit("usage: mpi-arrays.py PID")
pid = sys.argv[1]
n_expr = "sim->p.n"
arrs = [  # (expr, count expr)
 ("sim->p.x","n"),("sim->p.v","n"),("sim->p.w","n"),("sim->p.f","n"),("sim->p.t","n"),("sim->p.q","n"),
 ("sim->p.r","n"),("sim->p.m","n"),("sim->p.inertia","n"),("sim->p.inv_m","n"),("sim->p.inv_i","n"),
 ("sim->p.mat","n"),("sim->p.flags","n"),("sim->p.group","n"),("sim->p.id","n"),("sim->p.image","n"),
 ("sim->nbr.x_build","n"),("sim->nbr.cell_start","sim->nbr.cap_cells"),("sim->nbr.cell_items","n"),
 ("sim->c.pairs","sim->c.cap_pairs"),("sim->c.out","sim->c.cap_out"),("sim->c.ptouch","sim->c.cap_out"),
 ("sim->c.jadj","sim->c.cap_adj"),("sim->c.jadj_start","n"),("sim->c.istart","n"),("sim->c.wstart","n"),
 ("sim->c.pblk","sim->c.nblk"),("sim->c.wowner","sim->c.cap_wslots"),("sim->c.wwall","sim->c.cap_wslots"),
 ("sim->c.whist","sim->c.cap_wslots"),("sim->c.wout","sim->c.cap_wslots"),("sim->c.wtouch","sim->c.cap_wslots"),
 ("sim->c.keys.k","sim->c.keys.cap"),
 ("sim->e.edis","2*n"),("sim->e.vf","n"),("sim->e.wf","n"),("sim->e.bsum","sim->c.nblk"),("sim->e.blost","sim->c.nblk"),("sim->e.wlost","sim->c.cap_wslots"),
 ("sim->b.wrapped","n"),("sim->b.dkin","n"),("sim->g.pbad","n"),
 ("sim->dist->held_counts","n"),("sim->dist->from","n"),("sim->dist->stage","sim->dist->cap_stage"),("sim->dist->near_list","sim->dist->cap_near"),
 ("sim->dist->held","sim->dist->cap_held"),("sim->dist->keys","sim->dist->cap_keys"),("sim->dist->send","sim->dist->cap_send"),("sim->dist->recv","sim->dist->cap_recv"),
 ("sim->dist->gpblk","sim->dist->cap_gpblk"),("sim->dist->foreign","sim->dist->cap_foreign"),("sim->dist->blk_rank","sim->dist->cap_blk"),
 ("sim->dist->frame.pairs","sim->dist->frame.cap_pairs"),("sim->dist->frame.out","sim->dist->frame.cap_out"),
]
cmds = ["frame function cli_run_steps_hooked", "p (long)sim->p.n"]
for e, c in arrs:
    ce = c.replace("n", "sim->p.n") if c in ("n", "2*n") else c
    cmds += [f"p (long){e}", f"p (long)({ce})", f"p (long)sizeof(*{e})"]
args = ["gdb", "-batch", "-p", pid] + sum([["-ex", c] for c in cmds], [])
out = subprocess.run(args, capture_output=True, text=True).stdout
vals = [int(m) for m in re.findall(r"^\$\d+ = (-?\d+)", out, re.M)]
if not vals:
    sys.exit("mpi-arrays.py: gdb could not read the sim of process %s (a -g build, stepping, and ptrace rights?)" % pid)
n = vals[0]; vals = vals[1:]
page = 4096
pm = open(f"/proc/{pid}/pagemap", "rb")
tot = 0
rows = []
for k, (e, c) in enumerate(arrs):
    if 3*k+2 >= len(vals): break
    addr, cnt, sz = vals[3*k:3*k+3]
    if addr == 0 or cnt <= 0: continue
    lo, hi = addr // page, (addr + cnt * sz + page - 1) // page
    pm.seek(lo * 8); data = pm.read((hi - lo) * 8)
    present = sum(1 for i in range(hi - lo) if struct.unpack_from("<Q", data, 8*i)[0] >> 63)
    rows.append((present * page, e, cnt * sz))
    tot += present * page
for r in sorted(rows, reverse=True):
    print(f"{r[0]/1e6:8.2f} MB resident of {r[2]/1e6:8.2f} MB  {r[1]}")
print(f"total {tot/1e6:.1f} MB of these arrays; n = {n}")
