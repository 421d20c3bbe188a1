"""The hall of the fallen's mark and the death's cause and date, from the campaign and its log."""

from __future__ import annotations

from town_support import game_for, hero, run, scripted

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.events import CombatStarted, HeroDied
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.events import HeroFell
from d100gui.engine.hero.fallen import Death, death_in, death_of, describe, fallen_hero, how, read_only_reason, when
from d100gui.engine.protocol import Event


def test_a_living_hero_or_none_is_not_fallen():
    assert fallen_hero(Campaign()) is None and read_only_reason(Campaign()) == ""
    assert fallen_hero(Campaign(character=hero())) is None


def test_a_hero_laid_to_rest_or_marked_dead_marks_the_campaign():
    ch = hero()
    laid = Campaign(hall_of_fallen=[ch])
    assert fallen_hero(laid) is ch and "Wilma has fallen" in read_only_reason(laid)
    ch.dead = True
    assert fallen_hero(Campaign(character=ch)) is ch
    # an older save's way: the dead in the hall, a new living hero playing on
    assert fallen_hero(Campaign(character=hero(), hall_of_fallen=[ch])) is None


def test_the_newest_death_event_gives_the_cause_and_the_date():
    entries = [
        LogEntry(index=0, command={"kind": "x"}, at="2026-01-01T10:00:00"),
        LogEntry(
            index=1,
            command={"kind": "y"},
            events=[Event.of(HeroFell(name="Wilma", source="Table C: Divine Wrath"))],
            at="2026-01-02T11:30:00",
        ),
    ]
    death = death_in(entries)
    assert death == Death(cause="Table C: Divine Wrath", at="2026-01-02T11:30:00", log_index=1)
    assert describe("Wilma", death) == "Wilma fell on 2026-01-02 11:30 (Table C: Divine Wrath)."
    assert death_in(entries[:1]) is None and when("2026-01-02T11:30:00.123") == "2026-01-02 11:30"
    assert describe("", Death()) == "An unnamed hero fell."


def test_a_curse_that_kills_outside_a_fight_is_the_death_event():
    ch = hero()
    ch.lives = 0
    game = game_for(ch)
    scripted(game, 0, 1)  # Table C 1: DIVINE WRATH, no Lives to lose
    run(game, "roll_curse")
    campaign = game.campaign
    assert fallen_hero(campaign) is ch and campaign.character is None
    death = death_of(campaign)
    assert death is not None and death.cause == "Divine Wrath" and death.at == campaign.log[-1].at and death.log_index == 0


def test_a_death_in_a_fight_names_the_monster_from_the_fight_start():
    started = Event.of(CombatStarted(monster=typed_monster("Orc", av=90, hp=20, dmg=5)))
    entries = [
        LogEntry(index=0, command={"kind": "start_combat"}, events=[started]),
        LogEntry(index=1, command={"kind": "combat_attack"}, events=[Event.of(HeroDied(reason="HP 0 and no Lives left"))]),
    ]
    death = death_in(entries)
    assert death is not None and death.foe == "Orc" and how(death) == "HP 0 and no Lives left, fighting Orc"
