"""The kernel cache recovers: bad entries are rebuilt, unsafe ones refused, an unusable
directory gives way to a private one, and what killed builds leave is removed.

Most tests run fresh processes (a process that loaded a module keeps it: only a new
one reads the cache's files). Tests may run as root, who may write anywhere: where a
permission cannot be made real for root, the test says so and simulates it.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

import cl2c
from cl2c import cache, cachedir

IS_ROOT = os.geteuid() == 0

SCRIPT = r"""
import json, sys, warnings
import numpy as np
import cl2c
src = '''
__kernel void probe(__global int *b, int k)
{
    size_t i = get_global_id(0);
    b[i] = (int)i * k + SALT;
}
'''
results = []
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    for salt in sys.argv[1:]:
        prg = cl2c.Program(src, options=f"-DSALT={salt}").build()
        b = np.zeros(64, np.int32)
        prg.probe((64,), None, b, 3)
        results.append({"ok": bool((b == np.arange(64) * 3 + int(salt)).all()),
                        "from_cache": prg.from_cache})
print(json.dumps({"results": results, "translated": "cl2c.pipeline" in sys.modules,
                  "warnings": [str(w.message) for w in seen
                               if issubclass(w.category, cl2c.CacheWarning)]}))
"""


def _env(cache_dir=None, **extra):
    env = dict(os.environ)
    env.pop("CL2C_NO_CACHE", None)
    if cache_dir is not None:
        env["CL2C_CACHE_DIR"] = str(cache_dir)
    env.update(extra)
    return env


def _run(env, *salts):
    res = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, salts or (1,))],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert all(r["ok"] for r in out["results"]), out
    return out


def _build(cache_dir, *salts, **extra):
    return _run(_env(cache_dir, **extra), *salts)


def _only(cache_dir: Path, pattern: str) -> Path:
    (path,) = cache_dir.glob(pattern)
    return path


def _library(cache_dir: Path) -> Path:
    return _only(cache_dir, "_cl2c_*.so")


def _flip_byte(path: Path, where: float = 0.5) -> None:
    data = bytearray(path.read_bytes())
    data[int(len(data) * where)] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)


def _library_verifies(cache_dir: Path) -> bool:
    lib = _library(cache_dir)
    return cachedir.read_verified(lib) == lib.read_bytes()


# ---- corrupt entries are rebuilt, with a warning -----------------------------------------

@pytest.mark.parametrize("damage,warned", [
    (lambda d: _flip_byte(_library(d)), True),
    (lambda d: _truncate(_library(d)), True),
    (lambda d: _library(d).write_bytes(b""), True),
    (lambda d: _flip_byte(_only(d, "*.sha256"), 0.1), True),
    (lambda d: _only(d, "*.sha256").unlink(), False),      # as an older cl2c left it
    (lambda d: _library(d).unlink(), False),
], ids=["flipped-byte", "truncated", "empty", "bad-checksum", "no-checksum", "deleted"])
def test_a_bad_shared_library_is_rebuilt(tmp_path, damage, warned):
    first = _build(tmp_path)
    assert first["results"][0]["from_cache"] is False and first["warnings"] == []
    damage(tmp_path)
    again = _build(tmp_path)
    assert again["results"][0]["from_cache"] is False, "the bad entry was used"
    if warned:
        (w,) = again["warnings"]
        assert "is corrupt" in w and "rebuilt" in w, w
    else:
        assert again["warnings"] == []
    assert _library_verifies(tmp_path)
    assert _build(tmp_path) == {**first, "translated": False,
                                "results": [{"ok": True, "from_cache": True}]}


def _flip_module_name(path: Path) -> None:
    """A change that leaves the manifest valid JSON: one hex digit of the module name."""
    text = path.read_text()
    at = text.index('"module": "_cl2c_') + len('"module": "_cl2c_')
    path.write_text(text[:at] + ("1" if text[at] != "1" else "2") + text[at + 1:])


@pytest.mark.parametrize("damage", [_truncate, _flip_module_name,
                                    lambda p: p.write_text('{"module": "x"}')],
                         ids=["truncated", "still-json", "old-format"])
def test_a_bad_manifest_is_rewritten(tmp_path, damage):
    _build(tmp_path)
    damage(_only(tmp_path, "src_*.json"))
    again = _build(tmp_path)
    # translated again; the library itself was intact
    assert again["translated"] is True and again["results"][0]["from_cache"] is True
    (w,) = again["warnings"]
    assert "src_" in w and "is corrupt" in w, w
    assert _build(tmp_path)["translated"] is False


# ---- a directory that cannot be used gives way to a private one ------------------------

def test_an_unwritable_home_falls_back_to_a_private_cache(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file, so nothing can be created under it, not even by root")
    systmp = tmp_path / "systmp"
    systmp.mkdir()
    env = _env(None, HOME=str(home), TMPDIR=str(systmp))
    env.pop("CL2C_CACHE_DIR", None)
    env.pop("XDG_CACHE_HOME", None)
    first = _run(env, 5, 6)                  # two builds, one warning
    (w,) = first["warnings"]
    private = systmp / f"cl2c-cache-{os.geteuid()}"
    assert "cannot be created" in w and str(private) in w, w
    assert any(private.glob("_cl2c_*")), "nothing was cached in the private directory"
    assert private.stat().st_mode & 0o777 == 0o700
    second = _run(env, 5)
    assert second["results"][0]["from_cache"] is True and len(second["warnings"]) == 1


@pytest.fixture
def fresh_state(monkeypatch, tmp_path):
    """This process's cache state as a new process has it, with its own system temp dir."""
    monkeypatch.setattr(cachedir, "_warned", set())
    systmp = tmp_path / "systmp"
    systmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(systmp))
    cachedir.private_root.cache_clear()
    yield systmp
    cachedir.private_root.cache_clear()


def _unique_build(cache_dir, monkeypatch):
    """An in-process build of a kernel no earlier test built (so it is not loaded yet)."""
    monkeypatch.setenv("CL2C_CACHE_DIR", str(cache_dir))
    monkeypatch.delenv("CL2C_NO_CACHE", raising=False)
    salt = int.from_bytes(os.urandom(3), "little")
    prg = cl2c.Program("__kernel void k(__global int *b) { b[get_global_id(0)] = SALT; }",
                       options=f"-DSALT={salt}").build()
    b = np.zeros(8, np.int32)
    prg.k((8,), None, b)
    assert (b == salt).all()
    return prg


def test_a_read_only_cache_directory_falls_back(tmp_path, monkeypatch, fresh_state):
    ro = tmp_path / "ro"
    ro.mkdir()
    if IS_ROOT:
        # root writes through mode bits: make access() say what it says to anyone else
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False
                            if Path(p) == ro and mode & os.W_OK else real_access(p, mode, **kw))
    else:
        ro.chmod(0o555)
    with pytest.warns(cl2c.CacheWarning, match=r"ro is not writable; using a private"):
        _unique_build(ro, monkeypatch)
    assert not any(ro.iterdir())
    private = fresh_state / f"cl2c-cache-{os.geteuid()}"
    assert any(private.glob("_cl2c_*.sha256"))
    ro.chmod(0o755)


def test_a_cache_directory_others_may_write_is_refused(tmp_path, monkeypatch, fresh_state):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)                      # real for root too: the mode is what is read
    with pytest.warns(cl2c.CacheWarning, match=r"is writable by other users \(mode 0777\)"):
        _unique_build(shared, monkeypatch)
    assert not any(shared.iterdir())


def test_a_cache_directory_of_another_user_is_refused(tmp_path, monkeypatch, fresh_state):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    if IS_ROOT:
        os.chown(theirs, 12345, -1)          # really another user's
        who = "uid 12345"
    else:                                    # we cannot give a file away: become another
        monkeypatch.setattr(cachedir, "_euid", lambda: os.geteuid() + 1)
        who = f"uid {os.geteuid()}"
    with pytest.warns(cl2c.CacheWarning, match=f"is owned by {who}, not by this user"):
        _unique_build(theirs, monkeypatch)
    assert not any(theirs.iterdir())


def test_a_private_directory_someone_else_made_is_not_used(tmp_path, monkeypatch,
                                                         fresh_state):
    """The private fallback's name is predictable: one planted in its place (here, a
    link) is refused, and a directory of this process's own is used instead."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (fresh_state / f"cl2c-cache-{os.geteuid()}").symlink_to(elsewhere)
    private = cachedir.private_root()
    assert private is not None and private.parent == fresh_state
    assert private.name != f"cl2c-cache-{os.geteuid()}" and private.stat().st_mode & 0o077 == 0


# ---- entries that are not safely this user's are refused -------------------------------

def _give_away(path: Path) -> None:
    os.chown(path, 12345, -1)


@pytest.mark.parametrize("make_unsafe,reason", [
    (lambda p: p.chmod(0o666), "is writable by other users"),
    pytest.param(_give_away, "is owned by uid 12345",
                 marks=pytest.mark.skipif(not IS_ROOT, reason="only root can give a file to "
                                          "another user (the directory test simulates it)")),
], ids=["world-writable", "foreign-owner"])
def test_an_unsafe_entry_is_refused_and_replaced(tmp_path, make_unsafe, reason):
    _build(tmp_path)
    lib = _library(tmp_path)
    make_unsafe(lib)
    again = _build(tmp_path, 1, 2)           # the entry, then another: one warning
    assert again["results"][0]["from_cache"] is False
    (w,) = again["warnings"]
    assert "ignoring kernel cache entry" in w and reason in w, w
    st = lib.stat()
    assert st.st_uid == os.geteuid() and not st.st_mode & 0o022
    assert _build(tmp_path)["results"][0]["from_cache"] is True


def test_a_linked_entry_is_not_followed(tmp_path):
    _build(tmp_path)
    lib = _library(tmp_path)
    planted = tmp_path / "planted.so"
    lib.rename(planted)
    lib.symlink_to(planted)                  # the checksum still matches: not enough
    again = _build(tmp_path)
    assert again["results"][0]["from_cache"] is False
    (w,) = again["warnings"]
    assert "is a symbolic link" in w, w
    assert not _library(tmp_path).is_symlink()


# ---- what killed builds leave behind ------------------------------------------------------

def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporaries_are_removed(tmp_path):
    host = cachedir._host_tag()
    hour_ago = time.time() - 3600
    made = {
        f"cl2c-build.{_dead_pid()}.{host}.abc": ("dir", None, True),   # its process is gone
        f"cl2c-tmp.{_dead_pid()}.{host}.abc": ("file", None, True),
        f"cl2c-build.{os.getpid()}.{host}.abc": ("dir", hour_ago, False),  # alive: building
        f"cl2c-build.{_dead_pid()}.0another.abc": ("dir", None, False),  # another host's...
        f"cl2c-build.1.0another.def": ("dir", hour_ago, True),          # ...once old
        "cl2c-build-oldstyle": ("dir", hour_ago, True),                  # an older cl2c's
        "cl2c-build-recent": ("dir", None, False),
        "src-old.tmp": ("file", hour_ago, True),
        "_cl2c_0123.cpython.so": ("file", hour_ago, False),              # not a temporary
    }
    for name, (kind, mtime, _) in made.items():
        path = tmp_path / name
        if kind == "dir":
            path.mkdir()
            (path / "kernel.o").write_bytes(b"x")
        else:
            path.write_bytes(b"x")
        if mtime:
            os.utime(path, (mtime, mtime))
    removed = cachedir.remove_stale(tmp_path)
    assert sorted(removed) == sorted(n for n, (_, _, stale) in made.items() if stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        sorted(n for n, (_, _, stale) in made.items() if not stale)


def test_kept_images_of_dead_processes_are_removed(tmp_path, monkeypatch):
    """-cl2c-sanitize loads a library from a copy in the temporary directory that stays
    while the process runs (for the symbolizer); a sanitizer's report kills the process
    before atexit removes it: the next such load removes what dead processes kept, and
    nothing else there."""
    from cl2c import build
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    host = cachedir._host_tag()
    dead = tmp_path / f"cl2c-image.{_dead_pid()}.{host}._cl2c_ab-x1.so"
    alive = tmp_path / f"cl2c-image.{os.getpid()}.{host}._cl2c_cd-x2.so"
    others = [tmp_path / "src-old.tmp", tmp_path / f"cl2c-build.{_dead_pid()}.{host}.abc"]
    for path in [dead, alive, *others]:
        path.write_bytes(b"x")
        os.utime(path, (time.time() - 3600,) * 2)
    with build._kept_image("_cl2c_ef", b"library") as path:
        assert Path(path).read_bytes() == b"library"
        assert Path(path).name.startswith(f"cl2c-image.{os.getpid()}.{host}._cl2c_ef-")
    assert not dead.exists()
    assert alive.exists() and all(p.exists() for p in others)


@pytest.mark.skipif(not IS_ROOT, reason="only root can make a file another user's")
def test_stale_temporaries_of_another_user_are_left(tmp_path):
    path = tmp_path / f"cl2c-build.{_dead_pid()}.{cachedir._host_tag()}.abc"
    path.mkdir()
    _give_away(path)
    assert cachedir.remove_stale(tmp_path) == [] and path.exists()


def test_a_killed_build_is_cleaned_up_by_the_next(tmp_path, cc):
    """A build killed while compiling leaves its directory; the next build removes it."""
    import shutil
    started = tmp_path / "started"
    wrapper = tmp_path / "slow-cc"
    wrapper.write_text(f'#!/bin/sh\ncase " $* " in *" -shared "*)\n'
                       f'  if [ -n "$CL2C_TEST_SLOW" ]; then touch "{started}"; sleep 60; fi;;\n'
                       f'esac\nexec "{shutil.which(cc)}" "$@"\n')
    wrapper.chmod(0o755)
    cache_dir = tmp_path / "cache"
    env = _env(cache_dir, CC=str(wrapper), CL2C_TEST_SLOW="1")
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "9"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.time() + 120
    while not started.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert started.exists(), proc.communicate()
    os.killpg(proc.pid, signal.SIGKILL)      # the build and its compiler
    proc.communicate()
    left = [p.name for p in cache_dir.iterdir() if p.name.startswith("cl2c-build.")]
    assert left, "the killed build left nothing: the test proves nothing"
    out = _build(cache_dir, 9, CC=str(wrapper))
    assert out["results"][0]["from_cache"] is False
    assert not [p for p in cache_dir.iterdir() if p.name.startswith(("cl2c-build", "cl2c-tmp"))]


def test_the_cache_root_in_process_is_the_configured_one(tmp_path, monkeypatch, fresh_state):
    monkeypatch.setenv("CL2C_CACHE_DIR", str(tmp_path / "a" / "b"))
    assert cache.usable_root() == tmp_path / "a" / "b"
    assert (tmp_path / "a" / "b").stat().st_mode & 0o777 == 0o700
