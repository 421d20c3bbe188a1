"""A new round's step rows are the last round's rows told the new steps (issue 18's performance): a row made anew
costs its widgets, their style and their first layout, ~1-2 ms each, and a new round rebuilt every row of the view."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.protocol import Event
from d100gui.engine.quest.events import TurnEnded
from d100gui.ui.combat.record import FightRecord, Section, Step
from d100gui.ui.combat.steps_view import StepRow, StepsView

pytestmark = pytest.mark.gui


def round_of(number: int, *steps: Step, events: int) -> FightRecord:
    return FightRecord(
        start=0, end=-1, sections=[Section(number, list(steps))], events=[Event.of(TurnEnded(number=1), "")] * events
    )


def rolled(*faces: int):
    """A d100 roll with these faces (tens, units)."""
    return Dice(ScriptedSource(list(faces))).roll("d100", purpose="attack")


def test_a_new_rounds_rows_reuse_the_last_rounds_and_show_the_new_words(qtbot):
    view = StepsView()
    qtbot.addWidget(view)
    view.show()
    first = [Step("Round 1", kind="round"), Step("You attack", ["Hit: 5"], [rolled(3, 4)], kind="roll", event="hero_attacked")]
    first.append(Step("The monster attacks", ["Miss"], [rolled(9, 9)], kind="roll", event="monster_attacked"))
    view.show_record(round_of(1, *first, events=3))
    assert view.rows_made == 3
    second = [Step("Round 2", kind="round"), Step("You attack", ["Hit: 4"], [rolled(2, 2)], kind="roll", event="hero_attacked")]
    second.append(Step("The monster attacks", ["Miss"], [rolled(7, 7)], kind="roll", event="monster_attacked"))
    view.show_record(round_of(2, *second, events=6))
    made = view.rows_made  # a row dropped is kept for the next step built the same way
    third = [Step("Round 3", kind="round"), Step("You attack", ["Hit: 7"], [rolled(8, 1)], kind="roll", event="hero_attacked")]
    third.append(Step("The monster attacks", ["It hits for 2"], [rolled(0, 5)], kind="roll", event="monster_attacked"))
    view.show_record(round_of(3, *third, events=9))
    assert view.rows_made == made  # round 3's rows: the rows rounds 1 and 2 left, told round 3's steps
    assert [r.step for r in view.step_rows] == third
    texts = [r.text_label.text() for r in view.step_rows]
    assert "Round 3" in texts[0] and "Hit: 7" in texts[1] and "It hits for 2" in texts[2]
    drawn = [[f.face for f in v.faces()] for r in view.step_rows for v in r.dice_views]
    assert drawn == [[8, 1], [0, 5]]  # the new rolls' dice on the kept views
    assert [v.text() for r in view.step_rows for v in r.values] == ["81", "5"]
    shown = [r for r in view.findChildren(StepRow) if not r.isHidden()]
    assert sorted(map(id, shown)) == sorted(map(id, view.step_rows))  # no row of an earlier round left showing
