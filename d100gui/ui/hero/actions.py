"""What the Hero menu and the sheet's requests do: open the hero's dialogs, print and export.

The character sheet shows the model and sends commands; it never opens a window or a file
dialog. When the player asks for something that needs one (a skill test, the print
preview, a PDF, an item or spell form, the creation wizard) the sheet emits a request and
:class:`HeroActions` answers it. The main window's Hero and File menu actions call the same
slots, so a menu item and a sheet button take one path.

The last dialog of each kind is kept in an attribute (``test_dialog``, ``print_dialog``,
``item_dialog``, ``spell_dialog``, ``creation_wizard``) so tests and the window can reach it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget

from d100gui.engine.dungeon.map import DoorAt
from d100gui.engine.game import Command
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.queries import item_at
from d100gui.engine.hero.sheet_edits import EditItem, SetSpell
from d100gui.engine.item_commands import AddItem
from d100gui.engine.protocol import Event
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences

if TYPE_CHECKING:  # the dialogs, the wizard and the printing are imported when first opened, not at start-up
    from d100gui.ui.hero.creation_wizard import CreationWizard
    from d100gui.ui.hero.item_dialogs import ItemDialog, SpellDialog
    from d100gui.ui.hero.sheet import CharacterSheet
    from d100gui.ui.hero.skill_test_dialog import SkillTestDialog

NO_HERO = "Create a character first (Hero > New character)."


class HeroActions(QObject):
    """Opens the hero's dialogs for the sheet's requests and the Hero / File menu actions."""

    error = Signal(str)  # a message for the player (no hero yet, a file that could not be written)

    def __init__(self, bridge: EngineBridge, window: QWidget, prefs: Preferences | None = None) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.window = window
        self.prefs = prefs
        self.sheet: CharacterSheet | None = None
        self.creation_wizard: CreationWizard | None = None
        self.test_dialog: SkillTestDialog | None = None
        self.print_dialog: QDialog | None = None
        self.item_dialog: ItemDialog | None = None
        self.spell_dialog: SpellDialog | None = None
        self.last_pdf: Path | None = None

    @property
    def character(self) -> Character | None:
        return self.bridge.game.campaign.character

    def attach(self, sheet: CharacterSheet) -> None:
        """Answer this sheet's requests; its hand edits are sent through it, so refusals show there."""
        self.sheet = sheet
        sheet.create_requested.connect(self.new_character)
        sheet.test_requested.connect(self.skill_test)
        sheet.print_requested.connect(self.print_sheet)
        sheet.export_requested.connect(self.export_sheet_pdf)
        sheet.item_edit_requested.connect(self.edit_item)
        sheet.item_add_requested.connect(self.add_item)
        sheet.spell_edit_requested.connect(self.edit_spell)
        sheet.spells.last_events = self.last_events

    def last_events(self) -> list[Event]:
        """The events of the game's last command (the spell book shows what a cast did from them)."""
        log = self.bridge.game.campaign.log
        return list(log[-1].events) if log else []

    def _send(self, command: Command) -> bool:
        return self.sheet.send(command) if self.sheet is not None else self.bridge.send(command)

    def _say(self, text: str) -> None:
        if self.sheet is not None:
            self.sheet.show_message(text)
        self.error.emit(text)

    # ------------------------------------------------------------------ Hero menu
    def new_character(self) -> CreationWizard:
        """Open the creation wizard (a new character, or carrying on with one being created)."""
        from d100gui.ui.hero.creation_wizard import CreationWizard

        wizard = CreationWizard(self.bridge, self.window)
        wizard.open()
        self.creation_wizard = wizard
        return wizard

    def skill_test(self, text: str = "", door: DoorAt | None = None) -> SkillTestDialog | None:
        """Open the skill-test dialog, ad hoc or for a ``Test:`` line; a hero must exist and be finished.

        ``door``: the door a Table D test is for (the map's "Test to open..."); passing it opens it on success."""
        character = self.character
        if character is None or character.creation is not None:
            self.error.emit(NO_HERO)
            return None
        from d100gui.ui.hero.skill_test_dialog import SkillTestDialog

        dialog = SkillTestDialog(self.bridge, text or None, self.window, door)
        dialog.open()
        self.test_dialog = dialog
        return dialog

    def door_test(self, text: str, pos: str, side: str) -> SkillTestDialog | None:
        """The skill test of a closed door's Table D row (the map's "Test to open..."): passed, it opens that door."""
        return self.skill_test(text, DoorAt.model_validate({"pos": pos, "side": side}))

    # ------------------------------------------------------------------ File menu
    def print_sheet(self) -> QDialog | None:
        """Open the print preview of both pages of the sheet."""
        ch = self.character
        if ch is None:
            return None
        from d100gui.ui.hero.sheet_print import print_sheet

        self.print_dialog = print_sheet(self.window, ch, self.bridge.rules)
        return self.print_dialog

    def export_sheet_pdf(self, path: str | None = None) -> Path | None:
        """Write the sheet to a PDF; without a path, ask for one. A write failure is said, not raised."""
        ch = self.character
        if ch is None:
            return None
        if not path:
            suggested = f"{ch.name or 'character'}-sheet.pdf".replace(" ", "-")
            start = self.prefs.start_path(suggested) if self.prefs is not None else suggested
            path, _ = QFileDialog.getSaveFileName(self.window, "Export the sheet to PDF", start, "PDF (*.pdf)")
            if not path:
                return None
            if self.prefs is not None:
                self.prefs.remember_folder(path)
        from d100gui.ui.hero.sheet_print import export_sheet_pdf

        try:
            self.last_pdf = export_sheet_pdf(ch, self.bridge.rules, path)
        except OSError as exc:
            self._say(f"Could not write {path}: {exc.strerror or exc}")
            return None
        return self.last_pdf

    # ------------------------------------------------------------------ hand entries
    def edit_item(self, where: str, slot: str = "", index: int = 0) -> ItemDialog | None:
        """Open the item form for the item at a place of the sheet; OK sends an EditItem command."""
        ch = self.character
        item = item_at(ch, where, slot, index) if ch is not None else None
        if item is None:
            return None
        from d100gui.ui.hero.item_dialogs import ItemDialog

        dialog = ItemDialog(self.bridge.rules, item, f"Edit {item.name}", self.window)
        dialog.accepted.connect(partial(self._edited, dialog, where, slot, index))
        return self._open_item(dialog)

    def _edited(self, dialog: ItemDialog, where: str, slot: str, index: int) -> None:
        self._send(EditItem(where=where, slot=slot, index=index, item=dialog.item()))  # type: ignore[arg-type]  # where is a sheet place

    def add_item(self, where: str, belt_index: int = 0) -> ItemDialog:
        """Open an empty item form; OK writes it on the sheet (an AddItem hand entry)."""
        kind = {"potions": "potion", "belt": "potion"}.get(where, "item")
        blank = Item(name="", kind=kind, source="written by hand")  # type: ignore[arg-type]  # kind is one of the form's kinds
        from d100gui.ui.hero.item_dialogs import ItemDialog

        dialog = ItemDialog(self.bridge.rules, blank, "Write an item", self.window)
        dialog.accepted.connect(partial(self._added, dialog, where, belt_index))
        return self._open_item(dialog)

    def _added(self, dialog: ItemDialog, where: str, belt_index: int) -> None:
        self._send(AddItem(item=dialog.item(), to=where, belt_slot=belt_index + 1))  # type: ignore[arg-type]  # where is a sheet place

    def _open_item(self, dialog: ItemDialog) -> ItemDialog:
        dialog.open()
        self.item_dialog = dialog
        return dialog

    def edit_spell(self, index: int) -> SpellDialog:
        """Open the form for a spell-book position; OK writes the spell (SetSpell)."""
        ch = self.character
        spell = ch.spell_book[index] if ch and index < len(ch.spell_book) else None
        threshold = self.bridge.rules.spell_thresholds()[index]
        name, cost, effect = (spell.name, spell.cost, spell.effect) if spell else ("", "", "")
        from d100gui.ui.hero.item_dialogs import SpellDialog

        dialog = SpellDialog(index + 1, threshold, name, cost, effect, self.window)
        dialog.accepted.connect(partial(self._spell_written, dialog, index))
        dialog.open()
        self.spell_dialog = dialog
        return dialog

    def _spell_written(self, dialog: SpellDialog, index: int) -> None:
        self._send(SetSpell(position=index + 1, name=dialog.name.text(), cost=dialog.cost.text(), effect=dialog.effect.text()))
