"""Deliver 2 of issue 22: the dice the classic text names without their sides are data (``classic.dice`` in
classic-procedures.json). Its bare "die" is read as a d6 (a reading: "a 50% chance (die 1-3)"), and a printed
percentage is rolled on the percentile die. The shipped rows are pinned against the text, a changed row changes
the tools' rolls (scripted dice), and without the table the text's dice are used."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_classic_commands import make
from test_classic_rules_numbers import _edited, _without

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.toolbox import classic_commands as ccm
from d100gui.engine.toolbox import procedure_commands as pc
from d100gui.engine.toolbox.classic import castles as cc
from d100gui.engine.toolbox.classic import treasure as ct
from d100gui.engine.toolbox.classic.rules_data import A_DIE, DICE_TABLE, PERCENT_DIE, a_die, percent_die
from d100gui.storage.resources import resource_dir

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "classic-underworld-and-wilderness.txt"


def test_the_shipped_dice_are_the_text_s_with_their_lines_quoted(bundled_library: TableLibrary) -> None:
    rows = {r.key: r.fields for r in bundled_library.get(DICE_TABLE).rows}
    assert rows["A die"]["value"] == "d6" and "50% chance (die 1-3)" in rows["A die"]["rule"]  # 3 faces of 6: 50%
    assert rows["A percentage chance"]["value"] == "d100" and "25% chance" in rows["A percentage chance"]["rule"]
    path = Path(RULE_TEXT).resolve()
    if path.exists():
        flat = " ".join(path.read_text(encoding="utf-8").split()).lower()
        assert all(" ".join(r["rule"].split()).lower() in flat for r in rows.values())
    assert (a_die(bundled_library), percent_die(bundled_library)) == (A_DIE, PERCENT_DIE) == ("1d6", "d100")
    bare = _without(bundled_library, DICE_TABLE)
    assert (a_die(bare), percent_die(bare)) == ("1d6", "d100")


def test_a_printed_chance_is_rolled_on_the_percentile_die_of_the_table(bundled_library: TableLibrary) -> None:
    # the text's d100 takes two faces (tens, units): 2 and 5 are 25, under Leather's 20%: no drowning
    [swam] = make(bundled_library, 2, 5).execute(ccm.ClassicSwim(armor="Leather"))
    assert swam.payload().swimming.roll.expression == "d100" and swam.payload().swimming.roll.final == 25
    mine = _edited(bundled_library, DICE_TABLE, {"A percentage chance": "d20"})
    [theirs] = make(mine, 19).execute(ccm.ClassicSwim(armor="Leather"))  # one d20 face: 19
    assert theirs.payload().swimming.roll.expression == "d20" and theirs.payload().swimming.roll.final == 19
    # the evasion roll and the pursuit's catch, too
    [evaded] = make(mine, 20, 1, 1).execute(ccm.ClassicEvade(party_size=4, monsters=1, possible=6, chase=False))
    assert evaded.payload().evasion.roll.expression == "d20"
    # and a hoard's "is it there" chance, through the treasure roller
    roller = TableRoller(mine, Dice(ScriptedSource([5] * 40)), MissingRowPolicy.ASK)
    part = ct._part(roller, "25%", "gems")
    assert part.presence is not None and part.presence.expression == "d20" and part.present


def test_a_bare_die_is_the_table_s_die(bundled_library: TableLibrary) -> None:
    # spikes slip on "die 5-6": a 6 slips on the text's d6; the player's d8 shows an 8 no d6 has
    [spiked] = make(bundled_library, 6).execute(pc.ClassicUnderworldCheck(procedure="spike"))
    assert "on a d6): rolled 6" in spiked.message
    mine = _edited(bundled_library, DICE_TABLE, {"A die": "d8"})
    [theirs] = make(mine, 8).execute(pc.ClassicUnderworldCheck(procedure="spike"))
    assert "on a d8): rolled 8" in theirs.message
    # the castle's "(die 1-3)": the come-out, attitude and pursuit dice; the occupant is the occupant table's d6
    roller = TableRoller(mine, Dice(ScriptedSource([7])), MissingRowPolicy.ASK)
    castle = cc.castle_encounter(roller, 0)
    assert castle.come_out_roll is not None and castle.come_out_roll.expression == "1d8" and not castle.comes_out
    # the pursuit's direction and chase die
    [chased] = make(mine, 9, 9, 8, 8).execute(ccm.ClassicEvade(party_size=4, monsters=1, possible=6))
    hexes = chased.payload().evasion.pursuit.hexes
    assert hexes[0].direction.expression == "1d8" and hexes[0].goes_on.final == 8


# --------------------------------------------------------------------------- the numbers the tools' labels quote


@pytest.mark.parametrize(
    ("table_id", "key", "value", "words"),
    [
        ("classic.air_sea", "Bomb: where it hits", "2d6", "to determine where the bomb hits, roll 2d6"),
        ("classic.air_sea", "Attempts per turn", "3", "allow 3 grappling attempts per ship"),
        ("classic.underworld_time", "Wall searched in a turn", "10 feet", "a 10 foot section of wall"),
        ("classic.wilderness_rules", "Miles across a hex", "5 miles", "across a hex is about 5 miles"),
        ("classic.wilderness_rules", "Days in a wilderness turn", "1 day", "each day is considered a turn"),
        ("d20.rules", "Minutes in a Turn", "10 minutes", "an exploration turn is approximately ten minutes"),
        ("d20.rules", "Hours in a Watch", "6 hours", "passes in 6 hour watches"),
    ],
)
def test_the_labels_numbers_are_the_text_s(bundled_library: TableLibrary, table_id, key, value, words) -> None:
    row = bundled_library.get(table_id).find_key(key)
    assert row is not None and row.fields["value"] == value and words in row.fields["rule"].lower()


def test_the_labels_numbers_read_the_tables(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox import scars as sc
    from d100gui.engine.toolbox.classic import air_sea as cas
    from d100gui.engine.toolbox.classic import underworld as cu
    from d100gui.engine.toolbox.classic import wilderness as cw

    text = (cas.bomb_dice(bundled_library), cas.grapple_attempts(bundled_library), cas.direct_hit(bundled_library))
    assert text == ("2d6", 3, 7)
    assert cu.wall_searched(bundled_library) == "10 feet" and cu.time_number(bundled_library, "Moves per turn") == 2
    assert cw.wilderness_scale(bundled_library) == (1, 5) and sc.scars_time(bundled_library) == (10, 6)
    bare = _without(_without(_without(_without(bundled_library, "classic.air_sea"), "classic.underworld_time"),
                             "classic.wilderness_rules"), "d20.rules")  # fmt: skip
    assert (cas.bomb_dice(bare), cas.grapple_attempts(bare), cu.wall_searched(bare)) == ("2d6", 3, "10 feet")
    assert cw.wilderness_scale(bare) == (1, 5) and sc.scars_time(bare) == (10, 6)
    mine = _edited(bundled_library, "classic.air_sea", {"Attempts per turn": "2", "Bomb: where it hits": "3d6"})
    assert (cas.bomb_dice(mine), cas.grapple_attempts(mine)) == ("3d6", 2)
    mine = _edited(_edited(bundled_library, "classic.wilderness_rules", {"Miles across a hex": "6 miles"}), "d20.rules",
                   {"Minutes in a Turn": "15 minutes"})  # fmt: skip
    assert cw.wilderness_scale(mine) == (1, 6) and sc.scars_time(mine) == (15, 6)


def test_the_bomb_rolls_the_table_s_dice(bundled_library: TableLibrary) -> None:
    # the text's 2d6: 3 + 4 = 7, a direct hit; the player's 3d6 needs three faces: 3 + 4 + 1 = 8, one off 7
    [hit] = make(bundled_library, 3, 4).execute(pc.ClassicAerialCombat(action="bomb"))
    assert "Bomb: 2d6 7: a direct hit." in hit.message
    mine = _edited(bundled_library, "classic.air_sea", {"Bomb: where it hits": "3d6"})
    [missed] = make(mine, 3, 4, 1, 2, 5).execute(pc.ClassicAerialCombat(action="bomb"))
    assert 'Bomb: 3d6 8 (1 off 7): misses by 2" (1d6)' in missed.message


def test_the_grapple_tries_read_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.protocol import CommandRefused

    mine = _edited(bundled_library, "classic.air_sea", {"Attempts per turn": "2"})
    make(bundled_library, *([9, 9] * 3)).execute(pc.ClassicNavalCombat(action="grapple", attempts=3))  # the text's 3
    with pytest.raises((CommandRefused, ValueError), match="2"):
        make(mine, *([9, 9] * 3)).execute(pc.ClassicNavalCombat(action="grapple", attempts=3))


def test_a_saving_throw_is_the_table_s_die(bundled_library: TableLibrary) -> None:
    # the text gives scores ("saving throw becomes 16 or better"), read on a d20; the player's d30 is rolled instead
    from d100gui.engine.toolbox.classic.rules_data import SAVE_DIE, save_die

    row = bundled_library.get(DICE_TABLE).find_key("A saving throw")
    assert row is not None and row.fields["value"] == "d20" and "16 or better" in row.fields["rule"]
    assert save_die(bundled_library) == SAVE_DIE == "1d20" and save_die(_without(bundled_library, DICE_TABLE)) == "1d20"
    [text] = make(bundled_library, 20).execute(pc.ClassicItemSave(item="Staff of Power", attack="fire"))
    assert text.payload().save.roll.expression == "1d20"
    mine = _edited(bundled_library, DICE_TABLE, {"A saving throw": "d30"})
    [theirs] = make(mine, 25).execute(pc.ClassicItemSave(item="Staff of Power", attack="fire"))
    assert theirs.payload().save.roll.expression == "1d30" and theirs.payload().save.roll.final == 25


def test_a_failed_patch_s_turns_read_the_table(bundled_library: TableLibrary) -> None:
    row = bundled_library.get("classic.air_sea").find_key("Patch work")
    assert row is not None and row.fields["value"] == "5 turns" and "requires 5 turns of work" in row.fields["rule"]
    [text] = make(bundled_library, 0, 1).execute(pc.ClassicNavalCombat(action="patch"))  # d% 01: under 25%, it fails
    assert "another 5 turns to replace it" in text.message
    mine = _edited(bundled_library, "classic.air_sea", {"Patch work": "7 turns"})
    [theirs] = make(mine, 0, 1).execute(pc.ClassicNavalCombat(action="patch"))
    assert "another 7 turns to replace it" in theirs.message


def test_the_pursuit_s_doubling_twice_as_fast_and_cornering_read_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic import evasion as cev

    rows = {r.key: r.fields["value"] for r in bundled_library.get(cev.PURSUIT_TABLE).rows}
    assert rows["Surprise by the party: evasion times"] == "2 (doubled)" and rows["No avoiding within"] == "20 feet"
    assert rows["Twice as fast: at least times"] == "2 (twice)"
    n = cev.pursuit_numbers(bundled_library.get(cev.PURSUIT_TABLE))
    assert (
        (n.surprise_factor, n.speed_factor, n.cornered_feet)
        == (2, 2, 20)
        == (cev.PursuitNumbers().surprise_factor, cev.PursuitNumbers().speed_factor, cev.PursuitNumbers().cornered_feet)
    )
    mine = _edited(
        bundled_library, cev.PURSUIT_TABLE,
        {"Surprise by the party: evasion times": "3", "Twice as fast: at least times": "3", "No avoiding within": "30 feet"},
    )  # fmt: skip
    surprised = ccm.ClassicEvade(party_size=4, monsters=1, possible=6, surprise="party", chase=False)
    [text] = make(bundled_library, 9, 9).execute(surprised)
    [theirs] = make(mine, 9, 9).execute(surprised)
    base = text.payload().evasion.base
    assert text.payload().evasion.steps[0] == ("the party surprised them: doubled", base * 2)
    assert theirs.payload().evasion.steps[0] == ("the party surprised them: x3", base * 3)
    # a monster at 12 against a party at 6: twice as fast by the text, not three times by the player's table
    assert cev.speeds(6, 12) == ("monsters", True) and cev.speeds(6, 12, 3) == ("even", True)
    [cornered] = make(mine).execute(ccm.ClassicUnderworldPursuit(distance=10, cornered=True))
    assert "within 30 feet" in cornered.message


def test_an_npc_s_share_of_the_alignment_damage_reads_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE
    from d100gui.engine.toolbox.classic.swords import NPC_SHARE, pick_up

    row = bundled_library.get(ITEM_RULES_TABLE).find_key("An NPC directed to take up a sword")
    assert row is not None and row.fields["value"] == "1/2 the damage" and "only one-half" in row.fields["rule"]
    assert NPC_SHARE == 0.5
    from classic_script import pct

    from d100gui.engine.toolbox.classic.swords import complete_sword

    faces = [*pct(1, 10), 8, *pct(20, 35), 9, *pct(1)]  # a Lawful sword (as test_classic_procedures makes it)
    sword = complete_sword(TableRoller(bundled_library, Dice(ScriptedSource(faces)), MissingRowPolicy.ASK))
    # Law against Chaos: 2 dice, 3 + 4 = 7: an NPC takes half, rounded up (4); the player's one third: 3
    text = pick_up(TableRoller(bundled_library, Dice(ScriptedSource([3, 4])), MissingRowPolicy.ASK), sword, "Chaotic", npc=True)
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"An NPC directed to take up a sword": "1/3 the damage"})
    theirs = pick_up(TableRoller(mine, Dice(ScriptedSource([3, 4])), MissingRowPolicy.ASK), sword, "Chaotic", npc=True)
    assert (text.damage, theirs.damage) == (4, 3)


def test_exploring_by_air_reads_the_wilderness_rules(bundled_library: TableLibrary) -> None:
    from d100gui.engine.toolbox.classic.wilderness import RULES_TABLE, day_movement

    row = bundled_library.get(RULES_TABLE).find_key("Exploring by air")
    assert row is not None and row.fields["value"] == "1/2 normal flying SPEED" and "1/2 normal" in row.fields["rule"]
    roller = TableRoller(bundled_library, Dice(ScriptedSource([])), MissingRowPolicy.ASK)
    options = {"party_size": 4, "exploring": True, "track": False, "crossing": False}
    assert day_movement(roller, "Roc", "mountains", **options).hexes == 24  # a Roc's 48 halved
    mine = _edited(bundled_library, RULES_TABLE, {"Exploring by air": "3/4 normal flying SPEED"})
    roller = TableRoller(mine, Dice(ScriptedSource([])), MissingRowPolicy.ASK)
    theirs = day_movement(roller, "Roc", "mountains", **options)
    assert theirs.hexes == 36 and "exploring by air: 0.75 of the pace" in theirs.describe()


def test_gem_groups_read_the_item_rules(bundled_library: TableLibrary) -> None:
    from d100gui.engine.dice.dice import RandomSource
    from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE

    rows = {r.key: r.fields for r in bundled_library.get(ITEM_RULES_TABLE).rows}
    assert rows["Gems in a group"]["value"] == "5 or 10" and "group of 5 or 10 gems" in rows["Gems in a group"]["rule"]
    assert rows["Gems rolled in groups"]["value"].startswith("over 10 in fives, over 50 in tens")

    def groups(library: TableLibrary, count: int) -> list[int]:
        roller = TableRoller(library, Dice(RandomSource(3)), MissingRowPolicy.REROLL)
        return [g.count for g in ct.roll_gems(roller, count).gems]

    assert groups(bundled_library, 23) == [5, 5, 5, 5, 1, 1, 1]  # the text's: in fives over 10
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"Gems rolled in groups": "over 30 in fives, over 60 in tens"})
    assert groups(mine, 23) == [1] * 23
    mine = _edited(bundled_library, ITEM_RULES_TABLE, {"Gems in a group": "4 or 8"})
    assert groups(mine, 23) == [4] * 5 + [1, 1, 1] and groups(mine, 57) == [8] * 7 + [1]


def test_a_hoard_s_marks_multiply_by_the_dice_the_table_s_notes_print(bundled_library: TableLibrary) -> None:
    from d100gui.engine.dice.tables import Pack

    notes = [n.text for n in bundled_library.get(ct.TREASURE_TABLE).notes]
    assert "* multiply by # rolled on a d6" in notes and "** multiply by # rolled on a d12" in notes
    assert ct.mark_dice(bundled_library) == {"**": "d12", "*": "d6"} == ct.MARK_DICE
    roller = TableRoller(bundled_library, Dice(ScriptedSource([11])), MissingRowPolicy.ASK)
    part = ct._part(roller, "5000**", "gems")  # no chance: there; a d12 11
    assert part.multiplier is not None and part.multiplier.expression == "d12" and part.multiplier.final == 11
    table = bundled_library.get(ct.TREASURE_TABLE)
    edited = [n.model_copy(update={"text": n.text.replace("d12", "d20")}) for n in table.notes]
    mine = TableLibrary(
        [Pack(id="mine", title="mine", tables=[table.model_copy(update={"notes": edited}) if t.id == table.id else t
                                               for t in bundled_library])]
    )  # fmt: skip
    roller = TableRoller(mine, Dice(ScriptedSource([17])), MissingRowPolicy.ASK)
    part = ct._part(roller, "5000**", "gems")
    assert part.multiplier is not None and part.multiplier.expression == "d20" and part.multiplier.final == 17


def test_the_characters_forcing_a_door_read_the_table(bundled_library: TableLibrary) -> None:
    from d100gui.engine.protocol import CommandRefused
    from d100gui.engine.toolbox.classic import underworld as cu

    row = bundled_library.get(cu.TIME_TABLE).find_key("Characters forcing a door")
    assert row is not None and row.fields["value"] == "up to 3" and "up to 3 characters" in row.fields["rule"]
    assert cu.max_forcers(bundled_library) == cu.MAX_FORCERS == 3
    [forced] = make(bundled_library, 6, 6, 6).execute(pc.ClassicUnderworldCheck(procedure="force_door", characters=3))
    assert "rolled 6, 6, 6" in forced.message
    mine = _edited(bundled_library, cu.TIME_TABLE, {"Characters forcing a door": "up to 2"})
    with pytest.raises((CommandRefused, ValueError), match="1 to 2"):
        make(mine, 6, 6, 6).execute(pc.ClassicUnderworldCheck(procedure="force_door", characters=3))
