"""derive() adds up the time track's bonuses in one pass (issue 18, performance): what it returns is what
strict validation gives (every value of its declared type), whatever the hero carries, and each call's own."""

from __future__ import annotations

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.hero.derive import Derived, derive
from d100gui.engine.hero.model import Character, TimeBonus
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules


@pytest.fixture(scope="module")
def hero() -> Character:
    campaign = build_demo_campaign(load_library(None).library)
    assert campaign.character is not None
    return campaign.character


def _variants(hero: Character) -> list[Character]:
    dark = hero.model_copy(update={"in_darkness": True})
    timed = hero.model_copy(deep=True)
    timed.time_track.bonuses = [
        TimeBonus(stat="STR", amount=5),
        TimeBonus(stat="STR", amount=-2),
        TimeBonus(stat="HP", amount=3),
        TimeBonus(stat="DEF", amount=1),
        TimeBonus(stat="DMG", amount=2),
    ]
    bare = hero.model_copy(update={"equipment": {slot: None for slot in hero.equipment}, "spell_book": []})
    return [hero, dark, timed, bare]


def test_derived_values_are_what_validation_gives(hero: Character) -> None:
    rules = bundled_rules()
    for character in _variants(hero):
        derived = derive(character, rules)
        again = Derived.model_validate(derived.model_dump(), strict=True)
        assert again == derived
        assert derived.model_dump_json() == again.model_dump_json()


def test_time_track_bonuses_add_up_per_stat(hero: Character) -> None:
    rules = bundled_rules()
    base = derive(hero, rules)
    timed = _variants(hero)[2]
    derived = derive(timed, rules)
    assert derived.characteristics["STR"] == base.characteristics["STR"] + 3
    assert [p.value for p in derived.sources["STR"] if p.label == "time track"] == [3]
    assert derived.max_hp == base.max_hp + 3
    assert all(derived.defence[slot] == base.defence[slot] + 1 for slot in base.defence)
    assert derived.dmg_bonus == base.dmg_bonus + 2


def test_each_call_gives_its_own_lists(hero: Character) -> None:
    """Nothing is shared between calls or with the rules (a view may keep one result while another is made)."""
    rules = bundled_rules()
    first, second = derive(hero, rules), derive(hero, rules)
    first.spell_thresholds.append(999)
    first.sources["STR"].clear()
    assert 999 not in second.spell_thresholds and 999 not in rules.spell_thresholds()
    assert second.sources["STR"]
