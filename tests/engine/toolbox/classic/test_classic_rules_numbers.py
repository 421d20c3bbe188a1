"""Deliver 2 of issue 22, the older tools: sighting distances, the sword's Egoism die and threshold, the
wielder-state dice and the spell-level die read from classic-procedures.json (the rules quoted), the
text's numbers when a player's tables lack a row, and the same output as before with the same dice."""

from __future__ import annotations

from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.toolbox.classic import swords as csw
from d100gui.engine.toolbox.classic.magic import SPELL_LEVEL_DIE
from d100gui.engine.toolbox.classic.meeting import RULES_TABLE, distances, meet
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, rule_die, rule_number, rule_range_dice

TEXT_UNDERWORLD = ("2d4", "1d3", 10, "feet")
TEXT_WILDERNESS = ("4d6", "1d3", 10, "yards")


def _edited(library: TableLibrary, table_id: str, values: dict[str, str]) -> TableLibrary:
    """The bundled tables with some rows' values of one table changed, as a player's edit would."""
    table = library.get(table_id)
    rows = [r.model_copy(update={"fields": {**r.fields, "value": values[r.key]}}) if r.key in values else r for r in table.rows]
    edited = table.model_copy(update={"rows": rows})
    return TableLibrary([Pack(id="mine", title="mine", tables=[edited if t.id == table_id else t for t in library])])


def _without(library: TableLibrary, table_id: str) -> TableLibrary:
    return TableLibrary([Pack(id="mine", title="mine", tables=[t for t in library if t.id != table_id])])


def _roller(library: TableLibrary, *faces: int) -> tuple[TableRoller, ScriptedSource]:
    source = ScriptedSource(list(faces))
    return TableRoller(library, Dice(source), MissingRowPolicy.ASK), source


def test_the_ranges_read_as_the_dice_that_give_them(bundled_library: TableLibrary) -> None:
    assert rule_range_dice(bundled_library, RULES_TABLE, "Sighting: underworld", "", step=10) == "2d4"
    assert rule_range_dice(bundled_library, RULES_TABLE, "Sighting: wilderness", "", step=10) == "4d6"
    assert rule_range_dice(bundled_library, RULES_TABLE, "Distance when surprised: wilderness", "", step=10) == "1d3"
    assert rule_range_dice(bundled_library, ITEM_RULES_TABLE, "A sword's Egoism", "") == "1d12"
    assert rule_number(bundled_library, ITEM_RULES_TABLE, "Egoism from Intelligence", 0) == 7
    assert rule_die(bundled_library, ITEM_RULES_TABLE, "Spell level on a scroll", "") == "1d6" == SPELL_LEVEL_DIE
    odd = _edited(bundled_library, ITEM_RULES_TABLE, {"A sword's Egoism": "5-7", "Spell level on a scroll": "d8"})
    assert rule_range_dice(odd, ITEM_RULES_TABLE, "A sword's Egoism", "1d12") == "1d12"  # no dice give 5-7: the text's
    assert rule_die(odd, ITEM_RULES_TABLE, "Spell level on a scroll", "1d6") == "1d8"
    assert rule_range_dice(bundled_library, ITEM_RULES_TABLE, "No such row", "1d12") == "1d12"


def test_sighting_distances_come_from_the_table_with_the_same_meeting_as_before(bundled_library: TableLibrary) -> None:
    roller, _ = _roller(bundled_library)
    assert distances(roller, "underworld") == TEXT_UNDERWORLD and distances(roller, "wilderness") == TEXT_WILDERNESS
    # the same faces give the same meeting with the table's numbers as with the text's: nobody surprised (3, 4), 2d4 = 5
    before = meet(Dice(ScriptedSource([3, 4, 2, 3])), "underworld")
    after = meet(Dice(ScriptedSource([3, 4, 2, 3])), "underworld", at=distances(roller, "underworld"))
    assert before == after and after.describe() == "nobody surprised (party 3, monsters 4); 50 feet away"
    surprised = meet(Dice(ScriptedSource([1, 4, 1])), "wilderness", at=distances(roller, "wilderness"))
    assert surprised.distance == 10 and "10 yards away; close enough to attack" in surprised.describe()
    # a player's table: monsters seen at 30-90 feet (3d3 tens), 20-40 when surprised (2d2 tens)
    mine, _ = _roller(
        _edited(
            bundled_library,
            RULES_TABLE,
            {"Sighting: underworld": "30-90 feet", "Distance when surprised: underworld": "20-40 feet"},
        )
    )
    assert distances(mine, "underworld") == ("3d3", "2d2", 10, "feet")
    seen = meet(Dice(ScriptedSource([5, 5, 1, 2, 3])), "underworld", at=distances(mine, "underworld"))
    assert seen.distance == 60
    # without the table: the text's
    bare, _ = _roller(_without(bundled_library, RULES_TABLE))
    assert distances(bare, "underworld") == TEXT_UNDERWORLD and distances(bare, "wilderness") == TEXT_WILDERNESS


def _sword_script(*egoism: int) -> list[int]:
    """Sword +1, Lawful, Intelligence 7, Clairaudience, the Egoism faces (a d12's 9 by default), no purpose."""
    return [*pct(1, 10), 7, *pct(100, 5), *(egoism or (9,)), *pct(1)]


def test_the_sword_s_egoism_die_and_threshold_come_from_the_table(bundled_library: TableLibrary) -> None:
    roller, source = _roller(bundled_library, *_sword_script())
    sword = csw.complete_sword(roller)
    assert source.remaining == 0 and sword.egoism is not None and sword.egoism.expression.endswith("d12")
    assert sword.egoism_score == 9
    # a player's table: Egoism 2-8 (2d4) from Intelligence 7 - the same sword rolls two dice for it
    mine, source = _roller(_edited(bundled_library, ITEM_RULES_TABLE, {"A sword's Egoism": "2-8"}), *_sword_script(4, 3))
    assert csw.complete_sword(mine).egoism_score == 7 and source.remaining == 0
    # a player's table: Egoism only from Intelligence 8 - the same sword has none (no Egoism die rolled)
    no_ego = [*pct(1, 10), 7, *pct(100, 5), *pct(1)]
    dull, source = _roller(_edited(bundled_library, ITEM_RULES_TABLE, {"Egoism from Intelligence": "8"}), *no_ego)
    assert csw.complete_sword(dull).egoism is None and source.remaining == 0
    # without the table: the text's 1-12 from 7
    bare, source = _roller(_without(bundled_library, ITEM_RULES_TABLE), *_sword_script())
    assert csw.complete_sword(bare).egoism_score == 9 and source.remaining == 0


def test_the_wielder_state_dice_come_from_the_table_with_the_same_contest_as_before(bundled_library: TableLibrary) -> None:
    assert csw.state_dice(bundled_library) == csw.STATE_DICE
    assert csw.state_dice(_without(bundled_library, ITEM_RULES_TABLE)) == csw.STATE_DICE
    roller, _ = _roller(bundled_library, *_sword_script())
    sword = csw.complete_sword(roller)  # 7 + 9 + 1 = 17
    cases: tuple[tuple[csw.WielderState, list[int]], ...] = (
        ("fresh", [4]),
        ("weary", [3, *pct(50)]),
        ("badly_hurt", [3, 4, *pct(80)]),
    )
    for state, faces in cases:
        before = csw.ego_contest(Dice(ScriptedSource(list(faces))), sword, 10, 10, state=state)
        table_s = csw.state_dice(bundled_library)
        after = csw.ego_contest(Dice(ScriptedSource(list(faces))), sword, 10, 10, state=state, states=table_s)
        assert before.describe() == after.describe() and before.winner == after.winner
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"Wielder fresh": "2-8 deducted"})
    assert csw.state_dice(mine)["fresh"] == ("2d4", -1)
    contest = csw.ego_contest(Dice(ScriptedSource([3, 4, *pct(50)])), sword, 10, 10, state="fresh", states=csw.state_dice(mine))
    assert contest.wielder_score == 13 and contest.winner == "sword" and "fresh: -7" in contest.describe()


# a Wizard met in clear country (lost 2, encounter 6, Men, typical 4), his men's dice, then his items and the meeting
_LEADER_BEFORE = [2, 6, 1, 4]
_LEADER_AFTER = [*pct(59, 75, 36, 31, 5, 48), 3, 3, 1, 1, 1, 1]


def test_a_leader_s_men_come_from_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic.wilderness import RULES_TABLE as WILDERNESS_RULES
    from d100gui.engine.toolbox.classic.wilderness import WildernessTrip, wilderness_day

    roller, source = _roller(bundled_library, *_LEADER_BEFORE, 3, 4, *_LEADER_AFTER)
    [met] = wilderness_day(roller, WildernessTrip(), "clear").encounters
    assert source.remaining == 0 and met.followers is not None and met.followers.final == 7
    assert met.followers.expression.endswith("2d6")
    # a player's table: 3-18 men (3d6) - three dice for them
    mine = _edited(bundled_library, WILDERNESS_RULES, {"Men with a leader": "3-18"})
    roller, source = _roller(mine, *_LEADER_BEFORE, 3, 4, 5, *_LEADER_AFTER)
    [met] = wilderness_day(roller, WildernessTrip(), "clear").encounters
    assert source.remaining == 0 and met.followers is not None and met.followers.final == 12
    # without the table: the text's 2-12
    roller, source = _roller(_without(bundled_library, WILDERNESS_RULES), *_LEADER_BEFORE, 3, 4, *_LEADER_AFTER)
    [met] = wilderness_day(roller, WildernessTrip(), "clear").encounters
    assert source.remaining == 0 and met.followers is not None and met.followers.final == 7


def test_the_party_step_of_wandering_monsters_comes_from_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic.monsters import PARTY_STEP, wandering_monster

    def factor(library: TableLibrary, party: int) -> int:  # whichever monster: the factor is the party's
        roller = TableRoller(library, Dice(RandomSource(party)), MissingRowPolicy.ASK)
        return wandering_monster(roller, 1, party).party_factor

    assert PARTY_STEP == 3 and [factor(bundled_library, n) for n in (3, 4, 6, 7)] == [1, 2, 2, 3]
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"A party drawing the basic number": "1-4"})
    assert [factor(mine, n) for n in (3, 4, 5, 8, 9)] == [1, 1, 2, 2, 3]
    assert [factor(_without(bundled_library, ITEM_RULES_TABLE), n) for n in (3, 4)] == [1, 2]


def test_evasion_bands_are_read_from_the_printed_rows(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic import evasion as cev

    table = bundled_library.get(cev.EVASION_TABLE)
    # the same row as the text's bands by row order, for every party and share (the code's old reading)
    for party in (1, 3, 4, 9, 10, 24, 25, 400):
        for monsters, possible in ((1, 4), (1, 100), (25, 100), (51, 200), (26, 100), (60, 100), (61, 100), (99, 100)):
            old = table.rows[cev._party_band(party) * cev.SHARE_ROWS + cev._share_band(monsters, possible)]
            assert cev.evasion_chance(table, party, monsters, possible) == (old.key, cev._percent(old.fields["chance"]))
    assert cev.evasion_chance(table, 4, 1, 4) == ("4-9 / 25% or less of possible #", 30)
    # a player's table with other bands: parties of 1-5 read the first three rows
    rows = [
        r.model_copy(update={"fields": {**r.fields, "party": "1-5"}}) if r.fields["party"] == "1-3" else r for r in table.rows
    ]
    rows = [r.model_copy(update={"fields": {**r.fields, "party": "6-9"}}) if r.fields["party"] == "4-9" else r for r in rows]
    mine = table.model_copy(update={"rows": rows})
    assert cev.evasion_chance(mine, 5, 30, 100) == ("1-3 / 26%-60%", 70)  # the text's band would give 4-9's 50%
    assert cev.evasion_chance(table, 5, 30, 100) == ("4-9 / 26-60%", 50)


def test_the_castle_guards_column_die_has_a_face_per_printed_column(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic.castles import GUARD_COLUMNS, OCCUPANT_TABLE, guard_columns

    roller, _ = _roller(bundled_library)
    assert guard_columns(roller) == GUARD_COLUMNS == "1d4"  # "Die -1 2 3 4": four columns of guards
    table = bundled_library.get(OCCUPANT_TABLE)
    three = table.model_copy(update={"columns": [c for c in table.columns if c.key != "guards_4"]})
    mine = TableLibrary([Pack(id="mine", title="mine", tables=[three if t.id == OCCUPANT_TABLE else t for t in bundled_library])])
    assert guard_columns(_roller(mine)[0]) == "1d3"
    assert guard_columns(_roller(_without(bundled_library, OCCUPANT_TABLE))[0]) == "1d4"
