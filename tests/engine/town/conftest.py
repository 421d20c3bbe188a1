"""Town tests run with undeclared events refused, and with ``Campaign.town`` in the undo journal."""

from __future__ import annotations

import pytest
from town_support import TOWN_PARTS, TownCampaign

from d100gui.engine import game as game_module
from d100gui.engine.protocol import require_declared, requires_declared


@pytest.fixture(autouse=True)
def _declared_events_only():
    before = requires_declared()
    require_declared(True)
    yield
    require_declared(before)


@pytest.fixture(autouse=True)
def _town_in_the_journal(monkeypatch):
    """Until the lead adds ``town`` to :class:`Campaign`, the journal learns the test campaign's parts
    (``Game.execute`` orders the parts by ``Campaign.model_fields``, so it sees the test subclass too)."""
    if "town" not in game_module.Campaign.model_fields:
        monkeypatch.setattr(game_module, "CAMPAIGN_PARTS", TOWN_PARTS)
        monkeypatch.setattr(game_module, "Campaign", TownCampaign)
