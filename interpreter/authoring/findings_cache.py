"""What ``davit validate`` found in a ruleset folder, kept on disk until a file changes.

Validating a ruleset builds it and every variant and checks every scenario;
a designer who edits one file and validates again waits for all of it. The
findings of a folder are stored under a key made of everything they depend
on: the bytes of every file in the ruleset's folder (its parts, variants and
scenarios), the bundled rulesets when a variant there extends one, the engine
itself (the size and time of each of its files and schemas), the working
folder (findings name files relative to it) and the options. Any change
gives another key, so a stale answer cannot be returned.

Entries are JSON, never pickles: reading one can only give back findings.
But findings decide what ``validate`` says, so a planted entry ("no
problems") must not pass: each entry carries an HMAC of its name and its
JSON under this installation's key (:mod:`interpreter.load.cache_folder`),
and one whose tag does not match is ignored (the folder is validated and
the entry written again). Without a key nothing is cached.
The cache lives in ``$DAVIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/davit``,
else ``~/.cache/davit``, in a folder only its owner may read and write
(:mod:`interpreter.load.cache_folder`); if it cannot be made, nothing is
cached. ``davit validate --no-cache`` skips it, and so does ``DAVIT_NO_CACHE=1``.
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from ..load import cache_folder
from ..load.files import bundled_rulesets_dir, write_atomically
from ..load.limits import MAX_FILE_BYTES
from ..load.regular import read_capped

PACKAGE = Path(__file__).resolve().parent.parent
FORMAT = 2


def cache_dir() -> Path | None:
    folder = cache_folder.cache_dir("findings")
    return folder if folder is not None and cache_folder.secret() is not None else None


@lru_cache(maxsize=1)
def _engine_stamp() -> str:
    """Changes whenever a file of the engine or its schemas changes (a checkout being edited, an upgrade).

    Worked out once per process: the engine a process runs is the one it imported, whatever is edited on
    disk since (every ruleset's key walked the whole package again: 1% of a cold validate)."""
    from ..load.files import schemas_dir
    digest = hashlib.sha256()
    for root in (PACKAGE, schemas_dir()):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark", ".json") and "bundled" not in path.relative_to(root).parts[:1]:
                stat = path.stat()
                digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _folder_digest(folder: Path, digest) -> bool:
    """Feed every file of a ruleset folder to ``digest``; True if a variant may extend another ruleset."""
    extends = False
    for path in sorted(folder.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            continue
        # every entry counts, not only regular files: a FIFO or a link to a device is refused at its place
        try:
            data = read_capped(path, MAX_FILE_BYTES)
        except OSError as exc:   # not a regular file, too large or gone: loading it reports that
            data = f"unread: {exc}".encode()
        if path.is_symlink():    # where it leads matters too (a link out of the folder is refused)
            data = str(path.resolve()).encode() + b"\0" + data
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + data + b"\0")
        extends = extends or b"extends:" in data
    return extends


def key(ruleset_file: Path, options: dict) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([FORMAT, _engine_stamp(), os.getcwd(), str(ruleset_file.resolve()), options],
                             sort_keys=True).encode())
    if _folder_digest(ruleset_file.parent, digest):
        _folder_digest(bundled_rulesets_dir(), digest)   # `extends:` may name a bundled ruleset
    return digest.hexdigest()


def load(folder: Path, entry: str) -> list | None:
    key = cache_folder.secret()
    kept = cache_folder.read_regular(folder / f"{entry}.json")
    if key is None or kept is None or not cache_folder.tag_matches(key, "findings " + entry, kept[64:],
                                                                    _unhex(kept[:64])):
        return None   # none, or not written by this installation: validate afresh
    try:
        data = json.loads(kept[64:].decode("utf-8"))
    except ValueError:
        return None
    return data if isinstance(data, list) and all(isinstance(row, dict) for row in data) else None


def _unhex(text: bytes) -> bytes:
    try:
        return bytes.fromhex(text.decode("ascii"))
    except ValueError:
        return b""


def store(folder: Path, entry: str, rows: list) -> None:
    key = cache_folder.secret()
    if key is None:
        return
    body = json.dumps(rows).encode("utf-8")
    try:
        write_atomically(str(folder / f"{entry}.json"), cache_folder.tag(key, "findings " + entry, body).hex().encode()
                         + body)
    except OSError:
        pass   # a cache that cannot be written only costs time
