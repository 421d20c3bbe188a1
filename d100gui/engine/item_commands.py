"""The hero's item commands (equipping, the belt, an item written in), and ``CHARACTER_COMMANDS``: every command
of the character feature (creation, skill tests, items).

An equipment change is refused in a fight, naming the adventure's turn and step the player is on: so these
commands sit on a floor above the adventure (the item rules themselves are the hero's, :mod:`d100gui.engine.hero.equipment`).

* :class:`EquipItem` — backpack item ``index`` into ``slot`` (one item per slot; a
  two-handed weapon takes both weapon slots; a shield only the off weapon slot).
* :class:`UnequipItem` — the item in ``slot`` into the backpack, damage kept; HP drops to
  the new maximum if the item gave HP.
* :class:`MoveToBelt` / :class:`TakeFromBelt` — brews, potions and scrolls between the belt
  slots (1-10) and the backpack or unequipped-potions list.
* :class:`AddItem` — a hand entry on the sheet (marked manual in the log).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, NoReturn

from d100gui.engine.adventure.turn import current_step, refuse_at, step_label, turn_of
from d100gui.engine.command_registry import register_command
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero import events as ev
from d100gui.engine.hero.creation import CREATION_COMMANDS
from d100gui.engine.hero.equipment import equip, unequip
from d100gui.engine.hero.fight_lock import equipment_locked
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.phases import OUTSIDE_FIGHT, SHEET_FIX, Phases
from d100gui.engine.protocol import Event
from d100gui.engine.rules.model import Rules
from d100gui.engine.skill_test_commands import SKILL_TEST_COMMANDS

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def _take(items: list[Item], index: int, where: str) -> Item:
    if not 0 <= index < len(items):
        refuse(f"There is no item {index + 1} in the {where}.")
    return items.pop(index)


def _refuse_in_fight(campaign: Campaign, why: str) -> NoReturn:
    """Refuse an equipment change during a fight; in a quest, naming the turn and step the player is on."""
    if turn_of(campaign) is None:
        refuse(why)
    refuse_at(campaign, why)


def _gear_refusal(campaign: Campaign) -> str:
    """The gate's reason for an equipment change now ("" when allowed): in a fight, the fight's Change weapon."""
    why = equipment_locked(campaign)
    if why is None:
        return ""
    turn = turn_of(campaign)
    return f"Turn {turn.number}, {step_label(current_step(campaign))}: {why}" if turn is not None else why


class _Gear(Command):
    """An equipment change: refused in a fight, with the fight's own way to change weapons named."""

    @classmethod
    def refuse_now(cls, campaign: Campaign, rules: Rules, command: Command | None) -> str:
        return _gear_refusal(campaign)


@register_command
class EquipItem(_Gear):
    """Equip backpack item ``index`` (0-based) in ``slot`` (a slot id such as ``head``)."""

    kind: Literal["equip_item"] = "equip_item"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    index: int
    slot: str

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        if why := equipment_locked(ctx.campaign):
            _refuse_in_fight(ctx.campaign, why)
        item = _take(ch.backpack, self.index, "backpack")
        held = vitals(ch)
        equip(ch, rules, item, self.slot)
        enforce(ch, rules)
        said = f"Equipped {item.describe()} in the {rules.slot(self.slot).name} slot."
        return [ev.emit(ev.Equipped(slot=self.slot), said), *changed_vitals(ch, rules, held)]


@register_command
class UnequipItem(_Gear):
    """Move the item in ``slot`` to the backpack."""

    kind: Literal["unequip_item"] = "unequip_item"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    slot: str

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        if why := equipment_locked(ctx.campaign):
            _refuse_in_fight(ctx.campaign, why)
        held = vitals(ch)
        item = unequip(ch, rules, self.slot)
        enforce(ch, rules)
        note = f" HP {held['hp']} -> {ch.hp}." if ch.hp != held["hp"] else ""
        # an HP item taken off brings HP down to the new maximum: told by the typed hp event too
        said = f"{item.name} goes in the backpack.{note}"
        return [ev.emit(ev.Unequipped(slot=self.slot), said), *changed_vitals(ch, rules, held)]


@register_command
class MoveToBelt(_Gear):
    """Put a brew, potion or scroll from the backpack or the unequipped potions into belt slot ``belt_slot`` (1-10)."""

    kind: Literal["move_to_belt"] = "move_to_belt"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    source: Literal["backpack", "potions"] = "potions"
    index: int
    belt_slot: int

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign)
        if not 1 <= self.belt_slot <= len(ch.belt):
            refuse(f"Belt slots are 1 to {len(ch.belt)}.")
        held = ch.belt[self.belt_slot - 1]
        if held is not None:
            refuse(f"Belt slot {self.belt_slot} already holds {held.name}.")
        items = ch.backpack if self.source == "backpack" else ch.potions
        item = _take(items, self.index, "backpack" if self.source == "backpack" else "unequipped potions")
        if item.kind not in rules.belt_kinds:
            refuse(f"Only brews, potions and scrolls go on the belt, not {item.name}.")
        ch.belt[self.belt_slot - 1] = item
        enforce(ch, rules)
        return [ev.emit(ev.BeltChanged(belt_slot=self.belt_slot), f"{item.name} in belt slot {self.belt_slot}.")]


@register_command
class TakeFromBelt(_Gear):
    """Take the item out of belt slot ``belt_slot`` (potions go to the unequipped potions, others to the backpack)."""

    kind: Literal["take_from_belt"] = "take_from_belt"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    belt_slot: int

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        if not 1 <= self.belt_slot <= len(ch.belt):
            refuse(f"Belt slots are 1 to {len(ch.belt)}.")
        item = ch.belt[self.belt_slot - 1]
        if item is None:
            refuse(f"Belt slot {self.belt_slot} is empty.")
        ch.belt[self.belt_slot - 1] = None
        (ch.potions if item.kind == "potion" else ch.backpack).append(item)
        where = "unequipped potions" if item.kind == "potion" else "backpack"
        message = f"{item.name} moved from belt slot {self.belt_slot} to the {where}."
        return [ev.emit(ev.BeltChanged(belt_slot=self.belt_slot), message)]


@register_command
class AddItem(Command):
    """Write an item on the sheet by hand: ``to`` the backpack, unequipped potions, non-slot items or a belt slot."""

    kind: Literal["add_item"] = "add_item"
    when: ClassVar[Phases] = SHEET_FIX
    manual: ClassVar[bool] = True
    item: Item
    to: Literal["backpack", "potions", "non_slot", "belt"] = "backpack"
    belt_slot: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        rules = ctx.rules
        ch = living_character(ctx.campaign, created=False)
        if self.to == "belt":
            if not 1 <= self.belt_slot <= len(ch.belt) or ch.belt[self.belt_slot - 1] is not None:
                refuse(f"Choose an empty belt slot from 1 to {len(ch.belt)}.")
            ch.belt[self.belt_slot - 1] = self.item
        else:
            {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}[self.to].append(self.item)
        enforce(ch, rules)
        payload = ev.ItemAdded(item=self.item.name, to=self.to)
        return [ev.emit(payload, f"Added {self.item.describe()} ({self.to.replace('_', '-')}).")]


ITEM_COMMANDS: tuple[type[Command], ...] = (EquipItem, UnequipItem, MoveToBelt, TakeFromBelt, AddItem)

CHARACTER_COMMANDS: tuple[type[Command], ...] = (*CREATION_COMMANDS, *SKILL_TEST_COMMANDS, *ITEM_COMMANDS)
