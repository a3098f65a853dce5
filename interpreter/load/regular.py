"""Reading a file that must be a regular file, never more than a bound, whatever ``stat`` says.

``stat`` is no guard: a link to ``/dev/zero`` has size 0 and never ends, a
FIFO blocks the reader (its very ``open``, without ``O_NONBLOCK``) until
someone writes, and a file may grow between the ``stat`` and the read. So
the file is opened first (``O_NONBLOCK``: opening a FIFO returns at once),
the opened file is checked with ``fstat``, and at most ``cap + 1`` bytes are
read from it.
"""
from __future__ import annotations

import os
import stat

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


class NotRegular(OSError):
    """The path names something other than a regular file (``kind`` says what)."""

    def __init__(self, kind: str):
        super().__init__(f"not a regular file but {kind}")
        self.kind = kind


class TooLarge(OSError):
    def __init__(self, cap: int):
        super().__init__(f"file is larger than {cap} bytes")
        self.cap = cap


def read_capped(path, cap: int, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``; raises :class:`NotRegular`, :class:`TooLarge` or ``OSError``.

    ``follow=False``: a symbolic link is refused (``OSError``) instead of followed.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(next((kind for test, kind in _KINDS if test(mode)), "a special file"))
        chunks, left = [], cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    if left <= 0:
        raise TooLarge(cap)
    return b"".join(chunks)
