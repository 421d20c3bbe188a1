"""The machine-readable ending every benchmark prints: one JSON line per figure."""

from __future__ import annotations

import json
from typing import Any


def emit(bench: str, figure: str, value: float, unit: str, bar: str) -> None:
    """Print ``{"bench": ..., "figure": ..., "value": ..., "unit": ..., "bar": ...}`` on one line."""
    print(json.dumps({"bench": bench, "figure": figure, "value": round(value, 2), "unit": unit, "bar": bar}))


class FigureTable:
    """A bench's figures: each printed as it is measured (with its bar and ok / MISSED), then all as JSON lines."""

    def __init__(self, bench: str, width: int = 44) -> None:
        self.bench = bench
        self.width = width
        self.rows: list[dict[str, Any]] = []

    def __call__(self, name: str, value: float, unit: str, bar: str, ok: bool) -> bool:
        self.rows.append({"bench": self.bench, "figure": name, "value": round(value, 2), "unit": unit, "bar": bar})
        print(f"  {name:<{self.width}} {value:9.2f} {unit:<3} (bar {bar}) {'ok' if ok else 'MISSED'}", flush=True)
        return ok

    def emit_all(self) -> None:
        for row in self.rows:
            print(json.dumps(row))
