"""The rule answers the hero widgets ask for (engine/hero/queries.py), read from the bundled rules."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.hero import queries
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.experience import experience_pips
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.hero.skill_test import make_spec
from d100gui.engine.rules.faces import chance_of, d10_reading
from d100gui.engine.rules.notation import TestSpec
from d100gui.storage.resources import bundled_rules

RULES = bundled_rules()


def hero(str_=50, dex=40, int_=30):
    ch = new_character(RULES)
    for stat, value in (("STR", str_), ("DEX", dex), ("INT", int_)):
        ch.characteristics[stat].primary = value
    return ch


@pytest.mark.parametrize(
    ("target", "die", "chance"), [(70, "d100", 70), (120, "d100", 100), (-5, "d100", 0), (3, "d10", 30), (12, "d10", 100)]
)
def test_chance_of_a_target(target, die, chance):
    assert chance_of(target, die) == chance


def test_preview_is_the_engines_and_its_chance_agrees():
    ch = hero(dex=65)
    ch.skills["Traps"].bonus = 10
    spec = make_spec("Test: Dex -10 [S:+30 gp] [F:-10 hp] (Locks, Traps)", rules=RULES)
    preview = queries.preview(ch, RULES, spec)
    assert (preview.formula, preview.target, preview.chance) == ("65 -10 +10 = 65", 65, 65)
    assert chance_of(preview.target, preview.die) == preview.chance


def test_a_pending_tests_chance_and_dice():
    def pending(expression: str, target: int) -> PendingTest:
        roll = Dice(ScriptedSource([0, 5])).roll(expression)
        return PendingTest(id="t", prompt="", spec=TestSpec(characteristic="DEX"), parts=[], target=target, roll=roll)

    assert (queries.pending_chance(pending("d100", 65)), queries.is_single_die(pending("d100", 65))) == (65, False)
    assert (queries.pending_chance(pending("d10", 4)), queries.is_single_die(pending("d10", 4))) == (40, True)


def test_abilities_unlock_at_their_threshold():
    d = derive(hero(str_=50, int_=30), RULES)
    assert queries.ability_unlocked(d, "mighty_blow") and not queries.ability_unlocked(d, "spell_caster")
    assert not queries.spells_castable(RULES, d)
    assert queries.spells_castable(RULES, derive(hero(int_=55), RULES))
    assert queries.ability_requirement(RULES, "spell_caster") == "INT 50"
    assert queries.ability_for(RULES, "DEX").id == "perfect_aim"
    assert queries.unlock_thresholds(RULES) == [50]


def test_a_ruleset_without_spell_caster_always_casts():
    rules = RULES.model_copy(update={"abilities": [a for a in RULES.abilities if a.id != "spell_caster"]})
    assert queries.spells_castable(rules, derive(hero(int_=10), RULES))


def test_experience_and_tracks_come_from_the_rules():
    assert experience_pips(RULES, "characteristic") == RULES.experience.characteristic_pips == 1
    assert experience_pips(RULES, "skills") == RULES.experience.skill_pips == 2
    assert queries.track_full_gain(RULES, "characteristic") == f"+{RULES.characteristic_step}"
    assert queries.track_full_gain(RULES, "skill") == f"+{RULES.skill_step}"
    assert queries.modifier_step(RULES) == RULES.characteristic_step
    assert queries.darkness_penalty(RULES) == RULES.darkness_modifier == -20


def test_a_lone_d10_reads_zero_as_ten():
    assert [d10_reading(f) for f in (0, 1, 9)] == [10, 1, 9]


def test_items_on_the_sheet():
    ch = hero()
    sword = Item(name="Greatsword", kind="weapon", slot="main_weapon", two_handed=True)
    ch.equipment["main_weapon"] = sword
    assert queries.covering_two_handed(ch, "off_weapon") == sword
    assert queries.covering_two_handed(ch, "head") is None
    potion = Item(name="Healing", kind="potion")
    rope = Item(name="Rope", kind="item")
    helm = Item(name="Helm", kind="armour", slot="head")
    assert [queries.belt_item(RULES, i) for i in (potion, rope, helm)] == [True, False, False]
    assert [queries.has_repair_track(RULES, i) for i in (potion, rope, helm)] == [False, False, True]
    ch.backpack = [rope]
    assert queries.item_at(ch, "equipment", "main_weapon") == sword
    assert queries.item_at(ch, "backpack", index=0) == rope
    assert queries.item_at(ch, "backpack", index=3) is None
    assert queries.item_at(ch, "belt", index=99) is None
