"""Deliver 2 of issue 22: the dice the classic text names without their sides are data (``classic.dice`` in
classic-procedures.json). Its bare "die" is read as a d6 (a reading: "a 50% chance (die 1-3)"), and a printed
percentage is rolled on the percentile die. The shipped rows are pinned against the text, a changed row changes
the tools' rolls (scripted dice), and without the table the text's dice are used."""

from __future__ import annotations

from pathlib import Path

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
