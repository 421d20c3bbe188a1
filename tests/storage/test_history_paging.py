"""The dice history is paged like the log: a campaign opened from its store reads only its newest rolls;
the older ones come from the store when a view pages to them or a command names one."""

from __future__ import annotations

import json
import sqlite3

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.history import UNLOADED, DiceHistory
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.game import Game
from d100gui.storage import store as store_module
from d100gui.storage.campaigns import _suspect
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.storage.store import OPEN_HISTORY_TAIL, STORE_VERSION, CampaignStore, export_json, import_json

ROLLS = OPEN_HISTORY_TAIL + 40
MISSING_W = (9, 0)  # Table W at 90: a row the bundled excerpt lacks
ROW_W = Row(
    range=(89, 92), fields={"type": "(H)", "weapon": "Test Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"}
)


def _game(library, campaign: Campaign, check: bool = True) -> Game:
    own = TableLibrary([Pack(id="copy", title="copy", tables=list(library))])
    return Game(
        campaign,
        own,
        ALL_COMMANDS,
        policy=MissingRowPolicy.ASK,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
        check_journal=check,
    )


def _faces(game: Game, *faces: int) -> None:
    game.override = ScriptedSource(list(faces))


def _long_store(tmp_path, bundled_library, missing_at: int | None = None):
    """A store with ROLLS dice-history entries (a Table W roll waiting for its row at ``missing_at``)."""
    game = _game(bundled_library, Campaign(), check=False)
    path = tmp_path / "long.d100"
    store = CampaignStore.create(path, game.campaign, game)
    store.attach(game)
    for i in range(ROLLS):
        if i == missing_at:
            _faces(game, *MISSING_W)
            game.execute(game.parse_command({"kind": "roll_table", "table_id": "d100.W"}))
        else:
            _faces(game, 1 + i % 6, 1 + (i // 6) % 6)
            game.execute(game.parse_command({"kind": "roll_dice", "expression": "2d6"}))
        game.override = None
    texts = [e.model_dump_json() for e in store.history_page(0, ROLLS)]
    store.close()
    return path, texts


def _open(path, bundled_library, check: bool = True) -> tuple[CampaignStore, Game]:
    store = CampaignStore.open(path)
    game = _game(bundled_library, store.load(), check)
    store.attach(game)
    return store, game


def _rows(where) -> list[str]:
    """The dice-history rows of a closed store's file, or of an open store (it holds the file's lock)."""
    db = where._db if isinstance(where, CampaignStore) else sqlite3.connect(where)
    try:
        return [r[0] for r in db.execute("SELECT json FROM items WHERE part = 'dice_history' ORDER BY idx")]
    finally:
        if not isinstance(where, CampaignStore):
            db.close()


def test_open_reads_only_the_newest_rolls_and_pages_the_rest(tmp_path, bundled_library):
    path, texts = _long_store(tmp_path, bundled_library)
    store = CampaignStore.open(path)
    campaign = store.load()
    history = campaign.dice_history
    assert isinstance(history, DiceHistory) and len(history) == ROLLS == store.history_length
    assert history.unread == ROLLS - OPEN_HISTORY_TAIL  # only the newest are in memory
    assert list.__getitem__(history, 0) is UNLOADED
    assert [e.model_dump_json() for e in campaign.dice_history_page(0, ROLLS)] == texts  # a view pages through all of it
    assert [e.model_dump_json() for e in campaign.dice_history_page(ROLLS - 3, 10)] == texts[-3:]
    assert history.entry(5).model_dump_json() == texts[5] and history.entry(-1).model_dump_json() == texts[-1]
    assert history.unread == ROLLS - OPEN_HISTORY_TAIL  # paging does not keep what it read
    whole = json.loads(campaign.model_dump_json())  # serialising the campaign reads every roll
    assert [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in whole["dice_history"]] == texts
    assert json.loads(export_json(store))["dice_history"] == whole["dice_history"]  # the export is whole
    copy = campaign.model_copy(deep=True)
    assert type(copy.dice_history) is list and len(copy.dice_history) == ROLLS
    store.close()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_new_rolls_after_opening_number_on_and_are_saved(tmp_path, bundled_library):
    path, texts = _long_store(tmp_path, bundled_library)
    store, game = _open(path, bundled_library)
    _faces(game, 2, 3)
    [event] = game.execute(game.parse_command({"kind": "roll_dice", "expression": "2d6"}))
    assert event.data["index"] == ROLLS and event.message.startswith(f"{ROLLS + 1}. 2d6")
    store.close()
    assert _rows(path)[:ROLLS] == texts and len(_rows(path)) == ROLLS + 1


def test_a_command_on_an_old_roll_reads_it_from_the_store(tmp_path, bundled_library):
    """A Fate re-roll of a roll older than the ones in memory: the command reads it; nothing else changes."""
    path, texts = _long_store(tmp_path, bundled_library)
    store, game = _open(path, bundled_library)
    old = json.loads(texts[3])
    _faces(game, 6)
    game.execute(game.parse_command({"kind": "reroll", "entry": 3, "dice": [0]}))
    newest = game.campaign.dice_history[-1]
    assert newest.parent == 3 and [d.face for d in newest.roll.dice] == [6, old["roll"]["dice"][1]["face"]]
    assert game.campaign.dice_history.unread == ROLLS - OPEN_HISTORY_TAIL  # reading kept nothing in memory
    game.undo()
    store.close()
    assert _rows(path) == texts


def test_a_row_typed_for_an_old_roll_undoes_and_redoes_through_the_store(tmp_path, bundled_library):
    """ProvideRow replaces an entry that was never read into memory: undo must put the stored row back,
    in memory and in the store, and after reopening too."""
    path, texts = _long_store(tmp_path, bundled_library, missing_at=2)
    store, game = _open(path, bundled_library)
    game.execute(game.parse_command({"kind": "provide_row", "entry": 2, "row": ROW_W.model_dump(mode="json")}))
    provided = _rows(store)[2]
    assert "Test Blade" in provided and game.campaign.dice_history_page(2, 1)[0].table.row.fields["weapon"] == "Test Blade"
    game.undo()
    assert _rows(store) == texts and game.campaign.dice_history_page(2, 1)[0].table.row is None
    game.redo()
    assert _rows(store)[2] == provided
    game.undo()
    store.close()
    assert _rows(path) == texts
    store, game = _open(path, bundled_library)  # the undo history kept in the store does the same
    game.redo()
    assert _rows(store)[2] == provided
    game.undo()
    assert _rows(store) == texts
    store.close()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_memory_keeps_a_bounded_tail_while_playing(tmp_path, bundled_library):
    path, _texts = _long_store(tmp_path, bundled_library)
    store, game = _open(path, bundled_library, check=False)
    for i in range(3 * OPEN_HISTORY_TAIL):
        _faces(game, 1 + i % 6)
        game.execute(game.parse_command({"kind": "roll_dice", "expression": "d6"}))
    history = game.campaign.dice_history
    assert len(history) - history.unread <= 2 * OPEN_HISTORY_TAIL + 1
    assert len(_rows(store)) == len(history) == ROLLS + 3 * OPEN_HISTORY_TAIL
    store.close()


def test_a_new_campaign_saved_in_a_store_is_paged_from_its_first_save(tmp_path, bundled_library):
    game = _game(bundled_library, Campaign(), check=False)
    store = CampaignStore.create(tmp_path / "n.d100", game.campaign, game)
    store.attach(game)
    assert isinstance(game.campaign.dice_history, DiceHistory)
    store.close()


def test_a_copy_to_another_store_reads_its_rolls_there(tmp_path, bundled_library):
    """File > Save As: the game goes on in the copy, the first store closed; old rolls still page."""
    path, texts = _long_store(tmp_path, bundled_library)
    store, game = _open(path, bundled_library)
    copy = import_json(export_json(store), tmp_path / "copy.d100")
    store.close()
    copy.attach(game)
    assert [e.model_dump_json() for e in game.campaign.dice_history_page(0, ROLLS)] == texts
    copy.close()


def test_a_version_1_store_is_migrated_and_keeps_its_log(tmp_path, bundled_library):
    path, texts = _long_store(tmp_path, bundled_library)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE log DROP COLUMN extra")  # the layout version 1 wrote
    db.execute("UPDATE meta SET value = '1' WHERE key = 'store_version'")
    db.commit()
    db.close()
    before = path.read_bytes()
    store = CampaignStore.open(path)
    campaign = store.load()
    assert campaign.log_length == ROLLS and campaign.log[-1].command["kind"] == "roll_dice"
    store.close()
    # issue 27: opening writes nothing (a file refused at load stays byte for byte); the first write migrates
    assert path.read_bytes() == before and _rows(path) == texts
    store = CampaignStore.open(path)
    game = _game(bundled_library, store.load(), check=False)
    store.attach(game)
    _faces(game, 2, 3)
    game.execute(game.parse_command({"kind": "roll_dice", "expression": "2d6"}))
    assert store._meta("store_version") == str(STORE_VERSION) == "2"
    store.close()
    with CampaignStore.open(path) as again:
        reopened = again.load()
        assert reopened.log_length == ROLLS + 1 and reopened.log[-2].command == campaign.log[-1].command


def test_the_quick_look_does_not_take_a_hex_id_for_a_number():
    """A campaign id such as ``...999e742...`` sent every load down the careful path (seconds on a long campaign)."""
    assert not _suspect('{"meta":{"id":"f850b23172724ba7999e742ad065"},"n":[1,2,3]}')
    assert not _suspect('{"t":"12345678901234567890"}')  # digits inside a string are text
    for bad in ('{"gp":10000000000000000000}', '{"x": 1e500}', "[1.5E-400]", '{"x":NaN}', '{"a":-Infinity}', '{"s":"\\udc00"}'):
        assert _suspect(bad), bad


@pytest.mark.parametrize("tail", [0, 1])
def test_page_reader_is_the_stores(tmp_path, bundled_library, tail, monkeypatch):
    """Whatever the tail read on open, every slot reads back as saved."""
    monkeypatch.setattr(store_module, "OPEN_HISTORY_TAIL", tail)
    path, texts = _long_store(tmp_path, bundled_library)
    store = CampaignStore.open(path)
    campaign = store.load()
    assert [e.model_dump_json() for e in campaign.dice_history_page(0, ROLLS)] == texts
    store.close()
