"""Help > Help: F1 opens it (on the topic of the panel with the focus); the search box filters topics and text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu, QPushButton

from d100gui.demo import build_demo_campaign
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import help_topics
from d100gui.ui.common.settings import Preferences
from d100gui.ui.help.panel import HelpWindow
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui

#: the procedures the app automates: each has a topic
PROCEDURES = (
    "turn",
    "time-track",
    "doors",
    "searching",
    "combat",
    "fate",
    "lives",
    "between-quests",
    "investments",
    "spell-book",
    "toolbox",
    "dice",
    "missing-rows",
)
RULEBOOK = Path(__file__).resolve().parents[4] / "shared" / "rules" / "d100-dungeon-rulebook.txt"


def _press_f1(win, qtbot, on) -> HelpWindow:
    on.window().activateWindow()  # back from the help window, if it is open
    on.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is on)
    qtbot.keyClick(on, Qt.Key.Key_F1)
    panel = win.help.help_window
    assert panel is not None and panel.isVisible()
    return panel


def test_every_procedure_has_a_topic_with_text():
    topics = {t.id: t for t in help_topics()}
    assert set(PROCEDURES) <= set(topics)
    for topic in topics.values():
        assert topic.text.startswith("# "), f"{topic.file} starts with its title"
        assert len(topic.text.split()) > 60, f"{topic.file} says something"


def test_topics_are_in_our_own_words():
    """No run of ten words of a topic is copied from the rulebook (when the rule texts are beside the repo)."""
    if not RULEBOOK.exists():
        pytest.skip("the rule texts are not beside the repository")
    words = lambda text: re.findall(r"[a-z0-9']+", text.lower())
    book = " ".join(words(RULEBOOK.read_text(encoding="utf-8")))
    for topic in help_topics():
        ws = words(topic.text)
        copied = [" ".join(ws[n : n + 10]) for n in range(len(ws) - 9) if " ".join(ws[n : n + 10]) in book]
        assert copied == [], f"{topic.file} copies the rulebook: {copied[:3]}"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_f1_opens_the_help_on_the_topic_of_the_panel_with_the_focus(make_window, qtbot):
    win = make_window()
    panel = _press_f1(win, qtbot, win.map_area.new_button)  # no dungeon yet: the map's placeholder
    assert panel.current_topic() == "map"
    panel = _press_f1(win, qtbot, win.dice_panel.expression)
    assert panel.current_topic() == "dice"
    assert win.help_action in win.findChild(QMenu, "helpMenu").actions()  # Help > Help


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_f1_works_inside_the_between_quests_wizard(make_window, qtbot):
    win = make_window()
    win.town_action.trigger()
    wizard = win.town_actions.wizard
    assert wizard is not None
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    panel = _press_f1(win, qtbot, wizard)
    assert panel.current_topic() == "between-quests"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_search_box_filters_topics_and_marks_the_words(make_window, qtbot):
    win = make_window()
    win.help_action.trigger()
    panel = win.help.help_window
    everything = panel.visible_topics()
    assert len(everything) == len(help_topics())
    qtbot.keyClicks(panel.search, "oil")
    kept = panel.visible_topics()
    assert "time-track" in kept and 0 < len(kept) < len(everything)
    for topic in help_topics():
        assert (topic.id in kept) == ("oil" in (topic.title + " ".join(topic.keywords) + topic.text).lower())
    assert panel.browser.extraSelections(), "the word is marked in the topic shown"
    qtbot.keyClicks(panel.search, " lantern")  # every word must be there
    assert set(panel.visible_topics()) <= set(kept)
    panel.search.clear()
    qtbot.keyClicks(panel.search, "xyzzy")
    assert panel.visible_topics() == [] and panel.none_label.isVisible()
    panel.search.clear()
    assert panel.visible_topics() == everything and not panel.none_label.isVisible()


def test_show_topic_clears_a_search_that_hides_it(qtbot):
    panel = HelpWindow(help_topics())
    qtbot.addWidget(panel)
    panel.search.setText("investment")
    assert "dice" not in panel.visible_topics()
    assert panel.show_topic("dice")
    assert panel.current_topic() == "dice" and panel.search.text() == ""
    assert "Dice" in panel.browser.toPlainText()
    assert not panel.show_topic("no-such-topic")


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_f1_over_the_sheet_the_turn_strip_and_the_combat_panel(qtbot):
    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences(), campaign=build_demo_campaign(loaded.library))
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    assert _press_f1(win, qtbot, win.sheet.findChild(QLineEdit)).current_topic() == "sheet"
    strip_button = next(b for b in win.turn_strip.findChildren(QPushButton) if b.isVisible() and b.isEnabled())
    assert _press_f1(win, qtbot, strip_button).current_topic() == "turn"
    win.combat_dock.raise_()
    qtbot.waitUntil(lambda: win.combat_panel.start_button.isVisible())
    assert _press_f1(win, qtbot, win.combat_panel.start_button).current_topic() == "combat"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_f1_in_the_creation_wizard_opens_its_topic(make_window, qtbot):
    win = make_window()
    win.new_character_action.trigger()  # Hero > New character
    wizard = win.creation_wizard
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    focus = wizard.button(wizard.WizardButton.NextButton)
    assert _press_f1(win, qtbot, focus).current_topic() == "new-character"
