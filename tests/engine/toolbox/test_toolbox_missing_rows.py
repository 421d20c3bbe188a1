"""Deliver 3 of issue 22: a missing row anywhere in the toolbox behaves like one in the dice panel. For every
toolbox command that rolls on a table, on a player's table lacking rows: policy "ask" puts the roll in the dice
history with a row_missing event (the window asks for the row), "sample" (SampleRow on that entry, the dice
panel's own command) re-rolls among the printed rows, and policy "re-roll" never leaves a gap."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.dice_commands import SampleRow
from d100gui.engine.game import CampaignMeta, Command, Game
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.toolbox import classic_commands as cc
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.classic import castles, magic, monsters, swords, treasure, wilderness
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, standard_tilesets

#: (command, the table it rolls on): every toolbox command whose engine rolls on a table
TABLE_ROLLS: list[tuple[Command, str]] = [
    (tc.ScarsReactionRoll(), sc.REACTION_TABLE),
    (tc.RollInjury(), ex.INJURY_TABLE),
    (tc.ClassicMagicItem(maps=False), magic.CLASS_TABLE),
    (tc.ClassicMagicItem(), magic.MAGIC_OR_MAP_TABLE),
    (tc.ClassicSword(), swords.SWORDS_TABLE),
    (cc.ClassicEgoTest(new_sword=True), swords.SWORDS_TABLE),
    (tc.ClassicGems(count=3), treasure.GEM_TABLE),
    (tc.ClassicJewelry(count=3), treasure.JEWELRY_TABLE),
    (tc.ClassicWandering(level=1, party_size=4), monsters.MATRIX_TABLE),
    (cc.ClassicWildernessDayCommand(terrain="clear", new_trip=True), wilderness.TYPE_TABLE),
    (cc.ClassicCastle(hexes=0, hailed=True), castles.OCCUPANT_TABLE),
]
IDS = [f"{type(c).__name__}-{t}" for c, t in TABLE_ROLLS]


@pytest.fixture(scope="module")
def bundled() -> TableLibrary:
    return packs.load_library(user_data_dir()).library


def _holed(library: TableLibrary, table_id: str) -> TableLibrary:
    """The player's tables with only the first printed row of ``table_id`` left: almost every roll misses."""
    out = []
    for table in library:
        if table.id == table_id:
            kept = [r for r in table.rows if r.range][:1]
            table = table.model_copy(update={"rows": kept})
        out.append(table)
    return TableLibrary([Pack(id="mine", title="mine", tables=out)])


def _game(library: TableLibrary, seed: int, policy: MissingRowPolicy) -> Game:
    campaign = Campaign(meta=CampaignMeta(seed=seed))
    return Game(campaign, library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets(), policy=policy)


def _asked(game: Game, command: Command, table_id: str) -> list[int]:
    """The dice-history indexes the command asked a row for, on ``table_id``."""
    events = game.execute(command)
    history = game.campaign.dice_history
    return [
        int(e.data["index"])
        for e in events
        if e.kind == "row_missing" and (t := history[int(e.data["index"])].table) is not None and t.table_id == table_id
    ]


@pytest.mark.parametrize(("command", "table_id"), TABLE_ROLLS, ids=IDS)
def test_ask_then_sample_as_in_the_dice_panel(bundled, command, table_id):
    library = _holed(bundled, table_id)
    for seed in range(40):
        game = _game(library, seed, MissingRowPolicy.ASK)
        asked = _asked(game, command, table_id)
        if asked:
            break
    else:
        pytest.fail(f"40 seeds and no row asked on {table_id}")
    waiting = game.campaign.dice_history[asked[0]].table
    assert waiting is not None and waiting.row is None and waiting.missing is not None
    game.execute(SampleRow(entry=asked[0]))  # the dialog's "sample this time": among the printed rows
    sampled = game.campaign.dice_history[-1].table
    assert sampled is not None and sampled.sample and sampled.row is not None and sampled.table_id == table_id


@pytest.mark.parametrize(("command", "table_id"), TABLE_ROLLS, ids=IDS)
def test_the_re_roll_policy_never_leaves_a_gap(bundled, command, table_id):
    library = _holed(bundled, table_id)
    done, resampled = 0, 0
    for seed in range(60):
        if resampled >= 2:
            break
        game = _game(library, seed, MissingRowPolicy.REROLL)
        try:
            events = game.execute(command)
        except CommandRefused as refused:  # a rule's own refusal (a sword too dull for an ego contest), never a row
            assert "row" not in str(refused)
            continue
        done += 1
        assert [e for e in events if e.kind == "row_missing"] == []
        assert "not in your tables" not in " ".join(e.message for e in events)
        resampled += any("(sample re-roll)" in r.purpose for r in game.campaign.log[-1].rolls)
    assert done and resampled  # the hole was met, and re-rolled among the printed row(s)


def test_wands_and_staves_26_to_30_by_each_policy(bundled):
    """The text never printed Wands and Staves 26-30: asked, sampled, or re-rolled among the printed rows."""
    faces = [9, 3, 2, 7]  # Wands/Staves (93), 27
    ask = _game(bundled, 1, MissingRowPolicy.ASK)
    ask.override = ScriptedSource(faces)
    [index] = _asked(ask, tc.ClassicMagicItem(maps=False), "classic.wands_staves")
    ask.override = None
    ask.execute(SampleRow(entry=index))
    sampled = ask.campaign.dice_history[-1].table
    assert sampled is not None and sampled.sample and sampled.row is not None and not 26 <= sampled.roll.final <= 30
    reroll = _game(bundled, 1, MissingRowPolicy.REROLL)
    reroll.override = ScriptedSource([*faces, 1, 0])  # the re-roll: 10, a printed row
    [event] = reroll.execute(tc.ClassicMagicItem(maps=False))
    item = event.payload().find.item
    assert item is not None and item.item.sample and item.item.roll.final == 10 and item.item.row is not None
    assert "sample play" in event.message
