"""packaging/smoke.py, the check `make smoke` runs on the built app: it passes a good binary and names each failure.

The real build takes about a minute, so `make test` does not run it (README: `make smoke`); these
tests run the script against small stand-in binaries that behave like a good or a broken build.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import pytest

from d100gui import __version__

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))

import smoke


def _png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return smoke.PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _fake_build(folder, screenshot_code, version=__version__, exit_code=0):
    """A stand-in ``d100gui`` binary: a Python script that answers --version and writes a PNG."""
    folder.mkdir()
    png = folder / "image.png"
    png.write_bytes(_png(*screenshot_code) if screenshot_code else b"")
    binary = folder / "d100gui"
    binary.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        f"if '--version' in sys.argv: print('d100gui {version}'); sys.exit(0)\n"
        f"shutil.copy({str(png)!r}, sys.argv[sys.argv.index('--screenshot') + 1])\n"
        f"sys.exit({exit_code})\n"
    )
    binary.chmod(0o755)
    return folder


@pytest.fixture
def good(tmp_path):
    return _fake_build(tmp_path / "good", smoke.SIZE)


def test_a_good_build_passes(good, capsys):
    assert smoke.main([str(good)]) == 0
    assert "drew a 1400x900 window" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"screenshot_code": smoke.SIZE, "exit_code": 3}, "--screenshot: exit 3"),
        ({"screenshot_code": None}, "no PNG written"),
        ({"screenshot_code": (640, 480)}, "the PNG is (640, 480)"),
        ({"screenshot_code": smoke.SIZE, "version": "0.0.0-other"}, "--version"),
    ],
)
def test_a_broken_build_fails_and_says_why(tmp_path, capsys, kwargs, said):
    assert smoke.main([str(_fake_build(tmp_path / "bad", **kwargs))]) == 1
    assert said in capsys.readouterr().err


def test_no_build_at_all_is_told(tmp_path):
    with pytest.raises(SystemExit, match="make dist"):
        smoke.main([str(tmp_path)])


def test_the_version_is_read_from_the_package_file():
    assert smoke.version() == __version__
