"""A slot named in a table's text, read against the rules' equipment slots (Table A's slot column,
a typed row's slot cell). The hero's item reader and the dice's row checks both ask it."""

from __future__ import annotations

import re

from d100gui.engine.rules.model import Rules


def slot_for_name(rules: Rules, text: str) -> str | None:
    """``"Legs"`` -> ``"legs"``, ``"Off Weapon"``/``"Shield"`` -> ``"off_weapon"``, ``"Ring"`` -> ``"ring_1"``."""
    key = re.sub(r"[^a-z]", "", (text or "").lower())
    if key in ("shield", "offweapon", "offhand"):
        return "off_weapon"
    if key in ("mainweapon", "weapon"):
        return "main_weapon"
    for slot in rules.slots:
        if key in (re.sub(r"[^a-z]", "", slot.name.lower()), slot.id.replace("_", "")):
            return slot.id
    singular = key.rstrip("s")
    for slot in rules.slots:
        if singular and singular == re.sub(r"[^a-z]", "", slot.name.lower()).rstrip("s"):
            return slot.id
    return None
