"""Fixtures for the combat panel's tests: a panel on its own real game, with scripted dice.

``table`` builds ``CombatPanel(EngineBridge(Game(...)))`` for a hero (no main window); its
``game`` carries a :class:`ScriptedSource` to push faces onto.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.combat.panel import CombatPanel
from d100gui.ui.common.bridge import EngineBridge


@dataclass
class Table:
    """The game and bridge a panel is built on (what a main window would hold)."""

    game: Game
    bridge: EngineBridge


def new_game(hero: Character | None) -> Game:
    """A game for ``hero`` on the bundled tables and rules, its dice scripted (nothing pushed yet)."""
    campaign = Campaign(character=hero)
    campaign.meta.seed = 11
    library = packs.load_library(user_data_dir()).library
    game = Game(campaign, library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([])
    return game


@pytest.fixture(name="new_game")
def _new_game():
    """``new_game(hero)``: a game on the bundled data with scripted dice (see :func:`new_game`)."""
    return new_game


@pytest.fixture
def make_window(qtbot):
    """``make(hero)`` -> (table, panel): a shown CombatPanel on its own game."""

    def make(hero: Character | None, game: Game | None = None) -> tuple[Table, CombatPanel]:
        game = game or new_game(hero)
        table = Table(game, EngineBridge(game))
        panel = CombatPanel(table.bridge)
        qtbot.addWidget(panel)
        panel.resize(560, 860)
        panel.show()
        return table, panel

    return make
