"""The campaign as it is saved: the game's core fields and every feature's part, composed above the features.

:class:`~d100gui.engine.game.Game` runs on the core (:class:`~d100gui.engine.game.CampaignCore`:
the log, the random state, the dice history) and knows no feature; this module stands above the
features (and above the referee) and puts the campaign together: each feature's state as a field,
in the order the file has always had them (the core's fields first), and the referee of its
commands (:data:`d100gui.engine.referee.REFEREE`). Because a game takes its referee from its
campaign's class, no game can be built that runs commands unrefereed.

Feature modules name :class:`Campaign` in annotations only (``if TYPE_CHECKING``): they stand below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import Field

from d100gui.engine.combat.monster import CombatState, EscapedMonster
from d100gui.engine.dungeon.map import DungeonBook
from d100gui.engine.game import CampaignCore, Referee, ShortText, campaign_parts
from d100gui.engine.hero.decisions import PendingDecision
from d100gui.engine.hero.model import Character
from d100gui.engine.quest.model import AdventureState
from d100gui.engine.referee import REFEREE
from d100gui.engine.toolbox.state import ToolboxState
from d100gui.engine.town.model import TownState

__all__ = ["CAMPAIGN_PARTS", "Campaign"]


class Campaign(CampaignCore):
    """Everything that is saved: the core (the log, the random state, the dice history), then each feature's part."""

    dungeons: DungeonBook = Field(default_factory=DungeonBook)
    tileset: ShortText = "standard"  # the Table M tile set this campaign rolls on
    character: Character | None = None
    pending: list[PendingDecision] = Field(default_factory=list)  # decisions waiting for the player
    decision_serial: int = Field(default=0, ge=0, le=10**9)  # the last pending-decision id handed out (d1, d2, ...)
    hall_of_fallen: list[Character] = Field(default_factory=list)
    combat: CombatState | None = None  # the fight in progress (combat.py)
    escaped_monsters: list[EscapedMonster] = Field(default_factory=list)  # for the map's escaped-monster marker
    shield_half_pip: ShortText = ""  # the shield (by name) carrying a half-shaded repair pip from shield offsets
    adventure: AdventureState = Field(default_factory=AdventureState)  # the quest, its choices, fights offered
    toolbox: ToolboxState = Field(default_factory=ToolboxState)  # the classic-rules tools' clocks and trackers
    town: TownState = Field(default_factory=TownState)  # the before-next-quest phase: its step and totals

    #: the D100 rules referee every command of a campaign (the gate, the Fate windows, the hero's ranges)
    referee: ClassVar[Referee | None] = REFEREE
    #: the dungeons change one dungeon at a time: the journal and the store keep each dungeon's JSON apart
    journal_books: ClassVar[Mapping[str, str]] = {"dungeons": "dungeons"}


#: how the journal and the campaign store cut a campaign into parts (the log is kept apart)
CAMPAIGN_PARTS = campaign_parts(Campaign)
