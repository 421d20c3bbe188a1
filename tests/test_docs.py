"""docs/ stays true: every command kind is documented."""

from __future__ import annotations

from pathlib import Path

from d100gui.engine.commands import ALL_COMMANDS

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_command_kind_is_in_docs_commands():
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    kinds = [c.model_fields["kind"].default for c in ALL_COMMANDS]
    missing = [k for k in kinds if f"`{k}`" not in text]
    assert missing == []
    assert len(set(kinds)) == len(kinds)
