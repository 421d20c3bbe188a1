"""Deliver 2 of issue 22 for the exploration procedure: the dungeon and travel encounter checks, the Rounds of
travel before a rest, pushing on's check and the Heal check's TN are read from explore.procedure_rules (each
rule quoted from the text); a changed value changes the result through the commands, and without the table the
text's numbers are used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import Game
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, resource_dir, standard_tilesets

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "exploration-procedure.txt"


@pytest.fixture(scope="module")
def bundled() -> TableLibrary:
    return packs.load_library(user_data_dir()).library


def _edited(library: TableLibrary, values: dict[str, str]) -> TableLibrary:
    table = library.get(ex.RULES_TABLE)
    rows = [r.model_copy(update={"fields": {**r.fields, "value": values[r.key]}}) if r.key in values else r for r in table.rows]
    tables = [table.model_copy(update={"rows": rows}) if t.id == ex.RULES_TABLE else t for t in library]
    return TableLibrary([Pack(id="mine", title="mine", tables=tables)])


def _game(library: TableLibrary, *faces: int) -> Game:
    game = Game(Campaign(), library, TOOLBOX_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource(list(faces))
    return game


def test_the_shipped_numbers_are_the_text_s_with_each_rule_quoted(bundled):
    path = Path(RULE_TEXT).resolve()
    if not path.exists():
        pytest.skip("the rule texts are not next to this checkout")
    flat = " ".join(path.read_text(encoding="utf-8").split()).lower()
    table = bundled.get(ex.RULES_TABLE)
    assert all(" ".join(r.fields["rule"].split()).lower() in flat for r in table.rows)
    assert ex.exploration_numbers(bundled) == ex.ExplorationNumbers()  # 2d12 / 7, 2d6 / 3 / 11, 2, 3d4 / 5, TN 10
    bare = TableLibrary([Pack(id="mine", title="mine", tables=[t for t in bundled if t.id != ex.RULES_TABLE])])
    assert ex.exploration_numbers(bare) == ex.ExplorationNumbers()


def test_the_dungeon_check_reads_the_table(bundled):
    # a card of 10 Rounds (100 Turns): the check 2d12 = 4 + 4 = 8: nothing by the text's 7 or less
    [spent, *_] = _game(bundled, 4, 4).execute(tc.ExploreSpend(turns=100))
    assert "Encounter check 2d12 8: nothing comes." in spent.message
    mine = _edited(bundled, {"Dungeon encounter on": "8 or less"})
    [met, *_] = _game(mine, 4, 4, 5, 0).execute(tc.ExploreSpend(turns=100))  # 8 now meets; d% 50
    assert "Encounter check 2d12 8: an encounter, d% 50" in met.message
    d20 = _edited(bundled, {"Dungeon encounter check": "1d20"})
    [rolled, *_] = _game(d20, 19).execute(tc.ExploreSpend(turns=100))
    assert "Encounter check d20 19: nothing comes." in rolled.message


def test_the_travel_check_and_the_rest_owed_read_the_table(bundled):
    # the first Round's check: 2d6 = 2 + 2 = 4: nothing by the text (3 or less); hostile by the player's 4 or less
    [hours, *_] = _game(bundled, 2, 2).execute(tc.TravelSpend(hours=1))
    assert "encounter check 2d6 4: no encounter" in hours.message
    hostile = _edited(bundled, {"Travel encounter: hostile or neutral": "4 or less"})
    events = _game(hostile, 2, 2, 8, 3, 0).execute(tc.TravelSpend(hours=8))  # hostile; hour 8 of the Round; d% 30
    assert "encounter check 2d6 4: a hostile or neutral encounter in hour 8" in " ".join(e.message for e in events)
    # a Round of travel (2d6 7: nothing) is all the player's table allows before a rest; the text allows 2
    for library, owed in ((bundled, False), (_edited(bundled, {"Rounds of travel before a rest": "1"}), True)):
        game = _game(library, 3, 4, 3, 4)
        text = " ".join(e.message for e in game.execute(tc.TravelSpend(hours=8)))
        assert game.campaign.toolbox.travel_clock.must_rest is owed
        assert ("1 rounds of travel: rest a round or push on" in text) is owed


def test_pushing_on_and_the_heal_tn_read_the_table(bundled):
    party = [ex.Traveller(name="Vera", hd=2)]
    [pushed] = _game(bundled, 2, 2, 2).execute(tc.PushOn(party=party))  # 3d4 = 6: over 5, no injury
    assert "3d4 6: no injury" in pushed.message
    mine = _edited(bundled, {"Pushing on: injured on": "6 or less", "Heal check TN": "12 plus the worst wound"})
    game = _game(mine, 2, 2, 2, 3, 0, 5, 2)  # 6: injured now; 1d4 3 wound points; d% 05: sprained ankle (1d4 2)
    events = game.execute(tc.PushOn(party=party))
    assert "3d4 6: 3 wound point(s)" in events[0].message and "sprained ankle" in events[0].message
    [rested] = _game(mine).execute(tc.Rest(rest=ex.RestKind.PARTIAL, wounds=1, worst_wound=4))
    assert "The Heal check's TN: 12 + the worst wound = 16." in rested.message


def test_the_rests_hours_and_healing_dice_read_the_table(bundled):
    # a full rest: 24 hours, 3d4 a wound by the text; the player's: 20 hours, 2d6 a wound
    [full] = _game(bundled, 1, 2, 3).execute(tc.Rest(rest=ex.RestKind.FULL, hd=1, wounds=1))
    assert "full rest (24 h)" in full.message and "then 6 on the wounds" in full.message
    mine = _edited(bundled, {"Full rest": "20 hours", "Full rest healing": "2d6", "Short rest": "6 hours"})
    [theirs] = _game(mine, 6, 6).execute(tc.Rest(rest=ex.RestKind.FULL, hd=1, wounds=1))
    assert "full rest (20 h): all Stress and Mana" in theirs.message and "then 12 on the wounds" in theirs.message
    [short] = _game(mine).execute(tc.Rest(rest=ex.RestKind.SHORT, hd=2))
    assert "short rest (6 h): 12 Stress, 12 Mana" in short.message


def test_the_encounter_hour_and_pushing_on_s_wounds_read_the_table(bundled):
    mine = _edited(bundled, {"Hour of a travel encounter": "1d10", "Pushing on: wound points": "1d6"})
    # 2d6 = 1 + 1: hostile; the hour on the player's d10: 9 (a face no d8 has); d% 30
    events = _game(mine, 1, 1, 9, 3, 0).execute(tc.TravelSpend(hours=1))
    assert events[1].payload().check.hour == 9
    party = [ex.Traveller(name="Vera", hd=1)]
    [pushed] = _game(mine, 1, 1, 1, 6, 0, 5, 2).execute(tc.PushOn(party=party))  # 3d4 3: injured; 1d6 6 wounds
    assert "3d4 3: 6 wound point(s)" in pushed.message


def test_the_dungeon_clock_counts_turns_by_the_table(bundled):
    # the text: 10 Turns a Round, a card of 10 Rounds: the check comes at Turn 100, not at 50
    [spent] = _game(bundled).execute(tc.ExploreSpend(turns=50))
    assert "Encounter check" not in spent.message
    mine = _edited(bundled, {"Turns in a Round": "5", "Seconds in a Turn": "12"})
    game = _game(mine, 4, 4)  # the player's 5 Turns a Round: the card is full at Turn 50; 2d12 8: nothing
    [checked, *_] = game.execute(tc.ExploreSpend(turns=50))
    assert "Encounter check 2d12 8: nothing comes." in checked.message
    clock = game.campaign.toolbox.dungeon_clock
    assert (clock.rounds, clock.seconds, clock.turns_per_minute) == (10, 600, 5)
    assert "Round 10, turn 0 (10 min 0 s)" in clock.describe()


def test_the_card_the_travel_round_and_the_partial_rest_step_are_quoted_rows(bundled):
    # the shipped values are the text's, each number in its quoted line
    rows = {r.key: r.fields for r in bundled.get(ex.RULES_TABLE).rows}
    for key, value in (("Rounds on the card", "10"), ("Hours in a travel Round", "8"), ("Partial rest step", "10")):
        assert rows[key]["value"] == value and re.search(rf"\b{value}\b", rows[key]["rule"])
    n = ex.exploration_numbers(bundled)
    assert (n.rounds_per_card, n.hours_per_travel_round, n.rest_step_minutes) == (10, 8, 10)


def test_the_card_of_rounds_reads_the_table(bundled):
    # the text's card is 10 Rounds (100 Turns): nothing at Turn 50; the player's card of 5 Rounds is full there
    [spent] = _game(bundled).execute(tc.ExploreSpend(turns=50))
    assert "Encounter check" not in spent.message
    game = _game(_edited(bundled, {"Rounds on the card": "5"}), 4, 4)
    [checked, *_] = game.execute(tc.ExploreSpend(turns=50))
    assert "Encounter check 2d12 8: nothing comes." in checked.message
    assert game.campaign.toolbox.dungeon_clock.encounter_every_rounds == 5


def test_the_travel_round_s_hours_read_the_table(bundled):
    # 7 hours: inside the text's first 8-hour Round (one check); past the player's 6-hour Round (two checks)
    game = _game(bundled, 3, 4)
    text = game.execute(tc.TravelSpend(hours=7))[0].message
    assert text.count("encounter check 2d6 7") == 1 and game.campaign.toolbox.travel_clock.hour_of_round == 8
    game = _game(_edited(bundled, {"Hours in a travel Round": "6"}), 3, 4, 3, 4)
    text = game.execute(tc.TravelSpend(hours=7))[0].message
    clock = game.campaign.toolbox.travel_clock
    assert text.count("encounter check 2d6 7") == 2 and (clock.round_number, clock.hour_of_round) == (1, 2)


def test_the_partial_rest_s_step_reads_the_table(bundled):
    # 30 minutes: 3 spells of the text's 10 minutes; 2 of the player's 15
    [text] = _game(bundled).execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=30))
    assert text.payload().result.stress == 3
    mine = _edited(bundled, {"Partial rest step": "15"})
    [theirs] = _game(mine).execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=30))
    assert theirs.payload().result.stress == 2
    with pytest.raises(Exception, match="whole 15 minutes; 20 is not"):
        _game(mine).execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=20))
    # on the dungeon clock: 30 minutes (300 Turns: three checks, 2d12 8 each) pass, and rest 2 spells
    game = _game(mine, 4, 4, 4, 4, 4, 4)
    events = game.execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=30, on_clock="dungeon"))
    assert events[-1].payload().result.stress == 2 and game.campaign.toolbox.dungeon_clock.elapsed == 300


def test_the_encounter_table_s_d_percent_reads_the_table(bundled):
    rows = {r.key: r.fields for r in bundled.get(ex.RULES_TABLE).rows}
    assert rows["Encounter table roll"]["value"] == "d100" and "rolls a d%" in rows["Encounter table roll"]["rule"]
    # the text's d%: two faces (5, 0) read 50; the player's d20: one face
    [met, *_] = _game(bundled, 3, 3, 5, 0).execute(tc.ExploreSpend(turns=100))
    assert "Encounter check 2d12 6: an encounter, d% 50" in met.message
    mine = _edited(bundled, {"Encounter table roll": "d20"})
    game = _game(mine, 3, 3, 17)
    [theirs, *_] = game.execute(tc.ExploreSpend(turns=100))
    assert "Encounter check 2d12 6: an encounter, d20 17" in theirs.message
    events = _game(mine, 1, 1, 3, 19).execute(tc.TravelSpend(hours=1))  # hostile; hour 3; the table's d20: 19
    assert events[1].payload().check.table_roll.expression == "1d20"


def test_pushing_on_s_stress_and_strength_read_the_table(bundled):
    party = [ex.Traveller(name="Vera", hd=2)]
    [pushed] = _game(bundled, 2, 2, 2).execute(tc.PushOn(party=party))  # 3d4 = 6: no injury
    assert "Vera: 2 Stress, 1 Strength damage, 3d4 6" in pushed.message  # 1 per HD, 1 Strength: the text's
    mine = _edited(bundled, {"Pushing on: Stress per HD": "2", "Pushing on: Strength damage": "3"})
    [theirs] = _game(mine, 2, 2, 2).execute(tc.PushOn(party=party))
    assert "Vera: 4 Stress, 3 Strength damage, 3d4 6" in theirs.message


def test_the_travel_turn_and_the_rest_owed_are_quoted_rows(bundled):
    rows = {r.key: r.fields for r in bundled.get(ex.RULES_TABLE).rows}
    assert rows["Hours in a travel Turn"]["value"] == "1" and "1-hour turns" in rows["Hours in a travel Turn"]["rule"]
    assert rows["Rounds of rest owed"]["value"] == "1" and "a round of rest" in rows["Rounds of rest owed"]["rule"]
    n = ex.exploration_numbers(bundled)
    assert (n.hours_per_travel_turn, n.rest_rounds_owed, n.push_on_stress_per_hd, n.push_on_strength_damage) == (1, 1, 1, 1)
