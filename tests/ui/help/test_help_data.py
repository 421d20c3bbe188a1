"""The help data: the tour and the topics load, and every widget they name by objectName exists in the app."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from d100gui.storage import resources
from d100gui.storage.resources import HelpInvalid, help_topics, help_tour

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_topics_name_only_panels_that_exist(make_window, qtbot):
    win = make_window()
    win.town_action.trigger()  # the dialogs a topic explains, opened the player's way
    win.table_editor_action.trigger()
    win.new_character_action.trigger()
    named = {w.objectName() for w in win.findChildren(QWidget)} | {win.objectName()}
    dialogs = {"skillTestDialog"}  # it needs a hero: test_tooltips opens it for the demo hero and checks its name
    wanted = {panel for topic in help_topics() for panel in topic.panels} - dialogs
    assert wanted - named == set(), "a help topic names a panel the app does not have"
    assert {step.target for step in help_tour()} - named - {"helpMenu"} == set()


def test_topic_ids_are_unique_and_files_are_all_used():
    ids = [t.id for t in help_topics()]
    assert len(ids) == len(set(ids))
    files = {p.name for p in (resources.resource_dir() / "help").glob("*.md")}
    assert files == {t.file for t in help_topics()}, "every help file is a topic, every topic has its file"


def test_a_broken_help_file_is_refused_naming_it(monkeypatch):
    monkeypatch.setattr(resources, "read_text", lambda _relative: '{"steps": [{"target": "x"}]}')
    help_tour.cache_clear()
    try:
        with pytest.raises(HelpInvalid, match=r"tour\.json"):
            help_tour()
    finally:
        help_tour.cache_clear()
