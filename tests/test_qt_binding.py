"""The Qt binding must not leak references to None (PySide6 6.12.0 does, and Python 3.11 then
aborts with "deallocating None" after a few thousand calls: a long session would crash)."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_calls_keep_none_alive(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setObjectName("x")
    assert sys.getrefcount(None) - before > -100
