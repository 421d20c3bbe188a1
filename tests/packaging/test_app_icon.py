"""The running app shows our icon, the same one the desktop file installs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from d100gui.app import set_app_icon
from d100gui.storage.resources import app_icon_path

ROOT = Path(__file__).resolve().parents[2]


def test_the_window_icon_is_the_packaged_icon() -> None:
    packaged = ROOT / "packaging" / "icons" / "hicolor" / "256x256" / "apps" / "io.github.d100gui.d100gui.png"
    assert app_icon_path().read_bytes() == packaged.read_bytes()  # regenerate both with packaging/make_icons.py


def test_the_app_sets_its_window_icon(qapp: QApplication) -> None:
    qapp.setWindowIcon(qapp.windowIcon().__class__())
    assert qapp.windowIcon().isNull()
    set_app_icon(qapp)
    assert not qapp.windowIcon().isNull()
    assert qapp.windowIcon().availableSizes()  # the PNG was read, not just named
