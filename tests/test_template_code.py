"""The templates' compiled code: shipped in the installed package
(cl2c/emit/shipped_templates.py, written by setup.py's build step), else kept in the
kernel cache (cl2c/emit/template_code.py). A new process loads it instead of compiling;
code of other templates or another Jinja is not used; a damaged file, a read-only cache or
none at all give the same C."""
from __future__ import annotations

import os
import shutil
import stat

import jinja2
import pytest

from cl2c.emit import render, shipped_templates, template_code
from cl2c.pipeline import translate
from cl2c.resources import templates_dir

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
    # the kernel cache's code, where the package ships none (a source checkout)
    monkeypatch.setattr(shipped_templates, "loader", lambda templates: None)
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
    return sorted(root.glob(f"{template_code.folder_name(shipped_templates.OPTIONS)}/*.code"))


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


# ---- the code shipped in the package ------------------------------------------------------

@pytest.fixture
def shipped(monkeypatch, tmp_path):
    """A copy of the package's templates with their code compiled beside them, as setup.py's
    build step compiles it, in use from the next environment on."""
    templates = tmp_path / "templates"
    shutil.copytree(templates_dir(), templates,
                    ignore=shutil.ignore_patterns(shipped_templates.FOLDER, "__pycache__"))
    shipped_templates.write(templates)
    monkeypatch.setattr(render, "templates_dir", lambda: templates)
    monkeypatch.setenv("CL2C_NO_CACHE", "1")        # (not the kernel cache's code)
    render._environment.cache_clear()
    yield templates
    render._environment.cache_clear()


def test_the_shipped_code_gives_the_same_c(shipped, compiles, monkeypatch):
    from_code = _in_new_process()
    assert isinstance(render._environment().loader, jinja2.ModuleLoader)
    assert compiles == []                           # not one template compiled
    monkeypatch.setattr(shipped_templates, "loader", lambda templates: None)
    assert _in_new_process() == from_code           # as compiled from the templates
    assert compiles


def test_shipped_code_of_other_templates_or_jinja_is_not_used(shipped, compiles):
    expected = _in_new_process()
    stamp = shipped / shipped_templates.FOLDER / shipped_templates.STAMP
    good = stamp.read_text()
    stamp.write_text(good.replace(f"jinja {jinja2.__version__}", "jinja 0.0"))
    assert shipped_templates.loader(shipped) is None
    stamp.write_text(good)
    with open(shipped / "header.h.j2", "a") as f:
        f.write("{# a template changed after its code was compiled #}\n")
    assert shipped_templates.loader(shipped) is None
    assert _in_new_process() == expected and compiles
    stamp.unlink()
    assert shipped_templates.loader(shipped) is None


def test_the_build_knows_the_filters_the_templates_use():
    assert set(render.FILTERS) == set(shipped_templates.FILTERS)


def test_an_installed_package_ships_its_template_code():
    if (templates_dir().parent / "pyproject.toml").is_file():
        pytest.skip("cl2c runs from its source checkout here, which holds no compiled "
                    "template code (setup.py's build step writes it into the package)")
    assert isinstance(shipped_templates.loader(templates_dir()), jinja2.ModuleLoader)
