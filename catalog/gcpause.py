"""The cyclic garbage collector paused while bulk work makes many fresh objects."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_holders = 0  # pauses now open, in any thread
_was_enabled = False  # whether the first of them found the collector on
# Set by the command line (catalog.cli.main), whose process ends with its command: when
# the last pause ends, the objects made meanwhile are frozen (gc.freeze) instead of
# walked by the next collection, which took 0.18 s after a 12k-paper rename. Cyclic
# garbage among them then waits for the process's exit (so a command that keeps running,
# `site serve`, turns this off).
freeze_on_resume = False


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off until the last open pause ends, in whatever thread (nestable).

    Reading a catalog makes hundreds of thousands of fresh objects without cycles; each
    collection the allocations trigger walks all of them again, which cost a third of an
    index build. Reference counting still frees everything as before. Counted rather than
    saved and restored per pause: an index update in a thread (catalog.index.PendingEdit)
    pauses beside the writer's own pause, and either may end first."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                if freeze_on_resume:
                    gc.freeze()
                gc.enable()
