"""The toolbox commands through the game: declared events with typed payloads, state in and out, log, undo, replay."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import Game, replay
from d100gui.engine.protocol import EVENT_KINDS, CommandRefused, Event
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox import scars as sc
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.engine.toolbox.events import ExploreTurnsSpent, InjuryRolled, ScarsAttacked, TravelEncounterMet
from d100gui.engine.toolbox.state import ToolboxState
from d100gui.storage.resources import bundled_rules, standard_tilesets


def make(bundled_library, *faces: int) -> Game:
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    game = Game(Campaign(), library, TOOLBOX_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    if faces:
        game.override = ScriptedSource(faces)
    return game


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_every_command_kind_is_a_toolbox_kind_and_every_event_is_declared_on_the_log():
    assert all(c.model_fields["kind"].default.startswith("toolbox_") for c in TOOLBOX_COMMANDS)
    assert len({c.model_fields["kind"].default for c in TOOLBOX_COMMANDS}) == len(TOOLBOX_COMMANDS)
    toolbox = {k: v for k, v in EVENT_KINDS.items() if k.startswith("toolbox_")}
    assert len(toolbox) == 23 and all(v.topic == "log" and v.doc for v in toolbox.values())  # 23: toolbox_run_continued


def test_an_attack_in_an_encounter_comes_back_with_the_encounter(bundled_library):
    game = make(bundled_library, 10, 2)
    encounter = sc.ScarsEncounter(
        fighters=[
            sc.ScarsFighter(name="Vera", armour_class=4, health=6, max_health=6, scars=2),
            sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=10, max_health=10, hd=2),
        ]
    )
    command = tc.ScarsAttack(attribute=12, encounter=encounter, attacker="Vera", target="Orc", sign=sc.ScarsSign.PLUS)
    [event] = game.execute(game.parse_command(command.model_dump(mode="json")))
    payload = event.payload()
    assert isinstance(payload, ScarsAttacked) and payload.encounter is not None
    assert payload.result.outcome is sc.AttackOutcome.STUN and payload.encounter.fighter("Orc").health == 8
    assert event.message == payload.result.describe()
    assert [r.expression for r in game.campaign.log[0].rolls] == ["1d20", "1d6"]
    again = command.model_copy(update={"encounter": payload.encounter})
    with pytest.raises(CommandRefused, match="once per initiative round"):
        game.execute(again)
    assert len(game.campaign.log) == 1  # refused: nothing logged


def test_the_scars_modifier_after_the_roll_through_a_command(bundled_library):
    game = make(bundled_library, 7, 2)
    encounter = sc.ScarsEncounter(
        fighters=[
            sc.ScarsFighter(name="Vera", health=6, max_health=6, scars=1),
            sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=6, health=10, max_health=10, hd=2),
        ]
    )
    [hit] = game.execute(tc.ScarsAttack(attribute=12, encounter=encounter, attacker="Vera", target="Orc"))
    after = hit.payload().encounter  # type: ignore[attr-defined]
    [shifted] = game.execute(tc.ScarsModifyAttack(encounter=after, sign=sc.ScarsSign.MINUS))
    payload = shifted.payload()
    assert isinstance(payload, ScarsAttacked) and payload.result.outcome is sc.AttackOutcome.ARMOUR
    assert payload.encounter is not None and payload.encounter.fighter("Orc").armour_class == 5
    with pytest.raises(CommandRefused, match="Give the attack"):
        game.execute(tc.ScarsModifyAttack(sign=sc.ScarsSign.PLUS))


def test_out_of_range_input_is_refused_by_the_command(bundled_library):
    game = make(bundled_library, 5)
    with pytest.raises(CommandRefused, match="Attribute must be 1 to 20; 0 is out of range"):
        game.execute(tc.ScarsAttack(attribute=0))
    with pytest.raises(CommandRefused, match="HD must be 0 or more; -1 is out of range"):
        game.execute(tc.ScarsMoraleTest(hd=-1))
    assert game.campaign.log == []


def test_the_simple_scars_commands(bundled_library):
    game = make(bundled_library, 10, 3, 4, 6, 6, 12, 4, 10, 1, 1, 2, 5)
    events = game.execute(tc.ScarsInitiativeRoll(agility=10, name="Vera"))
    events += game.execute(tc.ScarsReactionRoll())
    events += game.execute(tc.ScarsDistanceRoll(outdoors=True))
    events += game.execute(tc.ScarsMoraleTest(hd=2, name="Orc"))
    events += game.execute(tc.ScarsHirelingMoraleTest(cunning=12, hd=3))
    events += game.execute(tc.ScarsPackRetrieve(cunning=10))
    events += game.execute(tc.ScarsZeroHealthCheck(scars=1))
    events += game.execute(tc.ScarsClockAdvance(count=1))
    assert kinds(events) == [
        "toolbox_scars_initiative", "toolbox_scars_reaction", "toolbox_scars_distance", "toolbox_scars_morale",
        "toolbox_scars_hireling_morale", "toolbox_scars_pack", "toolbox_scars_zero_health", "toolbox_scars_clock",
    ]  # fmt: skip
    messages = [e.message for e in events]
    assert "quick action" in messages[0] and "Uninterested" in messages[1] and "120 yards" in messages[2]
    assert "rallies" in messages[3] and "stays loyal" in messages[4] and "usable this round" in messages[5]
    assert "dies" in messages[6] and "1 encounter(s)" not in messages[7]


def test_the_dungeon_clock_commands_emit_the_light_warning_and_burn_out(bundled_library):
    game = make(bundled_library, 12, 12)
    [lit] = game.execute(tc.ExploreLight(item="Torch"))
    clock = lit.payload().clock  # type: ignore[attr-defined]
    [spent, low] = game.execute(tc.ExploreSpend(clock=clock, turns=95, action="wait"))
    assert low.kind == "toolbox_light_low" and "running low" in low.message
    step = spent.payload()
    assert isinstance(step, ExploreTurnsSpent)
    events = game.execute(tc.ExploreSpend(clock=step.result.clock, action="pick a lock"))
    assert kinds(events) == ["toolbox_explore_turns", "toolbox_dungeon_encounter_check", "toolbox_light_out"]
    with pytest.raises(CommandRefused, match="Choose an action"):
        game.execute(tc.ExploreSpend())


def test_the_travel_clock_command_stops_at_the_encounter(bundled_library):
    game = make(bundled_library, 1, 2, 5, 1, 7)
    events = game.execute(tc.TravelSpend(action="fortify camp"))
    events += game.execute(tc.TravelSpend(clock=events[0].payload().result.clock, hours=4))  # type: ignore[attr-defined]
    assert kinds(events) == [
        "toolbox_travel_hours",
        "toolbox_travel_encounter_check",
        "toolbox_travel_hours",
        "toolbox_travel_encounter",
    ]
    met = events[-1].payload()
    assert isinstance(met, TravelEncounterMet) and met.check.hour == 5 and met.clock.hour_of_round == 5


def test_push_on_rest_and_injury_commands(bundled_library):
    game = make(bundled_library, 4, 4, 4, 2, 4, 9, 9, 0, 5, 3)
    [pushed] = game.execute(tc.PushOn(party=[ex.Traveller(name="Ash", hd=2)]))
    [rested] = game.execute(tc.Rest(rest=ex.RestKind.SHORT, hd=1, wounds=2, heal_check=True))
    [injury] = game.execute(tc.RollInjury())
    assert pushed.kind == "toolbox_push_on" and "no injury" in pushed.message
    assert rested.kind == "toolbox_rest" and "then 2, 4 on the wounds" in rested.message
    result = injury.payload()
    assert isinstance(result, InjuryRolled) and result.result.again[0].injury == "sprained ankle"


def test_a_rest_on_a_clock_passes_its_time_first(bundled_library):
    game = make(bundled_library, 12, 12, 4, 4)
    events = game.execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=10, clock=ex.DungeonClock()))
    assert kinds(events) == ["toolbox_explore_turns", "toolbox_dungeon_encounter_check", "toolbox_rest"]
    events = game.execute(tc.Rest(rest=ex.RestKind.SHORT, travel=ex.TravelClock()))
    assert kinds(events) == ["toolbox_travel_hours", "toolbox_travel_encounter_check", "toolbox_rest"]
    with pytest.raises(CommandRefused, match="travel clock"):
        game.execute(tc.Rest(rest=ex.RestKind.FULL, clock=ex.DungeonClock()))


def test_undo_and_replay_give_the_same_toolbox_rolls(bundled_library):
    game = make(bundled_library)
    start = game.campaign.model_copy(deep=True)
    first = game.execute(tc.RollInjury())
    game.undo()
    assert game.execute(tc.RollInjury())[0].data == first[0].data
    game.execute(tc.TravelSpend(hours=20))
    replayed = replay(
        game.campaign.log, game.library, TOOLBOX_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert [e.data for x in replayed.log for e in x.events] == [e.data for x in game.campaign.log for e in x.events]


def test_the_toolbox_state_round_trips_through_json(bundled_library):
    state = ToolboxState(scars_encounter=sc.ScarsEncounter(fighters=[sc.ScarsFighter(name="Vera")]))
    clock, _ = ex.light(state.dungeon_clock, bundled_library.get(ex.DURATIONS_TABLE), "Lantern")
    state = state.model_copy(update={"dungeon_clock": clock})
    assert ToolboxState.model_validate_json(state.model_dump_json()) == state
    assert ToolboxState.model_validate({}) == ToolboxState()


# --------------------------------------------------------------------------- state kept in the campaign


def test_the_dungeon_clock_lives_in_the_campaign_and_undo_puts_it_back(bundled_library):
    game = make(bundled_library, 12, 12)
    game.execute(tc.ExploreLight(item="Torch"))
    game.execute(tc.ExploreSpend(turns=5, action="wait"))
    clock = game.campaign.toolbox.dungeon_clock
    assert clock.elapsed == 5 and clock.lights[0].name == "Torch" and clock.lights[0].burned == 5
    game.undo()
    assert game.campaign.toolbox.dungeon_clock.elapsed == 0 and game.campaign.toolbox.dungeon_clock.lights[0].burned == 0
    game.redo()
    assert game.campaign.toolbox.dungeon_clock == clock
    [snuffed] = game.execute(tc.ExploreSnuff(index=0))
    assert snuffed.kind == "toolbox_light_snuffed" and game.campaign.toolbox.dungeon_clock.lights == []


def test_a_saved_campaign_resumes_the_clocks_and_the_fight_exactly(bundled_library):
    game = make(bundled_library, 10, 2, 3, 5, 4, 4)
    fighters = [
        sc.ScarsFighter(name="Vera", armour_class=4, health=6, max_health=6, scars=2),
        sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=10, max_health=10, hd=2),
    ]
    game.execute(tc.ScarsStartEncounter(fighters=fighters))
    game.execute(tc.ScarsAttack(attribute=10, in_encounter=True, attacker="Vera", target="Orc"))
    game.execute(tc.ScarsClockAdvance(count=2))
    game.execute(tc.ExploreLight(item="Lantern"))
    game.execute(tc.TravelSpend(hours=3))
    saved = Campaign.model_validate_json(game.campaign.model_dump_json())
    assert saved.toolbox == game.campaign.toolbox
    encounter = saved.toolbox.scars_encounter
    assert encounter is not None and encounter.fighter("Orc").health == 8 and encounter.fighter("Orc").stunned
    assert saved.toolbox.scars_clock.turns == 2 and saved.toolbox.travel_clock.elapsed == 3
    assert saved.toolbox.dungeon_clock.lights[0].name == "Lantern"
    again = Game(saved, game.library, TOOLBOX_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    again.override = ScriptedSource([1])
    [round_two] = again.execute(tc.ScarsNextRound())
    assert round_two.payload().encounter.round == 2  # type: ignore[attr-defined]
    assert (
        again.campaign.toolbox.scars_encounter is not None and not again.campaign.toolbox.scars_encounter.fighter("Orc").stunned
    )


def test_the_fight_commands_need_a_fight_and_a_fight_needs_named_fighters(bundled_library):
    game = make(bundled_library, 10)
    with pytest.raises(CommandRefused, match="No scars fight"):
        game.execute(tc.ScarsAttack(attribute=12, in_encounter=True, attacker="Vera", target="Orc"))
    with pytest.raises(CommandRefused, match="No scars fight"):
        game.execute(tc.ScarsNextRound())
    with pytest.raises(CommandRefused, match="at least 2 fighters"):
        game.execute(tc.ScarsStartEncounter(fighters=[sc.ScarsFighter(name="Vera")]))
    with pytest.raises(CommandRefused, match="a name of their own"):
        game.execute(tc.ScarsStartEncounter(fighters=[sc.ScarsFighter(name="Vera"), sc.ScarsFighter(name="Vera ")]))
    assert game.campaign.log == [] and game.campaign.toolbox == ToolboxState()


def test_morale_and_the_scars_check_in_the_campaigns_fight(bundled_library):
    game = make(bundled_library, 12, 6, 6, 3, 4)
    fighters = [
        sc.ScarsFighter(name="Vera", health=0, max_health=6, scars=1),
        sc.ScarsFighter(name="Orc", side=sc.Side.ENEMY, armour_class=5, health=4, max_health=10, hd=2),
    ]
    game.execute(tc.ScarsStartEncounter(fighters=fighters))
    [morale] = game.execute(tc.ScarsMoraleTest(name="Orc", in_encounter=True))
    [check] = game.execute(tc.ScarsZeroHealthCheck(name="Vera", in_encounter=True))
    assert "rallies" in morale.message and "survives" in check.message
    encounter = game.campaign.toolbox.scars_encounter
    assert encounter is not None and encounter.fighter("Orc").rallied and encounter.fighter("Vera").scars == 2
    assert encounter.fighter("Vera").wakes_in_rounds == 3 + 4 and encounter.fighter("Orc").morale_tested


def test_a_rest_on_the_campaigns_clocks(bundled_library):
    game = make(bundled_library, 12, 12, 4, 4)
    events = game.execute(tc.Rest(rest=ex.RestKind.PARTIAL, minutes=10, on_clock="dungeon"))
    assert kinds(events) == ["toolbox_explore_turns", "toolbox_dungeon_encounter_check", "toolbox_rest"]
    assert game.campaign.toolbox.dungeon_clock.elapsed == 100
    events = game.execute(tc.Rest(rest=ex.RestKind.SHORT, on_clock="travel"))
    assert kinds(events) == ["toolbox_travel_hours", "toolbox_travel_encounter_check", "toolbox_rest"]
    assert game.campaign.toolbox.travel_clock.elapsed == 8
    with pytest.raises(CommandRefused, match="travel clock"):
        game.execute(tc.Rest(rest=ex.RestKind.FULL, on_clock="dungeon"))


def test_a_state_handed_in_still_wins_and_lands_in_the_campaign(bundled_library):
    game = make(bundled_library)
    game.execute(tc.TravelSpend(hours=2))
    given = ex.TravelClock(elapsed=10)
    [spent, *_] = game.execute(tc.TravelSpend(clock=given, hours=1))
    assert spent.payload().result.clock.elapsed == 11 == game.campaign.toolbox.travel_clock.elapsed  # type: ignore[attr-defined]
