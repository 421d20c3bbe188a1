"""Issue 10, the first hour of a new player: each bug driven through the entry point the player used."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QLineEdit, QSpinBox, QWidget

from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.creation import creation_commands
from d100gui.engine.skill_test_commands import AcceptTest
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=7)
    qtbot.addWidget(win)
    return win


def script(win, *faces):
    win.game.override = ScriptedSource(faces)


def test_6_the_dice_panel_says_natural_10_for_3d4_plus_1_showing_3_3_4(window, qtbot):
    panel = window.dice_panel
    script(window, 3, 3, 4)
    panel.expression.setText("3d4+1")
    qtbot.keyClick(panel.expression, Qt.Key.Key_Return)
    title = panel.result_title.text()
    assert "natural <b>10</b>" in title and "<b>11</b>" in title


CREATION = tuple(creation_commands("Judith", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]))


def make_hero(win) -> None:
    """Judith, created by the rulebook's steps on scripted dice (as tests/ui/hero do)."""
    script(win, 0, 5, 0, 1, 0, 5, 1, 0)
    for command in CREATION:
        assert win.bridge.send(command), command
    win.game.override = None


def at_a_trap_locked_door(win) -> None:
    """Map > New dungeon: entrance tile 3; north tile 12, whose E door rolls 32 = TLD (32), closed."""
    make_hero(win)
    script(win, 0, 3, 1, 2, 3, 2)
    win.new_dungeon_action.trigger()
    win.map_area.view.move_requested.emit("N")
    assert win.game.campaign.dungeons.current_dungeon.hero == (7, 9)


def click_hero_exit(win, qtbot, side: str) -> None:
    """A left click on the middle of the hero's exit on ``side``, as the player clicks the map."""
    view = win.map_area.view
    hero = win.game.campaign.dungeons.current_dungeon.hero
    target = view.mapFromScene(view.scene().exit_mark_rect(hero, side).center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=target)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_2_a_passed_door_test_opens_the_door_on_the_map(window, qtbot):
    at_a_trap_locked_door(window)
    window.show()
    qtbot.waitExposed(window)
    click_hero_exit(window, qtbot, "E")
    box = window.map_area.last_box
    assert box is not None and "TLD (32)" in box.text()
    [test_button] = [b for b in box.buttons() if b.text() == "Test to open..."]
    test_button.click()
    dialog = window.skill_test_dialog
    assert dialog is not None
    script(window, 2, 0)  # 20 against DEX 40 and the skills: a success
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    door = window.game.campaign.dungeons.current_dungeon.areas["7,9"].exits["E"].door
    assert door.is_open
    shape = window.map_area.view.scene().area_shape("7,9")
    assert [state for _rect, state in shape.drawing.doors] == ["open"]  # the map draws it open
    script(window, 0, 3)
    click_hero_exit(window, qtbot, "E")  # and the hero walks through
    assert window.game.campaign.dungeons.current_dungeon.hero == (8, 9)


GOBLIN = Monster(name="Goblin", av=40, defence=1, dmg=0, hp=[1])


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_10_hero_skill_test_leaves_the_fights_waiting_test_to_the_fight(window, qtbot):
    make_hero(window)
    window.show()
    qtbot.waitExposed(window)
    panel = window.combat_panel
    script(window, 5)
    assert window.bridge.send(StartCombat(source="monster", monster=GOBLIN, fate_windows=True))
    qtbot.mouseClick(panel.continue_button, Qt.MouseButton.LeftButton)  # accept the reaction
    script(window, 8, 0)
    qtbot.mouseClick(panel.buttons["attack_main"], Qt.MouseButton.LeftButton)  # the attack test rolls 80
    combat = window.game.campaign.combat
    assert combat.waiting == "test"
    fight_test = combat.test.decision

    window.test_action.trigger()  # Hero > Skill test...
    dialog = window.skill_test_dialog
    assert dialog is not None
    assert not dialog.accept_button.isVisible() and not dialog.accept_roll()  # nothing of the fight's to accept
    assert not dialog.roll_button.isEnabled()
    assert "belongs to the fight" in dialog.roll_button.toolTip()
    assert "belongs to the fight" in dialog.error_label.text()
    assert not window.bridge.send(AcceptTest(decision=fight_test))  # and the engine refuses it by name
    assert [d.id for d in window.game.campaign.pending] == [fight_test]
    dialog.reject()

    script(window, 9, 2)
    qtbot.mouseClick(panel.continue_button, Qt.MouseButton.LeftButton)  # the fight settles its own test
    combat = window.game.campaign.combat
    assert combat is not None and combat.test is None and combat.step == "monster_attack_resolve"


def _luminance(colour: QColor) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21; text wants 4.5 or more)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def drawn_background(widget: QWidget) -> QColor:
    """What the player sees behind the widget's text: the commonest pixel of the widget as drawn."""
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    counts = Counter(memoryview(image.constBits()).cast("I"))
    return QColor.fromRgb(counts.most_common(1)[0][0])


def drawn_contrast(widget: QWidget) -> tuple[float, str, str]:
    """The contrast of the colour the widget writes its text in (its palette's foreground, style
    sheets included) against the background it is drawn on; and both colours."""
    ink, background = widget.palette().color(widget.foregroundRole()), drawn_background(widget)
    return contrast(ink, background), ink.name(), background.name()


def unreadable_text(root: QWidget) -> list[tuple[str, float, str, str]]:
    """Every visible label, text field and number box of ``root`` whose text is below 4.5:1."""
    found = []
    for widget in root.findChildren(QLabel) + root.findChildren(QLineEdit) + root.findChildren(QSpinBox):
        text = widget.text().strip()
        if not text or not widget.isVisible() or widget.width() < 4 or widget.height() < 4:
            continue
        ratio, ink, background = drawn_contrast(widget)
        if ratio < 4.5:
            found.append((text[:24], round(ratio, 2), ink, background))
    return found


@pytest.fixture
def restore_theme():
    """The app's palette and style are global: put them back after the test."""
    app = QApplication.instance()
    palette, style = QPalette(app.palette()), app.style().name()
    yield
    app.setStyle(style)
    app.setPalette(palette)


def choose_theme(win, theme: str) -> None:
    """Edit > Preferences..., pick the theme, OK."""
    win.prefs_action.trigger()
    dialog = win.preferences_dialog
    dialog.theme.setCurrentIndex(dialog.theme.findData(theme))
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    QApplication.processEvents()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_4_the_sheet_is_readable_in_both_themes_and_follows_a_switch_at_once(window, qtbot, restore_theme):
    make_hero(window)
    window.sheet_dock.resize(360, 900)
    window.show()
    qtbot.waitExposed(window)
    sheet = window.sheet
    assert window.game.campaign.character.equipment["torso"] is not None  # an item name on the sheet to read
    for theme in ("light", "dark", "light", "dark"):
        choose_theme(window, theme)
        window_colour = QApplication.palette().color(QPalette.ColorRole.Window).name()
        assert drawn_background(sheet.content).name() == window_colour, f"{theme}: the sheet kept the other theme's paper"
        assert unreadable_text(sheet) == [], theme


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_5_a_doorway_seen_from_its_second_area_keeps_its_one_label(window, qtbot):
    make_hero(window)
    window.show()
    qtbot.waitExposed(window)
    # entrance tile 3; N: tile 12 (E door 05 OPEN); E: tile 6 turned 90 (E 32 TLD, N 39 TD, S 01 OPEN)
    script(window, 0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 3, 9, 0, 1)
    window.new_dungeon_action.trigger()
    for side in ("N", "E", "W"):
        click_hero_exit(window, qtbot, side)
    script(window, 0, 5)  # N of (7,9): tile 5
    click_hero_exit(window, qtbot, "N")
    script(window, 1, 2, 0, 3)  # E: tile 12 turned 90, its door on the S side faces TD (39); a 03 would read OPEN
    click_hero_exit(window, qtbot, "E")
    assert window.game.campaign.dungeons.current_dungeon.hero == (8, 8)
    scene = window.map_area.view.scene()
    labels = scene.area_shape("8,8").labels + scene.area_shape("8,9").labels
    assert labels.count("TD (39)") == 1 and "OPEN" not in scene.area_shape("8,8").labels
    click_hero_exit(window, qtbot, "S")  # the doorway is the closed trapped door, offered to open
    assert "TD (39)" in window.map_area.last_box.text()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda c: setattr(c.character, "hp", -40), "HP is -40"),
        (lambda c: setattr(c.character, "fate", 9999), "Fate is 9999"),
        (lambda c: setattr(c.dungeons.current_dungeon, "hero", (99, 99)), "99,99"),
        (lambda c: setattr(next(iter(c.dungeons.current_dungeon.areas.values())), "tile", -5), "tile -5"),
    ],
)
def test_8_file_open_refuses_a_campaign_with_impossible_values(window, qtbot, monkeypatch, tmp_path, change, words):
    """File > Open on a campaign with HP -40, Fate 9999, the hero at 99,99 or tile -5: refused, said, untouched."""
    from PySide6.QtWidgets import QFileDialog

    from d100gui.demo import build_demo_campaign
    from d100gui.storage.campaigns import campaign_json

    campaign = build_demo_campaign(window.game.library)
    change(campaign)
    path = tmp_path / "odd.d100.json"
    path.write_text(campaign_json(campaign), encoding="utf-8")
    before = path.read_bytes()
    playing = window.game.campaign
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.open_action.trigger()  # File > Open...
    box = window.campaigns.last_message_box
    assert box is not None and "values the rules do not allow" in box.text() and words in box.text()
    assert "has not been changed" in box.text()
    assert window.game.campaign is playing  # the campaign in play stays
    assert path.read_bytes() == before and not (tmp_path / "odd.d100").exists()  # nothing converted either
    box.close()
