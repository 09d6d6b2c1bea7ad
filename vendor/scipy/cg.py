#!/usr/bin/env python3
"""vendor/scipy/cg.py - SciPy's conjugate gradient on chapter 7's matrix: a yardstick.

    vendor/scipy/cg.py --gen poisson:nx=1024 --precision d --tol 0 --maxiter 200 --csv F
    vendor/scipy/cg.py --matrix tests/data/bcsstk13.mtx --precision d --tol 1e-8
    vendor/scipy/cg.py --gen poisson:nx=2048 --gpu --precision s --tol 0 --maxiter 200   (CuPy)

scipy.sparse.linalg.cg (or, with --gpu, cupyx.scipy.sparse.linalg.cg: cuSPARSE
SpMV and cuBLAS vector operations) solves A x = b from x0 = 0, no
preconditioner, on the same matrix as build/step7:
  --gen poisson:nx=W[,ny=H]  the 5-point Laplacian, built here as common/gen.c
                             builds it (4 on the diagonal, -1 per neighbour inside)
  --gen poisson3d:nx=N[,ny=..][,nz=..], stencil27:nx=N[,ny=..][,nz=..]
                             the 3-D boxes of common/gen.c: 7 points (6 on the
                             diagonal) or 27 (26), -1 per neighbour inside
  --matrix FILE              a Matrix Market file (symmetric ones expanded) or a
                             Harwell-Boeing .rsa/.rua (scipy.io)
  --seed S, --b FILE         b: the course's splitmix64 stream (the same numbers as
                             spmv_random_doubles), or an array file
  --precision s|d, --tol T, --maxiter N   as step7 (defaults 1e-5 float, 1e-10 double,
                             10 n): --tol 0 runs exactly N iterations
  --csv FILE                 one row of chapter 7's CG CSV (header written when new)
  --history FILE             iteration,true_residual per iteration (an untimed
                             second solve that computes ||b - A x_k|| / ||b|| each time)
  --save-x FILE              x as a Matrix Market array
  --kappa                    no solve: the matrix's extreme eigenvalues and
                             condition number kappa (dense eigvalsh up to 5000
                             rows, else eigsh, shift-invert for the smallest),
                             and CG's bound: 0.5 sqrt(kappa) ln(2 / tol)
                             iterations cut the error's A-norm by tol
Iteration time: the callback records a clock each iteration; ms_per_iter is the
median gap (the loop only: setup, transfers and the final check outside). SciPy
does not expose its residual recurrence, so rel_residual is left empty; the
true residual is recomputed here in double. check: PASS when the true residual
meets --tol within 2x (float 10x: no restarts here, so x drifts from the
recurrence); when no tolerance was met (--tol 0, or --maxiter reached), when it
is finite and below 1 (CG from x0 = 0 on these matrices; a NaN or a diverging
solve fails).
Bandwidth: a copy of two 256 MiB arrays (numpy on the host, CuPy on the GPU),
median of 5, counted as read + write, beside the solve, for the bound columns.
Exit status, as step7's: 0 PASS, 1 FAIL, 2 bad input, 3 skipped (--gpu without
CuPy or a GPU), 4 --maxiter reached before --tol.
"""
import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
import warnings

# SciPy 1.15 and later warn that mmread will return a sparse array: a line on
# stderr that is not this program's (its errors are one line)
warnings.filterwarnings("ignore", message=".*spmatrix.*", category=DeprecationWarning)

HEADER = ("step,kernel,device,driver,matrix,rows,cols,nnz,precision,iterations,check_every,"
          "extra_iterations,converged,rel_residual,true_residual,tol,ms_per_iter,ms_total,"
          "spmv_ms_per_iter,vector_ms_per_iter,wait_ms_per_iter,launches_per_iter,bytes_per_iter,"
          "bytes_compulsory_per_iter,bw_measured_gbs,pct_version_bound,pct_compulsory,check,date,git_rev")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_TOL = {"s": 1e-5, "d": 1e-10}   # step7's defaults
MARGIN = {"s": 10.0, "d": 2.0}   # no restarts here: x drifts from the recurrence


def die(msg, status=2):
    print("cg.py: error: " + msg, file=sys.stderr)
    sys.exit(status)


try:
    import numpy as np
    import scipy
    import scipy.io as sio
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
except ImportError as e:   # a SKIP for the callers: no SciPy here
    print("cg.py: skipped: %s (apt-get install python3-scipy)" % e, file=sys.stderr)
    sys.exit(3)


def parse_gen(spec):
    if not spec.startswith("poisson:"):
        die("--gen: cg.py builds poisson:nx=W[,ny=H], poisson3d:nx=N[,ny,nz] and stencil27:nx=N[,ny,nz] only, "
            "not '%s'" % spec)
    kv = {}
    for part in spec[len("poisson:"):].split(","):
        k, _, v = part.partition("=")
        if k not in ("nx", "ny") or not v.isdigit() or int(v) < 1:
            die("--gen poisson takes nx=W[,ny=H] with whole numbers >= 1, not '%s'" % part)
        kv[k] = int(v)
    if "nx" not in kv:
        die("--gen poisson needs nx=W (example: --gen poisson:nx=1024 or nx=300,ny=200)")
    return kv["nx"], kv.get("ny", kv["nx"])


def poisson(W, H):
    """common/gen.c's matrix: row y*W + x, 4 on the diagonal, -1 per neighbour inside; CSR, columns ascending."""
    n = W * H
    i = np.arange(n, dtype=np.int64)
    x, y = i % W, i // W
    rows, cols, vals = [i], [i], [np.full(n, 4.0)]
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        m = (x + dx >= 0) & (x + dx < W) & (y + dy >= 0) & (y + dy < H)
        rows.append(i[m])
        cols.append(i[m] + dx + dy * W)
        vals.append(np.full(int(m.sum()), -1.0))
    A = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    A.sort_indices()
    return A


def parse_box(spec):
    """poisson3d or stencil27:nx=N[,ny=..][,nz=..]: (full, nx, ny, nz); ny and nz default to nx."""
    kind, _, rest = spec.partition(":")
    kv = {}
    for part in rest.split(",") if rest else []:
        k, _, v = part.partition("=")
        if k not in ("nx", "ny", "nz") or not v.isdigit() or int(v) < 1:
            die("--gen %s takes nx=N[,ny=..][,nz=..] with whole numbers >= 1, not '%s'" % (kind, part))
        kv[k] = int(v)
    if "nx" not in kv:
        die("--gen %s needs nx=N (example: --gen %s:nx=100 or nx=60,ny=50,nz=40)" % (kind, kind))
    nx = kv["nx"]
    return kind == "stencil27", nx, kv.get("ny", nx), kv.get("nz", nx)


def box(full, nx, ny, nz):
    """common/gen.c's 3-D boxes: row (z*ny + y)*nx + x; 7 points (6 on the diagonal) or the
    full 27 (26 on the diagonal), -1 per neighbour inside the box; CSR, columns ascending."""
    n = nx * ny * nz
    i = np.arange(n, dtype=np.int64)
    x, y, z = i % nx, i // nx % ny, i // (nx * ny)
    rows, cols, vals = [i], [i], [np.full(n, 26.0 if full else 6.0)]
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if (dx, dy, dz) == (0, 0, 0) or (not full and abs(dx) + abs(dy) + abs(dz) > 1):
                    continue
                m = ((x + dx >= 0) & (x + dx < nx) & (y + dy >= 0) & (y + dy < ny)
                     & (z + dz >= 0) & (z + dz < nz))
                rows.append(i[m])
                cols.append(i[m] + dx + dy * nx + dz * nx * ny)
                vals.append(np.full(int(m.sum()), -1.0))
    A = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    A.sort_indices()
    return A


def read_matrix(path):
    if not os.path.isfile(path):
        die("--matrix %s: no such file" % path)
    low = path.lower()
    try:
        if low.endswith((".rsa", ".rua", ".psa", ".pua")):
            A = sio.hb_read(path)
        else:
            A = sio.mmread(path)
    except Exception as e:   # noqa: BLE001 - any reader error is bad input
        die("--matrix %s: %s" % (path, e))
    A = sp.csr_matrix(A)
    if np.iscomplexobj(A.data):
        die("--matrix %s is complex: CG here is for real symmetric positive definite matrices" % path)
    A.sum_duplicates()
    A.sort_indices()
    return A.astype(np.float64)


def course_b(n, seed):
    """b_i = spmv_rng_uniform_at(seed ^ 0x5eedf00d, i): splitmix64, uniform in [-1, 1) (common/matrix.c)."""
    M = (1 << 64) - 1
    s = np.uint64(((seed ^ 0x5eedf00d) & M))
    with np.errstate(over="ignore"):
        z = s + (np.arange(n, dtype=np.uint64) + np.uint64(1)) * np.uint64(0x9e3779b97f4a7c15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -52 - 1.0


def git_rev():
    if os.environ.get("GIT_REV"):
        return os.environ["GIT_REV"]
    try:
        r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        rev = r.stdout.strip() or "unknown"
        d = subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD"], capture_output=True)
        return rev + ("+dirty" if d.returncode == 1 else "")
    except OSError:
        return "unknown"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def copy_gbs(xp, sync, mib=256):
    """Copy bandwidth (read + write) of one mib-MiB array into another, median of 5 after one untimed."""
    a = xp.ones(mib << 18, dtype=xp.float32)   # written: not the zero page that calloc's zeros read from
    b = xp.ones_like(a)
    ts = []
    for k in range(6):
        sync()
        t0 = time.perf_counter()
        b[...] = a
        sync()
        if k:
            ts.append(time.perf_counter() - t0)
    del a, b
    return 2.0 * (mib << 20) / sorted(ts)[len(ts) // 2] / 1e9


def main():
    ap = argparse.ArgumentParser(prog="cg.py", description="SciPy's (or CuPy's) CG on chapter 7's matrix")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--gen")
    g.add_argument("--matrix")
    ap.add_argument("--precision", default="d", choices=["s", "d"])
    ap.add_argument("--tol", type=float)
    ap.add_argument("--maxiter", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--b", dest="bfile")
    ap.add_argument("--csv")
    ap.add_argument("--history")
    ap.add_argument("--save-x", dest="save_x")
    ap.add_argument("--kappa", action="store_true", help="the condition number and CG's bound; no solve")
    ap.add_argument("--gpu", action="store_true", help="cupyx.scipy.sparse.linalg.cg on the GPU (CuPy)")
    ap.add_argument("--probe-mb", type=int, default=int(os.environ.get("SPMV_PROBE_MB", "256")))
    a = ap.parse_args()
    p = a.precision
    tol = DEFAULT_TOL[p] if a.tol is None else a.tol
    if not tol >= 0:
        die("--tol wants a number >= 0 (0: run exactly --maxiter iterations), not %g" % tol)
    if a.seed < 0:
        die("--seed wants a whole number >= 0")

    # the matrix and b, in double on the host
    if a.gen and a.gen.split(":")[0] in ("poisson3d", "stencil27"):
        full, nx, ny, nz = parse_box(a.gen)
        A64 = box(full, nx, ny, nz)
        name = "%s:nx=%d,ny=%d,nz=%d" % ("stencil27" if full else "poisson3d", nx, ny, nz)
    elif a.gen:
        W, H = parse_gen(a.gen)
        A64 = poisson(W, H)
        name = "poisson:nx=%d,ny=%d" % (W, H)
    else:
        A64 = read_matrix(a.matrix)
        name = os.path.splitext(os.path.basename(a.matrix))[0]
    n, m = A64.shape
    if n != m:
        die("%s is %d x %d: CG needs a square matrix" % (name, n, m))
    if A64.nnz and abs(A64 - A64.T).max() > 0:
        die("%s is not symmetric: CG needs a symmetric positive definite matrix" % name)
    maxiter = a.maxiter if a.maxiter is not None else 10 * n
    if maxiter < 0:
        die("--maxiter wants a whole number >= 0")
    if a.kappa:
        if n <= 5000:
            w = np.linalg.eigvalsh(A64.toarray())
            lo, hi, how = float(w[0]), float(w[-1]), "dense eigvalsh"
        else:
            hi = float(spla.eigsh(A64, k=1, which="LA", return_eigenvectors=False)[0])
            lo = float(spla.eigsh(A64, k=1, sigma=0, which="LM", return_eigenvectors=False)[0])
            how = "eigsh, shift-invert for the smallest"
        if not lo > 0:
            die("%s: smallest eigenvalue %.4g: not positive definite, CG's bound means nothing" % (name, lo), 1)
        kappa = hi / lo
        print("kappa    %s: lambda min %.6g, max %.6g, kappa %.4g (%s, in double)" % (name, lo, hi, kappa, how))
        t = tol if tol > 0 else DEFAULT_TOL[p]   # --tol 0: the precision's default
        print("bound    0.5 sqrt(kappa) ln(2 / %g) = %.0f iterations cut the error's A-norm by %g "
              "(for the worst b; the count grows as sqrt(kappa))" % (t, 0.5 * kappa ** 0.5 * np.log(2 / t), t))
        return 0
    if a.bfile:
        b64 = np.asarray(sio.mmread(a.bfile), dtype=np.float64).ravel() if os.path.isfile(a.bfile) else None
        if b64 is None or b64.size != n:
            die("--b %s: want an array file of %d entries" % (a.bfile, n))
    else:
        b64 = course_b(n, a.seed)
    dt = np.float32 if p == "s" else np.float64
    if p == "s":
        b64 = b64.astype(np.float32).astype(np.float64)   # the b the solver sees
    A = A64.astype(dt)
    b = b64.astype(dt)
    bnorm = float(np.linalg.norm(b64))

    # the solver: SciPy on the host, or CuPy on the GPU
    if a.gpu:
        try:
            import cupy as xp
            import cupyx.scipy.sparse as xsp
            import cupyx.scipy.sparse.linalg as xla
            xp.cuda.runtime.getDeviceCount()
        except Exception as e:   # noqa: BLE001 - no CuPy or no GPU: skipped
            print("skipped: --gpu: %s" % e)
            print("cg.py: skipped: --gpu needs CuPy and a GPU (%s)" % e, file=sys.stderr)
            sys.exit(3)
        dev = xp.cuda.Device()
        props = xp.cuda.runtime.getDeviceProperties(dev.id)
        device = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
        rt = xp.cuda.runtime.runtimeGetVersion()
        driver = "CuPy %s; CUDA runtime %d.%d" % (xp.__version__, rt // 1000, rt % 1000 // 10)
        sync = xp.cuda.runtime.deviceSynchronize
        Ad, bd = xsp.csr_matrix(A), xp.asarray(b)
        solve, kernel = xla.cg, "cupy"
    else:
        xp, sync = np, (lambda: None)
        device, driver = cpu_name(), "SciPy %s; NumPy %s" % (scipy.__version__, np.__version__)
        Ad, bd = A, b
        solve, kernel = spla.cg, "scipy"
    print("device   %s (%s)" % (device, driver))
    print("matrix   %s: %d x %d, %d nonzeros, %s" % (name, n, n, A64.nnz, "float" if p == "s" else "double"))
    bw = copy_gbs(xp, sync, a.probe_mb) if a.probe_mb > 0 else 0.0
    if bw:
        print("probe    %.1f GB/s copy (%d MiB, read + write, median of 5)" % (bw, a.probe_mb))

    # SciPy 1.12 renamed tol to rtol; atol = 0 so the test is ||r|| <= tol ||b||
    import inspect
    tolkw = "rtol" if "rtol" in inspect.signature(solve).parameters else "tol"
    stamps = []

    def tick(_xk):
        sync()
        stamps.append(time.perf_counter())

    x0 = xp.zeros(n, dtype=dt)
    if bnorm == 0:
        xk, info = x0, 0
        stamps = []
        t_start = time.perf_counter()
    else:
        sync()
        t_start = time.perf_counter()
        xk, info = solve(Ad, bd, x0=x0, maxiter=maxiter, atol=0.0, callback=tick, **{tolkw: tol})
        sync()
    t_end = time.perf_counter()
    it = len(stamps)
    x = np.asarray(xk.get() if a.gpu else xk, dtype=np.float64)
    r = b64 - A64 @ x if p == "d" else b64 - A64.astype(np.float32).astype(np.float64) @ x
    true = float(np.linalg.norm(r)) / bnorm if bnorm else 0.0
    gaps = np.diff([t_start] + stamps) * 1e3
    ms_iter = float(np.median(gaps)) if it else 0.0
    ms_total = (t_end - t_start) * 1e3
    # converged: the solver says so; check: the true residual meets tol (within
    # MARGIN: float's recurrence drifts from the true residual)
    converged = bnorm == 0 or (tol > 0 and info == 0)
    if converged:
        ok = bool(np.isfinite(true) and true <= tol * MARGIN[p])
    else:
        ok = bool(np.isfinite(true) and true < 1.0)
    # bytes: the CSR matrix once (values, columns, row pointers) and 10 vector
    # passes, the compulsory bound of chapter 7; the passes SciPy's own loop makes
    # are its business (bytes_per_iter empty)
    vs = 4 if p == "s" else 8
    mat = A64.nnz * (vs + 4) + (n + 1) * 4
    comp = mat + 10 * n * vs
    pct = 100.0 * (comp / (bw * 1e9) * 1e3) / ms_iter if bw and ms_iter else None
    check = "PASS" if ok else "FAIL"
    print("solve    %d iterations%s, info %d: true residual %.3e (tol %g)" %
          (it, " (fixed: --tol 0)" if tol == 0 else "", info, true, tol))
    if it:
        print("time     %.4f ms per iteration (median of %d), %.3f ms in all" % (ms_iter, it, ms_total))
    if pct is not None:
        print("bound    %.4f ms per iteration (matrix once + 10 vector passes at %.1f GB/s): %.1f%%" %
              (comp / (bw * 1e9) * 1e3, bw, pct))
    print("check: %s" % check)

    if a.history:
        hist = [(0, 1.0 if bnorm else 0.0)]
        Ah = A64 if p == "d" else A64.astype(np.float32).astype(np.float64)

        def record(xk):
            xh = np.asarray(xk.get() if a.gpu else xk, dtype=np.float64)
            hist.append((len(hist), float(np.linalg.norm(b64 - Ah @ xh)) / bnorm))
        if bnorm:
            solve(Ad, bd, x0=xp.zeros(n, dtype=dt), maxiter=maxiter, atol=0.0, callback=record, **{tolkw: tol})
        with open(a.history, "w") as f:
            f.write("iteration,true_residual\n")
            for k, v in hist:
                f.write("%d,%.6e\n" % (k, v))
        print("history  %d iterations to %s" % (len(hist) - 1, a.history))
    if a.save_x:
        with open(a.save_x, "w") as f:
            f.write("%%%%MatrixMarket matrix array real general\n%% x of cg.py on %s\n%d 1\n" % (name, n))
            fmt = "%.9g\n" if p == "s" else "%.17g\n"
            f.writelines(fmt % v for v in x)
    if a.csv:
        def fmt(v):   # as common/report.c writes a field: no comma, newline or quote in it
            s = "" if v is None else ("%.6g" % v if isinstance(v, float) else str(v))
            return s.replace(",", " ").replace("\n", " ").replace('"', " ")
        row = ["vendor", kernel, device, driver, name, n, n, A64.nnz, p, it, 1, 0,
               1 if converged else 0, None, true, tol, ms_iter if it else None, ms_total if it else None,
               None, None, None, None, None, comp, bw or None, None, pct, check,
               datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), git_rev()]
        new = not os.path.exists(a.csv) or os.path.getsize(a.csv) == 0
        with open(a.csv, "a") as f:
            if new:
                f.write(HEADER + "\n")
            f.write(",".join(fmt(v) for v in row) + "\n")
    if not ok or (tol > 0 and not converged):
        print("cg.py: %s" % ("not converged in %d iterations" % it if tol > 0 and not converged
                             else "the true residual misses the check"), file=sys.stderr)
    if not ok:
        return 1
    return 4 if tol > 0 and not converged else 0   # 4: --maxiter reached before --tol, as step7


if __name__ == "__main__":
    sys.exit(main())
