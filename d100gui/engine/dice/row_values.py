"""Values a printed row carries in its columns, read the one way every package reads them."""

from __future__ import annotations

import re

from d100gui.engine.dice.tables import Row

_GP = re.compile(r"(\d+)\s*(?:gp|gps|gold)?", re.I)


def row_price(row: Row) -> int | None:
    """The gold a row prints in its ``value`` column (``"15gp"``, ``"23 gp"``, ``"12"``); None if it prints none."""
    text = row.fields.get("value", "").strip()
    m = _GP.search(text)
    return int(m.group(1)) if m else None
