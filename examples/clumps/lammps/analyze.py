#!/usr/bin/python3
"""analyze.py - solid fraction and coordination of a settled dimer packing from in.dimers' dump.

Usage: analyze.py DUMP SEED SECONDS
Prints one TSV row (no header) for run.sh's table: seed, dimers, z_lo[m], z_hi[m], in_slab, phi,
z_contacts, z_neighbours, rattlers, wall[s].

The measuring slab keeps clear of the floor and of the free surface by 6 R (3 sphere
diameters) each: z_lo = 6 R, z_hi = (highest dimer centroid) - 6 R. The solid fraction counts
the dimers whose centroid lies in the slab, each with the union's volume (9/4) pi R^3
(docs/models.md "Rigid clumps"), over the slab's volume L^2 (z_hi - z_lo). A contact is a pair of
spheres of two different dimers closer than the sum of their radii (positive overlap);
z_contacts is the mean number of such contact points per dimer in the slab, z_neighbours the
mean number of distinct dimers touching it; a rattler is a dimer in the slab with no contact.
"""
import math
import sys

import numpy as np


def read_dump(path):
    with open(path) as f:
        lines = f.read().split("\n")
    box = []
    for k, line in enumerate(lines):
        if line.startswith("ITEM: BOX BOUNDS"):
            box = [list(map(float, lines[k + 1 + i].split()[:2])) for i in range(3)]
        if line.startswith("ITEM: ATOMS"):
            cols = line.split()[2:]
            rows = [r.split() for r in lines[k + 1:] if r.strip()]
            data = np.array(rows, dtype=float)
            return box, {c: data[:, i] for i, c in enumerate(cols)}
    raise SystemExit(f"{path}: no ATOMS section")


def main():
    path, seed, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
    box, a = read_dump(path)
    lx, ly = box[0][1] - box[0][0], box[1][1] - box[1][0]
    x = a["x"] + a["ix"] * lx
    y = a["y"] + a["iy"] * ly
    z = a["z"]
    r = a["radius"]
    mol = a["mol"].astype(int)
    R = float(np.max(r))
    ids = np.unique(mol)
    index = {m: i for i, m in enumerate(ids)}
    mi = np.array([index[m] for m in mol])
    n = len(ids)
    cz = np.bincount(mi, weights=z, minlength=n) / np.bincount(mi, minlength=n)
    z_lo, z_hi = 6.0 * R, float(np.max(cz)) - 6.0 * R
    in_slab = (cz >= z_lo) & (cz < z_hi)
    v_dimer = 9.0 / 4.0 * math.pi * R ** 3
    phi = in_slab.sum() * v_dimer / (lx * ly * (z_hi - z_lo))

    # contacts between spheres of different dimers, minimum image in x and y
    contacts = np.zeros(n)
    neighbours = [set() for _ in range(n)]
    pos = np.column_stack([a["x"], a["y"], z])
    for i0 in range(0, len(z), 500):
        d = pos[i0:i0 + 500, None, :] - pos[None, :, :]
        d[..., 0] -= lx * np.round(d[..., 0] / lx)
        d[..., 1] -= ly * np.round(d[..., 1] / ly)
        dist2 = np.einsum("ijk,ijk->ij", d, d)
        reach = (r[i0:i0 + 500, None] + r[None, :]) ** 2
        ii, jj = np.nonzero((dist2 < reach) & (mi[i0:i0 + 500, None] != mi[None, :]))
        for i, j in zip(ii + i0, jj):
            contacts[mi[i]] += 1  # each pair seen from both sides: one count per dimer
            neighbours[mi[i]].add(mi[j])
    zc = contacts[in_slab]
    zn = np.array([len(neighbours[k]) for k in np.nonzero(in_slab)[0]])
    print(f"{seed}\t{n}\t{z_lo:.6g}\t{z_hi:.6g}\t{int(in_slab.sum())}\t{phi:.4f}\t{zc.mean():.3f}\t{zn.mean():.3f}"
          f"\t{float(np.mean(zc == 0)):.4f}\t{seconds}")


main()
