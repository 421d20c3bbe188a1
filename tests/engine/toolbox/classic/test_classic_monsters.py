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
