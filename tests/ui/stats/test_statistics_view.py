"""View > Statistics (issue 24): opened through the real menu action, its plots hold the engine's figures."""

from __future__ import annotations

import csv
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QFileDialog

from d100gui.engine import Session, creation_steps
from d100gui.engine.stats import statistics_of
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_game_data
from d100gui.ui.common.settings import Preferences
from d100gui.ui.common.theme import palette_for
from d100gui.ui.main_window import MainWindow
from d100gui.ui.stats.window import StatisticsWindow, quest_tip

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise")]  # offscreen has no window stack

GOBLIN = {"name": "Goblin", "av": 40, "defence": 1, "dmg": 0, "hp": [1]}
ANSWERS: dict[str, dict[str, Any]] = {"action": {"kind": "combat_attack"}, "roll": {"kind": "combat_continue"}}


def hero_session() -> Session:
    """A hero made by the rulebook's steps on seeded dice (as docs/engine-api.md's example)."""
    session = Session.new(bundled_game_data(), seed=2037, policy="reroll")
    for step in creation_steps("Brana", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]):
        session.run(step)
        for decision in session.pending:
            if decision.decision == "armour_clash":
                session.run({"kind": "resolve_armour_clash", "decision": decision.id, "choice": "keep_new"})
    return session


def fight(session: Session, start: dict[str, Any]) -> dict[str, Any]:
    """Run a fight to its end; the combat_over event's data."""
    events = session.run(start)
    while session.combat is not None:
        events = session.run(ANSWERS[session.combat.waiting])
    for choice in [d for d in session.pending if d.decision == "experience"]:
        session.run({"kind": "assign_experience", "decision": choice.id, "choice": "characteristic"})
    data: dict[str, Any] = next(e for e in events if e["kind"] == "combat_over")["data"]
    return data


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=4)
    qtbot.addWidget(win)
    return win


def played(window: MainWindow):
    """A hero, a quest with a scripted fight won and given up, shown in the window."""
    session = hero_session()
    session.run({"kind": "begin_quest"})
    session.script_dice([5, 3, 0, 4, 1, 9, 0])  # the goblin dies at once (docs/engine-api.md)
    assert (
        fight(session, {"kind": "start_combat", "source": "monster", "monster": GOBLIN, "fate_windows": False})["outcome"]
        == "won"
    )
    session.seeded_dice()
    session.run({"kind": "fail_quest"})
    session.run({"kind": "roll_dice", "expression": "40d6"})
    window.bridge.set_game(session.game)
    return session


def send(window: MainWindow, command: dict[str, Any]) -> None:
    assert window.bridge.send(window.bridge.game.parse_command(command))


def open_statistics(window: MainWindow) -> StatisticsWindow:
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&View"]
    [action] = [a for a in menu.actions() if a.text() == "&Statistics..."]
    action.trigger()
    stats = window.stats_window
    assert isinstance(stats, StatisticsWindow) and stats.isVisible()
    return stats


def points(stats: StatisticsWindow, tab, name: str):
    [item] = [i for i in tab.plot.getPlotItem().items if i.objectName() == f"points_{name}"]
    return item


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_view_menu_opens_statistics_holding_the_figures(window, qtbot):
    session = played(window)
    stats = open_statistics(window)
    figures = statistics_of(session.game.campaign.log)
    assert stats.figures == figures
    hp = points(stats, stats.hero, "HP")
    xs, ys = hp.getData()
    assert list(xs) == [1] and list(ys) == [figures["campaign"]["over_quests"][0]["hp"]]
    [spot] = hp.points()
    assert spot.data() == "Quest 1: Dungeon Training 1"
    assert "Dungeon Training 1" in quest_tip(x=spot.pos().x(), y=spot.pos().y(), data=spot.data()), "hovering names the quest"
    assert stats.hero.table.item(0, 3).text() == "Failed"
    assert stats.fights.table.rowCount() == 0, "a tab is drawn when it comes to the front"
    stats.tabs.setCurrentWidget(stats.fights)
    assert [stats.fights.table.item(0, c).text() for c in range(4)] == ["Goblin", "1", "1", "0"]
    stats.tabs.setCurrentWidget(stats.dice)
    app_d6 = figures["dice"]["app"]["d6"]
    kinds = [stats.dice_kind.itemData(i) for i in range(stats.dice_kind.count())]
    stats.dice_kind.setCurrentIndex(kinds.index(("app", "d6")))
    [bars] = [i for i in stats.dice.plot.getPlotItem().items if type(i).__name__ == "BarGraphItem"]
    assert list(bars.opts["height"]) == app_d6["counts"] and sum(app_d6["counts"]) >= 40
    assert "p =" in stats.dice.plot.getPlotItem().titleLabel.text

    # each action adds its own entry: a second quest attempt appears, and undo takes it away
    stats.tabs.setCurrentWidget(stats.hero)
    for kind in ("begin_town", "finish_town", "begin_quest", "fail_quest"):
        send(window, {"kind": kind})
    assert [p["name"] for p in stats.figures["campaign"]["over_quests"]] == ["Dungeon Training 1", "Dungeon Training 2"]
    assert stats.figures == statistics_of(window.bridge.game.campaign.log)
    assert len(points(stats, stats.hero, "Gold").points()) == 2 and stats.hero.table.item(1, 1).text() == "Dungeon Training 2"
    window.bridge.undo()
    qtbot.waitUntil(lambda: stats.feed.ready)
    assert len(stats.figures["quests"]) == 2 and stats.figures["quests"][1]["outcome"] == "in_progress"
    assert len(points(stats, stats.hero, "HP").points()) == 1

    # closed, it draws nothing per action; opened again from the menu, it shows the figures of now
    stats.close()
    send(window, {"kind": "fail_quest"})
    assert len(points(stats, stats.hero, "HP").points()) == 1
    assert open_statistics(window) is stats and len(points(stats, stats.hero, "HP").points()) == 2
    assert stats.figures == statistics_of(window.bridge.game.campaign.log)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_plots_export_as_png_and_svg_and_tables_as_csv(window, tmp_path, monkeypatch):
    played(window)
    stats = open_statistics(window)
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml")):
        out = tmp_path / f"hero{suffix}"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, out=out, **k: (str(out), "")))
        stats.hero.export_plot_button.click()
        assert out.read_bytes().startswith(magic)
    assert b"<svg" in out.read_bytes() and b"<path" in out.read_bytes(), "a vector drawing"
    stats.tabs.setCurrentWidget(stats.fights)
    out = tmp_path / "fights.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    stats.fights.export_table_button.click()
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    assert rows[0][:3] == ["Monster", "Fights", "Won"] and rows[1][:3] == ["Goblin", "1", "1"]


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_both_themes_draw_on_the_palette_base(window):
    played(window)
    stats = open_statistics(window)
    for name in ("light", "dark"):
        stats.setPalette(palette_for(name))
        QApplication.processEvents()
        base = palette_for(name).color(palette_for(name).ColorRole.Base)
        assert stats.hero.plot.backgroundBrush().color().name() == base.name()
        text = palette_for(name).color(palette_for(name).ColorRole.Text)
        assert stats.hero.plot.getPlotItem().getAxis("left").textPen().color().name() == text.name()


def test_plots_say_what_they_will_show_while_no_quest_has_ended(window, qtbot):
    """During the first quest the plots over quests are empty: each says why, and the table says "In progress"."""
    session = hero_session()
    session.run({"kind": "begin_quest"})
    window.bridge.set_game(session.game)
    stats = open_statistics(window)
    assert stats.hero.empty_note is not None and "No quest has ended yet" in stats.hero.empty_note.toPlainText()
    assert stats.hero.empty_note in stats.hero.plot.getPlotItem().items
    assert stats.hero.table.item(0, 3).text() == "In progress"
    stats.tabs.setCurrentWidget(stats.fights)
    assert stats.fights.empty_note is not None and "No fight yet" in stats.fights.empty_note.toPlainText()
    send(window, {"kind": "fail_quest"})
    stats.tabs.setCurrentWidget(stats.hero)
    assert stats.hero.empty_note is None, "the note goes once a quest has ended"
    assert len(points(stats, stats.hero, "HP").points()) == 1
    assert stats.hero.table.item(0, 3).text() == "Failed"
    assert stats.summary.text().startswith("1 quest (0 completed, 1 failed), 0 fights")
