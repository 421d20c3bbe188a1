"""docs/ stays true: every command kind and every event kind (with its payload fields) is documented."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import d100gui.engine
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.protocol import EVENT_KINDS, EventKind

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _commands_md() -> str:
    return (DOCS / "commands.md").read_text(encoding="utf-8")


def _declared_kinds() -> dict[str, EventKind]:
    """Every kind the app declares (each feature's commands and events imported), not a test's own."""
    for info in pkgutil.iter_modules(d100gui.engine.__path__):
        if info.ispkg and importlib.util.find_spec(f"d100gui.engine.{info.name}.events") is not None:
            importlib.import_module(f"d100gui.engine.{info.name}.events")
    return {kind: spec for kind, spec in EVENT_KINDS.items() if spec.payload.__module__.startswith("d100gui.")}


def test_every_command_kind_is_in_docs_commands():
    text = _commands_md()
    kinds = [c.model_fields["kind"].default for c in ALL_COMMANDS]
    missing = [k for k in kinds if f"`{k}`" not in text]
    assert missing == []
    assert len(set(kinds)) == len(kinds)


def test_every_command_row_lists_its_fields():
    text = _commands_md()
    section = text[text.index("# Command vocabulary") : text.index("# Event kinds")]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, re.M)}
    wrong = []
    for command in ALL_COMMANDS:
        kind = command.model_fields["kind"].default
        fields = [f for f in command.model_fields if f != "kind"]
        if any(f"`{f}`" not in rows.get(kind, "") for f in fields):
            wrong.append(kind)
    assert wrong == [], "regenerate docs/commands.md with docs/gen_commands.py"


def test_every_event_kind_is_documented_with_its_topic_and_payload_fields():
    text = _commands_md()
    assert "# Event kinds" in text
    section = text[text.index("# Event kinds") :]
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z0-9_]+)` \| `([a-z]+)` \|.*$", section, re.M)}
    kinds = _declared_kinds()
    assert {"roll_made", "row_provided", "map_changed", "door_row_missing", "undone", "legacy_message"} <= set(kinds)
    wrong = []
    for kind, spec in kinds.items():
        row = rows.get(kind)
        if row is None or f"| `{spec.topic}` |" not in row or any(f"`{f}`" not in row for f in spec.payload.model_fields):
            wrong.append(kind)
    assert wrong == [], "regenerate docs/commands.md with docs/gen_commands.py"


def test_the_log_format_is_described():
    text = _commands_md()
    log = text[text.index("## The log and replay") : text.index("# Command vocabulary")]
    for word in ('"kind"', '"topic"', '"data"', '"message"', "legacy_message", "meta.notes", "schema_version"):
        assert word in log


def test_the_engine_api_doc_names_the_whole_api():
    text = (DOCS / "engine-api.md").read_text(encoding="utf-8")
    for name in d100gui.engine.__all__:
        assert f"`{name}" in text, name
    for member in (
        "new",
        "from_json",
        "to_json",
        "run",
        "script_dice",
        "undo",
        "redo",
        "campaign",
        "character",
        "pending",
        "log",
    ):
        assert f"session.{member}" in text or f"Session.{member}" in text, member
