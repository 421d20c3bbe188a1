"""Every player file goes through the safe reader (issue 27, finding 10).

The sheet layout was read whole, outside the safe reader: nested 100,000 deep the app could not start,
a 5,000-digit number raised ValueError, a 2 GB sparse file was read at every start. A tile set whose
title held a lone surrogate crashed the import. Each is now reported and the bundled one used.
"""

from __future__ import annotations

import json
import os

import pytest

from d100gui.engine.dungeon.tiles import TileSetInvalid
from d100gui.storage import tilesets
from d100gui.storage.paths import user_layout_path
from d100gui.storage.resources import bundled_layout_text, bundled_rules, player_rules, standard_tileset_path


def _layout_with(text: str) -> None:
    user_layout_path().write_text(text, encoding="utf-8")


def _number_of_5000_digits() -> str:
    layout = json.loads(bundled_layout_text())
    return json.dumps(layout).replace("{", '{"huge": ' + "9" * 5000 + ", ", 1)


@pytest.mark.parametrize(
    ("make", "word"),
    [
        (lambda: _layout_with("[" * 100_000 + "]" * 100_000), "nested"),
        (lambda: _layout_with(_number_of_5000_digits()), "digits"),
        (lambda: os.mkfifo(user_layout_path()), "regular file"),
    ],
    ids=["nested-100000", "5000-digit-number", "fifo"],
)
def test_a_hostile_sheet_layout_is_reported_and_the_bundled_one_used(make, word):
    make()
    rules, problem = player_rules()
    assert rules == bundled_rules()
    assert word in problem and "shipped one is" in problem


def test_a_2_gb_sparse_sheet_layout_is_refused_without_reading_it():
    with user_layout_path().open("wb") as fh:
        fh.truncate(2 * 1024**3)  # sparse: no disk used; reading it whole took every start
    rules, problem = player_rules()
    assert rules == bundled_rules() and "at most" in problem


def test_a_good_sheet_layout_of_the_players_is_still_used():
    layout = json.loads(bundled_layout_text())
    _layout_with(json.dumps(layout))
    rules, problem = player_rules()
    assert problem == "" and rules.sheet == bundled_rules().sheet


def test_a_tile_set_titled_with_a_lone_surrogate_is_refused_at_import_not_crashing(tmp_path):
    data = json.loads(standard_tileset_path().read_text(encoding="utf-8"))
    data.update(id="broken", title="Sheet \udc00")
    source = tmp_path / "broken.json"
    source.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: the escape "\udc00" in the file
    with pytest.raises(TileSetInvalid) as refused:
        tilesets.import_tileset(source)
    assert "lone surrogate" in str(refused.value)
    assert list(tilesets.user_tilesets_dir().iterdir()) == []
    (tilesets.user_tilesets_dir() / "broken.json").write_text(json.dumps(data), encoding="utf-8")
    entries = {entry.id: entry for entry in tilesets.list_tilesets()}
    assert not entries["broken"].usable and entries["standard"].usable
