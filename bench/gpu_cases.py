"""The GPU-style corpus (issue 37, item 7): kernels written the way GPU programmers
write them (kernels/gpu/), each beside a hand-written C+OpenMP version of the same
algorithm as a CPU programmer writes it (hand/gpu_*.c), at the sizes asked.

    python bench/bench.py --corpus gpu [--quick]

Oversized grids with early-exit guards, a local-memory tile with halos, column-major
features with the work-item's loop over them, a host loop of many small launches, and
the seeds' kernels as printed: the lecture's matrix multiplications (seeds/003), the
OpenCL Programming Guide's RGB histogram, Sobel filter and shortest paths (seeds/000,
Part II). The SpMV is the common CSR "scalar" kernel: the Guide's own (chapter 22)
needs its host-side packet builder."""
from __future__ import annotations

import math

import numpy as np

from cases import Case, Img, Local
from hand_c import Const

CORPUS_CLASSES = ("guarded", "tiled_halo", "colmajor", "rowmajor", "wavefront", "lecture",
                  "histogram_rgba", "sobel_rgba", "spmv", "dijkstra")

# (default, --quick) sizes, chosen for a 2-core machine
SIZES = {"guarded": (1 << 22, 4096), "grid_factor": (32, 32),
         "stencil": ((2040, 2040), (60, 44)), "kmeans_points": (1 << 18, 1000),
         "rowmajor": ((2040, 2040), (60, 44)),
         "wavefront": (512, 40), "lecture": (512, 32), "image": ((1920, 1080), (100, 60)),
         "spmv_rows": (1 << 18, 1000), "dijkstra_vertices": (100_000, 1000)}


def _size(key, quick):
    return SIZES[key][1 if quick else 0]


def _round_up(n, m):
    return (n + m - 1) // m * m


def _jacobi_ref(a):
    g, out = a[0], np.zeros_like(a[1])
    out[1:-1, 1:-1] = np.float32(0.25) * (g[1:-1, :-2] + g[1:-1, 2:] + g[:-2, 1:-1]
                                          + g[2:, 1:-1])
    return [out]


def _kmeans_ref(a):
    feats, clusters, npoints, nclusters, nf = a[0], a[1], int(a[3]), int(a[4]), int(a[5])
    f = feats.reshape(nf, npoints).astype(np.float64)
    c = clusters.reshape(nclusters, nf).astype(np.float64)
    dist = ((f[None, :, :] - c[:, :, None]) ** 2).sum(1)
    return [np.argmin(dist, axis=0).astype(np.int32)]


def _nw_ref(a):
    sim, n, penalty = a[1], int(a[2]), int(a[3])
    s = np.zeros((n + 1, n + 1), np.int64)
    for d in range(2 * n - 1):
        first, last = (1, d + 1) if d < n else (d - n + 2, n)
        i = np.arange(first, last + 1)
        j = d + 2 - i
        s[i, j] = np.maximum(s[i - 1, j - 1] + sim[i - 1, j - 1],
                             np.maximum(s[i - 1, j] - penalty, s[i, j - 1] - penalty))
    return [s.astype(np.int32)]


def _sobel_ref(a):
    img = a[0].array.astype(np.float32) / np.float32(255)
    p = np.pad(img, ((1, 1), (1, 1), (0, 0)), mode="edge")
    h, w = img.shape[:2]

    def at(dy, dx):
        return p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w, :3]
    gx = -at(-1, -1) + at(-1, 1) + 2 * (at(0, 1) - at(0, -1)) - at(1, -1) + at(1, 1)
    gy = -at(-1, -1) - at(-1, 1) + 2 * (at(1, 0) - at(-1, 0)) + at(1, -1) + at(1, 1)
    out = np.full((h, w, 4), 255, np.uint8)
    out[..., :3] = np.clip(np.rint(np.sqrt(gx * gx + gy * gy) * 255), 0, 255)
    return [out]


def _histogram_ref(a):
    px = a[0].array
    return [np.concatenate([np.bincount(px[..., c].ravel(), minlength=256)
                            for c in range(3)]).astype(np.uint32)]


def _spmv_ref(a):
    row_start, col, val, x = a[0], a[1], a[2], a[3]
    prod = val.astype(np.float64) * x[col].astype(np.float64)
    sums = np.add.reduceat(prod, row_start[:-1]) if prod.size else prod
    sums[row_start[:-1] == row_start[1:]] = 0
    return [sums.astype(np.float32)]


def _frontier_sssp(vertex, edge, weight, nv, source, padded):
    """The Guide's two phases in NumPy, race-free: the costs and how many rounds of
    phase 1 + phase 2 the kernels need until no vertex is marked."""
    cost = np.full(padded, np.finfo(np.float32).max, np.float32)
    cost[source] = 0
    mask = np.zeros(padded, bool)
    mask[source] = True
    counts = np.diff(np.append(vertex, edge.size))
    src_of_edge = np.repeat(np.arange(nv), counts)
    rounds = 0
    while mask.any():
        rounds += 1
        active = mask[src_of_edge]
        updating = cost.copy()
        np.minimum.at(updating, edge[active], cost[src_of_edge[active]] + weight[active])
        mask = updating < cost
        cost = updating
    return cost, rounds


def make_gpu_cases(s, rng: np.random.Generator) -> list[Case]:
    """s: the parsed command line (quick, corpus_scale)."""
    f32, i32 = np.float32, np.int32
    q = s.quick
    cases = []

    n = _size("guarded", q)
    grid = n * _size("grid_factor", q)
    x, b = rng.random(n, dtype=f32), rng.random(n, dtype=f32)
    cases.append(Case("guarded", f"guarded a*x+b 2^{int(math.log2(n))}, grid x32",
                      "gpu/guarded.cl", "guarded_axpb", (grid,), (256,),
                      [np.zeros(n, f32), x, b, f32(2.5), i32(n)], [0],
                      ("hand_axpb", [0, 1, 2, 3, 4]), ref=lambda a: [a[3] * a[1] + a[2]],
                      rtol=1e-6, bytes=12 * n, streaming=True))

    nx, ny = _size("stencil", q)
    g = rng.random((ny, nx), dtype=f32)
    cases.append(Case("tiled_halo", f"Jacobi {nx}x{ny}, 16x16 tiles + halo",
                      "gpu/tiled_stencil.cl", "jacobi_tiled",
                      (_round_up(nx, 16), _round_up(ny, 16)), (16, 16),
                      [g, np.zeros_like(g), i32(nx), i32(ny)], [1],
                      ("hand_jacobi", [0, 1, 2, 3]), ref=_jacobi_ref, rtol=1e-6,
                      bytes=8 * nx * ny, streaming=True))

    npts, nclusters, nfeatures = _size("kmeans_points", q), 5, 34
    feats = rng.random(nfeatures * npts, dtype=f32)
    clusters = rng.random(nclusters * nfeatures, dtype=f32)
    cases.append(Case("colmajor", f"k-means assign {npts} pts x {nfeatures} features",
                      "gpu/kmeans.cl", "kmeans_assign", (_round_up(npts, 256),), (256,),
                      [feats, clusters, np.zeros(npts, i32), i32(npts), i32(nclusters),
                       i32(nfeatures)], [2], ("hand_kmeans", [0, 1, 2, 3, 4, 5]),
                      ref=_kmeans_ref, max_mismatch=1e-3, bytes=4 * nfeatures * npts,
                      streaming=True))

    rows, cols = _size("rowmajor", q)
    xr, yr = rng.random((rows, cols), dtype=f32), rng.random((rows, cols), dtype=f32)
    cases.append(Case("rowmajor", f"rows along id 0, a*x+b*y {rows}x{cols}",
                      "gpu/rowmajor.cl", "axpby_rows",
                      (_round_up(rows, 16), _round_up(cols, 16)), (16, 16),
                      [np.zeros_like(xr), xr, yr, f32(2.5), f32(-0.5), i32(rows), i32(cols)],
                      [0], ("hand_axpby_rows", [0, 1, 2, 3, 4, 5, 6]),
                      ref=lambda a: [a[3] * a[1] + a[4] * a[2]], rtol=1e-6,
                      bytes=12 * rows * cols, streaming=True))

    nw = _size("wavefront", q)
    sim = rng.integers(-4, 6, (nw, nw), dtype=np.int32)
    steps = [("nw_diagonal", (_round_up(min(d + 1, 2 * nw - 1 - d), 64),), (64,),
              [0, 1, 2, 3, Const(i32(d))]) for d in range(2 * nw - 1)]
    cases.append(Case("wavefront", f"wavefront {nw}x{nw}: {len(steps)} launches",
                      "gpu/wavefront.cl", "nw_diagonal", (0,), None,
                      [np.zeros((nw + 1, nw + 1), i32), sim, i32(nw), i32(2)], [0],
                      ("hand_nw", [0, 1, 2, 3]), ref=_nw_ref, rtol=0, atol=0, steps=steps,
                      slow=True, notes={"launches": len(steps)}))

    dim = _size("lecture", q)
    A, B = rng.random((dim, dim), dtype=f32), rng.random((dim, dim), dtype=f32)
    local6 = math.gcd(dim, 24)          # the lecture's ggt(DIM, compute units), 24 units
    for ver, what, gsize, local, extra in (
            ("v1", "V1 rows, C +=", (dim,), None, []),
            ("v2", "V2 rows, sum", (dim,), None, []),
            ("v3", "V3 elements", (dim, dim), None, []),
            ("v4", "V4 elements, swapped", (dim, dim), None, []),
            ("v5", "V5 rows, A private", (dim,), None, []),
            ("try1", "Try 1 rows, A+B private", (dim,), None, []),
            ("v6", f"V6 A private, B local ({local6})", (dim,), (local6,),
             [Local(4 * dim)])):
        cases.append(Case("lecture", f"lecture {what} {dim}^2", f"gpu/lecture_{ver}.cl",
                          "matmult", gsize, local, [A, B, np.zeros((dim, dim), f32), *extra],
                          [2], ("hand_matmul", [0, 1, 2, Const(i32(dim))]),
                          ref=lambda a: [a[0] @ a[1]], rtol=1e-4, atol=1e-5 * dim,
                          flops=2 * dim ** 3, slow=True, defines={"DIM": dim}))

    w, h = _size("image", q)
    pic = Img(rng.integers(0, 256, (h, w, 4), dtype=np.uint8))
    lw, lh = 16, 16                         # the Guide's choice for a 256-item group
    groups = _round_up(w, lw) // lw * (_round_up(h, lh) // lh)
    partial = np.zeros(groups * 768, np.uint32)
    cases.append(Case("histogram_rgba", f"Guide RGB histogram {w}x{h} RGBA8",
                      "gpu/guide_histogram.cl", "histogram_partial_image_rgba_unorm8",
                      (_round_up(w, lw), _round_up(h, lh)), (lw, lh),
                      [pic, partial, i32(groups), np.zeros(768, np.uint32)], [3],
                      ("hand_rgba_histogram", [0, Const(i32(w)), Const(i32(h)), 3]),
                      ref=_histogram_ref, rtol=0, atol=0, bytes=4 * w * h, streaming=True,
                      scratch=[1],
                      steps=[("histogram_partial_image_rgba_unorm8",
                              (_round_up(w, lw), _round_up(h, lh)), (lw, lh), [0, 1]),
                             ("histogram_sum_partial_results_unorm8", (768,), (256,),
                              [1, 2, 3])]))

    cases.append(Case("sobel_rgba", f"Guide Sobel {w}x{h} RGBA8", "gpu/guide_sobel.cl",
                      "sobel_rgb", (_round_up(w, 16), _round_up(h, 16)), (16, 16),
                      [pic, Img(np.zeros_like(pic.array))], [1],
                      ("hand_sobel_rgba8", [0, 1, Const(i32(w)), Const(i32(h))]),
                      ref=_sobel_ref, rtol=0, atol=1, bytes=8 * w * h, streaming=True))

    rows = _size("spmv_rows", q)
    per_row = rng.integers(0, 33, rows)                 # 16 a row on average
    row_start = np.concatenate([[0], np.cumsum(per_row)]).astype(i32)
    nnz = int(row_start[-1])
    col = rng.integers(0, rows, nnz, dtype=i32)
    val = rng.random(nnz, dtype=f32)
    xv = rng.random(rows, dtype=f32)
    cases.append(Case("spmv", f"SpMV CSR scalar {rows} rows, {nnz} nonzeros",
                      "gpu/spmv_csr.cl", "spmv_csr_scalar", (_round_up(rows, 256),), (256,),
                      [row_start, col, val, xv, np.zeros(rows, f32), i32(rows)], [4],
                      ("hand_spmv", [0, 1, 2, 3, 4, 5]), ref=_spmv_ref, rtol=1e-4, atol=1e-5,
                      bytes=8 * nnz + 12 * rows, streaming=True))

    nv, degree, local = _size("dijkstra_vertices", q), 5, 256
    padded = _round_up(nv, local)
    edge = rng.integers(0, nv, nv * degree, dtype=i32)
    vertex = np.arange(0, nv * degree, degree, dtype=i32)
    weight = (rng.random(nv * degree, dtype=f32) + f32(0.01)).astype(f32)
    cost, rounds = _frontier_sssp(vertex, edge, weight, nv, 0, padded)
    graph = [vertex, edge, weight, np.zeros(padded, i32), np.zeros(padded, f32),
             np.zeros(padded, f32), i32(nv), i32(nv * degree)]
    phase1 = ("DijkstraKernel1", (padded,), (local,), [0, 1, 2, 3, 4, 5, 6, 7])
    phase2 = ("DijkstraKernel2", (padded,), (local,), [0, 1, 2, 3, 4, 5, 6])
    init = ("initializeBuffers", (padded,), (local,), [3, 4, 5, Const(i32(0)), 6])
    # The Guide's host loop: the two phases until no vertex is marked. Phase 1 has no
    # atomics: two work-items racing on a neighbour may lose the better update, which
    # a later round repairs when the loser's cost improves again (more rounds than
    # NumPy's race-free count) and nothing repairs when its cost was already final.
    cases.append(Case("dijkstra", f"Guide shortest paths {nv} vertices, degree {degree}: "
                      f"~{2 * rounds + 1} launches", "gpu/guide_dijkstra.cl",
                      "DijkstraKernel1", (padded,), (local,), graph, [4],
                      ("hand_sssp", [0, 1, 2, 3, 4, 5, 6, 7, Const(i32(0)),
                                     Const(i32(padded))]),
                      ref=lambda a, c=cost: [c], rtol=1e-5, atol=0, scratch=[3, 5],
                      steps=[init], until_clear=([phase1, phase2], 3, padded + 1),
                      slow=True, notes={"rounds": rounds, "launches": 2 * rounds + 1,
                                        "races": "phase 1 races as printed"}))
    return cases
