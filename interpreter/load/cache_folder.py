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

What a cache gives back may be run (compiled code, the parser's tables) or
may spare a check (a tree's "schema-clean" mark, validate's findings), so
the owner-only folder is not all that guards it: a cache folder is often
shared or synced. Every entry is authenticated with an HMAC (SHA-256) under
:func:`secret`, a random key this installation makes on first use, kept in
the folder ``key/`` (mode 0600, made atomically); an entry whose tag does
not match is a miss and is made again. When the key cannot be made or read
safely (another owner, other permissions, not a regular file, another
size), every cache is off.
"""
from __future__ import annotations

import hmac
import os
import stat
from contextlib import contextmanager
from pathlib import Path

from .regular import read_capped

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


KEY_BYTES = 32
_SECRETS: dict[str, bytes] = {}   # the key read or made in this process, by its path


def secret() -> bytes | None:
    """This installation's cache key (made on first use), or None: then no cache may be used."""
    folder = cache_dir("key", of_rulesets=False)
    if folder is None:
        return None
    path = os.path.join(folder, "secret")
    known = _SECRETS.get(path)
    if known is not None:
        return known
    key = _read_key(path)
    if key is None and not os.path.lexists(path):
        key = _make_key(folder, path)
    if key is not None:
        _SECRETS[path] = key
    return key


def forget_secret() -> None:
    """Read the key from its file again (for tests)."""
    _SECRETS.clear()


def _read_key(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        owner = getattr(os, "getuid", None)
        if not stat.S_ISREG(info.st_mode) or info.st_size != KEY_BYTES \
                or (owner is not None and (info.st_uid != owner() or stat.S_IMODE(info.st_mode) & 0o077)):
            return None
        data = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else None


def _make_key(folder: Path, path: str) -> bytes | None:
    """A new random key, written whole to a private file and then linked to its name (never replacing a key
    another process made meanwhile: that one is read instead)."""
    tmp = os.path.join(folder, f".secret.{os.getpid()}.{os.urandom(6).hex()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.write(fd, os.urandom(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass   # another process made it first: theirs is read below
        except OSError:
            # no hard links here (some synced or foreign file systems): a rename is atomic too; should another
            # process rename its key over this one meanwhile, what was signed with this one is only made again
            if not os.path.lexists(path):
                os.replace(tmp, path)
    except OSError:
        return None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return _read_key(path)


def tag(key: bytes, purpose: str, data: bytes) -> bytes:
    """The HMAC of ``data`` for one kind of entry (an entry of one cache never passes for another's)."""
    return hmac.digest(key, purpose.encode() + b"\0" + data, "sha256")


def tag_matches(key: bytes, purpose: str, data: bytes, given: bytes) -> bool:
    return hmac.compare_digest(tag(key, purpose, data), given)


MAX_ENTRY_BYTES = 64_000_000


def read_regular(path, cap: int = MAX_ENTRY_BYTES) -> bytes | None:
    """A cache file's bytes, or None: not there, a link, not a regular file, or larger than ``cap``."""
    try:
        return read_capped(path, cap, follow=False)
    except OSError:
        return None
