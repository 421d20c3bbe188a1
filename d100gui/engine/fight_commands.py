"""The fight's commands: what the player does, each a few lines over :mod:`d100gui.engine.combat.flow` and the steps.

Every command builds the fight (:func:`fight_of`, which hands it the effects interpreter), checks
that the fight waits for it, changes the state, and :func:`~d100gui.engine.combat.flow.finish` runs
the steps on until the player is needed again. :func:`begin_fight` starts a fight (the adventure's
areas and an escaped monster met again start theirs with it); the ``StartCombat`` command, which
hands the monster the turn offers to the turn, is a floor up (:mod:`d100gui.engine.fight_start`).

These commands sit above the effects interpreter (a belt item's, a loot row's, a spell's effects)
and below the adventure, whose turn starts fights with them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.combat import steps as _steps  # noqa: F401 - registers every step
from d100gui.engine.combat.actions import allowed, available_actions, changed_weapon, round_weapons
from d100gui.engine.combat.attack import attack_choice, attack_parts, has_weapon, weapon_in, weapon_stats
from d100gui.engine.combat.defence import shade_item
from d100gui.engine.combat.events import (
    CombatAction,
    CombatAim,
    CombatBelt,
    CombatBoost,
    CombatLoot,
    CombatNote,
    CombatRoll,
    CombatStarted,
    emit,
)
from d100gui.engine.combat.events import CombatOffset as OffsetPayload
from d100gui.engine.combat.flow import WAIT_TEXT, Fight, finish, hold, location_name, roll_test, settle, waiting_test
from d100gui.engine.combat.monster import Boost, CastInfo, CombatState, Monster, giant_snake, monster_from_row
from d100gui.engine.combat.printed import TEST_SPECS
from d100gui.engine.combat.rewards import apply_loot, start_loot
from d100gui.engine.combat.spells import apply_curse, cast, printed_spell, scroll_spell, spell_id
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import DiceError
from d100gui.engine.dice.events import RowProvided
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.dungeon import map as dg
from d100gui.engine.effects.interpreter import apply_effect, apply_outcome
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.hero.derive import clamp_hp, derive, items_at
from d100gui.engine.hero.equipment import equip
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.phases import FIGHT_ONLY, START_FIGHT, Phases
from d100gui.engine.protocol import Event, FateUsed
from d100gui.engine.rules.model import STATS
from d100gui.engine.rules.notation import TestSpec, parse_effects

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def fight_of(ctx: GameContext) -> Fight:
    """The fight in progress, handed the effects interpreter that applies its outcomes (loot, spells, tests):
    the interpreter sits a floor above combat, whose rows put loot and monsters into the fight."""
    return Fight.of(ctx, apply_outcome, apply_effect)


def fight_may_start(campaign: Campaign) -> Character:
    """The living hero, when a fight may start now; refused during a fight or while a rolled test waits."""
    ch = living_character(campaign)
    if campaign.combat is not None:
        refuse(f"A fight with {campaign.combat.monster.name} is already under way.")
    if any(isinstance(d, PendingTest) for d in campaign.pending):
        refuse("A rolled test is waiting: accept it or use Fate first.")
    return ch


def begin_fight(
    ctx: GameContext,
    source: Literal["table_e", "snake", "monster"] = "table_e",
    monster: Monster | None = None,
    table_value: int | None = None,
    modifier: int | None = None,
    surprise: bool = False,
    fate_windows: bool = True,
) -> list[Event]:
    """Start a fight (the fields of :class:`~d100gui.engine.fight_start.StartCombat`), refused while a monster
    the rules offer waits: that one is fought through the turn (``FaceOfferedMonster``)."""
    campaign = ctx.campaign
    ch = fight_may_start(campaign)
    offer = campaign.adventure.fight_offered
    if offer is not None:  # the monster the rules offer now is the only fight to start (issue 18)
        refuse(f"A {offer.source} waits ({offer.table_roll.describe()}): fight it first.")
    events: list[Event] = []
    if source == "monster":
        if monster is None:
            refuse("Type the monster in first (name, AV, DEF, DMG, HP, loot, abilities).")
    elif source == "snake":
        try:
            monster = giant_snake(ctx.tables.library)
        except (TableError, ValueError) as exc:
            refuse(str(exc))
    else:
        monster = _from_table_e(ctx, ch, modifier, table_value, events)
    state = CombatState(
        monster=monster,
        hp=list(monster.hp),
        fate_windows=fate_windows,
        surprise=surprise or monster.has("surprise"),
    )
    campaign.combat = state
    flow = fight_of(ctx)
    flow.events = events
    flow.say(CombatStarted(monster=monster), f"A fight! {monster.describe()}")
    for note in monster.notes:
        flow.say(CombatNote(), f"{monster.name}: {note}")
    if not has_weapon(ch):
        flow.say(CombatNote(), "You have no weapon: you must flee (ESCAPE COMBAT each round until you get away).")
    return finish(flow)


def _from_table_e(ctx: GameContext, ch: Character, modifier: int | None, table_value: int | None, events: list[Event]) -> Monster:
    try:
        table = ctx.tables.library.get("d100.E")
    except TableError as exc:
        refuse(str(exc))
    modifier = ch.quest_encounter_modifier if modifier is None else modifier
    if table_value is not None:
        lo, hi = table.die_range()
        value = max(lo, min(hi, table_value))
        row = table.find(value)
        if row is None:
            gap = table.gap_containing(value)
            refuse(
                f"Table E {value} is in rows {gap[0] if gap else value}-{gap[1] if gap else value}, which your tables do not have: "
                "type the row in (or the monster), then start the fight."
            )
    else:
        result = ctx.tables.roll("d100.E", "Table E - Encounter", modifier, "encounter modifier")
        events.append(emit(CombatRoll(table_roll=result, purpose="Table E - Encounter"), result.describe()))
        if result.row is None:
            lo, hi = result.missing or (result.value, result.value)
            refuse(
                f"Table E rolled {result.value}: rows {lo}-{hi} are not in your tables. Type the row in from your "
                "rulebook (or type the monster in) and start the fight again - the same roll will be used."
            )
        row = result.row
    try:
        return monster_from_row(row, table.id)
    except ValueError as exc:
        refuse(str(exc))


def use_item(flow: Fight, item: Item, belt_slot: int) -> None:
    """A belt item's effects: a brew becomes a boost for the roll it concerns, the rest applies now."""
    outcome = parse_effects(item.effect or item.name)
    effects = outcome.options[0].effects if outcome.options else []
    for effect in effects:
        amount = effect.amount or 0
        if effect.kind == "characteristic" and effect.stat in STATS and amount > 0:
            flow.c.boosts.append(Boost.model_validate({"stat": effect.stat, "amount": amount, "source": item.name}))
            flow.say(
                CombatBoost(stat=effect.stat or "", amount=amount, item=item.name),
                f"{item.name}: +{amount} {effect.stat} for your next {effect.stat} roll.",
            )
        elif effect.kind in ("dmg", "def") and amount > 0:
            stat = effect.kind.upper()
            flow.c.boosts.append(Boost.model_validate({"stat": stat, "amount": amount, "source": item.name}))
            when = "your next damage roll" if stat == "DMG" else "the monster's next damage roll"
            flow.say(CombatBoost(stat=stat, amount=amount, item=item.name), f"{item.name}: +{amount} {stat} for {when}.")
        else:
            flow.events += apply_effect(flow.ctx, effect, item.name)
    if not effects:
        flow.say(
            CombatBelt(item=item.name, belt_slot=belt_slot),
            f"{item.name}: its effect is not recorded on the sheet - apply it by hand.",
        )


@register_command
class FaceEscapedMonster(Command):
    """Back in an area where the hero escaped a monster: it is there again, at full HP."""

    kind: Literal["face_escaped_monster"] = "face_escaped_monster"
    when: ClassVar[Phases] = START_FIGHT
    pos: str

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        record = next((e for e in reversed(campaign.escaped_monsters) if e.escaped_by == "hero" and e.area == self.pos), None)
        if record is None:
            refuse(f"No monster you escaped from waits in area {self.pos}.")
        dungeon = campaign.dungeons.current_dungeon
        where = dg.parse_key(self.pos) if re.fullmatch(r"-?\d+,-?\d+", self.pos) else None  # "" when none was in play
        if dungeon is not None and where is not None and dungeon.area_at(where) is not None:
            campaign.dungeons = dg.replace_current(campaign.dungeons, dg.mark_escaped(dungeon, where, ""))
        campaign.escaped_monsters.remove(record)
        events = begin_fight(ctx, "monster", record.monster)
        note = emit(CombatNote(), f"{record.monster.name} is here again, back at full HP.")
        return [note, *events]


@register_command
class CombatContinue(Command):
    """Accept the roll or test the fight is waiting on and carry on."""

    kind: Literal["combat_continue"] = "combat_continue"
    when: ClassVar[Phases] = FIGHT_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        c = flow.c
        if c.waiting == "test":
            settle(flow)
        elif c.waiting == "roll":
            c.waiting = ""
        elif c.waiting:
            refuse(f"The fight is waiting for {WAIT_TEXT[c.waiting]}.")
        return finish(flow)


@register_command
class CombatFate(Command):
    """Spend Fate to re-roll dice of the roll or test the fight is waiting on (0-based indexes;
    a d100 is tens 0 and units 1; a damage roll is the d6(s) then the d10)."""

    kind: Literal["combat_fate"] = "combat_fate"
    when: ClassVar[Phases] = FIGHT_ONLY
    dice: list[int]

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        c, ch = flow.c, flow.ch
        flow.need("roll", "test")
        if ch.fate < flow.rules.fate_cost:
            refuse("No Fate left to spend.")
        test: PendingTest | None = None
        if c.waiting == "roll":
            assert c.held is not None
            record = c.held.record
        else:
            test = waiting_test(flow)
            if test is None:
                refuse("The fight's test is no longer waiting.")
            record = test.roll
        try:
            again = ctx.dice.reroll(record, self.dice)
        except DiceError as exc:
            refuse(str(exc))
        ch.fate -= flow.rules.fate_cost
        if test is None:
            assert c.held is not None
            c.held.record = again
        else:
            test.roll = again
        flow.say(
            FateUsed(roll=again.model_dump(mode="json"), before=record.natural, fate=ch.fate),
            f"Fate spent ({ch.fate} left): {record.natural} re-rolled to {again.natural}.",
        )
        return finish(flow)


@register_command
class CombatAttack(Command):
    """Step 2: attack with the weapon in ``slot``; ``stat`` STR/DEX for an (H,R) weapon."""

    kind: Literal["combat_attack"] = "combat_attack"
    when: ClassVar[Phases] = FIGHT_ONLY
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"
    stat: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        flow.need("action")
        c = flow.c
        changed = changed_weapon(c, flow.ch, self.slot)
        why = available_actions(ctx.campaign, flow.rules)["attack_main" if self.slot == "main_weapon" else "attack_off"]
        if why and why != changed:
            refuse(why)
        choice = attack_choice(flow.ch, self.slot, self.stat)  # how it attacks first, then whether it may this round
        if changed:
            refuse(changed)
        c.attack, c.action, c.waiting = choice, "attack", ""
        flow.say(CombatAction(action="attack"), f"You attack with {choice.weapon} ({choice.stat}).")
        c.step = "monster_turn"
        roll_test(
            flow,
            "attack",
            TestSpec(name="ATTACK", characteristic=choice.stat),
            "monster_turn",
            attack_parts(flow.m, choice.stat, c.attack_bonus),
        )
        return finish(flow)


@register_command
class CombatChangeWeapon(Command):
    """Instead of attacking, change weapons: ``swap`` main and off weapons, or equip backpack
    item ``backpack_index`` in ``slot`` (what was there goes in the backpack), or neither to
    put the weapon in ``slot`` away."""

    kind: Literal["combat_change_weapon"] = "combat_change_weapon"
    when: ClassVar[Phases] = FIGHT_ONLY
    swap: bool = False
    backpack_index: int | None = None
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        allowed(flow, "change_weapon")
        ch, rules = flow.ch, flow.rules
        main, off = ch.equipment.get("main_weapon"), ch.equipment.get("off_weapon")
        kept = vitals(ch)
        if self.swap:
            if main is not None and main.two_handed:
                refuse(f"{main.name} is two-handed: it uses both weapon slots and cannot be swapped.")
            if main is not None and main.kind == "shield":  # pragma: no cover - the sheet never allows it
                refuse("A shield goes only in the off weapon slot.")
            if off is not None and off.kind == "shield":
                refuse(f"{off.name} is a shield: it stays in the off weapon slot.")
            ch.equipment["main_weapon"], ch.equipment["off_weapon"] = off, main
            message = "You swap your main and off weapons."
        elif self.backpack_index is not None:
            if not 0 <= self.backpack_index < len(ch.backpack):
                refuse(f"There is no item {self.backpack_index + 1} in the backpack.")
            item = ch.backpack[self.backpack_index]
            if item.kind not in ("weapon", "shield"):
                refuse(f"{item.name} is not a weapon or shield.")
            ch.backpack.pop(self.backpack_index)
            stowed = []
            held = ch.equipment.get(self.slot)
            if held is not None:
                ch.equipment[self.slot] = None
                ch.backpack.append(held)
                stowed.append(held.name)
            if item.two_handed and self.slot == "main_weapon" and ch.equipment.get("off_weapon") is not None:
                other = ch.equipment["off_weapon"]
                assert other is not None
                ch.equipment["off_weapon"] = None
                ch.backpack.append(other)
                stowed.append(other.name)
            if self.slot == "off_weapon" and main is not None and main.two_handed and main.name not in stowed:
                ch.equipment["main_weapon"] = None
                ch.backpack.append(main)
                stowed.append(main.name)
            equip(ch, rules, item, self.slot)
            message = f"You take {item.name} in hand" + (f" and put {', '.join(stowed)} away." if stowed else ".")
        else:
            held = ch.equipment.get(self.slot)
            if held is None:
                refuse(f"Nothing is in your {self.slot.replace('_', ' ')} slot.")
            ch.equipment[self.slot] = None
            ch.backpack.append(held)
            message = f"You put {held.name} in the backpack."
        clamp_hp(ch, rules)
        enforce(ch, rules)
        flow.c.round_weapons = round_weapons(ch)
        flow.c.action, flow.c.waiting, flow.c.step = "change_weapon", "", "monster_turn"
        flow.say(CombatAction(action="change_weapon"), message + " (Your attack is forfeit this round.)")
        flow.events += changed_vitals(ch, rules, kept)  # an HP item put away: HP down to the new maximum
        return finish(flow)


@register_command
class CombatCastSpell(Command):
    """Instead of attacking, cast spell-book entry ``index`` (0-based) or the spell named
    ``spell``; ``bonus`` is the spell bonus of the CAST SPELL test."""

    kind: Literal["combat_cast_spell"] = "combat_cast_spell"
    when: ClassVar[Phases] = FIGHT_ONLY
    index: int | None = None
    spell: str = ""
    bonus: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        flow.need("action")
        ch, rules = flow.ch, flow.rules
        if not has_weapon(ch):
            refuse(available_actions(ctx.campaign, rules)["cast_spell"])
        d = derive(ch, rules)
        index = self.index
        if index is None:
            wanted = spell_id(self.spell) or re.sub(r"[^A-Z]", "", self.spell.upper())
            index = next(
                (
                    i
                    for i, e in enumerate(ch.spell_book)
                    if e is not None and (spell_id(e.name) or re.sub(r"[^A-Z]", "", e.name.upper())) == wanted
                ),
                None,
            )
            if index is None:
                refuse(f"{self.spell or 'That spell'} is not in your spell book.")
        if not 0 <= index < len(ch.spell_book) or ch.spell_book[index] is None:
            refuse(f"Spell book position {index + 1} is empty.")
        entry = ch.spell_book[index]
        assert entry is not None
        if not d.abilities.get("spell_caster", True):
            refuse(f"You cannot cast {entry.name}: Spell Caster is locked until INT reaches 50 (only scrolls work).")
        if not d.usable_spells[index]:
            need = d.spell_thresholds[index]
            refuse(f"You cannot cast {entry.name}: its place in the book needs INT {need} (yours is {d.characteristics['INT']}).")
        sid = spell_id(entry.name)
        _name, printed_effect, printed_cost = printed_spell(ctx.tables.library, sid) if sid else ("", "", "")
        effect = entry.effect or printed_effect
        cost = entry.cost or printed_cost
        cast(flow, CastInfo(name=entry.name, spell=sid, effect=effect, source="book"), cost, self.bonus)
        return finish(flow)


@register_command
class CombatUseBelt(Command):
    """Instead of attacking, use the item in belt slot ``belt_slot`` (1-10): a potion heals, a
    brew boosts the next roll (STR/DEX/INT), the next damage roll (DMG) or your DEF before the
    monster's next damage roll, a scroll casts its spell (``bonus``: the spell bonus)."""

    kind: Literal["combat_use_belt"] = "combat_use_belt"
    when: ClassVar[Phases] = FIGHT_ONLY
    belt_slot: int
    bonus: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        allowed(flow, "use_belt")
        ch, c = flow.ch, flow.c
        if not 1 <= self.belt_slot <= len(ch.belt):
            refuse(f"Belt slots are 1 to {len(ch.belt)}.")
        item = ch.belt[self.belt_slot - 1]
        if item is None:
            refuse(f"Belt slot {self.belt_slot} is empty.")
        if item.kind == "scroll":
            name, sid, effect, cost = scroll_spell(ctx.tables.library, item)
            ch.belt[self.belt_slot - 1] = None
            flow.say(CombatBelt(item=item.name, belt_slot=self.belt_slot), f"You read {item.name} (belt slot {self.belt_slot}).")
            cast(flow, CastInfo(name=name, spell=sid, effect=effect, source="scroll"), cost, self.bonus)
            return finish(flow)
        ch.belt[self.belt_slot - 1] = None
        c.action, c.waiting, c.step = "use_belt", "", "monster_turn"
        flow.say(CombatBelt(item=item.name, belt_slot=self.belt_slot), f"You use {item.name} (belt slot {self.belt_slot}).")
        use_item(flow, item, self.belt_slot)
        return finish(flow)


@register_command
class CombatEscape(Command):
    """Instead of attacking, try to escape: ESCAPE COMBAT – Test: Dex -10 [S:Remove Monster] [F:-2 HP] (Escape)."""

    kind: Literal["combat_escape"] = "combat_escape"
    when: ClassVar[Phases] = FIGHT_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        allowed(flow, "escape")
        c = flow.c
        c.action, c.waiting, c.step = "escape", "", "monster_turn"
        flow.say(CombatAction(action="escape"), "You try to escape.")
        roll_test(flow, "escape", TEST_SPECS["escape"], "monster_turn")
        return finish(flow)


@register_command
class CombatBlockEscape(Command):
    """Forfeit the attack to block the escaping monster: BLOCK ESCAPE – Test: STR-10
    [S:Start Combat at Step 3] [F:Remove Monster] (Escape). On a success the damage roll of
    step 3 is made with the weapon in ``slot``."""

    kind: Literal["combat_block_escape"] = "combat_block_escape"
    when: ClassVar[Phases] = FIGHT_ONLY
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"
    stat: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        allowed(flow, "block_escape")
        if weapon_in(flow.ch, self.slot) is None:
            refuse(f"There is no weapon in your {self.slot.replace('_', ' ')} slot to strike with.")
        if changed_weapon(flow.c, flow.ch, self.slot):
            refuse(changed_weapon(flow.c, flow.ch, self.slot))
        c = flow.c
        weapon = weapon_in(flow.ch, self.slot)
        assert weapon is not None
        c.attack = attack_choice(flow.ch, self.slot, self.stat or weapon_stats(weapon)[0])
        c.action, c.waiting, c.step = "block_escape", "", "monster_turn"
        flow.say(CombatAction(action="block_escape"), f"You block {flow.m.name}'s escape.")
        roll_test(flow, "block", TEST_SPECS["block"], "monster_turn")
        return finish(flow)


@register_command
class CombatPass(Command):
    """Do nothing this round (a forfeited attack, or letting an escaping monster go)."""

    kind: Literal["combat_pass"] = "combat_pass"
    when: ClassVar[Phases] = FIGHT_ONLY

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        allowed(flow, "pass")
        c = flow.c
        c.action, c.waiting, c.step = "pass", "", "monster_turn"
        flow.say(CombatAction(action="pass"), "You hold back this round.")
        return finish(flow)


@register_command
class CombatPerfectAim(Command):
    """Perfect Aim: ``keep`` the hit location or ``reroll`` it once, then pick ``first`` or ``second``."""

    kind: Literal["combat_perfect_aim"] = "combat_perfect_aim"
    when: ClassVar[Phases] = FIGHT_ONLY
    choice: Literal["keep", "reroll", "first", "second"]

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        c = flow.c
        hit = c.hero_hit
        if c.waiting == "aim":
            assert hit is not None
            if self.choice == "keep":
                c.waiting = ""
            elif self.choice == "reroll":
                c.waiting = ""
                hold(flow, "d10", "Perfect Aim: re-roll the hit location", "aim_resolve")
            else:
                refuse("Re-roll the location first, or keep it.")
        elif c.waiting == "aim_pick":
            assert hit is not None and hit.second_location is not None
            if self.choice not in ("first", "second"):
                refuse("Pick the first or the second hit location.")
            picked = hit.first_location if self.choice == "first" else hit.second_location
            hit.location = picked if picked is not None else hit.location
            c.waiting = ""
            flow.say(
                CombatAim(location=hit.location),
                f"Perfect Aim: you take hit location {hit.location} ({location_name(flow, hit.location)}).",
            )
        else:
            flow.need("aim", "aim_pick")
        return finish(flow)


@register_command
class CombatOffset(Command):
    """Offset ``item`` points (at most 2) onto the item at the location hit (1 repair pip each)
    and ``shield`` points (at most its S rating) onto the shield (half a pip each)."""

    kind: Literal["combat_offset"] = "combat_offset"
    when: ClassVar[Phases] = FIGHT_ONLY
    item: int = 0
    shield: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        flow.need("offset")
        c, ch, campaign = flow.c, flow.ch, ctx.campaign
        mh = c.monster_hit
        assert mh is not None
        if not 0 <= self.item <= mh.item_max:
            refuse(f"You can offset 0 to {mh.item_max} points onto {mh.item_name or 'an item at that location'}.")
        if not 0 <= self.shield <= mh.shield_max:
            refuse(f"You can offset 0 to {mh.shield_max} points onto {mh.shield_name or 'a shield'}.")
        if self.item + self.shield > mh.damage:
            refuse(f"Only {mh.damage} damage can be offset.")
        item = _offset_item(ch, mh.slot, mh.item_name) if self.item else None
        shield = ch.equipment.get("off_weapon") if self.shield else None
        if self.shield and (shield is None or shield.kind != "shield" or shield.name != mh.shield_name):
            refuse(f"{mh.shield_name or 'The shield'} is no longer in your off weapon slot: there is no shield to offset onto.")
        if item is not None:
            flow.say(
                OffsetPayload(onto="item", item=item.name, points=self.item),
                f"{self.item} damage offset onto {item.name}: {self.item} repair pip(s).",
            )
            shade_item(flow, item, self.item, "Offset")
        if shield is not None:
            halves = self.shield + (1 if campaign.shield_half_pip == shield.name else 0)
            pips, left = divmod(halves, 2)
            campaign.shield_half_pip = shield.name if left else ""
            carried = " (half a pip carried on the track)" if left else ""
            flow.say(
                OffsetPayload(onto="shield", item=shield.name, points=self.shield),
                f"{self.shield} damage offset onto {shield.name}: {self.shield / 2:g} pip(s){carried}.",
            )
            if pips and ch.equipment.get("off_weapon") is shield:  # not already broken by the points above
                shade_item(flow, shield, pips, "Shield offset")
        mh.offset_item, mh.offset_shield = self.item, self.shield
        c.waiting = ""
        return finish(flow)


def _offset_item(ch: Character, slot: str, name: str) -> Item:
    """The item the offset was offered onto, still at the location hit; refused when it is gone."""
    item = next((i for i in items_at(ch, slot) if i.name == name), None) if slot else None
    if item is None:
        refuse(f"{name or 'The item'} is no longer at the location hit: offset nothing onto it (take the damage as HP).")
    return item


@register_command
class CombatChooseLoot(Command):
    """Choose which table the loot is rolled on when ``[K:...]`` offers several (0-based)."""

    kind: Literal["combat_choose_loot"] = "combat_choose_loot"
    when: ClassVar[Phases] = FIGHT_ONLY
    option: int

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        flow.need("loot")
        loot = flow.m.loot
        options = loot.options if loot else []
        if not 0 <= self.option < len(options):
            refuse(f"Choose option 1 to {len(options)}.")
        start_loot(flow, options[self.option])
        return finish(flow)


@register_command
class CombatProvideRow(Command):
    """The row a fight's table roll (loot, Table C) landed on and the tables lack: ``row`` typed
    from the rulebook is added to the tables and applied at once; ``sample`` re-rolls among the
    printed rows this time instead (sample play); neither goes without the loot."""

    kind: Literal["combat_provide_row"] = "combat_provide_row"
    when: ClassVar[Phases] = FIGHT_ONLY
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = fight_of(ctx)
        flow.need("row")
        c = flow.c
        waiting, use = c.row_wait, c.row_use
        assert waiting is not None
        if self.row is not None:
            try:
                result = ctx.tables.resolve_missing(waiting, self.row)
            except (TableError, ValueError) as exc:
                refuse(str(exc))
            flow.say(RowProvided(table_id=result.table_id, row=result.row), f"Row added to your tables: {result.describe()}")
        elif self.sample:
            result = _sample_row(ctx, waiting)
        elif use == "loot":
            result = None
            flow.say(CombatLoot(), f"Loot: you go without {flow.m.name}'s loot.")
        else:
            refuse("A curse cannot be skipped: type the row from your rulebook, or re-roll among the printed rows.")
        c.row_wait, c.row_use, c.waiting = None, "", ""
        if result is not None:
            (apply_loot if use == "loot" else apply_curse)(flow, result)
        return finish(flow)


def _sample_row(ctx: GameContext, waiting: TableRoll) -> TableRoll:
    """Sample play for one roll: the table rolled again until it lands on a printed row."""
    modifier = sum(m.value for m in waiting.roll.modifiers)
    try:
        result = ctx.tables.with_policy(MissingRowPolicy.REROLL).roll(waiting.table_id, waiting.roll.purpose, modifier)
    except (TableError, DiceError) as exc:
        refuse(str(exc))
    if result.row is None:
        refuse(f"{waiting.table_title} has no printed row to re-roll among: type the row from your rulebook.")
    return result.model_copy(update={"sample": True})
