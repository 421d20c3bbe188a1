"""A quest's chronicle lists the spells cast and learned, the curses, the items gained, lost or used, and a fight's
own tests (issue 24): read by event kind and payload, never by an event's sentence. Scripted dice and scripted logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from d100gui.engine import Session, creation_steps
from d100gui.engine.chronicle import ChronicleReader, chronicles_of
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.game import LogEntry
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.storage.chronicle_html import render_quest, turn_notes
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore


def ev(kind: str, **data: Any) -> Event:
    """A declared event with its payload (validated against its declaration)."""
    return Event(kind=kind, topic=EVENT_KINDS[kind].topic, data=data)


def roll_of(*faces: int) -> dict[str, Any]:
    return Dice(ScriptedSource(list(faces))).roll("d100").model_dump(mode="json")


def caster_in_a_quest() -> Session:
    """A hero with INT 50 (a spell caster) who knows Heal, on a quest just begun."""
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 30, "DEX": 40, "INT": 50}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    session.run({"kind": "learn_spell", "spell": "Heal"})  # before the quest: not the quest's
    session.run({"kind": "begin_quest"})
    return session


def test_a_quests_spells_curses_and_items_come_from_the_commands_played() -> None:
    session = caster_in_a_quest()
    session.script_dice([1, 0])  # CAST SPELL 10 <= 50: it works
    session.run({"kind": "cast_spell", "index": 0})
    session.script_dice([9, 9, 0, 5])  # CAST SPELL 99 > 50: it fails; Table C 05: CLUELESS
    session.run({"kind": "cast_spell", "index": 0})
    session.run({"kind": "add_item", "item": {"name": "Rope"}, "to": "backpack"})
    session.run({"kind": "discard_item", "where": "backpack", "index": 0})
    [quest] = session.chronicles()
    assert [(s.spell, s.how, s.success) for s in quest.spells] == [("Heal", "book", True), ("Heal", "book", False)]
    [curse] = quest.curses
    assert (curse.curse, curse.roll, curse.destroyed, curse.in_fight) == ("Clueless", 5, (), False)
    assert [(i.item, i.change, i.how, i.where) for i in quest.items] == [
        ("Rope", "gained", "added", "backpack"),
        ("Rope", "lost", "discarded", "backpack"),
    ]
    notes = turn_notes(quest)[0]
    assert notes == [
        "Spell: Heal cast from the spell book: it worked.",
        "Spell: Heal cast from the spell book: it failed.",
        "Curse: Clueless (Table C: 5).",
        "Item: Rope (backpack): written on the sheet.",
        "Item: Rope (backpack): rubbed off the sheet.",
    ]
    html = render_quest(quest, "Brana")
    assert "Spells and curses" in html and "Heal cast from the spell book: it failed." in html
    assert "Items gained and lost" in html and "Rope (backpack): written on the sheet." in html
    session.undo()
    session.undo()
    assert session.chronicles()[0].items == (), "undone items leave the chronicle"


def fight_log() -> list[LogEntry]:
    """A quest with a fight: its SURPRISE and attack tests, a spell that works and one that fails into a curse
    destroying an item, a belt item used, a Belt Check; then a Belt Check outside the fight and a quiet one."""
    ogre = {"name": "Ogre", "av": 40, "hp": [5]}
    table_c = {
        "table_id": "d100.C",
        "table_title": "Table C - Curses",
        "roll": roll_of(4, 2),
        "row": {"range": [41, 45], "fields": {"name": "ARCANE", "effect": "An item is destroyed."}, "text": ""},
    }
    actions = [
        [ev("quest_begun", name="The Crypt")],
        [ev("turn_moved", number=1, side="N", pos="7,9", colour="R", placed=True), ev("combat_started", monster=ogre)],
        [ev("combat_test", decision="d1", test="SURPRISE", target=45, roll=roll_of(3, 0), success=True)],
        [
            ev("combat_cast", spell="Fire Ball", stage="cast"),
            ev("combat_test", decision="d2", test="CAST", target=50, roll=roll_of(2, 2), success=True),
            ev("combat_cast", spell="Fire Ball", stage="queued"),
        ],
        [
            ev("combat_cast", spell="Ice Storm", stage="cast"),
            ev("combat_cast", spell="Ice Storm", stage="failed"),
            ev("combat_curse", table_roll=table_c),
            ev("combat_item_destroyed", item="Lantern"),
        ],
        [ev("combat_belt", item="Healing Potion", belt_slot=2), ev("combat_belt_check", roll=3, where="belt 3", item="Rope")],
        [ev("combat_belt_check", roll=7, where="belt 7", item="")],  # an empty place: nothing lost
        [ev("test_settled", success=True, name="ATTACK", natural=12, target=50)],  # a fight's own, not the quest's
        [ev("combat_over", outcome="won", rounds=2, hp_lost=0)],
        [ev("belt_check", roll=roll_of(0, 4), destroyed="Bandage")],
        [ev("belt_check", roll=roll_of(0, 6), destroyed="")],
    ]
    return [LogEntry(index=i, command={"kind": "scripted"}, events=e) for i, e in enumerate(actions)]


def test_a_fight_lists_its_own_tests_and_its_spells_curses_and_items() -> None:
    [quest] = chronicles_of(fight_log())
    [fight] = quest.fights
    assert [(t.name, t.target, t.natural, t.success) for t in fight.tests] == [
        ("SURPRISE", 45, 30, True),
        ("CAST", 50, 22, True),
    ]
    assert quest.tests == (), "a fight's tests are the fight's"
    assert [(s.spell, s.how, s.success, s.entry) for s in quest.spells] == [
        ("Fire Ball", "fight", True, 3),
        ("Ice Storm", "fight", False, 4),
    ]
    [curse] = quest.curses
    assert (curse.curse, curse.roll, curse.in_fight, curse.turn, curse.area) == ("ARCANE", 42, True, 1, "7,9")
    assert [(i.item, i.change, i.how) for i in quest.items] == [
        ("Lantern", "lost", "destroyed"),
        ("Healing Potion", "used", "belt"),
        ("Rope", "lost", "belt_check"),
        ("Bandage", "lost", "belt_check"),
    ]
    html = render_quest(quest, "Brana")
    assert "SURPRISE 30 vs 45, passed" in html and "Fire Ball cast in a fight: it worked." in html
    assert "Curse: ARCANE (Table C: 42)." in html and "Lantern: destroyed." in html


def test_a_fight_still_under_way_keeps_its_tests() -> None:
    [quest] = chronicles_of(fight_log()[:3])
    [fight] = quest.fights
    assert fight.outcome == "in_progress" and [t.name for t in fight.tests] == ["SURPRISE"]


def test_the_stores_sql_read_gives_the_same_spells_curses_and_items(tmp_path: Path) -> None:
    session = caster_in_a_quest()
    session.script_dice([9, 9, 0, 5])  # a failed cast and its curse
    session.run({"kind": "cast_spell", "index": 0})
    session.run({"kind": "add_item", "item": {"name": "Rope"}, "to": "backpack"})
    path = tmp_path / "caster.d100"
    CampaignStore.create(path, session.campaign).close()
    whole = chronicles_of(session.log)
    assert whole[0].spells and whole[0].curses and whole[0].items
    with CampaignStore.open(path) as store:
        reader = ChronicleReader()
        assert store.fold_chronicle(reader, store.log_length)
        assert reader.chronicles() == whole
