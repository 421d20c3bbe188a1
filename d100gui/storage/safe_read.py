"""Reading a player's file without letting it hurt the app.

Packs, CSV files and tile sets come from the player's data folder or a file dialog, so any of
them may be a FIFO (reading blocks for ever), a device such as ``/dev/zero`` (reading never
ends), a symlink loop, or JSON crafted to exhaust the parser (nesting deep enough to overflow
the recursion limit, a number of thousands of digits). Every reader of such a file goes
through here and gets either text that is safe to parse or an :class:`UnreadableFile` whose
message says what is wrong in words a player understands.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

MAX_NESTING = 64  # deepest JSON our formats need is under 10; 64 leaves room and stays far from recursion limits
MAX_DIGITS = 30  # no number in a pack or tile set needs more; Python refuses over 4,300 with an odd message

_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_BRACKETS = re.compile(r"[\[\]{}]")


class UnreadableFile(ValueError):
    """A file that is refused before or while it is parsed; the message says why."""


def read_regular_text(path: Path, max_bytes: int, what: str) -> str:
    """The UTF-8 text of ``path`` if it is a regular file of at most ``max_bytes``.

    The file is opened without blocking and checked on the open descriptor, so a FIFO or a
    device is refused before a byte is read, and a file that grows while it is read is cut
    off at the limit rather than read to the end.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableFile(f"the {what} is a link that leads back to itself (a symlink loop)") from None
        raise UnreadableFile(f"cannot read the file ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"the {what} is not a regular file (a pipe, a device or a folder)")
        if info.st_size > max_bytes:
            raise UnreadableFile(f"the {what} is {_size(info.st_size)}; it may be at most {_size(max_bytes)}")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read the file ({exc.strerror or exc})") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > max_bytes:
        raise UnreadableFile(f"the {what} grew while it was read; it may be at most {_size(max_bytes)}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile(f"the {what} is not UTF-8 text") from None


def check_json_shape(text: str, what: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_NESTING` or holding a number longer than
    :data:`MAX_DIGITS` digits, before ``json.loads`` can overflow or choke on it.

    Brackets inside strings are counted too, which can only over-estimate the depth; a
    string of a hundred opening brackets in a table row is not something our formats hold.
    """
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise UnreadableFile(f"the {what} is nested more than {MAX_NESTING} levels deep")
        else:
            depth -= 1
    if _DIGITS.search(text):
        raise UnreadableFile(f"the {what} holds a number of more than {MAX_DIGITS} digits")


def load_json(text: str, what: str) -> Any:
    """``json.loads`` after :func:`check_json_shape`; malformed JSON is left to the caller's
    ``json.JSONDecodeError`` handling, which names the line and column."""
    check_json_shape(text, what)
    return json.loads(text)


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n // (1024 * 1024)} MB"
    return f"{max(1, n // 1024)} KB"
