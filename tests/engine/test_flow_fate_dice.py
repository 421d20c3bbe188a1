"""Fate re-rolls "any dice of a roll they have just made": the flow answers a waiting d100 test with Fate on every
die and on each die alone (issue 19: the strip's Fate), and each answer re-rolls what it says, with scripted dice."""

from __future__ import annotations

from test_flow import GREEN, answer, d100, on_quest, waiting


def test_a_waiting_d100_test_offers_fate_on_both_dice_and_on_each_alone():
    s = on_quest(fate=3)
    s.script_dice([*d100(GREEN), *d100(3)])  # Table G 3: PENDULUM TRAP (Test: Dex -10, target 30)
    s.run({"kind": "turn_move", "side": "N"})
    s.script_dice([8, 5])  # 85: a failure
    answer(s, waiting(s, "called_test")["answers"][0]["key"])
    test = waiting(s, "test_roll")
    fate = {a["key"]: a for a in test["answers"] if a["key"].startswith("fate_")}
    every, tens, units = (f"fate_{test['id']}{end}" for end in ("", "_0", "_1"))
    assert set(fate) == {every, tens, units} and all(a["enabled"] for a in fate.values())
    assert fate[tens]["label"] == "Fate: tens only" and fate[tens]["command"]["dice"] == [0]
    s.script_dice([1])  # the tens die alone: 85 becomes 15
    answer(s, tens)
    [pending] = [d for d in s.pending if d.decision == "test_roll"]
    assert pending.roll.natural == 15 and pending.success
    assert s.campaign.character.fate == 2
