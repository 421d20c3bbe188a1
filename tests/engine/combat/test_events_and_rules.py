"""Combat's declared events, its rules as data, and the ability rules shared with the odds."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat import events as combat_events
from d100gui.engine.combat.monster import ABILITY_NAMES, typed_monster
from d100gui.engine.combat.spells import KNOWN_SPELLS, printed_spell, spell_id, table_s
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_commands import CombatAttack
from d100gui.engine.fight_start import COMBAT_COMMANDS, StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.protocol import EVENT_KINDS, Decision, Payload
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()


def hero():
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Bram"
    ch.characteristics["STR"].primary = 50
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", weapon_type="H")
    return ch


def test_every_monster_ability_has_a_name_and_summary_in_the_rules():
    assert set(RULES.monster_abilities) == set(ABILITY_NAMES)
    for ability_id, name in ABILITY_NAMES.items():
        rule = RULES.monster_ability(ability_id)
        assert rule.name == name and rule.summary.endswith(".")


def test_every_combat_payload_is_declared_once_with_a_docstring():
    kinds = [cls.event_kind for cls in combat_events.COMBAT_PAYLOADS]
    assert len(kinds) == len(set(kinds)) and len(kinds) >= 45
    for cls in combat_events.COMBAT_PAYLOADS:
        assert EVENT_KINDS[cls.event_kind].payload is cls
        assert (cls.__doc__ or "").strip(), cls.__name__
    assert EVENT_KINDS["decision"].payload is Decision


def test_a_fight_emits_typed_payloads(bundled_library):
    game = Game(Campaign(character=hero()), bundled_library, commands=COMBAT_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    # reaction 5; attack 12 hits; damage d6 4, location 5; the rat misses (99); round 2 reaction 5 ...
    game.override = ScriptedSource([5, 1, 2, 4, 5, 9, 9, 5])
    events = list(game.execute(StartCombat(source="monster", monster=typed_monster("Rat", av=20, hp=8), fate_windows=False)))
    events += game.execute(CombatAttack())
    payloads = [e.payload() for e in events]
    assert all(isinstance(p, Payload) for p in payloads)
    started = next(p for p in payloads if isinstance(p, combat_events.CombatStarted))
    assert started.monster.name == "Rat"
    reaction = next(p for p in payloads if isinstance(p, combat_events.CombatReaction))
    assert (reaction.reaction, reaction.escaping, reaction.av_bonus) == (5, False, 0)
    damage = next(p for p in payloads if isinstance(p, combat_events.CombatDamage))
    assert damage.dice == [4] and damage.location == 5
    attack = next(p for p in payloads if isinstance(p, combat_events.CombatMonsterAttack))
    assert (attack.roll, attack.target, attack.hit) == (99, 20, False)
    action = [p for p in payloads if isinstance(p, Decision) and p.waiting == "action"]
    assert action and "attack_main" in action[-1].actions
    assert game.campaign.combat is not None and game.campaign.combat.waiting == "action"


def test_spells_come_from_table_s(bundled_library):
    names = {spell_id(name) for name, _effect, _cost in table_s(bundled_library)}
    assert set(KNOWN_SPELLS) <= names
    assert printed_spell(bundled_library, "fire_ball")[2] == "-2 HP"
    assert printed_spell(bundled_library, "heal")[2] == "-1 STR"
    assert spell_id("Fire Ball") == "fire_ball" and spell_id("Magic Missile") == ""


def test_reactions_follow_the_printed_rule():
    assert ab.reaction(10, False, False).escaping
    assert ab.reaction(9, True, False).escaping and not ab.reaction(9, False, False).escaping
    assert ab.reaction(8, False, True).escaping and not ab.reaction(8, False, False).escaping
    assert ab.reaction(2, False, True).av_bonus == 5 and ab.reaction(1, False, True).av_bonus == 10
    assert ab.reaction(1, False, False).av_bonus == 0


def test_dark_magic_and_the_other_ability_rules():
    assert [ab.dark_magic(r).name for r in (1, 2, 3, 5, 7, 9, 10)] == [
        "Dark Strike",
        "Dark Strike",
        "Shadowy Cloak",
        "Evil Touch",
        "Drain Life",
        "Death Bolt",
        "Death Bolt",
    ]
    pack = typed_monster("Rats", av=25, hp="3/2/2", special="Pack, Fly, Phase, Large, Regenerate, Tough")
    assert ab.pack_bonus(pack, 3) == 10 and ab.pack_bonus(pack, 1) == 0
    assert [p.value for p in ab.attack_modifiers(pack, "STR")] == [-10, -10]
    assert [p.label for p in ab.attack_modifiers(pack, "DEX")] == ["Phase"]
    assert ab.damage_faces(pack) == [3, 4, 5, 6]
    assert ab.counted_dice(pack, [1, 4]) == ([4], 1, 1)
    assert ab.hp_taken(pack, 5) == 2
    touch = typed_monster("Wraith", av=40, hp=10, dmg=1, special="Death Touch, Ethereal")
    assert ab.monster_damage(touch, 4, 0, 0, 0, 3, 0, 0).damage == 4  # 4 + 1 DMG - (3 DEF - 2)
    assert ab.passes_through(touch, legendary=False, spell=False) and not ab.passes_through(touch, False, True)
