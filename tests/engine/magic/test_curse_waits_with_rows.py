"""A curse waiting for its Table C row is one of the campaign's rolls waiting for a row
(``adventure.rows_waiting``, engine/dice/waiting.py): it outlives the quest it was rolled in, as it did when it
waited apart (``town.curse_waiting``), while an effect's roll waiting on a dice-history line ends with the quest."""

from __future__ import annotations

from d100gui.engine import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.waiting import RowWaiting, curse_waiting
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage.resources import bundled_game_data, bundled_rules


def _on_quest() -> Session:
    campaign = Campaign()
    campaign.meta.seed = 7
    ch = new_character(bundled_rules())
    ch.creation = None
    ch.name = "Aria"
    ch.hp_primary = ch.hp = 20
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 10, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    campaign.character = ch
    s = Session(bundled_game_data(), campaign)
    s.run({"kind": "begin_quest"})
    s.script_dice([2, 2])  # Table M 22: a yellow crossroads, no doors
    s.run({"kind": "turn_enter"})
    s.seeded_dice()
    return s


def test_a_curse_rolled_on_a_quest_still_waits_once_the_quest_ends_and_an_effects_roll_does_not():
    s = _on_quest()
    s.script_dice([5, 0])  # Table C 50: a row the excerpt lacks
    s.run({"kind": "roll_curse"})
    rolled = curse_waiting(s.campaign.adventure.rows_waiting)
    assert rolled is not None and rolled.roll.final == 50
    [curse] = s.campaign.adventure.rows_waiting
    assert curse.then == "curse" and curse.entry is None and curse.table_roll == rolled
    effect = RowWaiting(entry=0, table_id="d100.F", source="Search")  # as a search's Table F roll would wait
    s.campaign.adventure.rows_waiting.append(effect)
    assert not any(a["key"] == "row_None" for w in s.flow()["waiting"] for a in w["answers"])

    s.run({"kind": "fail_quest"})
    assert s.campaign.adventure.rows_waiting == [curse]  # the effect's roll ended with the quest, the curse did not
    [shown] = [w for w in s.flow()["waiting"] if w["kind"] == "curse"]
    assert [a["key"] for a in shown["answers"]] == ["curse_row", "curse_sample"]
    s.script_dice([0, 3])  # re-rolled among the printed rows: Table C 3
    s.run(next(a["command"] for a in shown["answers"] if a["key"] == "curse_sample"))
    assert s.campaign.adventure.rows_waiting == []
