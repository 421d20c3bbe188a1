"""Scripted faces for the classic toolbox tests."""

from __future__ import annotations


def pct(*values: int) -> list[int]:
    """Scripted faces for d100 rolls: tens and units (00 is 100)."""
    return [face for v in values for face in ([0, 0] if v == 100 else [v // 10, v % 10])]
