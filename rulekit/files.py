"""Reading an input no further than its cap: a rules file, a tests file, a --rows or
--evidence file, a line of a --jsonl batch or of a decision log. A file over the cap is never held whole (a 3 GB file, or /dev/zero, must be a
diagnostic, not a MemoryError): at most one byte more than the cap is read, and the size, where
the file has one, is asked of the file system."""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Iterator


def read_capped(path: str | os.PathLike, max_bytes: int) -> tuple[bytes, int | None]:
    """(the file's bytes, None), or, for a file of more than ``max_bytes`` bytes, (the first
    ``max_bytes`` + 1 of them, its size in bytes, or None when it has none: a pipe, a device).
    Raises ``OSError`` as ``open`` does."""
    with open(path, "rb") as stream:
        return read_stream_capped(stream, max_bytes)


def read_stream_capped(stream: BinaryIO, max_bytes: int) -> tuple[bytes, int | None]:
    """``read_capped`` for an open binary stream (standard input too)."""
    data = stream.read(max_bytes + 1)
    if len(data) <= max_bytes:
        return data, None
    return data, size_of(stream)


def size_of(stream) -> int | None:
    """The size of the regular file behind ``stream``, or None (a pipe, a device, no file)."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def capped_lines(stream: BinaryIO, cap: int) -> Iterator[bytes | None]:
    """The lines of ``stream`` (bytes), each whole, or None for one longer than ``cap`` bytes:
    that line's bytes are skipped in pieces, never held at once."""
    while True:
        line = stream.readline(cap + 1)
        if not line:
            return
        if len(line) <= cap or line.endswith(b"\n"):   # the newline may be the one over
            yield line
            continue
        while not line.endswith(b"\n"):     # skip the rest of the long line
            line = stream.readline(1024 * 1024)
            if not line:
                break
        yield None
