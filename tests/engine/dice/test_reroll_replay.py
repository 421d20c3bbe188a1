"""A Fate re-roll replays exactly (issue 9): of a physical roll or an automatic one, with physical
dice or the computer's, including physical faces that happen to equal what the random generator
would have drawn next (the replay must not take them from the generator)."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import FaceRequest, RandomSource
from d100gui.engine.dice_commands import RerollDice, RollDice
from d100gui.engine.game import Game, replay
from d100gui.storage.resources import bundled_rules, standard_tilesets


def _game(library) -> Game:
    campaign = Campaign()
    campaign.meta.seed = 11
    return Game(campaign, library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())


def _next_faces(game: Game, sides: list[int]) -> list[int]:
    """What the random generator would draw next (probed on a copy)."""
    probe = RandomSource()
    probe.set_state(game.random.get_state())
    return [probe.face(FaceRequest(sides=s, role="die", purpose="", expression="")) for s in sides]


def _replayed(game: Game, library) -> Campaign:
    start = Campaign(meta=game.campaign.meta, start_rng_state=game.campaign.start_rng_state)
    start.rng_state = list(game.campaign.start_rng_state)
    return replay(game.campaign.log, library, ALL_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets())


def _check(game: Game, library) -> None:
    """What ``d100gui replay --check`` compares: the whole state but the log and meta."""
    final = _replayed(game, library)
    assert final.model_dump(exclude={"log", "meta"}) == game.campaign.model_dump(exclude={"log", "meta"})


@pytest.mark.parametrize("first", ["physical", "auto"])
@pytest.mark.parametrize("again", ["physical", "auto", "physical like the generator"])
def test_a_fate_re_roll_replays_exactly(bundled_library, first, again):
    game = _game(bundled_library)
    game.execute(RollDice(expression="d6"))  # an automatic roll before, so the generator has moved
    game.physical = (lambda requests: [2] * len(requests)) if first == "physical" else None
    game.execute(RollDice(expression="3d6"))
    if again == "physical like the generator":
        faces = _next_faces(game, [6, 6])
        game.physical = lambda requests: faces[: len(requests)]
    elif again == "physical":
        game.physical = lambda requests: [5] * len(requests)
    else:
        game.physical = None
    game.execute(RerollDice(entry=1, dice=[0, 2]))
    game.physical = None
    game.execute(RollDice(expression="d100"))  # the random state after the re-roll must match too
    record = game.campaign.dice_history[2].roll
    assert record.manual == (again != "auto")  # the flag says where the re-rolled faces came from
    assert record.rerolled == [0, 2]
    _check(game, bundled_library)


def test_a_second_re_roll_of_a_re_roll_replays_exactly(bundled_library):
    game = _game(bundled_library)
    game.physical = lambda requests: [3] * len(requests)
    game.execute(RollDice(expression="2d6"))
    game.physical = None
    game.execute(RerollDice(entry=0, dice=[1]))
    faces = _next_faces(game, [6])
    game.physical = lambda requests: faces[: len(requests)]
    game.execute(RerollDice(entry=1, dice=[0]))
    game.physical = None
    game.execute(RollDice(expression="d100"))
    assert [e.roll.manual for e in game.campaign.dice_history] == [True, False, True, False]
    _check(game, bundled_library)
