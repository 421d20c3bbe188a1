"""A spell's cost and a curse or boost outside a fight change a characteristic with its typed ``characteristic``
event, so the statistics' sheet and the chronicle's start-to-end table follow them (issue 24). Scripted dice."""

from __future__ import annotations

from d100gui.engine import Session, creation_steps
from d100gui.engine.chronicle import SheetChange
from d100gui.storage.resources import bundled_game_data


def caster_in_a_quest() -> Session:
    """A hero with STR 30 and INT 50 (a spell caster) who knows Heal (cost -1 STR), on a quest just begun."""
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 30, "DEX": 40, "INT": 50}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    session.run({"kind": "learn_spell", "spell": "Heal"})
    session.run({"kind": "begin_quest"})
    return session


def primary(session: Session, stat: str) -> int:
    return session.game.campaign.character.characteristics[stat].primary  # type: ignore[union-attr]


def sheet_row(session: Session, key: str) -> SheetChange:
    [quest] = session.chronicles()
    return next(change for change in quest.sheet if change.key == key)


def characteristic_events(session: Session) -> list[dict[str, object]]:
    return [e.data for e in session.game.campaign.log[-1].events if e.kind == "characteristic"]


def test_a_failed_cast_into_clueless_and_the_spells_cost_reach_the_statistics_and_the_chronicle() -> None:
    session = caster_in_a_quest()
    assert session.statistics()["campaign"]["now"]["INT"] == 50
    session.script_dice([9, 9, 0, 5])  # CAST SPELL 99 > 50: it fails; Table C 05: CLUELESS (-4 INT)
    session.run({"kind": "cast_spell", "index": 0})
    assert (primary(session, "STR"), primary(session, "INT")) == (29, 46), "Heal costs 1 STR, Clueless takes 4 INT"
    assert characteristic_events(session) == [{"stat": "STR", "primary": 29}, {"stat": "INT", "primary": 46}]
    now = session.statistics()["campaign"]["now"]
    assert (now["STR"], now["INT"]) == (29, 46)
    assert (sheet_row(session, "INT").before, sheet_row(session, "INT").after) == (50, 46)
    assert sheet_row(session, "STR").delta == -1
    assert session.chronicle(0).sheet == session.chronicles()[0].sheet

    session.undo()
    now = session.statistics()["campaign"]["now"]
    assert (now["STR"], now["INT"]) == (30, 50), "undo takes the cost and the curse back"
    assert sheet_row(session, "INT").delta == 0 and sheet_row(session, "STR").delta == 0


def test_a_successful_cast_tells_only_its_cost() -> None:
    session = caster_in_a_quest()
    session.script_dice([1, 0])  # CAST SPELL 10 <= 50: Heal works
    session.run({"kind": "cast_spell", "index": 0})
    assert characteristic_events(session) == [{"stat": "STR", "primary": 29}]
    assert session.statistics()["campaign"]["now"]["STR"] == 29
    assert sheet_row(session, "STR").after == 29


def test_a_curse_rolled_outside_a_fight_is_followed_by_the_statistics() -> None:
    session = caster_in_a_quest()
    session.script_dice([0, 5])  # Table C 05: CLUELESS
    session.run({"kind": "roll_curse"})
    assert characteristic_events(session) == [{"stat": "INT", "primary": 46}]
    assert session.statistics()["campaign"]["now"]["INT"] == 46
    assert sheet_row(session, "INT").after == 46
    session.undo()
    assert session.statistics()["campaign"]["now"]["INT"] == 50


def test_a_curse_on_another_figure_emits_no_characteristic_event() -> None:
    session = caster_in_a_quest()
    session.script_dice([0, 3])  # Table C 03: LASTING ILLNESS (-4 primary HP), no characteristic
    session.run({"kind": "roll_curse"})
    assert [e.kind for e in session.game.campaign.log[-1].events if e.kind == "magic_curse"] == ["magic_curse"]
    assert characteristic_events(session) == []
    assert (primary(session, "STR"), primary(session, "DEX"), primary(session, "INT")) == (30, 40, 50)


def test_a_full_experience_track_raises_the_characteristic_in_the_statistics() -> None:
    session = caster_in_a_quest()
    session.run({"kind": "set_track_pips", "track": "experience", "target": "INT", "value": 9})
    session.script_dice([0, 5])  # CAST SPELL natural 5 <= 50: Heal works, and earns experience
    session.run({"kind": "cast_spell", "index": 0})
    [xp] = [d for d in session.pending if d.decision == "experience"]
    session.run({"kind": "assign_experience", "decision": xp.id, "choice": "characteristic"})
    assert primary(session, "INT") == 55, "the tenth pip fills INT's track: +5"
    assert characteristic_events(session) == [{"stat": "INT", "primary": 55}]
    assert session.statistics()["campaign"]["now"]["INT"] == 55
    assert sheet_row(session, "INT").after == 55
    session.undo()
    assert session.statistics()["campaign"]["now"]["INT"] == 50


def test_a_hand_set_full_experience_track_is_followed_too() -> None:
    session = caster_in_a_quest()
    session.run({"kind": "set_track_pips", "track": "experience", "target": "STR", "value": 10})
    assert primary(session, "STR") == 35
    assert characteristic_events(session) == [{"stat": "STR", "primary": 35}]
    assert session.statistics()["campaign"]["now"]["STR"] == 35
