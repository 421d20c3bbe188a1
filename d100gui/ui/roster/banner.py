"""The banner a fallen hero's campaign shows: who fell, how and when, and that nothing can change.

It renders from the engine (:mod:`d100gui.engine.hero.fallen`: the mark, the death event) and
offers the ways on: view the final sheet, map and log, or start a new hero.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.hero.fallen import death_of, describe, fallen_hero, read_only_reason


class FallenBanner(QFrame):
    """A strip above the map while the campaign's hero has fallen (hidden otherwise)."""

    view_requested = Signal()
    new_hero_requested = Signal()

    def __init__(self, parent: QWidget | None = None, viewer: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("fallenBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "#fallenBanner { background: palette(alternate-base); border: 2px solid palette(mid); border-radius: 4px; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel()
        self.label.setObjectName("fallenBannerText")
        self.label.setWordWrap(True)
        layout.addWidget(self.label, 1)
        self.view_button = QPushButton("View the final sheet, map and log…")
        self.view_button.clicked.connect(lambda _=False: self.view_requested.emit())
        self.new_button = QPushButton("New hero…")
        self.new_button.clicked.connect(lambda _=False: self.new_hero_requested.emit())
        for button in (self.view_button, self.new_button):
            layout.addWidget(button)
        self.view_button.setVisible(not viewer)
        self.new_button.setVisible(not viewer)
        self.setVisible(False)

    def show_campaign(self, campaign: Campaign) -> bool:
        """Show the banner for ``campaign`` if its hero has fallen; True if shown."""
        hero = fallen_hero(campaign)
        if hero is None:
            self.setVisible(False)
            return False
        self.show_text(describe(hero.name, death_of(campaign)), read_only_reason(campaign))
        return True

    def show_text(self, fell: str, reason: str) -> None:
        """How the hero fell, and that nothing can change (the full reason in the tooltip)."""
        self.label.setText(f"<b>{fell}</b><br>This hero has fallen: read-only. Nothing in this campaign can change.")
        self.setToolTip(reason)
        self.setVisible(True)
