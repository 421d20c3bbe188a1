"""Random combat commands in random fight states (issue 10 #11): through the public engine API,
a command is either carried out or refused with a reason (:class:`CommandRefused`), never an
IndexError, AssertionError or KeyError out of the engine.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d100gui.engine import CommandRefused, Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.game import GameData
from d100gui.engine.hero.model import Item, SpellEntry, new_character
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_game_data, bundled_rules

SLOTS = st.sampled_from(["main_weapon", "off_weapon"])
SMALL = st.integers(min_value=-2, max_value=12)
MONSTERS = [
    {
        "name": "Goblin",
        "av": 45,
        "defence": 1,
        "dmg": 0,
        "hp": [3],
        "loot": {"options": [{"table": "d100.P", "text": "Table P"}]},
    },
    {"name": "Rats", "av": 30, "hp": [2, 2], "abilities": [{"id": "pack"}, {"id": "disease"}]},
    {"name": "Wraith", "av": 50, "hp": [4], "abilities": [{"id": "fear"}, {"id": "web"}, {"id": "stunned"}]},
    {
        "name": "Ogre",
        "av": 40,
        "dmg": 1,
        "hp": [5],
        "abilities": [{"id": "attacks", "rating": 2}, {"id": "large"}, {"id": "resurrection"}],
        "loot": {"options": [{"table": "d100.TA", "text": "Table TA"}, {"table": "d100.C", "text": "Table C"}]},
    },
]


@cache
def bundled():
    return bundled_game_data()


def data() -> GameData:
    """The bundled rules and tile sets with a library of its own (a typed row lays over it)."""
    return replace(bundled(), library=load_library(None).library)


def hero_campaign(seed: int) -> Campaign:
    rules = bundled_rules()
    ch = new_character(rules)
    ch.creation, ch.name = None, "Fuzz"
    for stat, value in (("STR", 55), ("DEX", 45), ("INT", 55)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.fate, ch.lives = 2, 1
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", weapon_type="H")
    ch.equipment["off_weapon"] = Item(name="Buckler", kind="shield", slot="off_weapon", shield=2)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=1)
    ch.equipment["waist"] = Item(name="Belt", kind="armour", slot="waist", defence=0)
    ch.backpack = [
        Item(name="Great Axe", kind="weapon", weapon_type="H", two_handed=True),
        Item(name="Bow", kind="weapon", weapon_type="H,R"),
    ]
    ch.belt[0] = Item(name="Lesser Healing Potion", kind="potion", effect="Restore 4 lost HP")
    ch.belt[1] = Item(name="Scroll of Fire Blast", kind="scroll")
    ch.belt[2] = Item(name="Brew of Finer Dodge", kind="brew", effect="+2 DEF before a Monster rolls its DAMAGE dice.")
    ch.spell_book[0] = SpellEntry(name="HEAL", cost="-1 STR")
    ch.spell_book[1] = SpellEntry(name="FIRE BALL", cost="-2 HP")
    campaign = Campaign(character=ch)
    campaign.meta.seed = seed
    return campaign


def k(kind: str, **fields):
    return st.fixed_dictionaries({"kind": st.just(kind), **fields})


COMMANDS = st.one_of(
    k("start_combat", source=st.just("monster"), monster=st.sampled_from(MONSTERS), fate_windows=st.booleans()),
    k("start_combat", source=st.sampled_from(["table_e", "snake"]), table_value=st.none() | st.integers(-5, 120)),
    k("combat_continue"),
    k("combat_fate", dice=st.lists(st.integers(-1, 3), max_size=3)),
    k("combat_attack", slot=SLOTS, stat=st.sampled_from(["", "STR", "DEX", "INT", "xyz"])),
    k("combat_change_weapon", swap=st.booleans(), backpack_index=st.none() | SMALL, slot=SLOTS),
    k("combat_cast_spell", index=st.none() | SMALL, spell=st.sampled_from(["", "Heal", "Fire Ball", "Nope"]), bonus=SMALL),
    k("combat_use_belt", belt_slot=SMALL, bonus=SMALL),
    k("combat_escape"),
    k("combat_block_escape", slot=SLOTS, stat=st.sampled_from(["", "STR", "DEX"])),
    k("combat_pass"),
    k("combat_perfect_aim", choice=st.sampled_from(["keep", "reroll", "first", "second"])),
    k("combat_offset", item=st.integers(-1, 4), shield=st.integers(-1, 4)),
    k("combat_choose_loot", option=st.integers(-1, 3)),
    k("combat_provide_row", sample=st.booleans()),
    k("combat_provide_row", row=st.fixed_dictionaries({"range": st.tuples(SMALL, SMALL), "fields": st.just({"part": "EYE"})})),
    k("face_escaped_monster", pos=st.sampled_from(["", "0,0", "3,4", "x"])),
    k("unequip_item", slot=st.sampled_from(["main_weapon", "off_weapon", "head", "waist"])),
    k("equip_item", index=SMALL, slot=st.sampled_from(["main_weapon", "off_weapon", "head"])),
    k("discard_item", where=st.just("equipment"), slot=st.sampled_from(["main_weapon", "off_weapon", "head", "waist"])),
    k("discard_hit"),
    k("take_from_belt", belt_slot=SMALL),
    k("accept_test"),
    k("use_fate", dice=st.lists(st.integers(-1, 2), max_size=2)),
)


def run(session: Session, command: dict) -> bool:
    """Run one command: True if done, False if refused (anything else fails the test)."""
    try:
        session.run(command)
    except CommandRefused:
        return False
    return True


#: what moves a fight on from each wait (so later commands meet later states)
ONWARD = {
    "action": {"kind": "combat_attack"},
    "loot": {"kind": "combat_choose_loot", "option": 0},
    "row": {"kind": "combat_provide_row", "sample": True},
}


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    monster=st.sampled_from(MONSTERS),
    windows=st.booleans(),
    commands=st.lists(st.tuples(COMMANDS, st.integers(0, 4)), min_size=1, max_size=25),
)
def test_combat_commands_are_done_or_refused(seed, monster, windows, commands):
    session = Session(data(), hero_campaign(seed), policy="ask")
    run(session, {"kind": "start_combat", "source": "monster", "monster": monster, "fate_windows": windows})
    for command, onward in commands:
        hit = session.combat.monster_hit if session.combat is not None else None
        if command["kind"] == "discard_hit" and hit is not None:  # rub off the item the monster just hit
            command = {"kind": "discard_item", "where": "equipment", "slot": hit.slot}
        run(session, command)
        for _ in range(onward):
            if session.combat is None:
                break
            waiting, hit = session.combat.waiting, session.combat.monster_hit
            step = ONWARD.get(waiting, {"kind": "combat_continue"})
            if waiting == "offset" and hit is not None:  # as much as offered: items fill up and break
                step = {"kind": "combat_offset", "item": hit.item_max, "shield": min(hit.shield_max, hit.damage - hit.item_max)}
            if not run(session, step) and waiting == "action":
                run(session, {"kind": "combat_pass"})
