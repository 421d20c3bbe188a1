"""The d20 scars combat tool with scripted dice: every edge case the text names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.inputs import ToolInputError
from d100gui.engine.toolbox.scars import AttackOutcome, MoraleOutcome, PackOutcome, ScarsSign, Side


def dice(*faces: int) -> Dice:
    return Dice(ScriptedSource(faces))


def fight() -> sc.ScarsEncounter:
    return sc.ScarsEncounter(
        fighters=[
            sc.ScarsFighter(name="Vera", armour_class=4, health=6, max_health=6, scars=2),
            sc.ScarsFighter(name="Orc", side=Side.ENEMY, armour_class=5, health=10, max_health=10, hd=2),
        ]
    )


# --------------------------------------------------------------------------- the attack roll


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        (8, AttackOutcome.HIT),  # under the attribute, over the AC
        (12, AttackOutcome.STUN),  # exactly the attribute
        (5, AttackOutcome.ARMOUR),  # exactly the AC
        (3, AttackOutcome.MISS),  # under the AC
        (13, AttackOutcome.MISS),  # over the attribute
    ],
)
def test_judge_attack_against_attribute_12_and_ac_5(result, outcome):
    assert sc.judge_attack(result, 12, 5) is outcome


@given(st.integers(-10, 40), st.integers(1, 20), st.integers(0, 20))
def test_only_a_result_at_or_under_the_attribute_and_above_the_ac_deals_damage(result, attribute, ac):
    outcome = sc.judge_attack(result, attribute, ac)
    assert (outcome in (AttackOutcome.HIT, AttackOutcome.STUN)) == (ac < result <= attribute)
    assert (outcome is AttackOutcome.STUN) == (ac < result == attribute)
    assert (outcome is AttackOutcome.ARMOUR) == (1 <= ac == result <= attribute)


def test_exactly_the_ac_when_it_is_also_the_attribute_is_the_armour_result():
    assert sc.judge_attack(7, 7, 7) is AttackOutcome.ARMOUR


def test_exactly_the_ac_over_the_attribute_is_a_miss():
    assert sc.judge_attack(9, 6, 9) is AttackOutcome.MISS


def test_a_hit_rolls_the_weapon_damage():
    result = sc.resolve_attack(dice(8, 4), attribute=12, armour_class=5, damage="1d6")
    assert result.outcome is AttackOutcome.HIT
    assert result.damage_dealt == 4
    assert not result.extra_attack and result.new_armour_class == 5


def test_exactly_the_attribute_stuns_and_grants_another_attack():
    result = sc.resolve_attack(dice(12, 3), attribute=12, armour_class=5, damage="1d8")
    assert result.outcome is AttackOutcome.STUN
    assert result.damage_dealt == 3 and result.extra_attack
    assert "stunned, attack again" in result.describe()


def test_exactly_the_ac_deals_no_damage_and_lowers_the_ac():
    source = ScriptedSource([5])
    result = sc.resolve_attack(Dice(source), attribute=12, armour_class=5)
    assert result.outcome is AttackOutcome.ARMOUR
    assert result.damage is None and result.new_armour_class == 4 and not result.armour_broken
    assert source.remaining == 0  # no damage die was rolled


def test_armour_breaks_when_the_ac_reaches_0_and_then_every_blow_above_0_lands():
    encounter = fight().replaced(fight().fighter("Orc").model_copy(update={"armour_class": 1}))
    encounter, first = sc.encounter_attack(encounter, dice(1), "Vera", "Orc", attribute=12)
    assert first.outcome is AttackOutcome.ARMOUR and first.armour_broken
    assert encounter.fighter("Orc").armour_class == 0 and encounter.fighter("Orc").armour_broken
    assert "the armour breaks" in first.describe()
    encounter, second = sc.encounter_attack(encounter, dice(1, 2), "Vera", "Orc", attribute=12)
    assert second.outcome is AttackOutcome.HIT and second.damage_dealt == 2
    assert encounter.fighter("Orc").armour_class == 0


def test_the_ac_lowered_in_an_encounter_stays_lowered():
    encounter, _ = sc.encounter_attack(fight(), dice(5), "Vera", "Orc", attribute=12)
    encounter = sc.next_round(encounter)
    assert encounter.fighter("Orc").armour_class == 4


def test_enemy_attacks_use_their_attack_against_the_adventurers_ac():
    encounter, result = sc.encounter_attack(fight(), dice(9, 5), "Orc", "Vera", attribute=11)
    assert result.outcome is AttackOutcome.HIT and result.armour_class == 4
    assert encounter.fighter("Vera").health == 1


# --------------------------------------------------------------------------- the Scars modifier


def test_the_scars_modifier_shifts_the_roll_by_the_scars():
    encounter, result = sc.encounter_attack(fight(), dice(10, 2), "Vera", "Orc", attribute=12, scars=ScarsSign.PLUS)
    assert result.roll.natural == 10 and result.result == 12
    assert result.outcome is AttackOutcome.STUN  # pushed onto the attribute exactly
    assert encounter.fighter("Vera").modifier_used
    assert encounter.fighter("Orc").stunned


def test_the_scars_modifier_can_pull_a_roll_down():
    _, result = sc.encounter_attack(fight(), dice(14, 1), "Vera", "Orc", attribute=12, scars=ScarsSign.MINUS)
    assert result.result == 12 and result.outcome is AttackOutcome.STUN


def test_the_scars_modifier_once_per_round():
    encounter, _ = sc.encounter_attack(fight(), dice(10, 2), "Vera", "Orc", attribute=12, scars=ScarsSign.PLUS)
    with pytest.raises(ToolInputError, match="once per initiative round"):
        sc.encounter_attack(encounter, dice(10, 2), "Vera", "Orc", attribute=12, scars=ScarsSign.PLUS)
    # without the modifier the same round is fine
    encounter, plain = sc.encounter_attack(encounter, dice(8, 1), "Vera", "Orc", attribute=12)
    assert plain.result == 8
    encounter = sc.next_round(encounter)
    assert not encounter.fighter("Vera").modifier_used and not encounter.fighter("Orc").stunned
    encounter, again = sc.encounter_attack(encounter, dice(10, 2), "Vera", "Orc", attribute=12, scars=ScarsSign.MINUS)
    assert again.result == 8


def test_the_scars_modifier_needs_scars_and_an_adventurer():
    with pytest.raises(ToolInputError, match="at least 1 Scar"):
        sc.scars_modifier(0, ScarsSign.PLUS)
    with pytest.raises(ToolInputError, match="Only adventurers"):
        sc.encounter_attack(fight(), dice(10), "Orc", "Vera", attribute=11, scars=ScarsSign.PLUS)


def test_the_scars_modifier_after_the_roll_is_seen_keeps_the_d20_and_the_damage():
    source = ScriptedSource([10, 3])
    attack = sc.resolve_attack(Dice(source), attribute=12, armour_class=5)
    shifted = sc.modify_attack(Dice(source), attack, +2)
    assert (attack.outcome, shifted.outcome) == (AttackOutcome.HIT, AttackOutcome.STUN)
    assert shifted.roll.natural == 10 and shifted.result == 12 and shifted.damage_dealt == 3
    with pytest.raises(ToolInputError, match="already carries the Scars modifier"):
        sc.modify_attack(Dice(source), shifted, -2)


def test_a_miss_shifted_into_a_hit_rolls_its_damage_then():
    attack = sc.resolve_attack(dice(14), attribute=12, armour_class=5, damage="1d8")
    shifted = sc.modify_attack(dice(7), attack, -2)
    assert attack.outcome is AttackOutcome.MISS and shifted.outcome is AttackOutcome.STUN and shifted.damage_dealt == 7


def test_shifting_the_latest_attack_of_an_encounter_takes_the_first_result_back():
    encounter, hit = sc.encounter_attack(fight(), dice(7, 2), "Vera", "Orc", attribute=12)
    assert hit.outcome is AttackOutcome.HIT and encounter.fighter("Orc").health == 8
    encounter, armour = sc.encounter_modify_attack(encounter, dice(), ScarsSign.MINUS)
    orc = encounter.fighter("Orc")
    assert armour.outcome is AttackOutcome.ARMOUR and armour.result == 5
    assert (orc.health, orc.armour_class) == (10, 4) and encounter.fighter("Vera").modifier_used
    with pytest.raises(ToolInputError, match="once per initiative round"):
        sc.encounter_modify_attack(encounter, dice(), ScarsSign.PLUS)
    with pytest.raises(ToolInputError, match="no attack this round"):
        sc.encounter_modify_attack(sc.next_round(encounter), dice(), ScarsSign.PLUS)


def test_an_enemy_cannot_shift_its_attack():
    encounter, _ = sc.encounter_attack(fight(), dice(15), "Orc", "Vera", attribute=11)
    with pytest.raises(ToolInputError, match="Only adventurers"):
        sc.encounter_modify_attack(encounter, dice(), ScarsSign.MINUS)


# --------------------------------------------------------------------------- health and morale


def test_an_enemy_at_half_health_must_test_morale():
    encounter, result = sc.encounter_attack(fight(), dice(8, 5), "Vera", "Orc", attribute=12, damage="1d6")
    assert result.target_health == 5 and result.morale_due
    assert "test morale" in result.describe()
    _, later = sc.encounter_attack(encounter, dice(8, 1), "Vera", "Orc", attribute=12)
    assert later.target_health == 4 and not later.morale_due  # asked once, when half health is reached


@pytest.mark.parametrize(("face", "outcome"), [(11, MoraleOutcome.STAND), (12, MoraleOutcome.RALLY), (13, MoraleOutcome.FLEE)])
def test_morale_against_10_plus_hd(face, outcome):
    result = sc.morale_check(dice(face), hd=2)
    assert result.target == 12 and result.outcome is outcome


def test_a_rally_gives_an_extra_attack_next_round_and_no_more_morale_tests():
    encounter, result = sc.encounter_morale(fight(), dice(12), "Orc")
    assert result.outcome is MoraleOutcome.RALLY
    orc = encounter.fighter("Orc")
    assert orc.rallied and orc.extra_attacks == 0 and orc.rally_attack_next_round
    with pytest.raises(ToolInputError, match="does not test morale again"):
        sc.encounter_morale(encounter, dice(1), "Orc")
    encounter = sc.next_round(encounter)
    assert encounter.fighter("Orc").extra_attacks == 1
    assert sc.next_round(encounter).fighter("Orc").extra_attacks == 0
    # nor does an attack ask for one
    encounter, hit = sc.encounter_attack(encounter, dice(8, 6), "Vera", "Orc", attribute=12)
    assert hit.target_health == 4 and not hit.morale_due


def test_a_routed_enemy_is_gone():
    encounter, result = sc.encounter_morale(fight(), dice(20), "Orc")
    assert result.outcome is MoraleOutcome.FLEE and encounter.fighter("Orc").fled
    with pytest.raises(ToolInputError, match="fled"):
        sc.encounter_attack(encounter, dice(5), "Orc", "Vera", attribute=11)


def test_an_enemy_of_10_hd_rallies_on_20_and_never_flees():
    assert sc.morale_check(dice(20), hd=10).outcome is MoraleOutcome.RALLY
    assert sc.morale_check(dice(20), hd=11).outcome is MoraleOutcome.STAND


@pytest.mark.parametrize(("face", "holds"), [(3, False), (4, True), (12, True), (13, False)])
def test_hireling_morale_under_cunning_over_hd(face, holds):
    assert sc.hireling_morale_check(dice(face), cunning=12, hd=3).holds is holds


# --------------------------------------------------------------------------- initiative, reaction, distance, pack


@pytest.mark.parametrize(("face", "first", "quick"), [(9, True, False), (10, True, True), (11, False, False)])
def test_initiative_against_agility(face, first, quick):
    result = sc.roll_initiative(dice(face), agility=10, name="Vera")
    assert (result.acts_first, result.quick_action) == (first, quick)


@pytest.mark.parametrize(("faces", "attitude"), [((1, 1), "Friendly"), ((3, 4), "Uninterested"), ((6, 6), "Murderous")])
def test_reaction_from_the_table(bundled_library, faces, attitude):
    result = sc.roll_reaction(TableRoller(bundled_library, dice(*faces)))
    assert result.attitude == attitude and result.table_roll.table_id == "d20.reaction"
    assert attitude in result.describe()


def test_encounter_distance_in_feet_or_yards():
    assert sc.roll_encounter_distance(dice(3, 4)).describe() == "Encounter distance 2d6 7 x 10: 70 feet."
    outside = sc.roll_encounter_distance(dice(6, 6), outdoors=True)
    assert (outside.distance, outside.unit) == (120, "yards")


@pytest.mark.parametrize(
    ("faces", "search", "outcome"),
    [((10,), True, PackOutcome.NOW), ((5,), True, PackOutcome.NEXT_ROUND), ((15, 2), True, PackOutcome.SEARCHING),
     ((15,), False, PackOutcome.FORGONE)],
)  # fmt: skip
def test_pack_retrieval(faces, search, outcome):
    result = sc.retrieve_from_pack(dice(*faces), cunning=10, search=search)
    assert result.outcome is outcome
    if outcome is PackOutcome.SEARCHING:
        assert result.search_roll is not None and result.search_roll.final == 2


# --------------------------------------------------------------------------- zero health


def test_zero_health_death_when_2d6_is_at_or_under_the_scars():
    result = sc.zero_health(dice(1, 1), scars=1)
    assert result.scars == 2 and result.roll.final == 2 and result.dead
    assert result.wake_roll is None and "dies" in result.describe()


def test_zero_health_survival_wakes_after_xd6_rounds():
    result = sc.zero_health(dice(2, 1, 4, 5), scars=1)
    assert not result.dead and result.wake_roll is not None
    assert result.wake_roll.expression == "2d6" and result.rounds_out == 9


def test_zero_health_in_an_encounter_then_waking_at_1_health():
    encounter, hit = sc.encounter_attack(fight(), dice(9, 6), "Orc", "Vera", attribute=11)
    assert hit.target_health == 0 and hit.zero_health_due
    encounter, check = sc.encounter_zero_health(encounter, dice(3, 3, 1, 1, 1), "Vera")
    vera = encounter.fighter("Vera")
    assert not check.dead and vera.scars == 3 and vera.wakes_in_rounds == 3 and vera.down
    with pytest.raises(ToolInputError, match="already made the scars check"):
        sc.encounter_zero_health(encounter, dice(6, 6), "Vera")
    for _ in range(2):
        encounter = sc.next_round(encounter)
        assert encounter.fighter("Vera").down
    encounter = sc.next_round(encounter)
    vera = encounter.fighter("Vera")
    assert not vera.down and vera.health == 1 and vera.wakes_in_rounds is None


def test_the_scars_check_is_made_at_0_health_only():
    with pytest.raises(ToolInputError, match="made at 0"):
        sc.encounter_zero_health(fight(), dice(6, 6), "Vera")


# --------------------------------------------------------------------------- the scars clock


def test_scars_clock_checks_1d6_after_every_turn():
    step = sc.advance_scars_clock(sc.ScarsClock(), dice(2, 1, 6), count=3)
    assert step.encounters == 1 and step.clock.turns == 3
    watch = sc.advance_scars_clock(step.clock, dice(4), unit="watch")
    assert watch.clock.watches == 1 and watch.clock.turns == 3


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: sc.resolve_attack(dice(1), 0, 5), "Attribute must be 1 to 20; 0 is out of range."),
        (lambda: sc.resolve_attack(dice(1), 21, 5), "Attribute must be 1 to 20; 21 is out of range."),
        (lambda: sc.resolve_attack(dice(1), 12, 21), "Armour Class must be 0 to 20; 21 is out of range."),
        (lambda: sc.resolve_attack(dice(1), 12, 5, damage="2x6"), "Damage: Cannot read dice expression"),
        (lambda: sc.morale_check(dice(1), -1), "HD must be 0 or more; -1 is out of range."),
        (lambda: sc.hireling_morale_check(dice(1), 12, -2), "Hireling HD must be 0 or more; -2 is out of range."),
        (lambda: sc.hireling_morale_check(dice(1), 0, 2), "Cunning must be 1 to 20; 0 is out of range."),
        (lambda: sc.roll_initiative(dice(1), 25), "Agility must be 1 to 20; 25 is out of range."),
        (lambda: sc.zero_health(dice(1), -1), "Scars must be 0 to 98; -1 is out of range."),
        (lambda: sc.advance_scars_clock(sc.ScarsClock(), dice(1), 0), "must be 1 to 100; 0 is out of range."),
        (lambda: fight().fighter("Goblin"), "no fighter named 'Goblin'"),
    ],
)
def test_out_of_range_input_is_refused_with_the_valid_range(call, message):
    with pytest.raises(ToolInputError) as refused:
        call()
    assert message in str(refused.value)


def test_the_state_and_the_results_round_trip_through_json():
    encounter, result = sc.encounter_attack(fight(), dice(5), "Vera", "Orc", attribute=12)
    assert sc.ScarsEncounter.model_validate_json(encounter.model_dump_json()) == encounter
    assert sc.AttackResult.model_validate_json(result.model_dump_json()) == result
    check = sc.zero_health(dice(2, 1, 4, 5), scars=1)
    assert sc.ZeroHealthResult.model_validate_json(check.model_dump_json()) == check
