"""The right-click menus of the sheet's item and spell lines: what can be done with what is there.

Every entry sends a command (equip, unequip, move to the belt, discard, erase) or asks the
sheet for a form (write, edit). Which slots take an item is the engine's answer
(:func:`~d100gui.engine.hero.equipment.check_equip`), never worked out here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtWidgets import QMenu, QWidget

from d100gui.engine.game import Command
from d100gui.engine.hero.equipment import check_equip
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.queries import belt_item, item_at
from d100gui.engine.hero.sheet_edits import DiscardItem, SetSpell
from d100gui.engine.item_commands import EquipItem, MoveToBelt, TakeFromBelt, UnequipItem
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.rules.model import Rules
from d100gui.ui.hero.sheet_parts import Send


def slots_for(ch: Character, rules: Rules, item: Item) -> list[str]:
    """The equipment slots the engine would accept the item in now."""
    fits = []
    for slot in rules.slots:
        try:
            check_equip(ch, rules, item, slot.id)
        except CommandRefused:
            continue
        fits.append(slot.id)
    return fits


class ItemMenus:
    """Builds the sheet's item and spell menus for one character, sending through the sheet."""

    def __init__(
        self,
        parent: QWidget,
        rules: Rules,
        send: Send,
        add_item: Callable[[str, int], object],
        edit_item: Callable[[str, str, int], object],
        edit_spell: Callable[[int], object],
    ) -> None:
        self.parent = parent
        self.rules = rules
        self.send = send
        self.add_item = add_item
        self.edit_item = edit_item
        self.edit_spell = edit_spell

    def _add(self, menu: QMenu, text: str, slot: Callable[[], object]) -> None:
        menu.addAction(text).triggered.connect(lambda _=False: slot())

    def _sender(self, command: Command) -> Callable[[], object]:
        return partial(self.send, command)

    def item_menu(self, ch: Character | None, where: str, slot: str = "", index: int = 0) -> QMenu:
        """What can be done with the item at a place of the sheet (also for an empty place)."""
        menu = QMenu(self.parent)
        if ch is None:
            return menu
        item = item_at(ch, where, slot, index)
        if where == "equipment":
            self._equipment(menu, ch, item, slot)
        elif where == "belt":
            self._belt(menu, ch, item, index)
        elif where in ("backpack", "potions") and item is not None:
            self._carried(menu, ch, item, where, index)
        if where in ("backpack", "potions", "non_slot") and item is None:
            self._add(menu, "Write an item…", partial(self.add_item, where, 0))
        if item is not None:
            menu.addSeparator()
            self._add(menu, "Edit…", partial(self.edit_item, where, slot, index))
            self._add(menu, "Discard", self._sender(DiscardItem(where=where, slot=slot, index=index)))  # type: ignore[arg-type]  # a sheet place
        return menu

    def _equipment(self, menu: QMenu, ch: Character, item: Item | None, slot: str) -> None:
        if item is not None:
            self._add(menu, "Unequip to the backpack", self._sender(UnequipItem(slot=slot)))
            return
        fits = [(i, b) for i, b in enumerate(ch.backpack) if not belt_item(self.rules, b)]
        sub = menu.addMenu("Equip from the backpack")
        sub.setEnabled(bool(fits))
        for i, b in fits:
            self._add(sub, b.name, self._sender(EquipItem(index=i, slot=slot)))

    def _belt(self, menu: QMenu, ch: Character, item: Item | None, index: int) -> None:
        if item is not None:
            self._add(menu, "Take off the belt", self._sender(TakeFromBelt(belt_slot=index + 1)))
            return
        sub = menu.addMenu("Put here")
        choices = [("potions", i, p) for i, p in enumerate(ch.potions)]
        choices += [("backpack", i, b) for i, b in enumerate(ch.backpack) if belt_item(self.rules, b)]
        sub.setEnabled(bool(choices))
        for source, i, it in choices:
            self._add(sub, it.name, self._sender(MoveToBelt(source=source, index=i, belt_slot=index + 1)))  # type: ignore[arg-type]  # a list name
        self._add(menu, "Write an item here…", partial(self.add_item, "belt", index))

    def _carried(self, menu: QMenu, ch: Character, item: Item, where: str, index: int) -> None:
        if where == "backpack" and not belt_item(self.rules, item):
            sub = menu.addMenu("Equip in")
            slots = slots_for(ch, self.rules, item)
            for sid in slots:
                self._add(sub, self.rules.slot(sid).name, self._sender(EquipItem(index=index, slot=sid)))
            if not slots:
                sub.addAction("No free slot takes it: unequip first").setEnabled(False)
            return
        free = next((n for n, b in enumerate(ch.belt) if b is None), None)
        act = menu.addAction("Put on the belt" + (f" (slot {free + 1})" if free is not None else " (full)"))
        act.setEnabled(free is not None)
        command = MoveToBelt(source=where, index=index, belt_slot=(free or 0) + 1)  # type: ignore[arg-type]  # a list name
        act.triggered.connect(lambda _=False: self.send(command))

    def spell_menu(self, ch: Character | None, index: int) -> QMenu:
        """Write or edit a spell-book position, or erase it."""
        menu = QMenu(self.parent)
        spell = ch.spell_book[index] if ch and index < len(ch.spell_book) else None
        self._add(menu, "Write a spell…" if spell is None else "Edit…", partial(self.edit_spell, index))
        if spell is not None:
            self._add(menu, "Erase", self._sender(SetSpell(position=index + 1)))
        return menu
