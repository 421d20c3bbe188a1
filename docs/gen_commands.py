"""Regenerate the command vocabulary in docs/commands.md from the command classes.

Run: .venv/bin/python docs/gen_commands.py   (tests/test_docs.py checks it is complete)
"""

from __future__ import annotations

from pathlib import Path

from d100gui.engine.combat.round import COMBAT_COMMANDS
from d100gui.engine.dice.commands import DICE_COMMANDS
from d100gui.engine.dungeon.commands import MAP_COMMANDS
from d100gui.engine.hero.commands import CHARACTER_COMMANDS
from d100gui.engine.hero.sheet_edits import SHEET_EDIT_COMMANDS

GROUPS = [
    ("Dice panel (`engine/dice_commands.py`)", DICE_COMMANDS),
    (
        "Character: creation, skill tests, items (`engine/creation.py`, `engine/skill_test.py`, `engine/character_commands.py`)",
        CHARACTER_COMMANDS,
    ),
    ("Hand corrections on the sheet (`engine/sheet_edits.py`, marked `manual` in the log)", SHEET_EDIT_COMMANDS),
    ("Map (`engine/map_commands.py`)", MAP_COMMANDS),
    ("Combat (`engine/combat.py`)", COMBAT_COMMANDS),
]
MARKER = "\n## Dice panel (`engine/dice_commands.py`)"


def table() -> str:
    lines: list[str] = []
    for title, commands in GROUPS:
        lines += ["", f"## {title}", "", "| kind | fields | what it does |", "|---|---|---|"]
        for command in commands:
            kind = command.model_fields["kind"].default
            fields = ", ".join(f"`{k}`" for k in command.model_fields if k != "kind") or "-"
            doc = " ".join((command.__doc__ or "").strip().split("\n\n")[0].split()).replace("|", "/")
            lines.append(f"| `{kind}` | {fields} | {doc} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    path = Path(__file__).with_name("commands.md")
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index(MARKER)] + table(), encoding="utf-8")


if __name__ == "__main__":
    main()
