"""The small rule questions views ask the engine: experience, abilities, a full track, the darkness."""

from __future__ import annotations

from d100gui.engine.dice.dice import DieFace, RollRecord
from d100gui.engine.hero.derive import ability_unlocked, derive, unlocks_at
from d100gui.engine.hero.experience import (
    earns_experience,
    experience_pips,
    experience_track,
    full_track_step,
    shade_experience,
    track_maximum,
)
from d100gui.engine.hero.model import new_character
from d100gui.engine.rules.notation import TestSpec
from d100gui.storage.resources import bundled_rules

RULES = bundled_rules()


def _roll(natural: int, expression: str = "d100") -> RollRecord:
    return RollRecord(
        expression=expression, terms=[], dice=[DieFace(sides=10, face=natural % 10)], natural=natural, final=natural
    )


def _hero(int_primary: int = 50):
    ch = new_character(RULES)
    ch.creation = None
    for stat, value in (("STR", 30), ("DEX", 40), ("INT", int_primary)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    return ch


def test_experience_pips_and_steps_come_from_the_rules():
    assert experience_pips(RULES, "characteristic") == 1
    assert experience_pips(RULES, "skills") == 2
    assert full_track_step(RULES, "characteristic") == full_track_step(RULES, "skill") == 5
    assert (track_maximum(RULES, "characteristic"), track_maximum(RULES, "skill")) == (80, 20)
    more = RULES.model_copy(update={"experience": RULES.experience.model_copy(update={"skill_pips": 3})})
    assert experience_pips(more, "skills") == 3


def test_a_natural_10_or_less_on_a_d100_characteristic_test_earns_experience():
    spec = TestSpec(characteristic="DEX")
    assert earns_experience(RULES, _roll(10), spec)
    assert not earns_experience(RULES, _roll(11), spec)
    assert not earns_experience(RULES, _roll(3, "d10"), TestSpec(against="keys"))
    stricter = RULES.model_copy(update={"experience": RULES.experience.model_copy(update={"natural_max": 5})})
    assert not earns_experience(stricter, _roll(6), spec)


def test_a_full_track_adds_the_rules_step():
    ch = _hero()
    track = experience_track(ch, RULES, "DEX")
    assert (track.value, track.maximum, track.step, track.length) == (40, 80, 5, RULES.sheet.characteristic_track)
    ch.characteristics["DEX"].pips = track.length - 1
    shade_experience(ch, RULES, "DEX")
    assert ch.characteristics["DEX"].primary == 45 and ch.characteristics["DEX"].pips == 0


def test_an_ability_unlocks_at_its_threshold_and_locks_in_the_dark():
    assert unlocks_at(RULES, "spell_caster") == ("INT", 50)
    ch = _hero(50)
    assert ability_unlocked(ch, RULES, "spell_caster")
    assert not ability_unlocked(ch, RULES, "mighty_blow")
    ch.in_darkness = True
    assert derive(ch, RULES).characteristics["INT"] == 50 + RULES.darkness_modifier
    assert not ability_unlocked(ch, RULES, "spell_caster")
