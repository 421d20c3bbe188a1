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


# --------------------------------------------------------------------------- the ritual reads the fight tracker


def _tracked(*faces: int):
    """A game whose tracked fight has Vera (Cunning caster, AC 4, 9 health) and an Orc, dice scripted."""
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.game import Game
    from d100gui.engine.toolbox import commands as tc
    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.storage.resources import bundled_rules, standard_tilesets

    library = packs.load_library(user_data_dir()).library
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource(list(faces))
    game.execute(
        tc.ScarsStartEncounter(
            fighters=[
                sc.ScarsFighter(name="Vera", armour_class=4, health=9, max_health=9, scars=2),
                sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=10, max_health=10, hd=2),
            ]
        )
    )
    return game


def test_damage_taken_in_the_tracker_reaches_the_ritual_and_a_new_round_clears_it():
    from d100gui.engine.toolbox import commands as tc
    from d100gui.engine.toolbox import procedure_commands as pc

    # the Orc hits Vera twice this Round (d20 9 then 3 damage, d20 8 then 2): 5 damage before her go;
    # her Ritual: d20 5 (at most Cunning 12 but not over 5): fails; the typed damage (0) is not used
    game = _tracked(9, 3, 8, 2, 5)
    game.execute(tc.ScarsAttack(attribute=10, in_encounter=True, attacker="Orc", target="Vera"))
    game.execute(tc.ScarsAttack(attribute=10, in_encounter=True, attacker="Orc", target="Vera"))
    fight = game.campaign.toolbox.scars_encounter
    assert fight is not None and fight.fighter("Vera").damage_this_round == 5
    [event] = game.execute(pc.ScarsRitualCheck(name="Vera", cunning=12, damage=0))
    result = event.payload().result
    assert result.from_fight and result.damage == 5 and not result.succeeded
    assert "over the 5 damage taken this Round, as the fight tracker counts it" in event.message
    assert "roll a Mishap" in event.message
    # the next Round starts clean: a 5 now succeeds
    game.override = ScriptedSource([5])
    game.execute(tc.ScarsNextRound())
    [event] = game.execute(pc.ScarsRitualCheck(name="Vera", cunning=12))
    assert event.payload().result.damage == 0 and event.payload().result.succeeded
    assert "no damage taken this Round, as the fight tracker counts it" in event.message


@pytest.mark.parametrize(("face", "ok"), [(3, False), (4, True), (12, True), (13, False)])
def test_every_face_against_the_tracker_s_3_damage(face, ok):
    from d100gui.engine.toolbox import commands as tc
    from d100gui.engine.toolbox import procedure_commands as pc

    game = _tracked(9, 3, face)
    game.execute(tc.ScarsAttack(attribute=10, in_encounter=True, attacker="Orc", target="Vera"))
    [event] = game.execute(pc.ScarsRitualCheck(name="Vera", cunning=12))
    assert event.payload().result.succeeded is ok


def test_a_scars_shift_taking_a_hit_back_takes_its_damage_back_too():
    from d100gui.engine.toolbox import commands as tc

    # Vera (2 Scars) hits the Orc (d20 9, 4 damage), then shifts the roll up by her Scars: 11, over her 10, a miss
    game = _tracked(9, 4)
    game.execute(tc.ScarsAttack(attribute=10, in_encounter=True, attacker="Vera", target="Orc"))
    fight = game.campaign.toolbox.scars_encounter
    assert fight is not None and fight.fighter("Orc").damage_this_round == 4
    game.execute(tc.ScarsModifyAttack(sign=sc.ScarsSign.PLUS, in_encounter=True))
    fight = game.campaign.toolbox.scars_encounter
    assert fight is not None and fight.fighter("Orc").health == 10 and fight.fighter("Orc").damage_this_round == 0


def test_a_caster_who_cannot_act_or_is_not_tracked_is_refused():
    from d100gui.engine.protocol import CommandRefused
    from d100gui.engine.toolbox import procedure_commands as pc

    game = _tracked()
    with pytest.raises(CommandRefused, match="no fighter named 'Nobody'"):
        game.execute(pc.ScarsRitualCheck(name="Nobody", cunning=12, in_encounter=True))
    untracked = _tracked(2)
    untracked.campaign.toolbox = untracked.campaign.toolbox.model_copy(update={"scars_encounter": None})
    with pytest.raises(CommandRefused, match="No scars fight is being tracked"):
        untracked.execute(pc.ScarsRitualCheck(name="Vera", cunning=12, in_encounter=True))
    fight = sc.ScarsEncounter(
        fighters=[sc.ScarsFighter(name="Vera", health=6, max_health=6), sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY)],
        surprised=sc.Side.ADVENTURER,
    )
    with pytest.raises(ToolInputError, match="no actions in the first combat Round"):
        sc.encounter_ritual(fight, dice(), "Vera", 12)


def test_seeded_rituals_after_the_tracker_s_damage_keep_the_text_s_odds():
    fight = sc.ScarsEncounter(
        fighters=[
            sc.ScarsFighter(name="Vera", health=6, max_health=10, damage_this_round=4),
            sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY),
        ]
    )
    d = Dice(RandomSource(2209))
    runs = 2000
    wins = sum(sc.encounter_ritual(fight, d, "Vera", 14).succeeded for _ in range(runs))
    assert 0.455 * runs <= wins <= 0.545 * runs  # faces 5-14 of the d20: 50%, within 4 standard errors
