"""Where davit keeps what it caches on disk, in a folder only its owner may use.

Four caches live here: the findings of ``davit validate`` (authoring
stage), the compiled rule code (machine stage), the DSL parser's LALR
tables (dsl stage) and the marks of YAML trees found free of schema errors
(load stage); they all reach this module because it sits below them. The
root is ``$DAVIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/davit``, else
``~/.cache/davit``; each cache has a subfolder of its own, made with mode
0700 and refused when another user owns it or others may write to it (as
someone who changed its mode made it). ``DAVIT_NO_CACHE=1`` turns every disk
cache off; a :func:`turned_off` block every cache of rulesets (all but the
parser's tables). Whoever cannot get a folder (none can be made, a read-only
home, the switch) simply does the work again: a cache only ever saves time.
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path

_turned_off = 0   # how many turned_off() blocks are open


def switched_off() -> bool:
    """True when ``DAVIT_NO_CACHE`` is set to anything but empty or ``0``: no disk cache at all."""
    return os.environ.get("DAVIT_NO_CACHE", "") not in ("", "0")


@contextmanager
def turned_off():
    """No disk cache of rulesets inside this block (``davit validate --no-cache``: everything checked afresh)."""
    global _turned_off
    _turned_off += 1
    try:
        yield
    finally:
        _turned_off -= 1


def cache_root() -> Path:
    root = os.environ.get("DAVIT_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "davit")
    return Path(root)


def cache_dir(name: str, *, of_rulesets: bool = True) -> Path | None:
    """The private folder of one cache (made if missing), or None when there is none to use.

    ``of_rulesets=False``: a cache of what depends on davit alone (the parser's tables), which a
    :func:`turned_off` block leaves on: checking every ruleset afresh need not rebuild davit's own grammar.
    """
    if switched_off() or (of_rulesets and _turned_off > 0):
        return None
    folder = cache_root() / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
        owner = getattr(os, "getuid", None)   # none on Windows, where a profile's folders are its user's
        if (owner is not None and info.st_uid != owner()) or not os.access(folder, os.W_OK):
            return None
        if stat.S_IMODE(info.st_mode) & 0o022:
            # others could have put files there, and what is read from it may be run: not closing it
            # now would make those files trusted, so it is not used at all (delete it to get a new one)
            return None
    except OSError:
        return None
    return folder
