"""The templates' compiled code in the kernel cache (cl2c/emit/template_code.py): a new
process loads it instead of compiling; a damaged file, a read-only cache or none at all
give the same C."""
from __future__ import annotations

import os
import stat

import jinja2
import pytest

from cl2c.emit import render, template_code
from cl2c.pipeline import translate

KERNEL = """
__kernel void sum(__global const float *in, __global float *out, __local float *tmp) {
    size_t i = get_local_id(0);
    tmp[i] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == 0) {
        float s = 0.0f;
        for (size_t k = 0; k < get_local_size(0); ++k) s += tmp[k];
        out[get_group_id(0)] = s;
    }
}
"""


@pytest.fixture
def cache_root(monkeypatch, tmp_path):
    """An empty kernel cache, and a process's first environment at each translation."""
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    monkeypatch.setenv("CL2C_CACHE_DIR", str(root))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    render._environment.cache_clear()
    yield root
    if root.exists():
        os.chmod(root, 0o700)
    render._environment.cache_clear()


@pytest.fixture
def compiles(monkeypatch):
    """The names of the templates compiled from their text."""
    names = []
    compile_ = jinja2.Environment.compile

    def counting(self, source, name=None, *args, **kwargs):
        names.append(name)
        return compile_(self, source, name, *args, **kwargs)
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def _in_new_process() -> str:
    """The C of KERNEL, translated as a new process's first translation does."""
    render._environment.cache_clear()
    return translate(KERNEL, source_name="sum.cl").c_source


def _code_files(root):
    return sorted(root.glob(f"{template_code.folder_name(render._OPTIONS)}/*.code"))


def test_a_new_process_loads_the_code(cache_root, compiles):
    first = _in_new_process()
    assert compiles and len(_code_files(cache_root)) == len(compiles)
    compiles.clear()
    assert _in_new_process() == first
    assert compiles == []


def test_a_damaged_file_is_compiled_again(cache_root, compiles):
    first = _in_new_process()
    files = _code_files(cache_root)
    damages = [lambda b: b[:len(b) // 2], lambda b: b"", lambda b: b"junk\n" + b[40:],
               lambda b: b[:-10] + bytes(x ^ 0xFF for x in b[-10:])]
    for i, path in enumerate(files):
        path.write_bytes(damages[i % len(damages)](path.read_bytes()))
    compiles.clear()
    assert _in_new_process() == first
    assert len(compiles) == len(files)
    compiles.clear()                    # and rewritten whole
    assert _in_new_process() == first
    assert compiles == []


def test_a_read_only_cache_still_translates(cache_root, compiles):
    expected = _in_new_process()
    for path in [*_code_files(cache_root), *cache_root.iterdir()]:
        os.chmod(path, stat.S_IRUSR | stat.S_IXUSR)
    os.chmod(cache_root, stat.S_IRUSR | stat.S_IXUSR)
    assert _in_new_process() == expected


def test_no_cache_folder_no_code_cache(cache_root, monkeypatch):
    os.rmdir(cache_root)
    expected = _in_new_process()
    assert not cache_root.exists()      # a translation makes no cache
    cache_root.mkdir(mode=0o700)
    monkeypatch.setenv("CL2C_NO_CACHE", "1")
    assert _in_new_process() == expected
    assert list(cache_root.iterdir()) == []


def test_an_unwritable_folder_is_no_error(cache_root, compiles):
    expected = _in_new_process()
    folder = _code_files(cache_root)[0].parent
    render._environment.cache_clear()
    env = render._environment()         # its folder gone from under it
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    assert translate(KERNEL, source_name="sum.cl").c_source == expected
    assert env is render._environment() and not folder.exists()
