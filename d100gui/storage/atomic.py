"""Atomic writes: write a temp file beside the target, fsync, then replace.

A crash or kill at any moment leaves either the old file or the new one, never half. A temp
file a killed write left behind is removed by the next save of the same file
(:func:`clean_temporary_files`).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

#: a temp file older than this is an orphan of a killed save (a save in progress is seconds old)
ORPHAN_AGE_S = 60.0


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


@contextmanager
def replacing(path: Path, suffix: str = "") -> Iterator[Path]:
    """A temp file beside ``path`` for a writer that needs a file name (Qt's PNG, SVG and PDF
    writers): it replaces ``path`` only if the ``with`` block ends without an error, else it
    is removed and ``path`` is left as it was. Its name is one :func:`clean_temporary_files` knows."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(
    path: Path, data: bytes, mode: int | None = None, before_replace: Callable[[Path], None] | None = None
) -> None:
    """Write ``data`` to ``path`` atomically, the new file with permissions ``mode`` if given.

    ``before_replace(path)`` runs once the new content is safely on disk, just before it
    replaces the file (the campaign backups rotate there, so a failed write rotates nothing).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        if before_replace is not None:
            before_replace(path)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def clean_temporary_files(path: Path, older_than: float = ORPHAN_AGE_S) -> list[Path]:
    """Remove the temp files killed writes of ``path`` left (older than ``older_than`` seconds); return them."""
    removed = []
    now = time.time()
    try:
        candidates = list(path.parent.glob(f"{_temp_prefix(path)}*.tmp"))
    except OSError:
        return []
    for tmp in candidates:
        try:
            if tmp.is_file() and not tmp.is_symlink() and now - tmp.stat().st_mtime > older_than:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
    return removed
