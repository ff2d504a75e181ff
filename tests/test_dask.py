"""cl2c.dask: kernels over Dask arrays, on a distributed.LocalCluster of two worker
processes that have no C compiler on their PATH (the program travels pickled, with its
library). Each launch split into chunks equals the kernel run whole through cl2c.Program,
and NumPy; what cannot be split is refused with a message that names the argument."""
from __future__ import annotations

import logging
import os
import shutil

import numpy as np
import pytest

import cl2c

da = pytest.importorskip("dask.array", reason="cl2c.dask needs dask (pip install cl2c[dask])")
distributed = pytest.importorskip("distributed", reason="the cluster tests need distributed")
cd = pytest.importorskip("cl2c.dask")

SOURCE = r"""
kernel void stencil(global const float *in, global float *out) {
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t w = get_global_size(0), h = get_global_size(1), i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[i] = in[i]; return; }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}
kernel void torus(global const float *in, global float *out) {   /* rows wrap: halos do */
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    size_t i = y * w + x;
    out[i] = in[i - w] + 10 * in[i + w];
}
kernel void group_sums(global const float *a, global float *sums, local float *s) {
    size_t l = get_local_id(0);
    s[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = get_local_size(0) / 2; k > 0; k /= 2) {
        if (l < k) s[l] += s[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) sums[get_group_id(0)] = s[0];
}
kernel void histogram(global const uint *v, global uint *bins, local uint *local_bins) {
    size_t l = get_local_id(0);
    if (l < 16) local_bins[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&local_bins[v[get_global_id(0)] % 16]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) atomic_add(&bins[l], local_bins[l]);
}
kernel void scale_rows(global float *img, global const float *coef) {  /* flat: pitch */
    size_t x = get_global_id(0), y = get_global_id(1);
    img[y * get_global_size(0) + x] *= coef[x % 4];
}
"""

H, W = 64, 40


@pytest.fixture(scope="module")
def prg():
    return cl2c.Program(SOURCE).build()


# A result that does not come is a failure, not a hang of the suite (a run under load
# once waited forever for workers that had gone; a local run here, once, saw the whole
# cluster gone, and each later test waited out its timeout). Each result first asks
# for the workers, which a nanny restarts within seconds: a cluster without them fails
# its test within WORKERS_TIMEOUT, and every later one of that cluster at once.
RESULT_TIMEOUT = 300
WORKERS_TIMEOUT = 60
_lost: dict = {}        # id of a client whose workers did not come: why


def got(future):
    client = future.client
    if id(client) in _lost:
        pytest.fail(_lost[id(client)])
    try:
        client.wait_for_workers(2, timeout=WORKERS_TIMEOUT)
    except (TimeoutError, OSError) as e:
        _lost[id(client)] = f"the cluster has not got its two workers ({e!r})"
        pytest.fail(_lost[id(client)])
    return future.result(timeout=RESULT_TIMEOUT)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """Two worker processes, one thread each, with no C compiler to find."""
    empty = tmp_path_factory.mktemp("no-compiler")
    env = {"PATH": str(empty), "CC": "/nonexistent/cc",
           "CL2C_CACHE_DIR": str(tmp_path_factory.mktemp("worker-cache")),
           "PYTHONPATH": os.pathsep.join(filter(None, [os.path.dirname(os.path.dirname(
               os.path.abspath(cl2c.__file__))), os.environ.get("PYTHONPATH")]))}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", env=env,
                                  silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_workers_have_no_compiler(client):
    found = client.run(lambda: [shutil.which(cc) for cc in ("cc", "gcc", "clang")])
    assert len(found) == 2 and all(w == [None, None, None] for w in found.values())


def test_stencil_with_halos(client, prg):
    a = np.random.default_rng(0).random((H, W), dtype=np.float32)
    whole = np.zeros_like(a)
    prg.stencil((W, H), None, a, whole)
    expect = a.copy()
    expect[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[:-2, 1:-1] +
                                a[2:, 1:-1])
    np.testing.assert_allclose(whole, expect, rtol=1e-6)
    x = da.from_array(a, chunks=(16, W))
    (out,) = cd.map_kernel(prg.stencil, (W, H), None, cd.rows(x, halo=1),
                           cd.empty((H, W), np.float32))
    assert out.chunks == ((16, 16, 16, 16), (W,))
    np.testing.assert_array_equal(got(client.compute(out)), whole)
    # uneven chunks of whole groups, and NumPy input
    (out,) = cd.map_kernel(prg.stencil, (W, H), (8, 4), cd.rows(a, halo=1),
                           cd.empty((H, W), np.float32), chunks=(12, 20, 8, 24))
    np.testing.assert_array_equal(got(client.compute(out)), whole)


def test_periodic_boundary(client, prg):
    a = np.random.default_rng(1).random((H, W), dtype=np.float32)
    (out,) = cd.map_kernel(prg.torus, (W, H), None, cd.rows(a, halo=1, boundary="periodic"),
                           cd.empty((H, W), np.float32), chunks=16)
    expect = np.roll(a, 1, axis=0) + 10 * np.roll(a, -1, axis=0)
    np.testing.assert_allclose(got(client.compute(out)), expect, rtol=1e-6)


def test_reduction_through_group_partials(client, prg):
    v = np.random.default_rng(2).random(4096, dtype=np.float32)
    whole = np.zeros(16, np.float32)
    prg.group_sums(4096, 256, v, whole, cl2c.LocalMemory(1024))
    (sums,) = cd.map_kernel(prg.group_sums, 4096, 256, da.from_array(v, chunks=1024),
                            cd.groups(cd.empty(16, np.float32)), cl2c.LocalMemory(1024))
    assert sums.chunks == ((4, 4, 4, 4),)
    np.testing.assert_array_equal(got(client.compute(sums)), whole)
    np.testing.assert_allclose(got(client.compute(sums.sum())), v.sum(), rtol=1e-5)


def test_histogram_summed(client, prg):
    vals = np.random.default_rng(3).integers(0, 1000, 8192).astype(np.uint32)
    start = np.arange(16, dtype=np.uint32)        # added to, as a whole launch would
    (bins,) = cd.map_kernel(prg.histogram, 8192, 128, vals, cd.summed(start),
                            cl2c.LocalMemory(64), chunks=2048, threads=2)
    np.testing.assert_array_equal(got(client.compute(bins)),
                                  start + np.bincount(vals % 16, minlength=16))
    assert (start == np.arange(16)).all()        # NumPy inputs are never written


def test_global_size_as_pitch(client, prg):
    img = np.random.default_rng(4).random(H * W, dtype=np.float32)   # flat: W per row
    coef = np.array([1, 2, 3, 4], np.float32)
    whole = img.copy()
    prg.scale_rows((W, H), None, whole, coef)
    np.testing.assert_array_equal(whole.reshape(H, W), img.reshape(H, W) * np.tile(coef, 10))
    (out,) = cd.map_kernel(prg.scale_rows, (W, H), None, cd.rows(img), coef, chunks=16)
    assert out.chunks == ((16 * W,) * 4,)
    np.testing.assert_array_equal(got(client.compute(out)), whole)
    assert not np.array_equal(img, whole)         # the input stayed as it was


@pytest.mark.parametrize("build, message", [
    (lambda p: cd.map_kernel(p.scale_rows, (W, H), None, cd.whole(np.ones(H * W, np.float32)),
                             np.ones(4, np.float32)),
     "argument 0 'img'.*writes it, but a whole argument"),
    (lambda p: cd.map_kernel(p.scale_rows, (W, H), None, np.ones(H * W, np.float32),
                             np.ones(4, np.float32)),          # unwrapped: whole by default
     "argument 0 'img'.*writes it, but a whole argument"),
    (lambda p: cd.map_kernel(p.stencil, (W, H), (8, 4), cd.rows(np.ones((H, W), np.float32),
                                                                  halo=9),
                             cd.empty((H, W), np.float32), chunks=8),
     "argument 0 'in'.*halo of 9 rows is deeper than a chunk"),
    (lambda p: cd.map_kernel(p.stencil, (W, H), (8, 4), np.ones((H, W), np.float32),
                             cd.empty((H, W), np.float32), chunks=6),
     "local size 4 .*does not divide the chunk"),
    (lambda p: cd.map_kernel(p.group_sums, 4096, 256, np.ones(4096, np.float32),
                             cd.groups(cd.empty(8, np.float32)), cl2c.LocalMemory(1024)),
     "argument 1 'sums'.*one row per work-group.*16"),
    (lambda p: cd.map_kernel(p.stencil, (W, H), None, da.ones((H + 1, W), dtype=np.float32),
                             cd.empty((H, W), np.float32)),
     "argument 0 'in'.*wrap it in cl2c.dask.rows"),
    (lambda p: cd.map_kernel(p.stencil, (W, H), None, cd.rows(np.ones((H, W), np.float32),
                                                              boundary="mirror"),
                             cd.empty((H, W), np.float32)),
     "argument 0 'in'.*boundary must be"),
    (lambda p: cd.map_kernel(p.group_sums, 4096, 256, np.ones(4096, np.float32),
                             cd.groups(cd.empty(16, np.float32)), cd.whole(np.ones(4))),
     "argument 2 's'.*only __global and __constant buffers take a role"),
])
def test_refusals(prg, build, message):
    with pytest.raises(cd.SplitError, match=message):
        build(prg)


def test_the_picture_is_current():
    """docs/guides/dask-split.svg is what docs/guides/dask_split.py draws today."""
    import importlib.util
    from pathlib import Path
    guides = Path(__file__).resolve().parent.parent / "docs" / "guides"
    spec = importlib.util.spec_from_file_location("dask_split", guides / "dask_split.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    bounds = script.chunk_bounds(script.kernel())
    assert bounds == [(0, 16), (16, 32), (32, 48), (48, 64)]
    assert (guides / "dask-split.svg").read_text() == script.svg(bounds), \
        "run python docs/guides/dask_split.py"


@pytest.mark.parametrize("scheduler", ["threads", "synchronous"])
def test_local_schedulers(prg, scheduler):
    """Without a cluster: the threaded scheduler (a launch a task on one thread) and the
    synchronous one compute what the whole launch does."""
    import dask
    a = np.random.default_rng(5).random((H, W), dtype=np.float32)
    whole = np.zeros_like(a)
    prg.stencil((W, H), None, a, whole)
    (out,) = cd.map_kernel(prg.stencil, (W, H), (8, 4), cd.rows(a, halo=1),
                           cd.empty((H, W), np.float32), chunks=8)
    with dask.config.set(scheduler=scheduler):
        np.testing.assert_array_equal(out.compute(), whole)
