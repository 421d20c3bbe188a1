"""Undo/redo across 200 random commands returns the campaign exactly, every step of the way."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d100gui.demo import build_demo_campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.dice_commands import RollDice, RollTable
from d100gui.engine.dungeon.commands import AddNote, MarkArea, MoveHero
from d100gui.engine.game import Game
from d100gui.engine.hero.sheet_edits import SetSheetField
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.skill_test_commands import RollTest
from d100gui.storage.resources import bundled_rules, standard_tilesets

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow

TABLES = ["d100.A", "d100.B", "d100.E", "d100.G", "classic.potions", "explore.injury", "d20.reaction"]

command = st.one_of(
    st.builds(lambda e: RollDice(expression=e), st.sampled_from(["d100", "2d6", "3d4+1", "d20", "d6"])),
    st.builds(lambda t, m: RollTable(table_id=t, modifier=m), st.sampled_from(TABLES), st.integers(-40, 20)),
    st.builds(lambda s: MoveHero(side=s), st.sampled_from(["N", "E", "S", "W"])),
    st.builds(lambda v: SetSheetField(field="gp", value=v), st.integers(0, 500)),
    st.builds(lambda t: SetSheetField(field="notes", value=t), st.text(max_size=12)),
    st.builds(lambda t: AddNote(pos="7,10", text=t), st.text(min_size=1, max_size=8).filter(str.strip)),
    st.builds(lambda v: MarkArea(pos="7,10", mark="searched", value=v), st.booleans()),
    st.just(RollTest(characteristic="DEX", modifier=-10, skills=["Traps"], auto_accept=True)),
)
step = st.one_of(command, st.sampled_from(["undo", "redo"]))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=200, max_size=200))
def test_undo_redo_over_200_random_commands(bundled_library, steps):
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    game = Game(
        build_demo_campaign(library),
        library,
        ALL_COMMANDS,
        policy=MissingRowPolicy.REROLL,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
    )
    past: list[str] = []  # states before each command still undoable
    future: list[str] = []  # states undone, redoable
    for item in steps:
        now = game.campaign.model_dump_json()
        if item == "undo":
            if not past:
                continue
            game.undo()
            assert game.campaign.model_dump_json() == past[-1]
            future.append(now)
            past.pop()
        elif item == "redo":
            if not future:
                continue
            game.redo()
            assert game.campaign.model_dump_json() == future[-1]
            past.append(now)
            future.pop()
        else:
            try:
                game.execute(item)
            except (CommandRefused, DiceError):
                assert game.campaign.model_dump_json() == now  # a refusal changes nothing
                continue
            past.append(now)
            future.clear()
    # unwind everything: back to the demo campaign exactly
    while past:
        game.undo()
        assert game.campaign.model_dump_json() == past.pop()
    assert not game.can_undo
