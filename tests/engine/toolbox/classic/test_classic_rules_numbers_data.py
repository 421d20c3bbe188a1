"""Deliver 2 of issue 22, the last numbers in code: healing's day and hit point, a special purpose's top
Intelligence and Egoism and the row that reads magic, the surprise die, the attack distance, the circle of 3,
the half day of rest per pursuit hex and the chase die, a map's guardians' levels, and the sword's control gap.
Each is read from the data (classic-procedures.json, or the intelligence table the tool already reads): a
changed value changes the result, the shipped value is the text's (its line quoted beside it), and without the
row the text's number is used."""

from __future__ import annotations

from pathlib import Path

import pytest
from classic_script import pct
from test_classic_commands import make
from test_classic_rules_numbers import _edited, _without

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import CampaignMeta, Game
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.toolbox import classic_commands as cc
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox.classic import evasion as cev
from d100gui.engine.toolbox.classic import healing as chl
from d100gui.engine.toolbox.classic import magic as cm
from d100gui.engine.toolbox.classic import swords as csw
from d100gui.engine.toolbox.classic.items import item_save
from d100gui.engine.toolbox.classic.meeting import RULES_TABLE, MeetingNumbers, meet, meeting_numbers
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, rule_text
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.storage.resources import bundled_rules, resource_dir, standard_tilesets

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "classic-underworld-and-wilderness.txt"


def _roller(library: TableLibrary, *faces: int) -> tuple[TableRoller, ScriptedSource]:
    source = ScriptedSource(list(faces))
    return TableRoller(library, Dice(source), MissingRowPolicy.ASK), source


def _game(library: TableLibrary, seed: int | None = None) -> Game:
    campaign = Campaign(meta=CampaignMeta(seed=seed)) if seed is not None else Campaign()
    return Game(campaign, library, TOOLBOX_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())


def _flat_text() -> str:
    path = Path(RULE_TEXT).resolve()
    if not path.exists():
        pytest.skip("the rule texts are not next to this checkout")
    return " ".join(path.read_text(encoding="utf-8").split()).lower()


# --------------------------------------------------------------------------- pinned against the text


@pytest.mark.parametrize(
    ("table_id", "key", "value", "words"),
    [
        ("classic.healing", "Days of rest before healing", "1", "on the first day of complete rest no hp will be regained"),
        ("classic.healing", "HP regained every other day", "1 HP", "every other day thereafter 1 hp will be regained"),
        (RULES_TABLE, "Surprise die", "d6", "roll a d6 for each party concerned"),
        (RULES_TABLE, "Monsters circle a surprised party: wilderness", "3 or more", "if there are 3 or more monsters"),
        (RULES_TABLE, "Attack distance: wilderness", "10 yards", "monsters at 10 yards distance will be able to attack"),
        (RULES_TABLE, "Attack distance: underworld", "10 feet", "distance between them was but 10 feet"),
        (cev.PURSUIT_TABLE, "Rest per hex of pursuit", "1/2 day", "a party must spend one-half day resting"),
        (ITEM_RULES_TABLE, "A map's guardians", "5th or 6th level", "5th or 6th level monster clauses"),
        (ITEM_RULES_TABLE, "A sword controls its taker", "6 or more points above", "is 6 or more points above that"),
        (ITEM_RULES_TABLE, "Special purpose: Intelligence and Ego", "the maximum score", "moved to the maximum score"),
        (ITEM_RULES_TABLE, "Egoism per extraordinary ability", "1", "adds an extra 1 for every extraordinary ability"),
        ("classic.wilderness_rules", "Orc upkeep, of a man's", "1/2", "orc support and upkeep is only 1/2 that of a man"),
        ("classic.air_sea", "Bomb lands: left or right", "1-2", "lands 1, 2 it is left || right;"),
        ("classic.air_sea", "Bomb lands: left or right, and short or long", "3-4", "3, 4 it is left || right and short || long;"),
        ("classic.air_sea", "Bomb lands: short or long", "5-6", "and 5, 6 it is short || long."),
    ],
)
def test_each_shipped_number_is_the_text_s_with_its_line_quoted(bundled_library, table_id, key, value, words):
    flat = _flat_text()
    assert rule_text(bundled_library, table_id, key) == value
    rule = bundled_library.get(table_id).find_key(key)
    assert rule is not None and words in rule.fields["rule"].lower() and words in flat


def test_the_intelligence_table_s_top_and_its_reads_magic_row_are_the_text_s(bundled_library):
    flat = _flat_text()
    assert csw.intelligence_top(bundled_library) == 12 and csw.egoism_top(bundled_library) == 12
    assert csw.reads_magic_from(bundled_library) == 11
    assert "11 as 10 above but also reads magic speech" in flat and "egoism ranges from 1-12" in flat


# --------------------------------------------------------------------------- healing


def test_healing_reads_its_day_and_its_hit_point_from_the_table(bundled_library):
    assert chl.healing_numbers(bundled_library) == (1, 1)
    assert chl.heal_by_rest(10, 7, chl.healing_numbers(bundled_library)).regained == 3  # days 3, 5, 7
    mine = _edited(bundled_library, chl.HEALING_TABLE, {"HP regained every other day": "2 HP"})
    assert chl.heal_by_rest(10, 7, chl.healing_numbers(mine)).regained == 6
    assert chl.heal_by_rest(5, 0, chl.healing_numbers(mine)).days_to_heal == 1 + 2 * 3  # 2, 2 and the last 1
    slow = _edited(bundled_library, chl.HEALING_TABLE, {"Days of rest before healing": "3"})
    assert chl.heal_by_rest(10, 7, chl.healing_numbers(slow)).regained == 2  # days 5 and 7
    assert chl.healing_numbers(_without(bundled_library, chl.HEALING_TABLE)) == (1, 1)


def test_the_healing_command_uses_the_player_s_table(bundled_library):
    [shipped] = make(bundled_library).execute(cc.ClassicHealing(hp_missing=10, days=7))
    assert "3 of 10 HP back" in shipped.message
    mine = _edited(bundled_library, chl.HEALING_TABLE, {"HP regained every other day": "2 HP"})
    [edited] = _game(mine).execute(cc.ClassicHealing(hp_missing=10, days=7))
    assert "6 of 10 HP back" in edited.message


# --------------------------------------------------------------------------- swords


def _purpose_script() -> list[int]:
    """Sword +1, Lawful, Intelligence 3 (nothing), special purpose 91 (Slay Magic-Users... by the d6 5), the top
    row's three primary powers, one language and the extraordinary ability (as test_classic_sword_purpose)."""
    return [*pct(1, 10), 3, *pct(91), 5, *pct(1, 16, 31), *pct(1), *pct(1)]


def test_a_special_purpose_moves_to_the_tables_tops(bundled_library):
    roller, source = _roller(bundled_library, *_purpose_script())
    sword = csw.complete_sword(roller)
    assert source.remaining == 0 and sword.intelligence_score == 12 and sword.egoism_score == 12 and sword.reads_magic
    low_ego = _edited(bundled_library, ITEM_RULES_TABLE, {"A sword's Egoism": "1-10"})
    roller, _ = _roller(low_ego, *_purpose_script())
    assert csw.complete_sword(roller).egoism_score == 10


def test_reads_magic_follows_the_intelligence_table_s_printed_row(bundled_library):
    table = bundled_library.get(csw.INTELLIGENCE_TABLE)
    moved = [
        r.model_copy(update={"fields": {**r.fields, "mental": r.fields["mental"] + " and Reads Magic"}})
        if r.range == (10, 10)
        else r
        for r in table.rows
    ]
    mine = TableLibrary([Pack(id="mine", title="mine", tables=[
        table.model_copy(update={"rows": moved}) if t.id == csw.INTELLIGENCE_TABLE else t for t in bundled_library
    ])])  # fmt: skip
    assert csw.reads_magic_from(mine) == 10
    # Intelligence 10: three primary powers and a language roll; it reads magic only by the player's table
    faces = [*pct(1, 10), 10, *pct(1, 16, 31), *pct(1), 9, *pct(1)]
    for library, reads in ((bundled_library, False), (mine, True)):
        roller, source = _roller(library, *faces)
        sword = csw.complete_sword(roller)
        assert source.remaining == 0 and sword.intelligence_score == 10 and sword.reads_magic is reads
    assert csw.reads_magic_from(_without(bundled_library, csw.INTELLIGENCE_TABLE)) == 11


def test_the_control_gap_is_the_item_rules_row(bundled_library, scripted):
    sword = csw.complete_sword(scripted(*pct(1, 10), 8, *pct(20, 35), 9, *pct(1)).roller)  # Int 8 + Ego 9 = 17
    held = csw.pick_up(scripted(2).roller, sword, "Neutral", intelligence=6, strength=6)  # 5 above: not 6
    assert not held.controlled
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"A sword controls its taker": "5 or more points above"})
    roller, _ = _roller(mine, 2)
    taken = csw.pick_up(roller, sword, "Neutral", intelligence=6, strength=6)
    assert taken.controlled and "the sword controls them" in taken.describe()


def test_each_extraordinary_ability_adds_the_item_rules_row_to_the_sword_s_ego(bundled_library, scripted):
    sword = csw.complete_sword(scripted(*pct(1, 10), 8, *pct(20, 35), 9, *pct(1)).roller)  # Int 8 + Ego 9 = 17
    sword = sword.model_copy(update={"powers": [*sword.powers, csw.SwordPower(name="Telekinesis", kind="extraordinary")]})
    assert sword.extraordinary == 1
    contest = tc.ClassicEgoContest(sword=sword, intelligence=3, strength=3)  # 6 against 18: a wide gap, no roll
    game = _game(bundled_library)
    game.override = ScriptedSource([])
    [shipped] = game.execute(contest)
    assert shipped.payload().result.sword_score == 18  # 8 + 9 + 1 for the ability: the text's
    game = _game(_edited(bundled_library, ITEM_RULES_TABLE, {"Egoism per extraordinary ability": "3"}))
    game.override = ScriptedSource([])
    [theirs] = game.execute(contest)
    assert theirs.payload().result.sword_score == 20


def test_the_bomb_s_way_reads_the_air_and_sea_rows(bundled_library):
    from d100gui.engine.toolbox.classic import air_sea as cas

    assert cas.bomb_landing(bundled_library) == (
        (1, 2, "left or right"),
        (3, 4, "left or right, and short or long"),
        (5, 6, "short or long"),
    )
    faces = (1, 3, 2, 2, 2, 3)  # 2d6 4: 3 off, 3d6 inches; the way's die 3
    assert "left, and short of the target (die 3)" in cas.bomb(_roller(bundled_library, *faces)[0]).describe()
    mine = _edited(
        bundled_library,
        "classic.air_sea",
        {
            "Bomb lands: left or right": "1-3",
            "Bomb lands: left or right, and short or long": "4-5",
            "Bomb lands: short or long": "6-6",
        },
    )
    assert 'misses by 6" (3d6), left of the target (die 3)' in cas.bomb(_roller(mine, *faces)[0]).describe()


def test_in_a_straight_line_the_monster_follows_on_any_face_of_the_chase_die():
    # the text prints no number ("will continue to pursue in a straight line"): the chase die's top face
    assert cev.PursuitNumbers().follow_on("straight") == 6 == cev.STRAIGHT_ON
    assert cev.PursuitNumbers(die="1d8").follow_on("straight") == 8


# --------------------------------------------------------------------------- meeting: surprise die, distance, circle


def test_the_meeting_numbers_come_from_the_stocking_rules_table(bundled_library):
    shipped, _ = _roller(bundled_library)
    assert meeting_numbers(shipped, "wilderness") == MeetingNumbers(die="1d6", attack_distance=10, circle_from=3)
    mine = _edited(
        bundled_library,
        RULES_TABLE,
        {
            "Surprise die": "d8",
            "Attack distance: wilderness": "20 yards",
            "Monsters circle a surprised party: wilderness": "4 or more",
        },
    )
    roller, _ = _roller(mine)
    numbers = meeting_numbers(roller, "wilderness")
    assert numbers == MeetingNumbers(die="1d8", attack_distance=20, circle_from=4)
    # party 1 (surprised), monsters 8 (a face only the d8 has), d3 = 2: 20 yards, close enough with the player's 20
    met = meet(Dice(ScriptedSource([1, 8, 2])), "wilderness", numbers=numbers)
    assert met.monster_die is not None and met.monster_die.expression == "1d8" and met.distance == 20
    text = met.describe()
    assert "close enough to attack" in text and "if there are 4 or more monsters" in text
    shipped_meeting = meet(Dice(ScriptedSource([1, 6, 2])), "wilderness", numbers=meeting_numbers(shipped, "wilderness"))
    assert "close enough" not in shipped_meeting.describe() and "3 or more monsters" in shipped_meeting.describe()
    bare, _ = _roller(_without(bundled_library, RULES_TABLE))
    assert meeting_numbers(bare, "underworld") == MeetingNumbers()


def test_the_wilderness_day_says_the_player_s_circle(bundled_library):
    """Through the command: the day's meeting reads the circle from the player's table."""
    mine = _edited(bundled_library, RULES_TABLE, {"Monsters circle a surprised party: wilderness": "5 or more"})
    for seed in range(300):
        events = _game(mine, seed).execute(cc.ClassicWildernessDayCommand(terrain="clear", new_trip=True))
        text = " ".join(e.message for e in events)
        if "circle" in text:
            assert "if there are 5 or more monsters" in text and "3 or more" not in text
            return
    pytest.fail("no surprised party in 300 seeded days")


# --------------------------------------------------------------------------- pursuit


def test_pursuit_rest_and_chase_die_come_from_the_pursuit_table(bundled_library):
    shipped = cev.pursuit_numbers(bundled_library.get(cev.PURSUIT_TABLE))
    assert shipped.rest_per_hex == 0.5 and shipped.goes_on == 3
    table = _edited(bundled_library, cev.PURSUIT_TABLE, {"Rest per hex of pursuit": "1 day", "Pursuit goes on": "1-4"})
    mine = cev.pursuit_numbers(table.get(cev.PURSUIT_TABLE))
    assert mine.rest_per_hex == 1.0 and mine.goes_on == 4
    # not faster: hex 1 direction 2, chase die 4; hex 2 direction 5, chase die 5
    text_run = cev.pursue(Dice(ScriptedSource([2, 4])), False, False, shipped)
    assert len(text_run.hexes) == 1 and text_run.rest_days == 0.5 and "0.5 day(s) of rest owed" in text_run.describe()
    their_run = cev.pursue(Dice(ScriptedSource([2, 4, 5, 5])), False, False, mine)
    assert len(their_run.hexes) == 2 and their_run.rest_days == 2.0 and ": it goes on" in their_run.describe()


# --------------------------------------------------------------------------- a map's guardians


def test_a_map_s_guardians_come_from_the_printed_levels(bundled_library):
    assert cm.guardian_levels(bundled_library) == (5, 6)
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"A map's guardians": "4th level"})
    assert cm.guardian_levels(mine) == (4,)
    with pytest.raises(CommandRefused, match="monster level 4 "):
        _game(mine).execute(tc.ClassicMagicItem(guardians=5))
    with pytest.raises(CommandRefused, match="monster level 5 or 6"):
        make(bundled_library).execute(tc.ClassicMagicItem(guardians=4))
    assert cm.guardian_levels(_without(bundled_library, ITEM_RULES_TABLE)) == cm.GUARDIAN_LEVELS


# --------------------------------------------------------------------------- the wandering check's die, an item's save penalty


def test_the_wandering_check_die_and_the_item_save_penalty_come_from_the_item_rules(bundled_library):
    flat = _flat_text()
    for key, value, words in (
        ("Wandering monster check", "d6", 'the dm will roll a d6 to see if a "wandering monster" has been encountered'),
        ("An item's save penalty", "minus 2", "minus 2 if hit by the opposite weapon it throws"),
    ):
        row = bundled_library.get(ITEM_RULES_TABLE).find_key(key)
        assert row is not None and row.fields["value"] == value and words in row.fields["rule"].lower() and words in flat
    mine = _edited(
        bundled_library,
        ITEM_RULES_TABLE,
        {"Wandering monster check": "d8", "A wandering monster appears": "8", "An item's save penalty": "minus 3"},
    )
    game = _game(mine)
    game.override = ScriptedSource([7])  # a 7, a face only the d8 has; under the player's 8: nothing comes
    [event] = game.execute(tc.ClassicWandering(level=1, party_size=4, check=True))
    assert event.payload().check.roll.expression == "1d8" and not event.payload().check.appeared
    wand = "Fire Ball Wand Lightning Bolt Wand"  # 14*, hit by the opposite of what it throws: 14 + 2, or + 3
    shipped, _ = _roller(bundled_library, 16)
    assert item_save(shipped, wand, "lightning", opposite=True).saved
    roller, _ = _roller(mine, 16)
    save = item_save(roller, wand, "lightning", opposite=True)
    assert save.target == 17 and "minus 3" in save.describe() and not save.saved
