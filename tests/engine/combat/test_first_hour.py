"""Issue 10's combat bugs, through the Game with scripted dice: loot on the sheet (#9), offsets
onto an item that is gone (#11), weapons changed outside the fight's action (#12), Fate on
the fight's table rolls (#13), the player's words in the log and the one HP-zero rule.

Dice are scripted face by face: a d100 is two d10 faces (tens, units), a lone d10 face 0
reads 10, a d6 face is 1-6.
"""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import available_actions
from d100gui.engine.combat.monster import Monster, typed_monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Row
from d100gui.engine.fight_commands import (
    CombatAttack,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatContinue,
    CombatFate,
    CombatOffset,
    CombatProvideRow,
)
from d100gui.engine.fight_start import COMBAT_COMMANDS, StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero import health
from d100gui.engine.hero.fight_lock import equipment_locked
from d100gui.engine.hero.model import Item, SpellEntry, new_character
from d100gui.engine.hero.sheet_edits import SHEET_EDIT_COMMANDS, DiscardItem, EditItem
from d100gui.engine.item_commands import CHARACTER_COMMANDS
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()
SWORD = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
AXE = Item(name="Great Axe", kind="weapon", slot="main_weapon", weapon_type="H", dmg=2, two_handed=True)


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def d10(n: int) -> list[int]:
    return [0 if n == 10 else n]


def flat(parts) -> list[int]:
    out: list[int] = []
    for p in parts:
        out += flat(p) if isinstance(p, list | tuple) else [p]
    return out


def hero(intelligence=40, hp=20, lives=0, fate=0):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 40), ("DEX", 40), ("INT", intelligence)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp = 20, hp
    ch.lives, ch.fate = lives, fate
    ch.equipment["main_weapon"] = SWORD.model_copy()
    return ch


def game_for(ch, library, *faces):
    campaign = Campaign()
    campaign.meta.seed = 7
    campaign.character = ch
    commands = [*CHARACTER_COMMANDS, *SHEET_EDIT_COMMANDS, *COMBAT_COMMANDS]
    library = load_library(None).library  # its own: a typed row is laid over it
    game = Game(campaign, library, commands=commands, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource(flat(faces))
    return game


def push(game, *faces) -> None:
    game.override.push(*flat(faces))


def start(game, monster: Monster, fate_windows: bool = False):
    return game.execute(StartCombat(source="monster", monster=monster, fate_windows=fate_windows))


def text(events) -> str:
    return "\n".join(e.message for e in events)


def used_all(game) -> bool:
    return game.override.remaining == 0


def goblin(**kw) -> Monster:
    args = {"av": 40, "hp": 2, "defence": 1, "dmg": 0}
    args.update(kw)
    return typed_monster("Goblin", **args)


def kill(game, *loot):
    """Hit 20, d6 4 at the arms kills the goblin; it still attacks and misses (99); then the ``loot`` dice."""
    push(game, d100(20), 4, d10(4), d100(99), *loot)
    return game.execute(CombatAttack())


# --------------------------------------------------------------------------- #9 loot on the sheet


def test_treasure_loot_goes_in_the_backpack_as_an_item(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(loot="[K:Table TA]"))
    events = kill(game, d100(5))  # Table TA 05: BREW OF FINER POWER, 70gp
    ch = game.campaign.character
    brew = ch.backpack[-1]
    assert (brew.name, brew.kind, brew.value) == ("BREW OF FINER POWER", "brew", 70)
    assert "+2 DMG" in brew.effect
    loot = next(e for e in events if e.kind == "combat_loot")
    assert loot.data["item"] == "BREW OF FINER POWER" and "goes in the backpack" in loot.message
    assert "by hand" not in text(events) and "on the sheet" not in text(events)
    assert game.campaign.combat is None and used_all(game)


def test_coins_are_gold_and_a_bracketed_effect_is_applied(bundled_library):
    ch = hero()
    ch.gp = 5
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(loot="[K:Table TA]"))
    kill(game, d100(2))  # SILVER PIECES, 70gp: gold on the sheet, not an item
    assert ch.gp == 75 and ch.backpack == []
    push(game, d10(5))
    start(game, goblin(loot="[K:Table R]"))
    food = ch.supplies.food
    events = kill(game, d100(20))  # Table R 20: FOOD (+1 Food)
    assert ch.supplies.food == food + 1 and ch.backpack == []
    assert "Food" in text(events) and used_all(game)


def test_a_missing_loot_row_waits_for_the_row_and_applies_it(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(loot="[K:Table P]"))
    events = kill(game, d100(50))  # Table P 50: not in the excerpt
    c = game.campaign.combat
    assert c is not None and c.waiting == "row"
    missing = next(e for e in events if e.kind == "combat_row_missing")
    assert missing.data["table_roll"]["table_id"] == "d100.P"
    with pytest.raises(CommandRefused, match="cover the roll of 50"):
        game.execute(CombatProvideRow(row=Row(range=(60, 61), fields={"part": "HEART", "value": "20gp"})))
    events = game.execute(CombatProvideRow(row=Row(range=(49, 51), fields={"part": "HEART", "value": "20gp"})))
    ch = game.campaign.character
    assert [(i.name, i.value) for i in ch.backpack] == [("Goblin HEART", 20)]
    kinds = [e.kind for e in events]
    assert "row_provided" in kinds and kinds[-1] == "combat_over" and game.campaign.combat is None
    assert game.library.get("d100.P").find(50) is not None and used_all(game)


def test_going_without_a_missing_row_ends_the_fight(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    start(game, goblin(loot="[K:Table P]"))
    kill(game, d100(50))
    events = game.execute(CombatProvideRow())
    assert game.campaign.combat is None and game.campaign.character.backpack == []
    assert events[-1].kind == "combat_over" and used_all(game)


# --------------------------------------------------------------------------- #13 Fate on table rolls


def test_a_curse_roll_waits_for_fate_before_it_applies(bundled_library):
    ch = hero(intelligence=55, lives=3, fate=1)
    ch.spell_book[0] = SpellEntry(name="HEAL", cost="-1 STR")
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(hp=10), fate_windows=True)
    game.execute(CombatContinue())  # the reaction
    push(game, d100(90))
    game.execute(CombatCastSpell(index=0))
    push(game, d100(1))  # CAST fails; Table C 01: DIVINE WRATH
    events = game.execute(CombatContinue())
    c = game.campaign.combat
    assert c.waiting == "roll" and c.held is not None and c.held.record.final == 1
    assert "DIVINE WRATH" in text(events)
    assert (ch.lives, ch.fate, ch.hp) == (3, 1, 20)  # not applied yet
    push(game, 0, 7)  # Fate on both dice: 07 POWERLESS
    game.execute(CombatFate(dice=[0, 1]))
    assert ch.fate == 0 and ch.lives == 3
    push(game, d100(99), d10(5))  # the goblin misses; round 2 (no Fate left: no window)
    events = game.execute(CombatContinue())
    assert "POWERLESS" in text(events) and ch.characteristics["STR"].primary == 40 - 1 - 4
    assert (ch.lives, ch.hp) == (3, 20) and game.campaign.combat.waiting == "action" and used_all(game)


def test_a_loot_roll_waits_for_fate(bundled_library):
    game = game_for(hero(fate=1), bundled_library, d10(5))
    start(game, goblin(loot="[K:Table TA]"), fate_windows=True)
    game.execute(CombatContinue())
    push(game, d100(20))
    game.execute(CombatAttack())
    push(game, 4, d10(4))
    game.execute(CombatContinue())  # the attack test hits
    push(game, d100(99))
    game.execute(CombatContinue())  # the damage roll kills it; it still attacks
    push(game, d100(2))
    game.execute(CombatContinue())  # its attack misses; the loot roll: Table TA 02
    c = game.campaign.combat
    assert c.waiting == "roll" and c.held.record.final == 2 and game.campaign.character.gp == 0
    push(game, 0, 5)  # Fate: 02 -> 05 BREW OF FINER POWER
    game.execute(CombatFate(dice=[0, 1]))
    game.execute(CombatContinue())
    ch = game.campaign.character
    assert [i.name for i in ch.backpack] == ["BREW OF FINER POWER"] and ch.gp == 0
    assert game.campaign.combat is None and used_all(game)


# --------------------------------------------------------------------------- #11 offsets onto a lost item


def test_offset_onto_an_item_no_longer_there_is_refused(bundled_library):
    ch = hero()
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=0)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, hp=10))
    push(game, d100(99), d100(10), 5, d10(1))  # 5 at the head: the Helm can take 2
    game.execute(CombatAttack())
    assert game.campaign.combat.waiting == "offset"
    game.execute(DiscardItem(where="equipment", slot="head"))
    with pytest.raises(CommandRefused, match="Helm is no longer"):
        game.execute(CombatOffset(item=2))
    push(game, d10(5))
    game.execute(CombatOffset())  # taken as HP
    assert ch.hp == 20 - 8 and used_all(game)


# --------------------------------------------------------------------------- #12 weapons in a fight


def test_equipment_is_locked_while_a_fight_is_on(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    assert equipment_locked(game.campaign) is None
    start(game, goblin())
    reason = equipment_locked(game.campaign)
    assert reason is not None and "Change weapon" in reason


def test_a_weapon_changed_outside_the_action_cannot_attack_this_round(bundled_library):
    ch = hero()
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(hp=10))
    game.execute(EditItem(where="equipment", slot="main_weapon", item=AXE))  # not through the fight
    why = available_actions(game.campaign, RULES)["attack_main"]
    assert "Great Axe" in why and "Change weapon" in why
    with pytest.raises(CommandRefused, match="Great Axe"):
        game.execute(CombatAttack())
    push(game, d100(99), d10(5))
    game.execute(CombatChangeWeapon(backpack_index=None, slot="main_weapon"))  # put it away: the round's action
    assert game.campaign.combat.round == 2 and ch.equipment["main_weapon"] is None
    push(game, d100(99), d10(5))
    game.execute(CombatChangeWeapon(backpack_index=0))  # take it again through the action
    push(game, d100(20), 4, d10(4), d100(99), d10(5))
    events = game.execute(CombatAttack())  # round 3: the axe is the round's weapon
    assert "You attack with Great Axe" in text(events) and used_all(game)


# --------------------------------------------------------------------------- the player's words, one HP-zero rule


def test_the_action_prompt_uses_the_players_words(bundled_library):
    game = game_for(hero(), bundled_library, d10(5))
    events = start(game, goblin())
    prompt = next(e for e in events if e.kind == "decision" and e.data.get("waiting") == "action")
    assert "Attack with Sword" in prompt.message and "Hold back" in prompt.message
    for internal in ("attack_main", "change_weapon", "use_belt", "pass)", "_"):
        assert internal not in prompt.message
    assert "attack_main" in prompt.data["actions"]  # the data keeps the ids


def test_combat_death_goes_through_the_one_hp_zero_rule(bundled_library, monkeypatch):
    calls = []
    real = health.cheat_death

    def spy(character, rules, source=""):
        calls.append(source)
        return real(character, rules, source)

    monkeypatch.setattr(health, "cheat_death", spy)
    ch = hero(hp=2, lives=1)
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin(av=50, hp=10))
    push(game, d100(99), d100(10), 3, d10(4), d10(5))
    events = game.execute(CombatAttack())
    assert calls and (ch.hp, ch.lives) == (20, 0)
    assert "You cheat death: a Life is spent (0 left), HP back to 20." in text(events) and used_all(game)


def test_12_the_sheet_cannot_equip_or_unequip_while_a_fight_is_on(bundled_library):
    """Issue 10 #12, the hero side: the sheet's equip commands wait for the fight (Change weapon instead)."""
    from d100gui.engine.item_commands import EquipItem, UnequipItem

    ch = hero()
    ch.backpack.append(AXE.model_copy())
    game = game_for(ch, bundled_library, d10(5))
    start(game, goblin())
    with pytest.raises(CommandRefused, match="Change weapon"):
        game.execute(UnequipItem(slot="main_weapon"))
    with pytest.raises(CommandRefused, match="Change weapon"):
        game.execute(EquipItem(index=0, slot="off_weapon"))
    assert ch.equipment["main_weapon"] is not None and len(ch.backpack) == 1  # nothing changed
