"""game.py on its floor (issue 23): the game knows a campaign through its core fields, the saved
``Campaign`` is composed above the features, and every game is refereed however it is built.

The referee (the gate, the Fate windows, the hero's ranges) comes from the campaign's class, not
from an injection a caller could forget: a campaign class that names none cannot be played.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Literal

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine import CommandRefused, Session
from d100gui.engine.campaign import CAMPAIGN_PARTS, Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import EVERY_COMMAND, CampaignCore, Command, Game, GameContext, campaign_parts
from d100gui.engine.phases import ANY_TIME, Phases
from d100gui.engine.protocol import Event
from d100gui.engine.referee import REFEREE
from d100gui.storage.resources import bundled_game_data

DATA = bundled_game_data()
DEMO = build_demo_campaign(DATA.library)
FIXTURES = Path(__file__).resolve().parents[1] / "storage" / "fixtures"

#: the saved campaign's fields in the order its JSON has always had them (the game's core first)
SAVED_ORDER = [
    "schema_version",
    "meta",
    "rng_state",
    "start_rng_state",
    "log",
    "dice_history",
    "dungeons",
    "tileset",
    "character",
    "pending",
    "decision_serial",
    "hall_of_fallen",
    "combat",
    "escaped_monsters",
    "shield_half_pip",
    "adventure",
    "toolbox",
    "town",
]


class Overheal(Command):
    """A command that leaves the hero with more HP than the sheet allows (what the referee's check catches)."""

    kind: Literal["test_overheal"] = "test_overheal"
    when: ClassVar[Phases] = ANY_TIME

    def apply(self, ctx: GameContext) -> list[Event]:
        hero = ctx.campaign.character
        assert hero is not None
        hero.hp = 10_000
        return []


def _plain(campaign: Campaign) -> Game:
    return Game(campaign, DATA.library, ALL_COMMANDS, rules=DATA.rules, tilesets=DATA.tilesets)


def _one_kind(campaign: Campaign) -> Game:
    return Game(campaign, DATA.library, (Overheal,), rules=DATA.rules, tilesets=DATA.tilesets)


def _no_commands(campaign: Campaign) -> Game:
    return Game(campaign, DATA.library, rules=DATA.rules, tilesets=DATA.tilesets)


def _window(campaign: Campaign) -> Game:
    return Game(campaign, DATA.library, EVERY_COMMAND, rules=DATA.rules, tilesets=DATA.tilesets)


def _session(campaign: Campaign) -> Game:
    return Session(DATA, campaign).game


class Subclassed(Campaign):
    """A campaign class made from the saved one keeps its referee."""


def _subclassed(campaign: Campaign) -> Game:
    return _plain(Subclassed.model_validate(campaign.model_dump()))


BUILDS: dict[str, Callable[[Campaign], Game]] = {
    "every command": _plain,
    "one command class": _one_kind,
    "no command set": _no_commands,
    "the window's lazy command set": _window,
    "a Session": _session,
    "a Campaign subclass": _subclassed,
}


@pytest.mark.parametrize("build", BUILDS.values(), ids=list(BUILDS))
def test_every_game_is_refereed_however_it_is_built(build):
    game = build(DEMO.model_copy(deep=True))
    assert game.referee is REFEREE
    before = game.campaign.model_dump_json()
    with pytest.raises(
        CommandRefused, match="Test overheal is refused: HP 10000 is above"
    ):  # the hero's ranges, after the command
        game.execute(Overheal())
    assert game.campaign.model_dump_json() == before

    fallen = DEMO.model_copy(deep=True)
    assert fallen.character is not None
    fallen.character.dead = True
    game = build(fallen)
    with pytest.raises(CommandRefused, match=r"(?i)fallen|dead|read-only"):  # the gate, before it
        game.execute(Overheal())


def test_a_campaign_class_that_names_no_referee_cannot_be_played():
    with pytest.raises(TypeError, match="names no referee"):
        Game(CampaignCore(), DATA.library, ALL_COMMANDS, rules=DATA.rules, tilesets=DATA.tilesets)

    class Homemade(CampaignCore):
        notes: str = ""

    with pytest.raises(TypeError, match="Homemade names no referee"):
        Game(Homemade(), DATA.library, ALL_COMMANDS, rules=DATA.rules, tilesets=DATA.tilesets)


def test_the_saved_campaign_keeps_its_fields_in_the_files_order():
    assert list(Campaign.model_fields) == SAVED_ORDER
    assert list(CampaignCore.model_fields) == SAVED_ORDER[:6]  # the game's core comes first
    assert list(json.loads(Campaign().model_dump_json())) == SAVED_ORDER
    assert CAMPAIGN_PARTS is campaign_parts(Campaign)  # the store and every game cut a campaign alike
    assert CAMPAIGN_PARTS.books == ("dungeons",)
    assert CAMPAIGN_PARTS.sequences == ("dice_history",)


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("campaign-v*.json")))
def test_existing_campaign_files_load_and_save_byte_for_byte(name):
    from d100gui.storage.campaigns import campaign_json, load_campaign

    campaign = load_campaign(FIXTURES / name)
    text = campaign_json(campaign)
    assert campaign_json(Campaign.model_validate_json(text)) == text
    demo = DEMO.model_dump_json()
    assert Campaign.model_validate_json(demo).model_dump_json() == demo


@pytest.mark.slow  # a fresh interpreter: left out of `make check` (the fast lane); `make test` runs it
def test_the_game_module_imports_no_feature():
    code = "import sys, d100gui.engine.game; print('\\n'.join(m for m in sys.modules if m.startswith('d100gui.')))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    features = ("adventure", "combat", "dungeon", "effects", "hero", "magic", "quest", "toolbox", "town")
    above = ("campaign", "referee", "gate", "checks", "commands", "flow", "api")
    assert "d100gui.engine.game" in loaded
    assert not {m for m in loaded if m.count(".") >= 2 and m.split(".")[2] in features + above}
