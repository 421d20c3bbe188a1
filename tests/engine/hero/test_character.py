"""The character sheet: rules data, derived values, invariants, equipment commands."""

from __future__ import annotations

import json

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Row
from d100gui.engine.game import Game
from d100gui.engine.hero.derive import derive, incoming_damage
from d100gui.engine.hero.equipment import destroy_belt_check
from d100gui.engine.hero.experience import shade_experience
from d100gui.engine.hero.invariants import violations
from d100gui.engine.hero.item_rows import item_from_armour_row, item_from_weapon_row
from d100gui.engine.hero.model import Item, SpellEntry, TimeBonus, new_character
from d100gui.engine.hero.time_track import advance_time
from d100gui.engine.item_commands import CHARACTER_COMMANDS, AddItem, EquipItem, MoveToBelt, UnequipItem
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.rules.model import RulesInvalid, load_layout_text, load_rules_text
from d100gui.storage.resources import bundled_rules, resource_dir, standard_tilesets

RULES = bundled_rules()


def hero(**changes):
    """A finished character: STR 40, DEX 65, INT 30, Locks +5, Traps +10, 20 HP, 3 Fate."""
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Harry"
    for stat, value in (("STR", 40), ("DEX", 65), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.skills["Locks"].bonus = 5
    ch.skills["Traps"].bonus = 10
    ch.hp_primary = ch.hp = 20
    ch.fate = ch.lives = 3
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 10, 15
    for key, value in changes.items():
        setattr(ch, key, value)
    return ch


def game_with(character, library, *faces):
    campaign = Campaign()
    campaign.character = character
    game = Game(campaign, library, commands=CHARACTER_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    if faces:
        game.override = ScriptedSource(faces)
    return game


# --------------------------------------------------------------------------- rules data


def test_bundled_rules_hold_the_rulebook_numbers():
    c = RULES.creation
    assert c.characteristic_values == [50, 40, 30]
    assert (c.skill_choices, c.skill_bonus, c.rep, c.hp, c.fate, c.lives) == (2, 5, 1, 20, 3, 3)
    assert c.supplies == {"oil": 20, "food": 10, "picks": 15}
    assert RULES.supplies_max == {"oil": 20, "food": 10, "picks": 30}
    assert [(b.name, b.count) for b in c.belt] == [("Lesser Healing Potion", 3)]
    assert (RULES.reputation.min, RULES.reputation.max, RULES.skill_max, RULES.characteristic_max) == (1, 10, 20, 80)
    assert len(RULES.skills) == 10 and RULES.skills[0] == "Agility" and RULES.skills[-1] == "Traps"
    assert {a.name: (a.characteristic, a.threshold) for a in RULES.abilities} == {
        "Mighty Blow": ("STR", 50),
        "Perfect Aim": ("DEX", 50),
        "Spell Caster": ("INT", 50),
    }
    assert RULES.darkness_modifier == -20
    assert RULES.belt_slots == 10
    assert RULES.spell_thresholds() == [50, 50, 50, 50, 50, 60, 70, 80, 90, 100]
    assert {i.id: (i.share_value, i.pip_value) for i in RULES.investments.kinds} == {
        "trade": (100, 20),
        "finance": (300, 60),
        "holdings": (500, 100),
        "wars": (1000, 200),
    }
    assert RULES.investments.max_shares == 10
    assert (RULES.healer.poison_pip, RULES.healer.disease_pip, RULES.healer.hp) == (40, 65, 20)
    assert (RULES.training.skill_pip, RULES.training.characteristic_pip) == (200, 2000)


def test_slots_carry_hit_locations_and_damage_mods():
    assert len(RULES.slots) == 13
    by_roll = {s.hit_location: s.id for s in RULES.slots if s.hit_location}
    assert by_roll == {
        1: "head",
        2: "back",
        3: "torso",
        4: "arms",
        5: "hands",
        6: "main_weapon",
        7: "off_weapon",
        8: "waist",
        9: "legs",
        10: "feet",
    }
    mods = {s: RULES.damage_mod(s) for s in by_roll.values()}
    assert mods == {
        "head": 3,
        "back": 2,
        "torso": 1,
        "arms": 0,
        "hands": 0,
        "main_weapon": 0,
        "off_weapon": 0,
        "waist": 0,
        "legs": -1,
        "feet": -1,
    }
    assert RULES.slot("waist").belt_check
    assert [s.id for s in RULES.slots if s.hit_location is None] == ["neck", "ring_1", "ring_2"]


def test_repair_cost_rule_matches_every_printed_repair_cost(bundled_library):
    checked = 0
    for table_id in ("d100.A", "d100.W"):
        for row in bundled_library.get(table_id).rows:
            value = int("".join(ch for ch in row.fields["value"] if ch.isdigit()))
            printed = int("".join(ch for ch in row.fields["repair"] if ch.isdigit()))
            assert RULES.repair_cost(value) == printed, row.fields
            checked += 1
    assert checked == 8
    assert RULES.repair_cost(120) == 24  # the rulebook's worked example


def test_sheet_layout_defaults():
    layout = RULES.sheet
    assert layout.time_track.clocks == 12
    kinds = [(t.clock, t.kind, t.number) for t in layout.time_track.triggers]
    assert (3, "oil", None) in kinds and (6, "food", None) in kinds and (2, "wandering", 2) in kinds
    assert [m.reward for m in layout.combat_track.milestones] == [
        "Gain 50 gp",
        "Gain 300 gp",
        "Shade any 1 Skill Pip",
        "Roll on Table B",
        "Shade any 1 Characteristic Pip",
        "Gain +1 Reputation",
        "Gain +1 Fate point",
        "Gain +1 Lives",
    ]
    positions = [m.position for m in layout.combat_track.milestones]
    gaps = [b - a for a, b in zip([0, *positions], positions, strict=False)]
    assert gaps == sorted(gaps, reverse=True)  # slow to start, then speeds up
    assert set(layout.notes) >= {"characteristic_track", "skill_track", "repair_track", "hit_location_mods"}


def test_invalid_rules_and_layout_are_refused_with_the_field():
    text = (resource_dir() / "d100-rules.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["skill_max"] = "twenty"
    with pytest.raises(RulesInvalid, match="skill_max"):
        load_rules_text(json.dumps(data))
    layout = json.loads((resource_dir() / "sheet-layout.json").read_text(encoding="utf-8"))
    layout["time_track"]["triggers"].append({"clock": 13, "kind": "oil"})
    with pytest.raises(RulesInvalid, match="past the last clock"):
        load_layout_text(json.dumps(layout))
    layout["time_track"]["triggers"][-1] = {"clock": 4, "kind": "wandering"}
    with pytest.raises(RulesInvalid, match="needs its number"):
        load_layout_text(json.dumps(layout))
    with pytest.raises(RulesInvalid, match="not valid JSON"):
        load_rules_text("{")


# --------------------------------------------------------------------------- items from tables


def test_items_from_table_rows():
    armour = item_from_armour_row(
        RULES,
        Row(range=(1, 4), fields={"slot": "Legs", "item": "Leather Tasset", "def": "0 DEF", "value": "23 gp", "repair": "5 gp"}),
    )
    assert (armour.name, armour.kind, armour.slot, armour.defence, armour.value, armour.repair_cost) == (
        "Leather Tasset",
        "armour",
        "legs",
        0,
        23,
        5,
    )
    shield = item_from_armour_row(
        RULES, Row(range=(90, 91), fields={"slot": "Shield", "item": "Buckler", "def": "S2", "value": "40"})
    )
    assert (shield.kind, shield.slot, shield.shield) == ("shield", "off_weapon", 2)
    cloak = item_from_armour_row(
        RULES, Row(range=(92, 93), fields={"slot": "Back", "item": "Cloak", "def": "+1 DEF", "value": "50"})
    )
    assert (cloak.defence, cloak.defence_bonus) == (1, True)
    weapon = item_from_weapon_row(
        RULES, Row(range=(5, 6), fields={"type": "(H)", "weapon": "Baton", "adjustment": "-2 DMG", "value": "23", "repair": "5"})
    )
    assert (weapon.kind, weapon.weapon_type, weapon.dmg, weapon.two_handed) == ("weapon", "H", -2, False)
    great = item_from_weapon_row(
        RULES,
        Row(range=(80, 81), fields={"type": "(H,R)", "weapon": "Great Bow (2H)", "adjustment": "+1 DMG, +5 Dex", "value": "90"}),
    )
    assert (great.weapon_type, great.two_handed, great.dmg, great.bonuses) == ("H,R", True, 1, {"DEX": 5})


# --------------------------------------------------------------------------- derived values


def test_adjusted_characteristics_items_time_track_and_darkness():
    ch = hero()
    ch.equipment["ring_1"] = Item(name="Ring of Might", kind="jewellery", slot="ring_1", bonuses={"STR": 5})
    ch.time_track.bonuses.append(TimeBonus(stat="STR", amount=5, source="Table B"))
    d = derive(ch, RULES)
    assert d.characteristics == {"STR": 50, "DEX": 65, "INT": 30}
    assert [(p.label, p.value) for p in d.sources["STR"]] == [("primary", 40), ("Ring of Might", 5), ("time track", 5)]
    assert d.abilities == {"mighty_blow": True, "perfect_aim": True, "spell_caster": False}
    ch.in_darkness = True
    d = derive(ch, RULES)
    assert d.characteristics == {"STR": 30, "DEX": 45, "INT": 10}
    assert d.abilities == {"mighty_blow": False, "perfect_aim": False, "spell_caster": False}  # locked again below 50


def test_max_hp_dmg_and_defence_per_location():
    ch = hero()
    ch.equipment["main_weapon"] = Item(name="Baton", kind="weapon", slot="main_weapon", dmg=-2)
    ch.equipment["off_weapon"] = Item(name="Dagger", kind="weapon", slot="main_weapon", dmg=1)
    ch.equipment["torso"] = Item(name="Mail Shirt", kind="armour", slot="torso", defence=2, hp_bonus=3)
    ch.equipment["neck"] = Item(name="Amulet of Fury", kind="jewellery", slot="neck", dmg=1)
    ch.time_track.bonuses.append(TimeBonus(stat="DEF", amount=1))
    d = derive(ch, RULES)
    assert d.max_hp == 23
    assert d.dmg_bonus == 1
    assert d.weapon_dmg == {"main_weapon": -1, "off_weapon": 2}
    assert d.dmg == -1
    assert d.defence["torso"] == 3 and d.defence["head"] == 1


def test_denny_defence_bonus_example():
    ch = hero(name="Denny")
    ch.equipment["head"] = Item(name="Mail Coif", kind="armour", slot="head", defence=2)
    ch.equipment["back"] = Item(name="Cloak of Warding", kind="armour", slot="back", defence=1, defence_bonus=True)
    ch.equipment["neck"] = Item(name="Amulet of Shielding", kind="jewellery", slot="neck", defence=1, defence_bonus=True)
    d = derive(ch, RULES)
    assert d.defence_bonus == 2
    assert d.defence["head"] == 2 and d.defence["back"] == 0  # "+" DEF is not the slot's DEF
    hit = incoming_damage(ch, RULES, "head", die=2, monster_dmg=2)
    assert (hit.before_defence, hit.defence_bonus, hit.defence, hit.damage) == (7, 2, 2, 3)
    above = incoming_damage(ch, RULES, "head", die=3, monster_dmg=2)
    assert (above.defence_bonus, above.damage) == (0, 6)  # die above DB: no Defence Bonus


def test_spell_book_int_example_with_ring_of_wisdom(bundled_library):
    ch = hero()
    ch.characteristics["INT"].primary = 67
    for n in range(6):
        ch.spell_book[n] = SpellEntry(name=f"Spell {n + 1}")
    d = derive(ch, RULES)
    assert d.spells_in_reach == 6 and d.usable_spells[:7] == [True] * 6 + [False]
    ch.characteristics["INT"].primary -= 12  # the curse: INT 55
    d = derive(ch, RULES)
    assert d.characteristics["INT"] == 55
    assert d.usable_spells[:6] == [True] * 5 + [False]  # the sixth spell is kept but unusable
    game = game_with(ch, bundled_library)
    ring = Item(name="Ring of Wisdom", kind="jewellery", slot="ring_1", bonuses={"INT": 10})
    game.execute(AddItem(item=ring))
    game.execute(EquipItem(index=0, slot="ring_2"))
    d = derive(game.campaign.character, RULES)
    assert d.characteristics["INT"] == 65
    assert d.usable_spells[:6] == [True] * 6


def test_spell_caster_locked_means_no_spells():
    ch = hero()
    ch.spell_book[0] = SpellEntry(name="Heal")
    d = derive(ch, RULES)  # INT 30
    assert not d.abilities["spell_caster"] and d.spells_in_reach == 0 and d.usable_spells[0] is False


# --------------------------------------------------------------------------- invariants and experience


def test_violations_name_the_broken_rules():
    ch = hero()
    assert violations(ch, RULES) == []
    ch.rep = 11
    ch.supplies.picks = 31
    ch.skills["Dodge"].bonus = 25
    ch.hp = 21
    problems = " ".join(violations(ch, RULES))
    assert "REP must stay between 1 and 10" in problems
    assert "Picks must stay between 0 and 30" in problems
    assert "Dodge must stay between +0 and +20" in problems
    assert "HP 21 is above the maximum of 20" in problems


def test_experience_track_fills_clears_and_caps():
    ch = hero()
    ch.skills["Traps"].pips = 9
    notes = shade_experience(ch, RULES, "Traps", 2)
    assert ch.skills["Traps"].bonus == 15 and ch.skills["Traps"].pips == 1
    assert "+10 -> +15" in notes[0]
    ch.skills["Traps"].bonus = 20
    with pytest.raises(CommandRefused, match="maximum of \\+20"):
        shade_experience(ch, RULES, "Traps", 1)
    ch.characteristics["DEX"].primary, ch.characteristics["DEX"].pips = 78, 9
    shade_experience(ch, RULES, "DEX", 1)
    assert ch.characteristics["DEX"].primary == 80 and ch.characteristics["DEX"].pips == 0
    with pytest.raises(CommandRefused, match="DEX is at its maximum of 80"):
        shade_experience(ch, RULES, "DEX", 1)


def test_time_track_triggers_and_refresh():
    ch = hero()
    ch.time_track.bonuses.append(TimeBonus(stat="DEX", amount=5))
    ch.time_track.bonuses.append(TimeBonus(stat="HP", amount=5))
    ch.hp = 25
    assert derive(ch, RULES).characteristics["DEX"] == 70 and violations(ch, RULES) == []
    fired = advance_time(ch, RULES, 3)
    assert [(t.clock, t.kind, t.number) for t in fired] == [(2, "wandering", 2), (3, "oil", None)]
    assert ch.time_track.shaded == 3
    fired = advance_time(ch, RULES, 10)
    kinds = [(t.clock, t.kind) for t in fired]
    assert (12, "food") in kinds and (12, "refresh") in kinds
    assert ch.time_track.shaded == 1 and ch.time_track.bonuses == [] and ch.time_track.total == 13
    assert ch.hp == 20 and derive(ch, RULES).characteristics["DEX"] == 65  # the bonuses ended with the track


def test_belt_check_destroys_the_belt_slot_item_or_the_equipment_item():
    ch = hero()
    ch.belt[3] = Item(name="Lesser Healing Potion", kind="potion")
    where, item = destroy_belt_check(ch, RULES, 4)
    assert where == "belt slot 4" and item.name == "Lesser Healing Potion" and ch.belt[3] is None
    assert destroy_belt_check(ch, RULES, 5) == ("belt slot 5", None)
    by_slot = RULES.model_copy(update={"belt_check": "equipment"})
    ch.equipment["head"] = Item(name="Mail Coif", kind="armour", slot="head", defence=2)
    where, item = destroy_belt_check(ch, by_slot, 1)
    assert where == "Head" and item.name == "Mail Coif" and ch.equipment["head"] is None


# --------------------------------------------------------------------------- equipment commands


def test_two_handed_weapon_takes_both_weapon_slots(bundled_library):
    ch = hero()
    ch.backpack = [
        Item(name="Great Axe", kind="weapon", slot="main_weapon", two_handed=True, dmg=2),
        Item(name="Dagger", kind="weapon", slot="main_weapon"),
    ]
    game = game_with(ch, bundled_library)
    game.execute(EquipItem(index=1, slot="off_weapon"))  # dagger in the off hand
    with pytest.raises(CommandRefused, match="two-handed and needs both weapon slots: unequip Dagger"):
        game.execute(EquipItem(index=0, slot="main_weapon"))
    game.execute(UnequipItem(slot="off_weapon"))
    game.execute(EquipItem(index=0, slot="main_weapon"))
    c = game.campaign.character
    assert c.equipment["main_weapon"].name == "Great Axe" and c.equipment["off_weapon"] is None
    with pytest.raises(CommandRefused, match="uses both weapon slots"):
        game.execute(EquipItem(index=0, slot="off_weapon"))
    with pytest.raises(CommandRefused, match="two-handed main weapon"):
        game.execute(UnequipItem(slot="off_weapon"))


def test_shields_only_in_the_off_weapon_slot(bundled_library):
    ch = hero()
    ch.backpack = [Item(name="Buckler", kind="shield", slot="off_weapon", shield=2)]
    game = game_with(ch, bundled_library)
    with pytest.raises(CommandRefused, match="shields are always equipped to the off weapon slot"):
        game.execute(EquipItem(index=0, slot="main_weapon"))
    game.execute(EquipItem(index=0, slot="off_weapon"))
    assert game.campaign.character.equipment["off_weapon"].shield == 2


def test_armour_goes_to_its_own_slot_one_item_per_slot(bundled_library):
    ch = hero()
    ch.backpack = [
        Item(name="Mail Coif", kind="armour", slot="head", defence=2),
        Item(name="Iron Helm", kind="armour", slot="head", defence=3),
    ]
    game = game_with(ch, bundled_library)
    with pytest.raises(CommandRefused, match="worn on the Head slot, not Torso"):
        game.execute(EquipItem(index=0, slot="torso"))
    game.execute(EquipItem(index=0, slot="head"))
    with pytest.raises(CommandRefused, match="already holds Mail Coif"):
        game.execute(EquipItem(index=0, slot="head"))


def test_belt_takes_only_brews_potions_and_scrolls(bundled_library):
    ch = hero()
    ch.backpack = [Item(name="Dagger", kind="weapon", slot="main_weapon"), Item(name="Scroll of Open Magic", kind="scroll")]
    game = game_with(ch, bundled_library)
    with pytest.raises(CommandRefused, match="Only brews, potions and scrolls go on the belt"):
        game.execute(MoveToBelt(source="backpack", index=0, belt_slot=1))
    game.execute(MoveToBelt(source="backpack", index=1, belt_slot=10))
    assert game.campaign.character.belt[9].name == "Scroll of Open Magic"
    with pytest.raises(CommandRefused, match="only brews, potions and scrolls"):
        game.execute(AddItem(item=Item(name="Rock", kind="item"), to="belt", belt_slot=1))


def test_unequipping_an_hp_item_lowers_hp_to_the_new_maximum(bundled_library):
    ch = hero()
    ch.equipment["torso"] = Item(name="Troll Hide", kind="armour", slot="torso", hp_bonus=5)
    ch.hp = 25
    game = game_with(ch, bundled_library)
    [event, hp] = game.execute(UnequipItem(slot="torso"))
    c = game.campaign.character
    assert c.hp == 20 and c.backpack[0].name == "Troll Hide"
    assert "HP 25 -> 20" in event.message
    assert hp.kind == "hp" and (hp.data["delta"], hp.data["hp"]) == (-5, 20)  # the typed event the statistics read
