"""A quest's chronicle (issue 24, deliver 3): scripted campaigns with known answers, and its HTML."""

from __future__ import annotations

import re
from typing import Any

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine import Session, creation_steps
from d100gui.engine.chronicle import ChronicleReader, chronicles_of
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.tables import Row
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.fallen import death_in, how
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.engine.stats import statistics_of
from d100gui.storage.chronicle_html import MapImage, render_campaign, render_quest
from d100gui.storage.resources import bundled_game_data

HOSTILE = '<script>alert("x")</script><img src="http://evil.example/x.png">'


def ev(kind: str, **data: Any) -> Event:
    """A declared event with its payload (validated against its declaration)."""
    return Event(kind=kind, topic=EVENT_KINDS[kind].topic, data=data)


def log_of(*actions: list[Event], command: str = "scripted") -> list[LogEntry]:
    return [LogEntry(index=i, command={"kind": command}, events=events) for i, events in enumerate(actions)]


def table_roll(title: str, face: int, **fields: str) -> dict[str, Any]:
    roll = Dice(ScriptedSource([face])).roll("d10")
    row = Row(range=(face, face), fields=fields, text=f"row {face}")
    return TableRoll(table_id="t", table_title=title, roll=roll, row=row).model_dump(mode="json")


def scripted_quest() -> list[LogEntry]:
    """One quest: entering, two turns, a fight with loot, a search, a trap test, triggers; then a second quest."""
    ogre = {"name": "Ogre", "av": 40, "hp": [5]}
    return log_of(
        [ev("characteristics", scores={"STR": 50, "DEX": 40, "INT": 30}), ev("finishing", hp=20, fate=3, lives=3)],
        [ev("rep", rep=1, before=0)],
        [ev("quest_begun", name="The Crypt", objective="Find the idol", encounter_modifier=-10)],
        [ev("area_resolved", pos="7,10", colour="Y", outcome="proceed")],
        [
            ev("time_advanced", clocks=1, shaded=1, on_track=1, total=1, clocks_left=9),
            ev("turn_moved", number=1, side="N", pos="7,9", colour="R", placed=True),
            ev("area_resolved", pos="7,9", colour="R", outcome="encounter"),
            ev("combat_started", monster=ogre),
            ev("test_settled", success=True, name="ATTACK", natural=12, target=50),  # a fight's own test
            ev("combat_hero_hp", delta=-4, hp=16),
        ],
        [
            ev("combat_loot", item="Ogre TEETH"),
            ev("combat_over", outcome="won", rounds=3, hp_lost=4),
            ev("experience", track="STR"),
        ],
        [
            ev("area_searched", pos="7,9", colour="R", bonus=0, table_roll=table_roll("Table F - Find", 7, effect="+5 gp")),
            ev("gp", delta=5),
        ],
        [
            ev("turn_ended", number=1),
            ev("oil_burned", clock=2, spent=True, oil=9, in_darkness=False),
            ev(
                "wandering_checked",
                clock=2,
                number=3,
                roll=Dice(ScriptedSource([2])).roll("d10").model_dump(mode="json"),
                appeared=False,
            ),
            ev("turn_moved", number=2, side="E", pos="8,9", colour="G", placed=True),
            ev("area_resolved", pos="8,9", colour="G", outcome="geographic"),
        ],
        [ev("test_settled", success=False, name="PENDULUM TRAP", natural=86, target=35), ev("hp", delta=-2, hp=14)],
        [ev("food_eaten", clock=3, spent=False, food=0, hp_lost=1, hp=13)],
        [ev("quest_completed", name="The Crypt", reward="+30 GP"), ev("gp", delta=30), ev("rep", rep=2, before=1)],
        [ev("town_begun", step="healer", gp=35)],
        [ev("quest_begun", name="The Pit")],
    )


def test_a_scripted_quest_chronicle_has_each_part_with_its_figures() -> None:
    first, second = chronicles_of(scripted_quest())
    assert (first.index, first.number, first.name, first.outcome, first.outcome_text) == (
        0,
        1,
        "The Crypt",
        "success",
        "completed",
    )
    assert (first.objective, first.encounter_modifier, first.reward) == ("Find the idol", -10, "+30 GP")
    assert (first.first_entry, first.last_entry) == (2, 10)
    assert [t.number for t in first.turns] == [0, 1, 2]
    assert [(a.pos, a.colour, a.placed, a.outcome, a.searched) for a in first.turns[1].areas] == [
        ("7,9", "R", True, "encounter", True)
    ]
    assert first.turns[0].areas[0].outcome == "proceed" and first.turns[2].areas[0].colour == "G"
    [fight] = first.fights
    assert (fight.monster, fight.outcome, fight.rounds, fight.hp_lost, fight.loot, fight.turn, fight.area) == (
        "Ogre",
        "won",
        3,
        4,
        ("Ogre TEETH",),
        1,
        "7,9",
    )
    [find] = first.finds
    assert (find.source, find.table, find.roll, find.effect, find.turn, find.area) == (
        "search",
        "Table F - Find",
        7,
        "+5 gp",
        1,
        "7,9",
    )
    [test] = first.tests  # the fight's ATTACK is the fight's, not a test of the quest
    assert (test.name, test.target, test.natural, test.success, test.turn, test.area) == (
        "PENDULUM TRAP",
        35,
        86,
        False,
        2,
        "8,9",
    )
    assert [(t.kind, t.clock, t.turn) for t in first.triggers] == [("oil", 2, 2), ("wandering", 2, 2), ("food", 3, 2)]
    assert first.triggers[0].detail["oil"] == 9 and first.triggers[2].detail["hp_lost"] == 1
    sheet = {c.key: (c.before, c.after, c.delta) for c in first.sheet}
    assert (
        sheet["hp"] == (20, 13, -7) and sheet["gp"] == (0, 35, 35) and sheet["rep"] == (1, 2, 1) and sheet["STR"] == (50, 50, 0)
    )
    assert first.experience == {"STR": 1} and (first.fate_spent, first.lives_spent) == (0, 0)
    assert [c.label for c in first.sheet][:5] == ["HP", "Gold", "REP", "Fate", "Lives"], "the paper sheet's top figures"
    assert sheet["fate"][2] == 0 and sheet["lives"][2] == 0 and None not in sheet["fate"] + sheet["lives"]
    assert first.figures["hp_lost"] == 7 and first.figures["fights_won"] == 1, "the statistics' own figures of the attempt"
    assert first.dungeon == 0 and second.dungeon == 1, "each quest begun takes a fresh mapping sheet"
    assert (second.name, second.outcome, second.turns[0].number) == ("The Pit", "in_progress", 0)
    assert second.sheet[1].before == 35, "the second quest starts with the sheet the town left"


def test_a_death_names_its_cause_and_the_fight() -> None:
    log = log_of(
        [ev("finishing", hp=5, fate=0, lives=0)],
        [ev("quest_begun", name="The Pit")],
        [ev("combat_started", monster={"name": "Dragon", "av": 90, "hp": [30]}), ev("combat_hero_hp", delta=-5, hp=0)],
        [ev("hero_died", reason="burnt by the Dragon")],
    )
    [pit] = chronicles_of(log)
    assert (pit.outcome, pit.death) == ("died", "burnt by the Dragon, fighting Dragon")
    death = death_in(log)
    assert death is not None and how(death) == pit.death, "the hall of the fallen's words"
    [counted] = statistics_of(log)["campaign"]["deaths"]
    assert (counted["cause"], counted["foe"]) == (pit.death, "Dragon"), "the statistics (the roster's query) agree"
    assert [(f.monster, f.outcome) for f in pit.fights] == [("Dragon", "died")]


def test_new_dungeon_sheets_before_a_quest_count_toward_its_sheet() -> None:
    log = [
        LogEntry(index=0, command={"kind": "new_dungeon"}, events=[]),
        LogEntry(index=1, command={"kind": "begin_quest"}, events=[ev("quest_begun", name="Q")]),
    ]
    assert chronicles_of(log)[0].dungeon == 1


def test_the_reader_folds_one_entry_at_a_time_like_the_whole_log() -> None:
    log = scripted_quest()
    reader = ChronicleReader()
    for entry in log:
        reader.fold(entry)
        reader.fold(entry)  # the same entry twice counts once
    assert reader.chronicles() == chronicles_of(log)
    with pytest.raises(IndexError):
        reader.chronicle(2)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_demo_quest_chronicle_names_its_sheet() -> None:
    data = bundled_game_data()
    session = Session(data, build_demo_campaign(data.library, data.tilesets, data.rules), policy="reroll")
    [quest] = session.chronicles()
    dungeon = session.campaign.dungeons.dungeons[quest.dungeon or 0]
    assert dungeon.quest == quest.name == "Dungeon Training 1"
    assert quest.figures["areas_mapped"] == sum(a.placed for t in quest.turns for a in t.areas) == 5
    assert len(quest.fights) == 5 and quest.fights[0].loot == ("Giant Bats EARS",)
    assert session.chronicle(0) == quest


def test_session_chronicles_follow_play_and_undo() -> None:
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    assert session.chronicles() == []
    session.run({"kind": "begin_quest"})
    session.run({"kind": "turn_enter"})
    [quest] = session.chronicles()
    assert quest.outcome == "in_progress" and [t.number for t in quest.turns] == [0]
    assert session.campaign.dungeons.dungeons[quest.dungeon or 0].quest == quest.name
    session.undo()
    session.undo()
    assert session.chronicles() == [], "an undone quest leaves the chronicle"


# ---------------------------------------------------------------- the HTML


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def test_the_page_escapes_the_players_text_and_is_self_contained() -> None:
    log = scripted_quest()
    log[2] = LogEntry(index=2, command={"kind": "scripted"}, events=[ev("quest_begun", name=HOSTILE)])
    first = chronicles_of(log)[0]
    html = render_quest(first, HOSTILE, MapImage(PNG, 800, 400))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'src="http' not in html
    srcs = re.findall(r'src="([^"]*)"', html)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs), "every image inline"
    assert not re.search(r"(?:href|src)=\"(?:https?|file):", html), "no link leaves the page"
    assert "<style>" in html and "<link" not in html, "the style inside the page"
    assert 'width="640" height="320"' in html, "a wide map is shown scaled to the page"


def test_the_quest_page_shows_each_part() -> None:
    first = chronicles_of(scripted_quest())[0]
    html = render_quest(first, "Brana")
    for text in (
        "The Crypt",
        "Ogre",
        "Ogre TEETH",
        "Table F - Find: 7",
        "PENDULUM TRAP",
        "Oil: a flask burned (9 left)",
        "Food: none left - 1 HP lost",
    ):
        assert text in html, text
    assert "No map sheet is kept" in html


def test_the_whole_campaign_has_a_contents_entry_per_quest() -> None:
    chronicles = chronicles_of(scripted_quest())
    html = render_campaign(chronicles, "Brana", {0: MapImage(PNG, 100, 50)})
    links = re.findall(r'<a href="#(quest-\d+)">', html)
    assert links == ["quest-1", "quest-2"]
    for anchor in links:
        assert f'id="{anchor}"' in html and f'name="{anchor}"' in html
    assert html.count("data:image/png;base64,") == 1


def test_a_ration_eaten_leaves_the_heros_hp() -> None:
    """A ration eaten carries the payload's default ``hp`` 0: the statistics (and the chronicle's sheet) keep the HP."""
    log = log_of(
        [ev("finishing", hp=18, fate=3, lives=3)],
        [ev("quest_begun", name="Q")],
        [ev("food_eaten", clock=3, spent=True, food=4)],
    )
    [quest] = chronicles_of(log)
    assert quest.sheet[0].after == 18 and quest.triggers[0].kind == "food" and quest.triggers[0].detail["spent"]
