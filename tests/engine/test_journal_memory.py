"""Undo memory does not grow with the campaign (issue 9): a move's step holds the one dungeon it
changed (the others are shared with the journal's cache), undo validates only that dungeon, and
the bytes kept are a running total that matches the steps."""

from __future__ import annotations

import itertools
import random

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon.map import ROTATIONS, Dungeon, DungeonBook, place_manual
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.engine.game import Game
from d100gui.engine.journal import BookText, Step
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tileset, standard_tilesets


def _old_dungeon(index: int, library) -> Dungeon:
    rng = random.Random(index)
    doors = TableRoller(library, Dice(RandomSource(index)), MissingRowPolicy.REROLL)
    d = Dungeon(id=f"old-{index}", width=15, height=11)
    for i in range(40):
        d = place_manual(d, i % 15, i // 15, standard_tileset().tile(rng.randint(1, 100)), rng.choice(ROTATIONS), doors)[0]
    return d


@pytest.fixture
def game(bundled_library) -> Game:
    campaign = build_demo_campaign(bundled_library)
    campaign.dungeons = DungeonBook(dungeons=[_old_dungeon(i, bundled_library) for i in range(8)], current=7)
    game = Game(
        campaign,
        bundled_library,
        ALL_COMMANDS,
        policy=MissingRowPolicy.REROLL,
        rules=bundled_rules(),
        tilesets=standard_tilesets(),
        check_journal=True,
    )
    campaign.adventure.quest = campaign.adventure.turn = None  # free mapping: bare moves are refused during a quest
    game.execute(NewDungeon())
    game.execute(EnterDungeon())
    return game


def _moves(game: Game, count: int) -> int:
    done = 0
    for _ in range(count * 4):
        for side in "NESW":
            try:
                game.execute(MoveHero(side=side))
            except CommandRefused:
                continue
            done += 1
            break
        if done >= count:
            break
    return done


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_move_step_holds_the_dungeon_it_changed_not_the_book(game):
    book_bytes = len(game.campaign.dungeons.model_dump_json())
    assert _moves(game, 3) == 3
    step = game.undo_steps[-1]
    assert isinstance(step, Step)
    kept = step.kept["dungeons"]
    assert isinstance(kept, BookText)
    current = game.campaign.dungeons.dungeons[-1].model_dump_json()
    assert step.size < len(current) + 10_000 < book_bytes  # the changed dungeon and small parts only
    assert step.parts["dungeons"] != game.campaign.dungeons.model_dump_json()  # still the whole book, as it was


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_steps_share_the_json_of_dungeons_they_did_not_change(game):
    _moves(game, 4)
    books = [s.kept["dungeons"] for s in game.undo_steps[-4:] if isinstance(s, Step) and "dungeons" in s.kept]
    assert len(books) == 4
    for a, b in itertools.pairwise(books):
        assert all(x is y for x, y in zip(a.members[:-1], b.members[:-1], strict=True))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_undo_of_a_move_reuses_the_dungeons_it_did_not_change(game):
    before = list(game.campaign.dungeons.dungeons)
    text = game.campaign.dungeons.model_dump_json()
    _moves(game, 1)
    game.undo()
    after = game.campaign.dungeons.dungeons
    assert game.campaign.dungeons.model_dump_json() == text
    assert all(a is b for a, b in zip(after[:-1], before[:-1], strict=True))
    game.redo()
    game.undo()
    assert game.campaign.dungeons.model_dump_json() == text


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_running_total_of_undo_bytes_matches_the_steps(game):
    _moves(game, 5)
    for _ in range(3):
        game.undo()
    game.redo()
    game.max_undo = 4
    _moves(game, 2)
    assert len(game.undo_steps) == 4
    assert game.undo_bytes == sum(s.size for s in game.undo_steps if isinstance(s, Step))
