"""The bridge's flow cache (issue 18, performance): the flow is worked out at most once per campaign state, and
worked out again after every change: a new command, undo, redo, another campaign shown (a reopened one),
the player's tables changed. A refused command changes nothing, so the flow stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.hero.model import new_character
from d100gui.storage.resources import bundled_game_data, bundled_rules
from d100gui.storage.store import CampaignStore
from d100gui.ui.common.bridge import EngineBridge

pytestmark = pytest.mark.gui


def _session() -> Session:
    ch = new_character(bundled_rules())
    ch.creation, ch.name = None, "Aria"
    ch.hp_primary = ch.hp = 20
    return Session(bundled_game_data(), Campaign(character=ch), policy="reroll")


def _set_hp(bridge: EngineBridge, hp: int) -> bool:
    return bridge.send(bridge.game.parse_command({"kind": "set_sheet_field", "field": "hp", "value": hp}))


def _hp(bridge: EngineBridge) -> int:
    status = bridge.flow().status
    assert status is not None
    return status.hp


@pytest.fixture
def bridge(qapp) -> EngineBridge:  # type: ignore[no-untyped-def]
    return EngineBridge(_session().game)


def test_asked_again_without_a_change_it_is_the_same_flow(bridge: EngineBridge) -> None:
    first = bridge.flow()
    assert bridge.flow() is first and bridge.flow_computed == 1


def test_a_new_command_undo_and_redo_each_work_it_out_again(bridge: EngineBridge) -> None:
    assert _hp(bridge) == 20
    assert _set_hp(bridge, 12)
    assert _hp(bridge) == 12 and bridge.flow_computed == 2
    assert bridge.undo()
    assert _hp(bridge) == 20 and bridge.flow_computed == 3
    assert bridge.redo()
    assert _hp(bridge) == 12 and bridge.flow_computed == 4
    assert bridge.flow() is bridge.flow() and bridge.flow_computed == 4


def test_a_refused_command_keeps_the_flow(bridge: EngineBridge) -> None:
    first = bridge.flow()
    assert not _set_hp(bridge, -5)  # out of the rules' range: refused, nothing changed
    assert bridge.flow() is first


def test_the_players_tables_changed_work_it_out_again(bridge: EngineBridge) -> None:
    first = bridge.flow()
    bridge.tables_changed.emit()
    assert bridge.flow() is not first and bridge.flow_computed == 2


def test_a_reopened_campaign_is_worked_out_from_its_own_state(bridge: EngineBridge, tmp_path: Path) -> None:
    assert _set_hp(bridge, 9)
    assert _hp(bridge) == 9
    path = tmp_path / "aria.d100"
    CampaignStore.create(path, bridge.game.campaign, bridge.game).close()
    assert _set_hp(bridge, 15)  # the game shown moves on; the file keeps HP 9
    shown = bridge.flow()
    store = CampaignStore.open(path)
    try:
        reopened = Session(bundled_game_data(), store.load(), policy="reroll")
    finally:
        store.close()
    bridge.set_game(reopened.game)
    assert bridge.flow() is not shown and _hp(bridge) == 9
