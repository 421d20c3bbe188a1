"""Fixtures for the Toolbox dock: ``ToolboxPanel(EngineBridge(Game(...)))`` on the bundled tables, dice scripted."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.toolbox.dock import ToolboxPanel


@dataclass
class Table:
    """The game and bridge a dock is built on (what a main window would hold)."""

    game: Game
    bridge: EngineBridge
    dice: ScriptedSource


def new_game(campaign: Campaign | None = None) -> Game:
    campaign = campaign or Campaign()
    campaign.meta.seed = 7
    library = packs.load_library(user_data_dir()).library
    return Game(campaign, library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())


@pytest.fixture(name="new_game")
def _new_game():
    """``new_game(campaign)``: a game on the bundled data for that campaign (see :func:`new_game`)."""
    return new_game


@pytest.fixture
def make_dock(qtbot):
    """``make(campaign=None, scripted=True)`` -> (table, dock): a shown ToolboxPanel on its own game."""

    def make(campaign: Campaign | None = None, scripted: bool = True) -> tuple[Table, ToolboxPanel]:
        game = new_game(campaign)
        dice = ScriptedSource([])
        if scripted:
            game.override = dice
        table = Table(game, EngineBridge(game), dice)
        dock = ToolboxPanel(table.bridge)
        qtbot.addWidget(dock)
        dock.resize(900, 800)
        dock.show()
        return table, dock

    return make
