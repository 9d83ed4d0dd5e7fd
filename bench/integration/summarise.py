#!/usr/bin/env python3
"""Summarise the H100 integration runs into one markdown page (issue 7).

Usage: summarise.py RUN1.md RUN2.md > bench/results/integration-h100.md
The shipped code is run 1's shm kernel and run 2's sumfact kernel (see the runs' READMEs):
shm / reg / ai / aii rows come from run 1, sumfact rows from run 2; run 2's CPU rows are the
current CPU code."""
import sys


def load(path):
    rows = []
    for line in open(path):
        if not line.startswith("| ") or line.startswith("| element"):
            continue
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        rows.append(dict(element=c[0], p=int(c[1]), problem=c[2], variant=c[3], jac=c[4], prec=c[5],
                         backend=c[6], m=int(c[7]), ndofs=int(c[8]), nq=int(c[9]), init=float(c[10]),
                         tin=float(c[11]), kernel=float(c[12]), tout=float(c[13]), core=float(c[14]),
                         gflops=float(c[15]), peak=c[16], su_all=float(c[17]), su_kernel=float(c[18])))
    return rows


run1, run2 = load(sys.argv[1]), load(sys.argv[2])


def find(rows, **kw):
    for r in rows:
        if all(r[k] == v for k, v in kw.items()):
            return r
    return None


def g(x):
    return f"{x:.3g}"


hexfp32 = dict(element="hex", problem="elasticity", jac="precomputed", prec="fp32", m=10000)
print("# Element integration on one H100 (issue 7, seeds 001 and 003)\n")
print("Measured 2026-11-22 on an NVIDIA H100 80GB HBM3 (132 SMs, 1980 MHz; FP32 peak 66.9 TFLOP/s,")
print("FP64 33.5 TFLOP/s) with `bash bench/integration/device-run.sh` (raw tables and logs in")
print("`bench/results/integration/2026-11-22-h100-run{1,2}/`). Times are per element (µs), the batch time divided")
print("by m; kernel times are medians of 3 launches after a warm-up (CUDA events); init = device")
print("allocations + reference tables + pinned staging buffer; in = element data to the device (for the")
print("precomputed-Jacobian variants including the host's Jacobian work); out = element matrices back.")
print("GFLOP/s counts the operations of the plain algorithm (2 n_q nsh^2 pairs + derivatives + Jacobian)")
print("for ai/aii/reg/shm and the operations sum factorisation executes for sumfact. 1 CPU core = the")
print("same algorithm and precision on one core of the GPU machine's CPU (g++ -O3).\n")

print("## Hexahedral elasticity, FP32, m = 10,000 (seed 001 Table 3 layout, extended)\n")
print("| p | n_G | N_e | 1 CPU core plain (µs) | ai kernel (µs) | aii | reg | shm | sumfact | shm GFLOP/s | shm of FP32 peak | shm speed-up over 1 core: kernel / all stages | shm time / sumfact time (> 1: sumfact faster) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for p in range(1, 11):
    shm = find(run1, p=p, variant="shm", **hexfp32)
    cells = []
    for v, rows in (("ai", run1), ("aii", run1), ("reg", run1), ("shm", run1), ("sumfact", run2)):
        # ai / aii / reg ran the same code in both runs: run 2 fills what run 1 did not measure.
        r = find(rows, p=p, variant=v, **hexfp32) or (find(run2, p=p, variant=v, **hexfp32) if v != "shm" else None)
        cells.append(g(r["kernel"]) if r else "-")
    sf = find(run2, p=p, variant="sumfact", **hexfp32)
    ratio = g(shm["kernel"] / sf["kernel"]) if sf else "-"
    print(f"| {p} | {shm['nq']} | {shm['ndofs']} | {g(shm['core'])} | " + " | ".join(cells) +
          f" | {shm['gflops']:.0f} | {shm['peak']} | {g(shm['su_kernel'])} / {g(shm['su_all'])} | {ratio} |")

print("\n## Stage split, shm (hexahedra, elasticity, FP32, m = 10,000)\n")
print("| p | init | transfer in | kernel | transfer out | total | 1 CPU core |")
print("|---|---|---|---|---|---|---|")
for p in range(1, 11):
    r = find(run1, p=p, variant="shm", **hexfp32)
    tot = r["init"] + r["tin"] + r["kernel"] + r["tout"]
    print(f"| {p} | {g(r['init'])} | {g(r['tin'])} | {g(r['kernel'])} | {g(r['tout'])} | {g(tot)} | {g(r['core'])} |")

print("\n## Sum factorisation against the plain algorithm\n")
print("| p | GPU shm kernel (µs) | GPU sumfact kernel (µs) | sumfact GFLOP/s | 1 core plain (µs) | 1 core sumfact (µs) | 16 threads plain (µs) | 16 threads sumfact (µs) |")
print("|---|---|---|---|---|---|---|---|")
for p in range(1, 9):
    shm = find(run1, p=p, variant="shm", **hexfp32)
    sf = find(run2, p=p, variant="sumfact", **hexfp32)
    c16p = find(run2, element="hex", p=p, variant="shm", backend="cpu (16 threads)")
    c16s = find(run2, element="hex", p=p, variant="sumfact", backend="cpu (16 threads)")
    core_plain = find(run2, p=p, variant="shm", **hexfp32)
    print(f"| {p} | {g(shm['kernel'])} | {g(sf['kernel'])} | {sf['gflops']:.0f} | {g(core_plain['core'])} | {g(sf['core'])} | "
          f"{g(c16p['kernel']) if c16p else '-'} | {g(c16s['kernel']) if c16s else '-'} |")

print("\n## FP64, Jacobian computed on the device, larger batches\n")
print("| case | kernel (µs) | GFLOP/s | of peak | transfer in (µs) | init (µs) |")
print("|---|---|---|---|---|---|")
for rows, kw, label in (
        (run1, dict(p=3, variant="shm", prec="fp64"), "hex p=3 shm fp64"),
        (run1, dict(p=6, variant="shm", prec="fp64"), "hex p=6 shm fp64"),
        (run1, dict(p=10, variant="shm", prec="fp64"), "hex p=10 shm fp64"),
        (run2, dict(p=3, variant="sumfact", prec="fp64"), "hex p=3 sumfact fp64"),
        (run2, dict(p=6, variant="sumfact", prec="fp64"), "hex p=6 sumfact fp64"),
        (run1, dict(p=3, variant="shm", jac="computed"), "hex p=3 shm, Jacobian computed"),
        (run1, dict(p=8, variant="shm", jac="computed"), "hex p=8 shm, Jacobian computed"),
        (run2, dict(p=6, variant="sumfact", jac="computed"), "hex p=6 sumfact, Jacobian computed"),
        (run1, dict(p=3, variant="shm", m=100000), "hex p=3 shm, m = 100,000"),
        (run1, dict(p=4, variant="shm", m=100000), "hex p=4 shm, m = 100,000"),
        (run2, dict(p=6, variant="sumfact", m=100000), "hex p=6 sumfact, m = 100,000")):
    base = dict(element="hex", problem="elasticity", backend="NVIDIA H100 80GB HBM3")
    base.update(kw)
    r = find(rows, **base)
    if r:
        print(f"| {label} | {g(r['kernel'])} | {r['gflops']:.0f} | {r['peak']} | {g(r['tin'])} | {g(r['init'])} |")

print("\n## Prisms (seed 003), FP32, m = 10,000\n")
print("| problem | variant | jacobian | p | ndofs | n_q | kernel (µs) | GFLOP/s | of peak | 1 CPU core (µs) | speed-up kernel / all stages |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in run1:
    if r["element"] == "prism":
        print(f"| {r['problem']} | {r['variant']} | {r['jac']} | {r['p']} | {r['ndofs']} | {r['nq']} | {g(r['kernel'])} | "
              f"{r['gflops']:.0f} | {r['peak']} | {g(r['core'])} | {g(r['su_kernel'])} / {g(r['su_all'])} |")
