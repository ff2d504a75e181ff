"""cl2c's one atomic write (outputs.stage_beside / write_atomic), which the CLI's outputs,
the kernel cache and the setuptools hook share: whole files or none, no temporary file
left behind, the permissions asked for, an unchanged file kept as it is."""
from __future__ import annotations

import os
import threading
import warnings

import pytest

from cl2c import cachedir, outputs


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_file_is_written_and_replaced_with_nothing_left_beside_it(tmp_path):
    path = tmp_path / "f.c"
    assert outputs.write_atomic(path, b"one")
    assert outputs.write_atomic(path, b"two, longer")
    assert path.read_bytes() == b"two, longer" and os.listdir(tmp_path) == ["f.c"]


@pytest.mark.parametrize("mode", [None, 0o666, 0o777])
def test_permissions_follow_the_mode_and_the_umask(tmp_path, mode):
    path = tmp_path / "f"
    outputs.write_atomic(path, b"x", mode=mode)
    want = 0o600 if mode is None else mode & ~_umask()
    assert path.stat().st_mode & 0o777 == want


def test_an_unchanged_file_keeps_its_time(tmp_path):
    path = tmp_path / "f.c"
    path.write_bytes(b"same")
    os.utime(path, (1_000_000, 1_000_000))
    assert not outputs.write_atomic(path, b"same", keep_unchanged=True)
    assert path.stat().st_mtime == 1_000_000
    assert outputs.write_atomic(path, b"other", keep_unchanged=True)
    assert path.read_bytes() == b"other" and path.stat().st_mtime != 1_000_000


def test_a_failure_raises_and_leaves_no_temporary_file(tmp_path):
    with pytest.raises(OSError):
        outputs.write_atomic(tmp_path / "missing" / "f", b"x")
    target = tmp_path / "d"
    target.mkdir()          # a rename onto a directory fails after the staging
    with pytest.raises(OSError):
        outputs.write_atomic(target, b"x")
    with pytest.raises(TypeError):      # the write itself fails
        outputs.stage_beside(tmp_path / "f", "not bytes")
    assert os.listdir(tmp_path) == ["d"] and os.listdir(target) == []


def test_a_reader_sees_one_whole_file_or_the_other(tmp_path):
    path = tmp_path / "f"
    contents = [bytes([65 + i]) * 300_000 for i in range(2)]
    outputs.write_atomic(path, contents[0])
    stop = threading.Event()

    def writer():
        i = 0
        while not stop.is_set():
            outputs.write_atomic(path, contents[i % 2])
            i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        seen = {path.read_bytes() for _ in range(300)}
    finally:
        stop.set()
        thread.join()
    assert seen <= set(contents), {len(s) for s in seen}


def test_the_cache_writes_through_it_and_warns_where_it_cannot(tmp_path):
    path = tmp_path / "entry"
    assert cachedir.write_atomic(path, b"cached")
    assert path.read_bytes() == b"cached"
    assert os.listdir(tmp_path) == ["entry"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert not cachedir.write_atomic(tmp_path / "missing" / "entry", b"x")
    assert any("cannot write the kernel cache" in str(w.message) for w in caught)


def test_the_setuptools_hook_writes_cffis_c_once(tmp_path, monkeypatch):
    """Differential: the hook's C file is what cffi itself writes for the module, and a
    second generate() of an unchanged kernel leaves the file and its time as they are."""
    pytest.importorskip("setuptools")
    cffi = pytest.importorskip("cffi")
    from cl2c.setuptools_hook import _spec, generate
    from cl2c.aot import module_source
    from cl2c.pipeline import translate
    from cl2c.target import Target
    src = tmp_path / "k.cl"
    src.write_text("__kernel void k(__global float *x) { x[get_global_id(0)] *= 2.0f; }\n")
    monkeypatch.chdir(tmp_path)
    spec = _spec("k.cl:pkg.kernels")
    c_file, deps = generate(spec, str(tmp_path / "build"))
    os.utime(c_file, (1_000_000, 1_000_000))
    assert generate(spec, str(tmp_path / "build"))[0] == c_file
    assert os.path.getmtime(c_file) == 1_000_000
    assert os.listdir(tmp_path / "build") == ["pkg.kernels.c"]
    ffi = cffi.FFI()
    cdef, source = module_source(translate(src.read_text(), "k.cl", "",
                                           target=Target.assumed(native=False)))
    ffi.cdef(cdef)
    ffi.set_source("pkg.kernels", source)
    ffi.emit_c_code(str(tmp_path / "theirs.c"))
    assert (tmp_path / "theirs.c").read_bytes() == open(c_file, "rb").read()
    assert os.stat(c_file).st_mode & 0o777 == 0o666 & ~_umask()
