"""Issue 19 (confusing): the fight odds say what the rest of the simulated fights did, warn when a
Life (or RES) may be spent (from the engine's :func:`life_warning`, never a rule in the widget), and
keep spaces round the separator ("40%·Monster" read as one word). Through the combat panel showing a
fight started with the real StartCombat command."""

from __future__ import annotations

import pytest

from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.combat.odds import FightOdds, life_warning
from tests.ui.combat.test_first_hour_ui import fight, make_hero

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_separator_between_the_odds_leaves_a_space_each_side(qtbot, make_window):
    table, panel = make_window(make_hero())
    fight(table, panel, typed_monster("Goblin", av=40, hp=10, defence=1))
    qtbot.wait(10)
    hit, monster = panel.hit_odds, panel.monster_odds
    gap = monster.mapTo(panel, monster.rect().topLeft()).x() - hit.mapTo(panel, hit.rect().topRight()).x()
    assert gap >= hit.fontMetrics().horizontalAdvance(" · ")


def test_the_odds_say_what_the_rest_of_the_fights_did(qtbot, make_window):
    table, panel = make_window(make_hero())
    fight(table, panel, typed_monster("Goblin", av=40, hp=10, defence=1))
    view = panel.odds_view
    assert view.meaning.isVisible()
    assert "you die in" in view.meaning.text() and "escapes" in view.meaning.text()
    assert "average" in view.meaning.text()


def test_a_life_about_to_be_spent_is_warned_of(qtbot, make_window):
    hero = make_hero()
    hero.lives, hero.hp = 1, 2  # 2 HP left against a monster that hits hard: the Life is at stake
    table, panel = make_window(hero)
    fight(table, panel, typed_monster("Troll", av=80, hp=40, defence=3, dmg=5))
    view = panel.odds_view
    assert view.odds is not None and view.odds.life_used > 0.5
    assert view.life_warning.isVisible()
    assert view.life_warning.text() == life_warning(view.odds) and "Life" in view.life_warning.text()


def test_no_warning_when_no_life_can_be_spent(qtbot, make_window):
    table, panel = make_window(make_hero())  # no Lives, no RES
    fight(table, panel, typed_monster("Goblin", av=40, hp=10, defence=1))
    assert not panel.odds_view.life_warning.isVisible()


def test_life_warning_reads_the_simulated_share():
    base = dict(
        win=0.5,
        lose=0.1,
        monster_escapes=0.0,
        expected_hp_lost=3.0,
        hero_hit_chance=0.5,
        monster_hit_chance=0.4,
        fights=100,
        seed=0,
    )
    assert life_warning(FightOdds(life_used=0.0, **base)) == ""
    assert "under 1%" in life_warning(FightOdds(life_used=0.004, **base))
    assert "37%" in life_warning(FightOdds(life_used=0.37, **base))
