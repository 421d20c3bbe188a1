"""Step 2 of the round: the action buttons and menus, and the panel's keys.

Which action is allowed, and why not, comes from
:func:`~d100gui.engine.combat.actions.available_actions`; a button only sends its command.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMenu, QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import available_actions
from d100gui.engine.combat.attack import weapon_in, weapon_stats
from d100gui.engine.combat.odds import FightOdds
from d100gui.engine.fight_commands import (
    CombatAttack,
    CombatBlockEscape,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatEscape,
    CombatPass,
    CombatUseBelt,
)
from d100gui.engine.game import Command
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules

Send = Callable[[Command], bool]
#: a line of a menu: its text, what it does, whether it may be chosen
MenuEntry = tuple[str, Callable[[], object], bool]

#: what each action button does (its tooltip while it is allowed; a greyed one says why instead)
ACTION_TIPS = {
    "attack_main": "Attack with the weapon in your main hand (A)",
    "attack_off": "Attack with the weapon in your off hand instead",
    "change_weapon": "Give up this round's attack to change the weapons in your hands",
    "cast_spell": "Cast a spell from your book instead of attacking (its cost is paid first)",
    "use_belt": "Use a potion, brew or scroll from your belt instead of attacking",
    "escape": "Give up your attack to try to escape: a test; on a success the fight ends (E)",
    "block_escape": "Give up your attack to stop the escaping monster: a test",
    "pass": "Let the round go by without acting",
}


class ActionsBox(QWidget):
    """The buttons of step 2 (``buttons`` by action name), the weapon menus and the spell bonus."""

    def __init__(self, rules: Rules, campaign: Callable[[], Campaign], send: Send, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        self._campaign = campaign
        self.send = send
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        self._menu_keys: dict[int, list[tuple[str, bool]]] = {}  # what each menu shows (see _fill)
        self._rows = [QHBoxLayout() for _ in range(3)]
        for row in self._rows:
            row.setSpacing(4)
            col.addLayout(row)
        self._button("attack_main", "Attack (A)", 0).clicked.connect(lambda _=False: self.attack("main_weapon"))
        self.main_stat = self._stat_box(0)
        self._button("attack_off", "Attack with off weapon", 0).clicked.connect(lambda _=False: self.attack("off_weapon"))
        self.off_stat = self._stat_box(0)
        self.change_menu = QMenu(self)
        self._button("change_weapon", "Change weapon", 1).setMenu(self.change_menu)
        self.cast_menu = QMenu(self)
        self._button("cast_spell", "Cast spell", 1).setMenu(self.cast_menu)
        self.belt_menu = QMenu(self)
        self._button("use_belt", "Use belt item", 1).setMenu(self.belt_menu)
        self._button("escape", "Escape (E)", 2).clicked.connect(lambda _=False: self.send(CombatEscape()))
        self._button("block_escape", "Block escape", 2).clicked.connect(lambda _=False: self.block_escape())
        self._button("pass", "Pass", 2).clicked.connect(lambda _=False: self.send(CombatPass()))
        self.bonus_label = QLabel("Spell bonus for casting:")
        self.spell_bonus = QSpinBox()
        self.spell_bonus.setRange(-50, 50)
        self.spell_bonus.setSingleStep(5)
        self.spell_bonus.setToolTip("The bonus your spell or scroll gives to the casting test")
        bonus = QHBoxLayout()
        bonus.addStretch(1)
        bonus.addWidget(self.bonus_label)
        bonus.addWidget(self.spell_bonus)
        col.addLayout(bonus)

    def _button(self, name: str, text: str, row: int) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setToolTip(ACTION_TIPS.get(name, ""))
        b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.buttons[name] = b
        self._rows[row].addWidget(b, 1)
        return b

    def _stat_box(self, row: int) -> QComboBox:
        box = QComboBox()
        box.addItems(["STR", "DEX"])
        box.setToolTip("(H,R) weapon: attack as a hand weapon (STR) or a ranged weapon (DEX)")
        self._rows[row].addWidget(box)
        return box

    # ------------------------------------------------------------------ commands
    def _stat_for(self, slot: str) -> str:
        ch = self._campaign().character
        item = weapon_in(ch, slot) if ch is not None else None
        if item is None or len(weapon_stats(item)) < 2:
            return ""
        return (self.main_stat if slot == "main_weapon" else self.off_stat).currentText()

    def attack(self, slot: str) -> bool:
        """Step 2: attack with the weapon in ``slot``."""
        return self.send(CombatAttack(slot=slot, stat=self._stat_for(slot)))  # type: ignore[arg-type]

    def block_escape(self) -> bool:
        """Step 2: stop the monster's escape with the main weapon (the off one if the hand is empty)."""
        ch = self._campaign().character
        slot = "main_weapon" if ch is None or weapon_in(ch, "main_weapon") is not None else "off_weapon"
        return self.send(CombatBlockEscape(slot=slot, stat=self._stat_for(slot)))  # type: ignore[arg-type]

    def _cast(self, index: int) -> bool:
        return self.send(CombatCastSpell(index=index, bonus=self.spell_bonus.value()))

    def _use_belt(self, slot: int) -> bool:
        return self.send(CombatUseBelt(belt_slot=slot, bonus=self.spell_bonus.value()))

    # ------------------------------------------------------------------ render
    def refresh(self, ch: Character, odds: FightOdds | None) -> None:
        """Enable what the engine allows now; a disabled button says why."""
        allowed = available_actions(self._campaign(), self.rules)
        main, off = weapon_in(ch, "main_weapon"), weapon_in(ch, "off_weapon")
        self.buttons["attack_main"].setText(f"Attack with {main.name} (A)" if main else "Attack (A)")
        self.buttons["attack_off"].setText(f"Attack with {off.name}" if off else "Attack with off weapon")
        self.main_stat.setVisible(main is not None and len(weapon_stats(main)) > 1)
        self.off_stat.setVisible(off is not None and len(weapon_stats(off)) > 1)
        for name, button in self.buttons.items():
            why = allowed.get(name, "")
            button.setEnabled(not why)
            tip = why or ACTION_TIPS.get(name, "")
            if not why and name.startswith("attack") and odds is not None and odds.weapon:
                tip = f"Best odds: {odds.weapon} ({odds.stat}), {round(odds.hero_hit_chance * 100)}% to hit."
            button.setToolTip(tip)
        self._fill_change_menu(ch)
        self._fill_cast_menu(ch)
        self._fill_belt_menu(ch)
        scrolls = any(i is not None and i.kind == "scroll" for i in ch.belt)
        spells = any(e is not None for e in ch.spell_book)
        self.bonus_label.setVisible(spells or scrolls)
        self.spell_bonus.setVisible(spells or scrolls)

    def _fill(self, menu: QMenu, entries: list[MenuEntry], empty: str) -> None:
        """Fill ``menu`` with ``entries`` (text, slot, enabled), or one greyed ``empty`` line; a menu that
        would read the same is left as it is (most actions change no weapon, spell or belt item)."""
        key = [(text, enabled) for text, _slot, enabled in entries] or [(empty, False)]  # the key of what it shows
        if self._menu_keys.get(id(menu)) == key:
            return
        self._menu_keys[id(menu)] = key
        menu.clear()
        for text, slot, enabled in entries:
            menu.addAction(text, slot).setEnabled(enabled)
        if not entries and empty:
            menu.addAction(empty).setEnabled(False)

    def _fill_change_menu(self, ch: Character) -> None:
        entries: list[MenuEntry] = []
        main, off = ch.equipment.get("main_weapon"), ch.equipment.get("off_weapon")
        if main is not None or off is not None:
            entries.append(("Swap main and off weapons", lambda: self.send(CombatChangeWeapon(swap=True)), True))
        for index, item in enumerate(ch.backpack):
            if item.kind == "weapon":
                command = CombatChangeWeapon(backpack_index=index, slot="main_weapon")
                entries.append((f"Take {item.name} in your main hand", partial(self.send, command), True))
            if item.kind in ("weapon", "shield"):
                command = CombatChangeWeapon(backpack_index=index, slot="off_weapon")
                entries.append((f"Take {item.name} in your off hand", partial(self.send, command), True))
        if main is not None:
            command = CombatChangeWeapon(slot="main_weapon")
            entries.append((f"Put {main.name} in the backpack", partial(self.send, command), True))
        if off is not None:
            command = CombatChangeWeapon(slot="off_weapon")
            entries.append((f"Put {off.name} in the backpack", partial(self.send, command), True))
        self._fill(self.change_menu, entries, "")

    def _fill_cast_menu(self, ch: Character) -> None:
        entries: list[MenuEntry] = []
        d = derive(ch, self.rules)
        for index, entry in enumerate(ch.spell_book):
            if entry is None:
                continue
            cost = f" ({entry.cost})" if entry.cost else ""
            usable = index < len(d.usable_spells) and d.usable_spells[index]
            text = f"{entry.name}{cost}" if usable else f"{entry.name}{cost} - needs INT {d.spell_thresholds[index]}"
            entries.append((text, partial(self._cast, index), usable))
        self._fill(self.cast_menu, entries, "Your spell book is empty")

    def _fill_belt_menu(self, ch: Character) -> None:
        entries: list[MenuEntry] = []
        for n, item in enumerate(ch.belt, start=1):
            if item is not None:
                effect = f" - {item.effect}" if item.effect else ""
                entries.append((f"{n}. {item.name}{effect}", partial(self._use_belt, n), True))
        self._fill(self.belt_menu, entries, "Your belt is empty")


def shortcut(parent: QWidget, key: Qt.Key, slot: Callable[[], object]) -> QShortcut:
    """A key of the fight, live in the whole window of ``parent`` while ``parent`` is visible.

    Qt only fires a window shortcut whose parent is visible and enabled, so the keys work
    whenever the combat dock shows, wherever the focus is; a text field with the focus keeps
    its letters (it claims them first, as Qt's line edits do)."""
    s = QShortcut(QKeySequence(key), parent)
    s.setContext(Qt.ShortcutContext.WindowShortcut)
    s.activated.connect(slot)
    return s
