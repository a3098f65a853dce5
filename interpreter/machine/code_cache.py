"""Compiled rule code kept on disk, so that a new process need not ``compile()`` it again.

Rule snippets and code blocks become Python source (:mod:`interpreter.dsl.expressions`,
:mod:`interpreter.machine.execute`), which Python compiles on first use. A
ruleset loaded by :func:`interpreter.rules.loading.load_ruleset` gets a
:class:`Bundle`: every function built for it belongs to the bundle, and the
bundle is kept in one file per ruleset, ``<cache>/code/<hash of its path>.bin``
(its variants share it: they repeat most of its code), holding the code
objects of its functions as ``__pycache__`` holds a module's (and as Jinja2's
bytecode cache holds a template's). An entry's key is a hash of the
generated source text itself, so a stale entry can never be used: a changed
rule generates other source, hence another key. The file also carries a
stamp (the file format, Python's bytecode magic number, its optimisation
level and davit's version); another stamp reads as an empty file.

The file is read when the bundle's first function is called, not when the
ruleset is built (``davit validate`` calls none). The first call that misses
compiles every function of the bundle the file lacks, and the runner of
every code block, and writes the file once (atomically); a later miss (code
made after loading) adds its entry and writes again. A file that cannot be
read, is truncated, corrupt or planted (each file carries an HMAC of its contents),
or a folder that cannot be made: the code is compiled as if there were no
cache.
``DAVIT_NO_CACHE=1`` turns it off (:mod:`interpreter.load.cache_folder`).

Why ``marshal`` and not ``pickle``: unmarshalling builds only plain values
and code objects, never calls anything; an entry is found only under the
hash of source this process generated from the rules. But a code object is
run: whoever can write into the cache folder could put their own code under
a key davit will look up, and davit would run it. So a file is only
unmarshalled when its tag, an HMAC of its stamp and contents under this
installation's key (:func:`interpreter.load.cache_folder.secret`), matches:
a checksum anyone can recompute would catch damage, not intent. Without a
key there is no cache. The folder is owner-only besides.

A code object carries the file name it was compiled under, and the line
tables (:mod:`interpreter.machine.linetable`) are keyed by that name
(``<davit N>``, numbered afresh in each process): a code object read from
the file is renamed, nested code included, to the name its function got in
this process, so an error inside it still reports its DSL ``file:line:col``.
"""
from __future__ import annotations

import contextvars
import hashlib
import importlib.util
import marshal
import sys
import threading
import types
from contextlib import contextmanager

from ..load import cache_folder
from ..load.files import write_atomically

FORMAT = 2
MAX_OTHER = 512   # entries beyond twice a bundle's functions before the old ones are dropped
_CURRENT: contextvars.ContextVar = contextvars.ContextVar("davit_code_bundle", default=None)


def stamp() -> bytes:
    """What a file must have been written by: this format, this Python's bytecode, this davit."""
    from .. import __version__
    return b"davit-code %d %s %s -O%d %s\n" % (FORMAT, importlib.util.MAGIC_NUMBER.hex().encode(),
                                             sys.implementation.cache_tag.encode(), sys.flags.optimize,
                                             __version__.encode())


def source_key(source: str) -> str:
    return hashlib.blake2b(source.encode("utf-8"), digest_size=16).hexdigest()


class _File:
    """One file's entries (source key -> marshalled module code), read once per process and shared by
    every bundle kept in it (a ruleset's variants repeat most of its code)."""

    def __init__(self, name: str):
        self.name = name
        self.entries: dict | None = None
        self.lock = threading.RLock()   # one compiles and writes at a time (a web server's threads)

    def path(self):
        """(where the file lives, the key that signs it), or None: no cache."""
        folder = cache_folder.cache_dir("code")
        if folder is None:
            return None
        key = cache_folder.secret()
        if key is None:
            return None
        return folder / (hashlib.blake2b(self.name.encode("utf-8"), digest_size=16).hexdigest() + ".bin"), key

    def read(self) -> dict:
        if self.entries is None:
            self.entries = _read(self.path())
        return self.entries

    def write(self) -> None:
        where = self.path()
        if where is None:
            return
        path, key = where
        body = stamp() + marshal.dumps(self.entries)
        try:
            write_atomically(str(path), cache_folder.tag(key, "code " + path.name, body) + body)
        except OSError:
            pass   # a cache that cannot be written only costs time


_FILES: dict[str, _File] = {}


def clear_memory() -> None:
    """Forget every file read, as a new process starts (for tests)."""
    _FILES.clear()


def _read(where) -> dict:
    if where is None:
        return {}
    path, key = where
    data = cache_folder.read_regular(path)
    if data is None:
        return {}
    head = stamp()
    check, body = data[:32], data[32:]
    if not body.startswith(head) or not cache_folder.tag_matches(key, "code " + path.name, body, check):
        return {}   # another davit, truncated, damaged or planted: its code is never unmarshalled, let alone run
    payload = body[len(head):]
    try:
        entries = marshal.loads(payload)
    except Exception:  # noqa: BLE001 - any unreadable file is only a cache miss
        return {}
    if not isinstance(entries, dict) or not all(isinstance(k, str) and isinstance(v, bytes)
                                                 for k, v in entries.items()):
        return {}
    return entries


class Bundle:
    """The compiled code of one loaded ruleset (one variant of it), kept in its ruleset's file."""

    def __init__(self, name: str):
        self.file = _FILES.get(name) or _FILES.setdefault(name, _File(name))
        self.lazy: list = []        # (file name, source) of every function built for it, compiled or not
        self.filled = False         # every function of ``lazy`` has an entry (in the file or about to be)
        self.at_fill: list = []     # more to compile through this bundle when it is filled (the runners)
        self._filling = False

    def module_code(self, source: str, file_name: str) -> types.CodeType:
        key = source_key(source)
        with self.file.lock:
            entries = self.file.read()
            entry = entries.get(key)
            if entry is not None:
                try:
                    code = marshal.loads(entry)
                except Exception:  # noqa: BLE001 - a bad entry is a miss
                    code = None
                if isinstance(code, types.CodeType):
                    return _renamed(code, file_name)
            code = compile(source, file_name, "exec")
            entries[key] = marshal.dumps(code)
            if self._filling:
                return code
            if not self.filled:
                self._fill(entries, key)
            self.file.write()
            return code

    def _fill(self, entries: dict, key: str) -> None:
        """The first miss: compile everything else the file lacks now, so that it is written once."""
        self.filled = True
        wanted = {source_key(other) for _, other in self.lazy}
        if len(entries) > 2 * len(wanted) + MAX_OTHER:
            # entries of rules since edited pile up: keep this build's (the others come back when missed)
            for old in [k for k in entries if k not in wanted and k != key]:
                del entries[old]
        for other_name, other_source in self.lazy:
            other_key = source_key(other_source)
            if other_key not in entries:
                entries[other_key] = marshal.dumps(compile(other_source, other_name, "exec"))
        self._filling = True
        try:
            for more in self.at_fill:
                more(self)
        finally:
            self._filling = False


def _renamed(code: types.CodeType, file_name: str) -> types.CodeType:
    """``code`` with ``file_name`` as its file name, and so every code object nested in it."""
    consts = tuple(_renamed(c, file_name) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=file_name, co_consts=consts)


def module_code(source: str, file_name: str, bundle: Bundle | None = None) -> types.CodeType:
    """The code of the generated module ``source`` under the name ``file_name``: cached if it may be."""
    if bundle is not None:
        try:
            return bundle.module_code(source, file_name)
        except Exception:  # noqa: BLE001 - a cache only saves time: whatever fails in it, compile as before
            pass
    return compile(source, file_name, "exec")


@contextmanager
def collecting(name: str):
    """Functions built inside this block belong to a new :class:`Bundle` named ``name`` (yielded)."""
    bundle = Bundle(name)
    token = _CURRENT.set(bundle)
    try:
        yield bundle
    finally:
        _CURRENT.reset(token)


def current() -> Bundle | None:
    """The bundle functions built now belong to (None outside :func:`collecting`)."""
    return _CURRENT.get()
