"""Translation on a thread with a deep stack.

The parser, sema and lowering recurse over the tree, and C compilers take nesting that
Python's default stack does not: a sum of thousands of terms, thousands of nested ifs.
A translation runs on a thread of its own with a 512 MiB stack and a recursion limit to
match (raised while any such thread runs); nesting beyond even that is a BuildError.
"""
from __future__ import annotations

import functools
import sys
import threading

from .diagnostics import BuildError, Diagnostic

_STACK_BYTES = 512 << 20
_RECURSION_LIMIT = 200_000
_lock = threading.Lock()
_running = 0
_saved_limit = 0
_inside = threading.local()


def deep_stack(fn):
    """``fn`` run on a thread with a deep stack (directly, when already on one)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_inside, "yes", False):
            return fn(*args, **kwargs)
        outcome: list = []

        def run():
            _inside.yes = True
            try:
                outcome.append((True, fn(*args, **kwargs)))
            except BaseException as e:        # re-raised on the caller's thread
                outcome.append((False, e))
            finally:
                _inside.yes = False

        _enter()
        try:
            try:
                with _lock:
                    previous = threading.stack_size(_STACK_BYTES)
                    try:
                        thread = threading.Thread(target=run, name="cl2c-translate",
                                                  daemon=True)
                        thread.start()
                    finally:
                        threading.stack_size(previous)
            except (RuntimeError, ValueError, MemoryError):
                run()           # no such thread here (a memory limit): this stack, then
            else:
                thread.join()
        finally:
            _leave()
        ok, value = outcome[0]
        if ok:
            return value
        if isinstance(value, RecursionError):
            raise BuildError([Diagnostic(
                "error", "the kernel nests expressions or statements deeper than cl2c "
                         "can follow")]) from None
        raise value
    return wrapper


def _enter() -> None:
    global _running, _saved_limit
    with _lock:
        if _running == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, _RECURSION_LIMIT))
        _running += 1


def _leave() -> None:
    global _running
    with _lock:
        _running -= 1
        if _running == 0:
            sys.setrecursionlimit(_saved_limit)
