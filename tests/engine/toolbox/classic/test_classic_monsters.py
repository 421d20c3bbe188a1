"""The wandering monster by dungeon level, with scripted dice."""

from __future__ import annotations

import pytest

from d100gui.engine.toolbox.classic.monsters import wandering_check, wandering_monster
from d100gui.engine.toolbox.inputs import ToolInputError


def test_the_level_picks_the_matrix_column_and_the_table_it_names(scripted):
    s = scripted(6, 2, 3)  # level 3, a 6: Table 6; a 2: Hydra (9-12 heads), 1d4+8 heads
    monster = wandering_monster(s.roller, 3, party_size=7)
    assert s.source.remaining == 0
    assert monster.matrix.column == "level_3" and monster.matrix.text == "Table 6"
    assert monster.monster_level == 6 and monster.name == "Hydra (9-12 heads)"
    assert [d.value for d in monster.monster.dice] == [11]
    assert monster.party_factor == 3
    assert "heads: 11" in monster.describe()


@pytest.mark.parametrize(("level", "column"), [(1, "level_1"), (5, "level_4_5"), (11, "level_10_12"), (30, "level_13_plus")])
def test_every_level_has_its_column(scripted, level, column):
    s = scripted(1, 1)
    assert wandering_monster(s.roller, level).matrix.column == column


def test_bad_inputs_are_refused_with_the_valid_range(scripted):
    with pytest.raises(ToolInputError, match="Dungeon level must be 1 or more; 0 is out of range"):
        wandering_monster(scripted().roller, 0)
    with pytest.raises(ToolInputError, match="Party size must be 1 to 1000; 0 is out of range"):
        wandering_monster(scripted().roller, 1, party_size=0)


def test_the_check_is_a_six_on_a_d6(scripted):
    s = scripted(5, 6)
    assert not wandering_check(s.roller.dice).appeared
    assert wandering_check(s.roller.dice).appeared


def test_the_meeting_rolls_the_way_in_surprise_distance_and_reaction(scripted):
    from d100gui.engine.toolbox.classic.monsters import meet_wandering

    s = scripted(1, 4, 3, 5, 5, 2, 3, 6, 5)  # Table 1, Orcs; way 3 of 4; surprise 5/5; 2d4 = 5; 2d6 11 - 2 = 9
    monster = meet_wandering(s.roller, wandering_monster(s.roller, 1), entries=4, reaction_modifier=-2)
    assert s.source.remaining == 0
    assert monster.direction is not None and monster.direction.final == 3
    assert monster.meeting is not None and monster.meeting.distance == 50
    assert monster.reaction is not None and monster.reaction.text == "positive reaction" and monster.reaction.value == 9
    assert "comes by way 3 of 4" in monster.describe() and "50 feet away" in monster.describe()
    with pytest.raises(ToolInputError, match="Ways in must be 0 to 20; 21 is out of range"):
        meet_wandering(s.roller, monster, entries=21)


def test_no_surprise_means_no_surprise_dice(scripted):
    from d100gui.engine.toolbox.classic.monsters import meet_wandering

    s = scripted(1, 4, 4, 4, 1, 1)
    monster = meet_wandering(s.roller, wandering_monster(s.roller, 1), surprise=False)
    assert monster.meeting is not None and monster.meeting.party_die is None and monster.meeting.distance == 80
    assert monster.reaction is not None and monster.reaction.text == "negative reaction"
