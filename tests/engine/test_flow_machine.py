"""Issue 18, Deliver 3: random command sequences through ``Session`` keep the procedure's invariants.

A hypothesis state machine plays the demo hero: it begins quests, clicks what the engine's flow
offers (enabled or not: a greyed action must be refused), and throws in bare map commands, raw
commands, undo and redo. After every step it checks:

- no turn moves the hero on without its time shaded (or owed to a monster the time track offered);
- no red area is entered for the first time in a quest without its encounter;
- no closed door opens in a quest without its procedure or a hand-correction mark;
- a fallen campaign never changes;
- undo then redo gives the same state;
- the load check accepts every state the commands reach, and a save reopens the same (issue 27 #2).

Bounded (few examples, short runs) so it stays well inside ``make test``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from d100gui.demo import build_demo_campaign
from d100gui.engine import CommandRefused, Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.checks import campaign_problems
from d100gui.engine.flow import flow
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.fallen import fallen_hero
from d100gui.storage.resources import bundled_game_data

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow

DATA = bundled_game_data()
DEMO = build_demo_campaign(DATA.library)
#: commands a turn's procedure may open a door with (a Table D test and its answers, or mapping an OPEN door)
DOOR_PROCEDURE = {
    "try_door",
    "roll_test",
    "accept_test",
    "use_fate",
    "choose_outcome",
    "choose_target",
    "turn_move",
    "turn_enter",
    "enter_dungeon",
    "resolve_door_row",
    "new_dungeon",
}
RAW = [
    {"kind": "move_hero", "side": "N"},
    {"kind": "move_hero", "side": "E"},
    {"kind": "enter_dungeon"},
    {"kind": "leave_dungeon"},
    {"kind": "begin_quest"},
    {"kind": "fail_quest"},
    {"kind": "begin_town"},
    {"kind": "finish_town"},
    {"kind": "advance_time", "clocks": 2},
    {"kind": "roll_dice", "expression": "d100"},
    {"kind": "new_dungeon", "enter": True},
    {"kind": "set_sheet_field", "field": "hp", "value": 1},
    {"kind": "set_sheet_field", "field": "lives", "value": 0},
    {"kind": "start_combat"},
    {"kind": "learn_spell", "spell": "Heal"},
]


def _doors(campaign: Campaign) -> dict[tuple[str, str, str], bool]:
    out: dict[tuple[str, str, str], bool] = {}
    for dungeon in campaign.dungeons.dungeons:
        for key, area in dungeon.areas.items():
            for side, exit_ in area.exits.items():
                if exit_.door is not None:
                    out[(dungeon.id, key, str(side))] = exit_.door.is_open
    return out


def _hero_spot(campaign: Campaign) -> tuple[str, str] | None:
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is None:
        return None
    area = dungeon.hero_area()
    return (dungeon.id, area.key) if area is not None else None


class FlowMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        campaign = DEMO.model_copy(deep=True)
        campaign.adventure.quest = campaign.adventure.turn = None
        self.session = Session(DATA, campaign, policy="reroll")
        self.last: LogEntry | None = None
        self.before: Campaign = campaign.model_copy(deep=True)
        self.fallen_json: str | None = None

    # ------------------------------------------------------------------ playing
    def _run(self, command: dict[str, Any]) -> None:
        campaign = self.session.campaign
        self.before = campaign.model_copy(deep=True)
        length = campaign.log_length
        fallen = fallen_hero(campaign) is not None
        frozen = campaign.model_dump_json() if fallen else None
        try:
            self.session.run(command)
        except CommandRefused:
            self.last = None
            assert self.session.campaign.log_length == length  # a refusal changes nothing
            return
        finally:
            if frozen is not None:
                assert self.session.campaign.model_dump_json() == frozen, "a fallen campaign changed"
        assert not fallen, f"{command['kind']} ran on a fallen campaign"
        self.last = self.session.campaign.log[-1]

    @rule(pick=st.integers(0, 10**6), enabled_only=st.booleans())
    def click(self, pick: int, enabled_only: bool) -> None:
        made = flow(self.session.campaign, DATA.rules, DATA.library)
        answers = [a for w in made.waiting for a in w.answers]
        choices = [a for a in (*answers, *made.actions) if a.enabled or not enabled_only]
        if not choices:
            return
        action = choices[pick % len(choices)]
        if action.asks_row:
            return
        self._run(action.command.model_dump(mode="json"))

    @rule(pick=st.integers(0, 10**6))
    def answer_what_waits(self, pick: int) -> None:
        """Answer what the game waits for (a fight to its end, a test, a decision), as a player clicking on would."""
        for _ in range(40):
            made = flow(self.session.campaign, DATA.rules, DATA.library)
            answers = [a for w in made.waiting for a in w.answers if a.enabled and not a.asks_row]
            if not answers:
                return
            length = self.session.campaign.log_length
            self._run(answers[pick % len(answers)].command.model_dump(mode="json"))
            self.check_all()
            if self.session.campaign.log_length == length:
                return

    @invariant()
    def the_load_check_accepts_what_the_engine_accepted(self) -> None:
        """Issue 27 #2: one set of range rules: nothing the commands accept makes the campaign unopenable."""
        assert campaign_problems(self.session.campaign, DATA.rules) == []

    def teardown(self) -> None:
        """Saved and reopened, the campaign is the same (and still passes the load check)."""
        text = self.session.campaign.model_dump_json()
        again = Campaign.model_validate_json(text)
        assert again.model_dump_json() == text and campaign_problems(again, DATA.rules) == []

    def check_all(self) -> None:
        self.turns_shade_their_time()
        self.red_areas_are_encountered()
        self.doors_open_by_their_procedure()

    @rule(side=st.sampled_from("NESW"))
    def turn(self, side: str) -> None:
        """What a click on an exit sends in a quest: step in first, then move on."""
        if self.session.campaign.adventure.quest is None:
            self._run({"kind": "begin_quest"})
        elif _hero_spot(self.session.campaign) is None:
            self._run({"kind": "turn_enter"})
        else:
            dungeon = self.session.campaign.dungeons.current_dungeon
            area = dungeon.hero_area() if dungeon is not None else None
            sides = sorted(str(k) for k in area.exits) if area is not None else []
            pick = sides["NESW".index(side) % len(sides)] if sides else side
            self._run({"kind": "turn_move", "side": pick})

    @rule(kind=st.sampled_from(["turn_search", "turn_end", "turn_fight"]))
    def turn_step(self, kind: str) -> None:
        self._run({"kind": kind})

    @rule(side=st.sampled_from("NESW"), kind=st.sampled_from(["open_door", "try_door"]))
    def door(self, side: str, kind: str) -> None:
        spot = _hero_spot(self.session.campaign)
        if spot is None:
            return
        command: dict[str, Any] = {"kind": kind, "pos": spot[1], "side": side}
        if kind == "try_door":
            command["method"] = "force"
        self._run(command)

    @rule(index=st.integers(0, len(RAW) - 1))
    def raw(self, index: int) -> None:
        self._run(RAW[index])

    @precondition(lambda self: self.session.game.can_undo)
    @rule()
    def undo_then_redo(self) -> None:
        game = self.session.game
        before = game.campaign.model_dump_json(exclude={"meta"})
        try:
            game.undo()
        except CommandRefused:
            return
        game.redo()
        assert game.campaign.model_dump_json(exclude={"meta"}) == before, "undo then redo changed the state"
        self.last = None

    # ------------------------------------------------------------------ the procedure's invariants
    @invariant()
    def turns_shade_their_time(self) -> None:
        """Moving on in a quest (Turns steps 2-4) shades the time track first (or owes it to the monster it offered)."""
        entry, old, now = self.last, self.before, self.session.campaign
        if entry is None or entry.manual or old.adventure.quest is None or now.adventure.quest is None:
            return  # a hand correction (a new sheet in a quest) is the player's word, marked in the log
        was, spot = _hero_spot(old), _hero_spot(now)
        if was is None or spot is None or was == spot or old.character is None or now.character is None:
            return
        shaded = now.character.time_track.total > old.character.time_track.total
        assert shaded or now.adventure.clocks_owed > 0 or now.adventure.fight_offered is not None, (
            f"{entry.command['kind']} moved the hero on in turn {now.adventure.turn and now.adventure.turn.number} "
            "without shading its time"
        )

    @invariant()
    def red_areas_are_encountered(self) -> None:
        entry, old, now = self.last, self.before, self.session.campaign
        if entry is None or old.adventure.quest is None or now.adventure.quest is None:
            return
        spot = _hero_spot(now)
        if spot is None or spot == _hero_spot(old):
            return
        dungeon = now.dungeons.current_dungeon
        assert dungeon is not None
        area = dungeon.areas[spot[1]]
        was = next((d for d in old.dungeons.dungeons if d.id == spot[0]), None)
        new = was is None or spot[1] not in was.areas
        if area.colour != "R" or not new:
            return
        kinds = {e.kind for e in entry.events}
        assert kinds & {"area_resolved", "combat_started", "fight_offered"}, (
            f"{entry.command['kind']} entered a new red area with no encounter"
        )

    @invariant()
    def doors_open_by_their_procedure(self) -> None:
        entry, old, now = self.last, self.before, self.session.campaign
        if entry is None or old.adventure.quest is None:
            return
        was = _doors(old)
        opened = [k for k, is_open in _doors(now).items() if is_open and was.get(k) is False]
        if opened:
            assert entry.manual or entry.command["kind"] in DOOR_PROCEDURE, (
                f"{entry.command['kind']} opened {opened} with no procedure and no hand-correction mark"
            )


FlowMachine.TestCase.settings = settings(
    max_examples=10,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize=True,
)
test_flow_machine = FlowMachine.TestCase
