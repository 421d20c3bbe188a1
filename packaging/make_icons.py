"""Render the app icon (packaging/d100gui.svg) to the PNG sizes desktops want, plus .ico and .icns.

    .venv/bin/python packaging/make_icons.py      # rewrites packaging/icons/ (commit the result)

The SVG is the source: edit it, run this, commit both. The PNGs follow the freedesktop icon
theme layout (``hicolor/NxN/apps/<APP_ID>.png``) so a Linux package copies the folder as it is;
``d100gui.ico`` (Windows, 256 px) and ``d100gui.icns`` (macOS, 512 px) are what the PyInstaller
spec gives those platforms. tests/packaging/test_desktop_files.py checks the PNGs match the SVG.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from d100gui import APP_ID  # noqa: E402

SOURCE = ROOT / "packaging" / "d100gui.svg"
OUT = ROOT / "packaging" / "icons"
WINDOW_ICON = ROOT / "resources" / "d100gui-icon.png"  # the running app's window icon: the 256 px PNG
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
#: the single image Qt writes into each platform file
PLATFORM_FILES = {"d100gui.ico": 256, "d100gui.icns": 512}


def png_path(size: int, out: Path = OUT) -> Path:
    return out / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def render(size: int, source: Path = SOURCE):  # -> QImage (Qt imported late: the module is importable headless)
    """The SVG drawn at ``size`` x ``size`` on a transparent square."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(source))
    if not renderer.isValid():
        raise SystemExit(f"{source} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def main(out: Path = OUT) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(["make_icons"])
    for size in SIZES:
        target = png_path(size, out)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(size).save(str(target), "PNG"):
            raise SystemExit(f"could not write {target}")
    for name, size in PLATFORM_FILES.items():
        if not render(size).save(str(out / name), name.rsplit(".", 1)[1].upper()):
            raise SystemExit(f"could not write {out / name}")
    if out == OUT:
        shutil.copyfile(png_path(256, out), WINDOW_ICON)
    print(f"wrote {len(SIZES)} PNGs and {', '.join(PLATFORM_FILES)} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
