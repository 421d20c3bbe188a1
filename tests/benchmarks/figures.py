"""The machine-readable ending every benchmark prints: one JSON line per figure."""

from __future__ import annotations

import json


def emit(bench: str, figure: str, value: float, unit: str, bar: str) -> None:
    """Print ``{"bench": ..., "figure": ..., "value": ..., "unit": ..., "bar": ...}`` on one line."""
    print(json.dumps({"bench": bench, "figure": figure, "value": round(value, 2), "unit": unit, "bar": bar}))
