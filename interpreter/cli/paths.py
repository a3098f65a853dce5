"""Output files of the commands: checked before any work is done, not after it.

Every file davit writes is written whole or not at all (``write_atomically``:
a temporary file in the same folder, then a rename), so what must hold is that
the path is not a folder and that its folder exists and takes a new file.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import DavitError


def check_writable(path: str, what: str) -> None:
    """A one-line error now if ``path`` cannot be written later; ``what`` names it (``the log``, ``--out``)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise DavitError(f"davit: cannot write {what}: '{path}' is a folder")
    if path.endswith(("/", os.sep)):
        # Path() drops the slash, so every check passed, and the write failed after the whole run, naming
        # only its temporary file ("cannot use '.o.jsonl.x1y2.tmp': Not a directory")
        raise DavitError(f"davit: cannot write {what}: '{path}' ends in '/', as a folder's name does: name a file")
    if not folder.is_dir():
        raise DavitError(f"davit: cannot write {what}: folder '{folder}' does not exist")
    try:   # the only sure test, whoever runs davit: make a file there, as the real write will
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".davit-", suffix=".tmp")
    except OSError as exc:
        raise DavitError(f"davit: cannot write {what} '{path}': {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
