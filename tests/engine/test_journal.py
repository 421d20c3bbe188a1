"""The undo journal: an action keeps only what it changed, refusals change nothing, memory stays bounded."""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine import game as game_module
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.dice_commands import RollDice, RollTable
from d100gui.engine.game import MIN_UNDO, Command, Game, GameContext
from d100gui.engine.hero.sheet_edits import SetSheetField
from d100gui.engine.journal import Change
from d100gui.engine.phases import ANY_TIME, Phases
from d100gui.engine.protocol import CommandRefused, Event
from d100gui.storage.resources import bundled_rules, standard_tilesets


class NoteInPlace(Command):
    """Breaks the journal's rule: changes a dice-history entry in place."""

    kind: Literal["bench_note_in_place"] = "bench_note_in_place"
    when: ClassVar[Phases] = ANY_TIME

    def apply(self, ctx: GameContext) -> list[Event]:
        ctx.campaign.dice_history[0].note = "changed in place"
        return []


class RefuseAfterRolling(Command):
    """Rolls, changes the hero, then is refused: nothing may stay changed, the dice included."""

    kind: Literal["bench_refuse_after_rolling"] = "bench_refuse_after_rolling"
    when: ClassVar[Phases] = ANY_TIME

    def apply(self, ctx: GameContext) -> list[Event]:
        ctx.dice.roll("d100")
        assert ctx.campaign.character is not None
        ctx.campaign.character.gp += 1000
        ctx.campaign.dice_history.pop()
        ctx.campaign.pending = []
        raise CommandRefused("not now")


@pytest.fixture
def game(bundled_library) -> Game:
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    return Game(
        build_demo_campaign(library),
        library,
        (*ALL_COMMANDS, NoteInPlace, RefuseAfterRolling),
        policy=MissingRowPolicy.REROLL,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
        check_journal=True,
    )


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_roll_keeps_the_random_state_and_the_new_history_line_only(game):
    history = len(game.campaign.dice_history)
    game.execute(RollDice(expression="d100"))
    [step] = game.undo_steps[-1:]
    assert set(step.parts) <= {"rng_state", "meta"}  # no dungeons, no hero, never the log
    assert step.sequences["dice_history"].length == history and step.sequences["dice_history"].items == {}


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_sheet_edit_keeps_the_hero_only(game):
    game.execute(SetSheetField(field="gp", value=123))
    step = game.undo_steps[-1]
    assert "character" in step.parts and "dungeons" not in step.parts and not step.sequences


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_refused_command_changes_nothing_not_even_the_dice(game):
    before = game.campaign.model_dump_json()
    state = game.random.get_state()
    with pytest.raises(CommandRefused):
        game.execute(RefuseAfterRolling())
    assert game.campaign.model_dump_json() == before
    assert game.random.get_state() == state
    rolled = game.execute(RollDice(expression="d100"))
    game.undo()
    assert game.execute(RollDice(expression="d100")) == rolled


def test_changing_a_history_entry_in_place_is_caught(game):
    with pytest.raises(AssertionError, match="in place"):
        game.execute(NoteInPlace())


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_undo_history_is_bounded(game):
    game.max_undo = MIN_UNDO + 20
    for _ in range(MIN_UNDO + 40):
        game.execute(RollTable(table_id="d100.A"))
    assert len(game.undo_steps) == MIN_UNDO + 20
    log = len(game.campaign.log)
    for _ in range(MIN_UNDO + 20):
        game.undo()
    assert not game.can_undo and len(game.campaign.log) == log - MIN_UNDO - 20


def test_steps_do_not_grow_with_the_log(game, monkeypatch):
    # one clock for both rolls: meta.last_played has whole seconds, so on a slow machine the second roll
    # could land in the next second and its step would keep meta too (a change of the clock, not of the log)
    monkeypatch.setattr(game_module, "_now", lambda: "2026-12-06T00:00:00+00:00")

    def without_random_state(step) -> int:
        # the random state's JSON changes length when the generator refills its 624 numbers (every
        # 624 draws, so on some seeds between these two rolls): what must not grow is the rest
        return step.size - len(step.parts.get("rng_state", ""))

    game.execute(RollDice(expression="d6"))  # the clock stops here: meta changes once, before the measure
    game.execute(RollDice(expression="d6"))
    small = without_random_state(game.undo_steps[-1])
    entries = list(game.campaign.log)
    for _ in range(50):
        game.campaign.log.extend(e.model_copy(update={"index": len(game.campaign.log)}) for e in entries)
    game.execute(RollDice(expression="d6"))
    assert without_random_state(game.undo_steps[-1]) <= small + 16
    assert len(game.undo_steps[-1].parts["rng_state"]) < 625 * 12  # the state itself: 625 numbers, whatever the log


def test_listeners_hear_each_do_undo_and_redo(game):
    heard: list[Change] = []
    game.change_listeners.append(heard.append)
    game.execute(RollDice(expression="d6"))
    game.undo()
    game.redo()
    assert [c.action for c in heard] == ["do", "undo", "redo"]
    assert heard[0].entry is heard[2].entry and heard[1].entry is None
    assert heard[1].log_length == heard[0].log_length - 1
    assert set(heard[0].parts) <= {"rng_state", "meta"} and heard[0].sequences["dice_history"].length > 0
