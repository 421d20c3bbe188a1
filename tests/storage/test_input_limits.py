"""Player packs, CSV and tile sets can never hurt the app (issue 9).

Each test reproduces a defect seen on main: very deep nesting, a 5,000-digit number or a
131k-character CSV field escaped as an uncaught exception; a FIFO or a symlink to
``/dev/zero`` in the data folder hung start-up or ate memory. Now each is refused with a
message naming the file, and start-up goes on with the bundled data.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from d100gui.engine.dice.tables import PackInvalid
from d100gui.engine.dungeon.tiles import TileSetInvalid
from d100gui.storage import packs, safe_read, tilesets
from d100gui.storage.resources import bundled_packs

DEEP = "[" * 200_000 + "]" * 200_000
HUGE_NUMBER = '{"id": "p", "title": "t", "tables": [], "n": ' + "9" * 5000 + "}"


def _user_pack(tmp_path: Path, text: str) -> Path:
    path = tmp_path / packs.USER_PACK_FILE
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "message"), [(DEEP, "nested"), (HUGE_NUMBER, "digits")])
def test_a_hostile_user_pack_is_skipped_with_a_message(tmp_path: Path, text: str, message: str) -> None:
    _user_pack(tmp_path, text)
    loaded = packs.load_library(tmp_path)
    assert loaded.user_pack is None
    assert len(loaded.problems) == 1 and message in loaded.problems[0]
    assert len(loaded.library) == sum(len(p.tables) for p in bundled_packs())


def test_a_fifo_user_pack_is_refused_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / packs.USER_PACK_FILE)
    loaded = packs.load_library(tmp_path)
    assert loaded.user_pack is None
    assert "not a regular file" in loaded.problems[0]


def test_a_symlink_to_dev_zero_is_refused_without_reading(tmp_path: Path) -> None:
    (tmp_path / packs.USER_PACK_FILE).symlink_to("/dev/zero")
    loaded = packs.load_library(tmp_path)
    assert loaded.user_pack is None
    assert "not a regular file" in loaded.problems[0]


def test_a_symlink_loop_is_refused(tmp_path: Path) -> None:
    path = tmp_path / packs.USER_PACK_FILE
    path.symlink_to(path)
    loaded = packs.load_library(tmp_path)
    assert loaded.user_pack is None and "symlink loop" in loaded.problems[0]  # named as what it is


def test_a_regular_file_that_grows_past_the_limit_while_read_is_cut_off(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    with pytest.raises(safe_read.UnreadableFile, match="at most 1 KB"):
        safe_read.read_regular_text(path, 1024, "table pack")


def test_an_imported_pack_with_deep_nesting_names_the_file(tmp_path: Path, bundled_library) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(DEEP, encoding="utf-8")
    with pytest.raises(PackInvalid) as info:
        packs.import_pack(path, bundled_library)
    assert str(path) in str(info.value) and "nested" in str(info.value)


def _csv_base(bundled_library):
    return bundled_library.get("d100.E")


def test_a_131k_character_csv_field_is_refused_with_its_line(bundled_library) -> None:
    base = _csv_base(bundled_library)
    header = ",".join(["from", "to", *[c.key for c in base.columns], "text"])
    text = header + "\n1,5," + ",".join(["x"] * len(base.columns)) + ',"' + "y" * 131_073 + '"\n'
    with pytest.raises(PackInvalid, match="line"):
        packs.table_from_csv(text, base, "rows.csv")


def test_a_csv_number_of_5000_digits_is_a_problem_not_a_crash(bundled_library) -> None:
    base = _csv_base(bundled_library)
    header = ",".join(["from", "to", *[c.key for c in base.columns], "text"])
    text = header + "\n" + "9" * 5000 + ",5," + ",".join(["x"] * len(base.columns)) + ",t\n"
    with pytest.raises(PackInvalid, match="whole numbers"):
        packs.table_from_csv(text, base, "rows.csv")


def test_a_csv_fifo_is_refused_without_hanging(tmp_path: Path, bundled_library) -> None:
    path = tmp_path / "rows.csv"
    os.mkfifo(path)
    with pytest.raises(PackInvalid, match="not a regular file"):
        packs.read_csv_file(path, _csv_base(bundled_library))


@pytest.mark.parametrize(("text", "message"), [(DEEP, "nested"), (HUGE_NUMBER, "digits")])
def test_a_hostile_tile_set_is_refused_with_a_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TileSetInvalid, match=message):
        tilesets.read_tileset_file(path)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_a_tile_set_that_is_no_regular_file_is_listed_broken_without_hanging(target: str) -> None:
    folder = tilesets.user_tilesets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "odd.json"
    if target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    entries = {e.id: e for e in tilesets.list_tilesets()}
    assert not entries["odd"].usable
    assert any("not a regular file" in p for p in entries["odd"].problems)


def test_a_good_pack_still_loads(tmp_path: Path, bundled_library) -> None:
    table = bundled_library.get("d100.E")
    pack = {"id": "mine", "title": "Mine", "tables": [json.loads(table.model_dump_json())]}
    _user_pack(tmp_path, json.dumps(pack))
    loaded = packs.load_library(tmp_path)
    assert loaded.problems == [] and loaded.user_pack is not None


def test_a_fifo_among_the_campaigns_lists_as_broken_without_hanging() -> None:
    """The campaign list and the roster read every campaign file in the folder: a pipe named like a
    campaign used to block both for ever (its size is 0, so the size check let it through)."""
    from d100gui.storage.campaigns import SUFFIX, campaigns_dir, summarize
    from d100gui.storage.roster import read_roster

    path = campaigns_dir() / f"pipe{SUFFIX}"
    os.mkfifo(path)
    assert "not a regular file" in (summarize(path).problem or "")
    roster = read_roster(campaigns_dir())
    assert any("not a regular file" in (line.problem or "") for line in roster.broken)
