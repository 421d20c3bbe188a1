"""The combat panel renders from data: reworded messages, the step view following the fight, player-facing text.

Dice are scripted face by face: a d100 is two d10 faces (tens, units), a lone d10 face 0
reads 10, a d6 face is 1-6.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QLineEdit, QPushButton

from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_commands import CombatAttack
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.decisions import ExperienceChoice
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.protocol import Event
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.combat.panel import CombatPanel
from d100gui.ui.combat.record import read_fight
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui

RULES = bundled_rules()
#: what an internal name looks like: words joined by underscores (attack_main, main_weapon)
INTERNAL = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def d10(n: int) -> list[int]:
    return [0 if n == 10 else n]


def hero(fate: int = 1, hp: int = 20, dex: int = 40):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 50), ("DEX", dex), ("INT", 40)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp, ch.fate, ch.lives = hp, fate, 0
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


def push(game: Game, *faces: int | list[int]) -> None:
    flat: list[int] = []
    for f in faces:
        flat += f if isinstance(f, list) else [f]
    game.override.push(*flat)


def click(qtbot, button: QAbstractButton | None) -> None:
    assert button is not None and button.isEnabled(), button.text() if button else "no button"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def reword(game: Game) -> None:
    """Make every sentence the engine says "MSG" before the bridge (or the log) sees it."""
    execute = game.execute

    def run(command):
        events = execute(command)
        for event in [*events, *game.campaign.log[-1].events]:
            if event.message:
                event.message = "MSG"
        return events

    game.execute = run  # type: ignore[method-assign]


def structure(panel: CombatPanel) -> dict[str, object]:
    """What the panel shows, leaving out the words of the engine's sentences."""
    record = panel.record
    return {
        "sections": [
            (s.round, [(st.kind, st.event, [[d.face for d in r.dice] for r in st.rolls], len(st.lines)) for st in s.steps])
            for s in record.sections
        ]
        if record
        else [],
        "outcome": record.outcome if record else "",
        "ending": len(record.ending) if record else 0,
        "page": panel.pages.currentIndex(),
        "rounds": [panel.round_picker.itemText(i) for i in range(panel.round_picker.count())],
        "shown": [(s.kind, s.event) for s in panel.shown_steps],
        "drawn": [[[f.face for f in v.faces()] for v in r.dice_views] for r in panel.step_rows],
        "prompt": panel.prompt_label.text(),
        "buttons": {n: (b.isEnabled(), b.text(), b.toolTip()) for n, b in panel.buttons.items()},
        "continue": panel.continue_button is not None,
        "fate": [b.text() for b in panel.fate_buttons],
        "decisions": [[b.text() for b in bs] for bs in panel.decision_buttons.values()],
        "end": panel.end_title.text() if panel.end_banner.isVisibleTo(panel) else "",
        "monster": panel.monster_name.text(),
        "hp": panel.hp_view.members(),
    }


RATS = dict(name="Giant Rats", av=25, hp="3/2/2", dmg=-2, special="Disease, Pack", loot="[K:Table P]")


def rats_to_victory(qtbot, game: Game, panel: CombatPanel) -> list[Callable[[], None]]:
    """The Giant Rats fight of the round-by-round test, as steps that each press a real button."""
    return [
        lambda: (push(game, d100(5), d10(5)), click(qtbot, panel.open_start_dialog().fight_button)),
        lambda: click(qtbot, panel.continue_button),
        lambda: (push(game, d100(80)), click(qtbot, panel.buttons["attack_main"])),
        lambda: (push(game, 2), click(qtbot, panel.fate_buttons[0])),
        lambda: (push(game, 2, d10(4), d100(33), 1, d10(5), d10(3)), click(qtbot, panel.continue_button)),
        lambda: (push(game, d100(15), 3, d10(3), d100(90), d10(2)), click(qtbot, panel.buttons["attack_main"])),
        lambda: (push(game, d100(7), 5, d10(9), d100(50), d100(2)), click(qtbot, panel.buttons["attack_main"])),
        lambda: click(qtbot, next(iter(panel.decision_buttons.values()))[0]),
    ]


def aim_offset_loot(qtbot, game: Game, panel: CombatPanel) -> list[Callable[[], None]]:
    """Perfect Aim, an offset onto helm and shield, and a choice of loot table."""

    def start() -> None:
        ch = game.campaign.character
        ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=0)
        ch.equipment["off_weapon"] = Item(name="Buckler", kind="shield", slot="off_weapon", shield=3)
        push(game, d10(5))
        goblin = typed_monster("Goblin", av=50, hp=5, loot="[K:Table P/Table TA]")
        assert panel.send(StartCombat(source="monster", monster=goblin, fate_windows=False))

    return [
        start,
        lambda: (push(game, d100(20), 3, d10(4)), click(qtbot, panel.buttons["attack_main"])),
        lambda: (push(game, d10(1)), click(qtbot, panel.aim_buttons[1])),
        lambda: (push(game, d100(10), 5, d10(1)), click(qtbot, panel.aim_buttons[1])),
        lambda: (panel.offset_shield.setValue(1), click(qtbot, panel.offset_apply)),
        lambda: (push(game, d100(2)), click(qtbot, panel.loot_buttons[0])),
    ]


def fallen(qtbot, game: Game, panel: CombatPanel) -> list[Callable[[], None]]:
    def start() -> None:
        push(game, d10(5))
        orc = typed_monster("Orc", av=90, hp=20, dmg=5)
        assert panel.send(StartCombat(source="monster", monster=orc, fate_windows=False))

    return [start, lambda: (push(game, d100(99), d100(10), 6, d10(1)), click(qtbot, panel.buttons["attack_main"]))]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize(
    ("play", "kw"), [(rats_to_victory, {}), (aim_offset_loot, {"fate": 0, "dex": 50}), (fallen, {"fate": 0, "hp": 2})]
)
def test_rewording_every_message_leaves_the_fight_as_shown(qtbot, make_window, new_game, play, kw):
    """Each engine sentence becomes "MSG": rounds, steps, dice, prompts, buttons and the ending stay."""
    shown: list[list[dict[str, object]]] = []
    for reworded in (False, True):
        game = new_game(hero(**kw))
        if reworded:
            reword(game)
        _table, panel = make_window(None, game)
        seen = [structure(panel)]
        for step in play(qtbot, game, panel):
            step()
            seen.append(structure(panel))
        assert game.override.remaining == 0
        if reworded:
            assert {e.message for entry in game.campaign.log for e in entry.events} <= {"MSG", ""}
            # the sentences are only text: lines and action titles say MSG, roll titles come from the rolls
            steps = [st for sec in panel.record.sections for st in sec.steps]
            assert {t for st in steps for t in st.lines} <= {"MSG"}
            assert {st.title for st in steps if st.kind in ("action", "note", "round")} <= {"MSG"}
        shown.append(seen)
    assert shown[0] == shown[1]
    assert shown[0][-1]["outcome"] in ("won", "died") and shown[0][-1]["end"]


def test_read_fight_takes_structure_from_payloads(new_game):
    """Without a widget: the record of a fight, its rounds, each step's dice, its outcome."""
    game = new_game(hero(fate=0))
    push(game, d10(5))
    assert game.execute(StartCombat(source="monster", monster=typed_monster(**RATS), fate_windows=False))
    record = read_fight(game.campaign.log)
    assert [s.round for s in record.sections] == [0, 1] and record.outcome == ""
    assert [(st.kind, st.event) for st in record.sections[1].steps] == [("round", "combat_round"), ("roll", "combat_roll")]
    assert [d.face for d in record.sections[1].steps[1].rolls[0].dice] == [5]
    assert not record.decisions


# --------------------------------------------------------------------------- issue 10 #14: the steps follow the fight


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_past_round_picked_gives_way_when_the_fight_moves_on(qtbot, make_window):
    """Looking back is a glance: the next step logged brings the view back to the latest round."""
    table, panel = make_window(hero(fate=0))
    push(table.game, d10(5))
    assert panel.send(StartCombat(source="monster", monster=typed_monster(**RATS), fate_windows=False))
    push(table.game, d100(99), d100(99), d10(4))  # round 1: both miss
    click(qtbot, panel.buttons["attack_main"])
    picker = panel.round_picker
    assert picker.currentText() == "Round 2 (latest)"
    picker.setCurrentIndex(1)
    picker.activated.emit(1)
    rounds_shown = [s.title.split(" against")[0] for s in panel.shown_steps if s.kind == "round"]
    assert picker.currentText() == "Round 1" and rounds_shown == ["Round 1"]
    assert not panel.steps.following
    push(table.game, d100(99), d100(99), d10(6))  # round 2: both miss again
    click(qtbot, panel.buttons["attack_main"])
    assert picker.currentText() == "Round 3 (latest)" and panel.steps.following
    assert panel.shown_steps[0].title.startswith("Round 3")
    QApplication.processEvents()
    bar = panel.steps.steps_scroll.verticalScrollBar()
    assert bar.value() == bar.maximum()  # the newest step is in view


def test_a_past_round_stays_while_nothing_happens(qtbot, make_window):
    """A repaint or a sheet signal does not pull the view away from the round being read."""
    table, panel = make_window(hero(fate=0))
    push(table.game, d10(5))
    assert panel.send(StartCombat(source="monster", monster=typed_monster(**RATS), fate_windows=False))
    push(table.game, d100(99), d100(99), d10(4))
    click(qtbot, panel.buttons["attack_main"])
    panel.round_picker.setCurrentIndex(1)
    panel.round_picker.activated.emit(1)
    table.bridge.character_changed.emit()
    panel.refresh()
    assert panel.round_picker.currentText() == "Round 1"


# --------------------------------------------------------------------------- issue 10 #15: player-facing text


def _texts(panel: CombatPanel) -> list[str]:
    out: list[str] = []
    for w in panel.findChildren(QLabel) + panel.findChildren(QAbstractButton):
        if w.isVisibleTo(panel):
            out += [w.text(), w.toolTip()]
    for b in panel.findChildren(QPushButton):
        if b.menu() is not None:
            out += [a.text() for a in b.menu().actions()]
    out += [panel.round_picker.itemText(i) for i in range(panel.round_picker.count())]
    out += [t for s in panel.shown_steps for t in (s.title, *s.lines)]
    return out


def _cut_short(panel: CombatPanel) -> list[str]:
    """Visible one-line labels and buttons narrower than their text."""
    cut = []
    for w in panel.findChildren(QLabel) + panel.findChildren(QPushButton):
        if not w.isVisibleTo(panel) or (isinstance(w, QLabel) and w.wordWrap()) or not w.text():
            continue
        if w.width() < w.minimumSizeHint().width():
            cut.append(w.text())
    return cut


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_player_facing_text_shows_no_internal_names_and_nothing_is_cut_short(qtbot, make_window):
    table, panel = make_window(hero(fate=2))
    panel.resize(panel.minimumWidth(), 900)
    push(table.game, d10(5))
    rats = typed_monster(**RATS)
    assert panel.send(StartCombat(source="monster", monster=rats, fate_windows=True))
    qtbot.waitExposed(panel)
    checked = 0
    for faces, button in ((None, lambda: panel.continue_button), ([d100(7)], lambda: panel.buttons["attack_main"])):
        QApplication.processEvents()
        texts = _texts(panel)
        assert not [t for t in texts if INTERNAL.search(t)], [t for t in texts if INTERNAL.search(t)]
        assert _cut_short(panel) == []
        checked += len(texts)
        if faces:
            push(table.game, *faces)
        click(qtbot, button())
    QApplication.processEvents()  # a test waiting on its Fate window, experience to come
    assert panel.waiting_test() is not None and panel.fate_buttons[0].text() == "Re-roll tens"
    texts = _texts(panel)
    assert not [t for t in texts if INTERNAL.search(t)] and _cut_short(panel) == [] and checked > 20


# --------------------------------------------------------------------------- issue 10 #16: keys without a click


@pytest.fixture
def main_window(qtbot):
    def make(character):
        from d100gui.engine.campaign import Campaign

        campaign = Campaign(character=character)
        campaign.meta.seed = 11
        win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=campaign)
        qtbot.addWidget(win)
        win.game.override = ScriptedSource([])
        win.show()
        qtbot.waitExposed(win)
        win.activateWindow()
        QApplication.processEvents()
        return win

    return make


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_combat_keys_work_while_the_combat_dock_shows_wherever_the_focus_is(qtbot, main_window):
    """Wiring: Space, A and E reach the fight from anywhere in the window, without a click in the panel."""
    win = main_window(hero(fate=1))
    panel = win.combat_panel
    push(win.game, d10(5))
    assert panel.send(StartCombat(source="monster", monster=typed_monster("Goblin", av=40, hp=5), fate_windows=True))
    QApplication.processEvents()
    assert panel.isVisible() and all(s.isEnabled() for s in panel.fight_shortcuts)
    outside = next(
        w for w in win.findChildren(QComboBox) + win.findChildren(QAbstractButton) if w.isVisible() and not panel.isAncestorOf(w)
    )
    outside.setFocus()
    QApplication.processEvents()
    focus = QApplication.focusWidget() or win
    assert not panel.isAncestorOf(focus)
    qtbot.keyClick(focus, Qt.Key.Key_Space)  # accept the reaction
    assert win.game.campaign.combat.waiting == "action"
    push(win.game, d100(30))
    qtbot.keyClick(focus, Qt.Key.Key_A)
    assert win.game.campaign.combat.waiting == "test"
    assert win.game.override.remaining == 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_text_field_elsewhere_keeps_its_letters(qtbot, main_window):
    win = main_window(hero(fate=0))
    panel = win.combat_panel
    push(win.game, d10(5))
    assert panel.send(StartCombat(source="monster", monster=typed_monster("Goblin", av=40, hp=5), fate_windows=False))
    QApplication.processEvents()
    fields = [w for w in win.findChildren(QLineEdit) if w.isVisible() and w.isEnabled() and not panel.isAncestorOf(w)]
    if not fields:
        pytest.skip("no text field shows beside the combat dock in this layout")
    fields[0].setFocus()
    qtbot.keyClicks(fields[0], "ae")
    assert "ae" in fields[0].text() and win.game.campaign.combat.waiting == "action"
    assert [d for d in win.game.campaign.pending if isinstance(d, ExperienceChoice)] == []


def test_a_log_of_sentences_only_still_reads_as_a_fight(new_game):
    """A campaign migrated from message-only entries: no round is guessed from words, but every
    sentence and every die is still shown (as notes and rolls of the fight)."""
    game = new_game(hero(fate=0))
    push(game, d10(5))
    assert game.execute(StartCombat(source="monster", monster=typed_monster(**RATS), fate_windows=False))
    push(game, d100(99), d100(99), d10(4))
    assert game.execute(CombatAttack(slot="main_weapon"))
    for entry in game.campaign.log:
        entry.events = [Event(kind="legacy_message", message=e.message) for e in entry.events if e.message]
    record = read_fight(game.campaign.log)
    steps = [st for s in record.sections for st in s.steps]
    assert [s.round for s in record.sections] == [0] and record.outcome == ""
    assert [[d.face for d in r.dice] for st in steps for r in st.rolls] == [
        [d.face for d in r.dice] for entry in game.campaign.log for r in entry.rolls
    ]
    assert {t for st in steps for t in (st.title, *st.lines)} >= set(record.messages) - {""}


def test_ability_badges_say_what_the_rules_say_with_this_fight_s_numbers(qtbot, make_window):
    table, panel = make_window(hero(fate=0))
    ghost = typed_monster("Ghost Pack", av=30, hp="4/4", special="Fear, Pack, Ethereal")
    push(table.game, d10(5), d100(20))  # the reaction, then the FEAR test
    assert panel.send(StartCombat(source="monster", monster=ghost, fate_windows=False)), panel.last_error
    tips = {w.text(): w.toolTip() for w in panel.ability_row.widgets}
    summary = {a: RULES.monster_ability(a).summary for a in ("fear", "pack", "ethereal")}
    assert tips["Ethereal"] == f"Ethereal: {summary['ethereal']}"
    assert tips["Pack"] == f"Pack: {summary['pack']} +5 this round (2 alive)."
    assert re.fullmatch(rf"Fear: {re.escape(summary['fear'])} Your target: \d+\.", tips["Fear"])
