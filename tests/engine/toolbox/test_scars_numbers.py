"""Deliver 2 of issue 22 for the d20 scars combat: the morale base, the encounter distance, the scars check, the
Rounds unconscious, the pack search and the Turn's encounter check are read from d20.rules (each rule quoted
from the text); a changed value changes the result through the commands; without the table, the text's."""

from __future__ import annotations

from pathlib import Path

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import Game
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, resource_dir, standard_tilesets

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "d20-scars-combat.txt"


@pytest.fixture(scope="module")
def bundled() -> TableLibrary:
    return packs.load_library(user_data_dir()).library


def _edited(library: TableLibrary, values: dict[str, str]) -> TableLibrary:
    table = library.get(sc.RULES_TABLE)
    rows = [r.model_copy(update={"fields": {**r.fields, "value": values[r.key]}}) if r.key in values else r for r in table.rows]
    tables = [table.model_copy(update={"rows": rows}) if t.id == sc.RULES_TABLE else t for t in library]
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
    assert all(" ".join(r.fields["rule"].split()).lower() in flat for r in bundled.get(sc.RULES_TABLE).rows)
    assert sc.scars_numbers(bundled) == sc.ScarsNumbers()
    bare = TableLibrary([Pack(id="mine", title="mine", tables=[t for t in bundled if t.id != sc.RULES_TABLE])])
    assert sc.scars_numbers(bare) == sc.ScarsNumbers()


def test_morale_reads_its_base(bundled):
    [stood] = _game(bundled, 12).execute(tc.ScarsMoraleTest(hd=2))  # under 10 + 2: stands
    assert "morale d20 12 vs 12 (10 + HD 2): rallies" in stood.message
    mine = _edited(bundled, {"Morale test": "8 + HD"})
    [fled] = _game(mine, 12).execute(tc.ScarsMoraleTest(hd=2))
    assert "morale d20 12 vs 10 (8 + HD 2): breaks" in fled.message


def test_distance_scars_check_pack_and_clock_read_the_table(bundled):
    mine = _edited(
        bundled,
        {
            "Encounter distance": "3d6 x 5",
            "Scars check": "3d6",
            "Rounds unconscious": "Xd4",
            "Pack search": "1d4",
            "Random encounter on": "2",
        },
    )
    [far] = _game(mine, 1, 2, 3).execute(tc.ScarsDistanceRoll())
    assert "Encounter distance 3d6 6 x 5: 30 feet." in far.message
    [woke] = _game(mine, 4, 4, 4, 3).execute(tc.ScarsZeroHealthCheck(scars=0))  # 3d6 12 over 1 Scar; 1d4 3
    assert "3d6 12 vs 1 Scars: survives, wakes at 1 health in 3 rounds (1d4)" in woke.message
    [found] = _game(mine, 15, 4).execute(tc.ScarsPackRetrieve(cunning=10))  # over Cunning: 1d4 rounds searching
    assert found.payload().result.search_roll is not None and found.payload().result.search_roll.expression == "1d4"
    [step] = _game(mine, 1, 2, 2).execute(tc.ScarsClockAdvance(count=3))
    assert "encounter checks 1 2 2: 2 encounter(s)" in step.message
    [text_step] = _game(bundled, 1, 2, 2).execute(tc.ScarsClockAdvance(count=3))
    assert "encounter checks 1 2 2: 1 encounter(s)" in text_step.message


def test_the_system_s_die_is_the_table_s(bundled):
    # shipped: the text's d20, quoted beside "rolling 1d20 versus their Agility"
    row = bundled.get(sc.RULES_TABLE).find_key("The system's die")
    assert row is not None and row.fields["value"] == "d20" and "1d20" in row.fields["rule"]
    assert sc.scars_numbers(bundled).die == sc.SYSTEM_DIE == "1d20"
    [text] = _game(bundled, 20).execute(tc.ScarsInitiativeRoll(agility=12))
    assert "initiative d20 20 vs Agility 12" in text.message
    # the player's d12: each of the system's checks rolls it (faces a d20 has but a d12 lacks are refused)
    from d100gui.engine.toolbox import procedure_commands as pc

    mine = _edited(bundled, {"The system's die": "d12"})
    for command, words in (
        (tc.ScarsInitiativeRoll(agility=12), "initiative d12 12 vs Agility 12"),
        (tc.ScarsMoraleTest(hd=2), "morale d12 12 vs 12"),
        (tc.ScarsHirelingMoraleTest(cunning=12, hd=1), "hireling morale d12 12"),
        (tc.ScarsAttack(attribute=12, armour_class=3), "d12 12"),
        (pc.ScarsRitualCheck(cunning=12), "Ritual: d12 12"),
    ):
        events = _game(mine, 12, 3).execute(command)
        assert events[0].payload().result.roll.expression == "1d12" and words in events[0].message, command
    [pack] = _game(mine, 12).execute(tc.ScarsPackRetrieve(cunning=12, search=False))
    assert "pack d12 12 vs Cunning 12" in pack.message


def test_the_morale_test_comes_at_the_table_s_share_of_health(bundled):
    row = bundled.get(sc.RULES_TABLE).find_key("Morale at")
    assert row is not None and row.fields["value"] == "1/2 health" and "half health" in row.fields["rule"]
    assert sc.scars_numbers(bundled).morale_at == sc.MORALE_AT == 0.5

    def hit(library: TableLibrary) -> str:
        # Vera (Might 12) hits the Orc (AC 5, 10 health) with a d20 8 and 1d6 6: the Orc is at 4 of 10
        game = _game(library, 8, 6)
        fighters = [
            sc.ScarsFighter(name="Vera", health=6, max_health=6),
            sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=10, max_health=10, hd=1),
        ]
        game.execute(tc.ScarsStartEncounter(fighters=fighters))
        [attack, *_] = game.execute(tc.ScarsAttack(attacker="Vera", target="Orc", attribute=12, in_encounter=True))
        return attack.message

    assert "half health: test morale" in hit(bundled)  # 4 of 10: at or under half
    assert "test morale" not in hit(_edited(bundled, {"Morale at": "1/4 health"}))  # 4 is over a quarter of 10


def test_an_exact_roll_on_the_ac_knocks_off_the_table_s_points(bundled):
    rows = {r.key: r.fields["value"] for r in bundled.get(sc.RULES_TABLE).rows}
    assert (rows["AC lost on an exact roll"], rows["Armour breaks at AC"]) == ("1", "0")
    # d20 5 against attribute 12 and AC 5: exactly the AC, no damage; the text's 1 off: AC 4
    [attack] = _game(bundled, 5).execute(tc.ScarsAttack(attribute=12, armour_class=5))
    result = attack.payload().result
    assert (result.new_armour_class, result.armour_broken) == (4, False)
    mine = _edited(bundled, {"AC lost on an exact roll": "2", "Armour breaks at AC": "3"})
    [attack] = _game(mine, 5).execute(tc.ScarsAttack(attribute=12, armour_class=5))
    result = attack.payload().result
    assert (result.new_armour_class, result.armour_broken) == (3, True)
