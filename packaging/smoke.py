"""Smoke run of the built app: does the binary PyInstaller made start, find its data and draw a window?

    .venv/bin/python packaging/smoke.py [dist/d100gui]      # `make smoke` builds first, then runs this

It runs the binary twice in a fresh home (``D100GUI_HOME`` in a temp folder, so the player's own
files are never touched), offscreen:

1. ``--version`` prints ``d100gui <__version__>`` (the one version string);
2. ``--screenshot FILE --seed 1 --roll d100.E`` exits 0 and writes a non-empty 1400x900 PNG: the
   window was built from the bundled tables (the roll needs Table E) and drawn.

Exit status 0 when both pass; otherwise 1, with what failed. Only the standard library is used,
so it also checks a build copied to a machine without the development venv.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 120
SIZE = (1400, 900)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def version() -> str:
    """``__version__`` as d100gui/__init__.py writes it (read, so this script needs no install)."""
    for line in (ROOT / "d100gui" / "__init__.py").read_text(encoding="utf-8").splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise SystemExit("d100gui/__init__.py has no __version__")


def binary_in(folder: Path) -> Path:
    for name in ("d100gui", "d100gui.exe", "d100gui.app/Contents/MacOS/d100gui"):
        if (folder / name).is_file():
            return folder / name
    raise SystemExit(f"no d100gui binary in {folder}: build it with `make dist`")


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header; (0, 0) if it is not a PNG."""
    head = path.read_bytes()[:24]
    if len(head) < 24 or not head.startswith(PNG_SIGNATURE) or head[12:16] != b"IHDR":
        return (0, 0)
    width, height = struct.unpack(">II", head[16:24])
    return (width, height)


def run(binary: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home)}
    return subprocess.run([str(binary), *args], capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=False)


def smoke(folder: Path) -> list[str]:
    """What failed (empty: the build passed)."""
    binary, problems = binary_in(folder), []
    with tempfile.TemporaryDirectory(prefix="d100gui-smoke-") as tmp:
        home, shot = Path(tmp) / "home", Path(tmp) / "shot.png"
        said = run(binary, home, "--version")
        if said.returncode != 0 or said.stdout.strip() != f"d100gui {version()}":
            problems.append(f"--version: exit {said.returncode}, printed {said.stdout.strip()!r} {said.stderr[-500:]}")
        started = time.monotonic()
        drawn = run(binary, home, "--screenshot", str(shot), "--seed", "1", "--roll", "d100.E")
        seconds = time.monotonic() - started
        if drawn.returncode != 0:
            problems.append(f"--screenshot: exit {drawn.returncode}\n{drawn.stderr[-2000:]}")
        elif not shot.is_file() or shot.stat().st_size == 0:
            problems.append("--screenshot: exit 0 but no PNG written")
        elif png_size(shot) != SIZE:
            problems.append(f"--screenshot: the PNG is {png_size(shot)}, not {SIZE}")
        else:
            print(f"smoke: {binary} drew a {SIZE[0]}x{SIZE[1]} window ({shot.stat().st_size} bytes) in {seconds:.1f} s")
    return problems


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "dist" / "d100gui"
    problems = smoke(folder)
    for problem in problems:
        print(f"smoke FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
