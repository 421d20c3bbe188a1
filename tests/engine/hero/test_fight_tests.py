"""A test the fight is waiting on belongs to the fight (issue 10 #10): the skill-test commands
refuse it with the reason, and the fight carries on. Played through the public engine API."""

from __future__ import annotations

import pytest

from d100gui.engine import CommandRefused, Session, creation_steps
from d100gui.storage.resources import bundled_game_data

GOBLIN = {"name": "Goblin", "av": 40, "defence": 1, "dmg": 0, "hp": [1]}


def waiting_on_the_attack_test() -> Session:
    """Brana fights a goblin with Fate windows: reaction 5 accepted, then the attack test rolls 80."""
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    assert session.character.fate > 0
    session.script_dice([5])
    session.run({"kind": "start_combat", "source": "monster", "monster": GOBLIN, "fate_windows": True})
    session.run({"kind": "combat_continue"})
    session.script_dice([8, 0])
    session.run({"kind": "combat_attack"})
    assert session.combat.waiting == "test"
    return session


@pytest.mark.parametrize(
    "command",
    [{"kind": "accept_test"}, {"kind": "use_fate", "dice": [0]}, {"kind": "roll_test", "characteristic": "DEX"}],
    ids=["accept", "fate", "another test"],
)
def test_the_skill_test_commands_refuse_the_fights_waiting_test(command):
    session = waiting_on_the_attack_test()
    fight_test = session.combat.test.decision
    if command["kind"] == "accept_test":
        command = {**command, "decision": fight_test}  # even when named
    before = session.campaign.model_dump(mode="json")
    with pytest.raises(CommandRefused, match="belongs to the fight"):
        session.run(command)
    assert session.campaign.model_dump(mode="json") == before  # nothing changed
    assert [d.id for d in session.pending] == [fight_test]


def test_the_fight_carries_on_after_the_refusal():
    session = waiting_on_the_attack_test()
    with pytest.raises(CommandRefused):
        session.run({"kind": "accept_test"})
    session.script_dice([9, 2])  # the goblin's attack roll, held for its Fate window
    events = session.run({"kind": "combat_continue"})  # the fight settles its own test: 80 misses
    assert "You miss." in " ".join(e["message"] for e in events)
    assert session.combat is not None and session.combat.test is None
