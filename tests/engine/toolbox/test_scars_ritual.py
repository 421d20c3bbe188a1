"""A Ritual cast in a d20 fight after damage: at or under Cunning and over the damage taken; the surprised
side's lost first Round (issue 22)."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, RandomSource, ScriptedSource
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.inputs import ToolInputError


def dice(*faces: int) -> Dice:
    return Dice(ScriptedSource(faces))


@pytest.mark.parametrize(("face", "ok"), [(1, False), (4, False), (5, True), (12, True), (13, False), (20, False)])
def test_after_4_damage_the_roll_must_be_over_4_and_at_most_cunning(face, ok):
    result = sc.ritual_check(dice(face), cunning=12, damage=4, name="Vera")
    assert result.succeeded is ok
    assert ("roll a Mishap" in result.describe()) is not ok and "over the 4 damage taken" in result.describe()


def test_without_damage_it_is_a_plain_cunning_check_and_moving_refuses_it():
    assert sc.ritual_check(dice(1), cunning=12).succeeded and not sc.ritual_check(dice(13), cunning=12).succeeded
    with pytest.raises(ToolInputError, match="can't cast a spell and move in the same Round"):
        sc.ritual_check(dice(), cunning=12, moved=True)


def test_seeded_rituals_succeed_on_the_faces_between_damage_and_cunning():
    d = Dice(RandomSource(2208))
    runs = 2000
    wins = sum(sc.ritual_check(d, cunning=14, damage=4).succeeded for _ in range(runs))
    assert 0.455 * runs <= wins <= 0.545 * runs  # faces 5-14: 50%; 4 standard errors is 4.5 points


def test_the_surprised_side_cannot_attack_in_round_1_only():
    fight = sc.ScarsEncounter(
        fighters=[
            sc.ScarsFighter(name="Vera", armour_class=4, health=6, max_health=6),
            sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=10, max_health=10, hd=2),
        ],
        surprised=sc.Side.ENEMY,
    )
    with pytest.raises(ToolInputError, match="no actions in the first combat Round"):
        sc.encounter_attack(fight, dice(), "Orc", "Vera", 10)
    after, hit = sc.encounter_attack(fight, dice(8, 3), "Vera", "Orc", 10)  # the adventurers act
    assert hit.damage_dealt == 3 and "enemies were surprised" in after.surprise_note
    later = sc.next_round(after)
    assert later.surprise_note == "" and sc.encounter_attack(later, dice(9, 2), "Orc", "Vera", 10)[1].damage_dealt == 2


def test_a_nested_roll_again_chain_reads_unambiguously(bundled_library):
    from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
    from d100gui.engine.toolbox import exploration as ex

    # 100: roll again twice -> 100 and 10 (its 1d4: 3); the inner 100 -> 60 (1d4 1, 1d8 2) and 10 (1d4 4);
    # each row's dice come right after its roll, as the table roller reads it
    faces = [0, 0, 0, 0, 1, 0, 3, 6, 0, 1, 2, 1, 0, 4]
    tables = TableRoller(bundled_library, Dice(ScriptedSource(faces)), MissingRowPolicy.ASK)
    result = ex.roll_injury(tables)
    text = result.describe()
    assert text.startswith("Injury d% 100: roll again twice -> [1: Injury d% 100: roll again twice -> [1: Injury d% ")
    assert text.count("[") == text.count("]") == 2 and "; 2: Injury d% 10: sprained ankle (1d4 Agility damage: 4)]; 2: " in text
