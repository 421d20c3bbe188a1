"""The combat panel on its own real game: a Giant Rats fight played round by round through its buttons.

Dice are scripted face by face (as in tests/engine/combat): a d100 is two d10 faces (tens,
units; 0,0 = 100), a lone d10 face 0 reads 10, a d6 face is 1-6. Every scripted fight checks
it used exactly the dice it was given.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.fight_commands import CombatEscape
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.decisions import ExperienceChoice
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.combat.panel import CombatPanel
from d100gui.ui.combat.record import read_fight
from d100gui.ui.combat.start_dialog import StartFightDialog
from d100gui.ui.common.bridge import EngineBridge

pytestmark = pytest.mark.gui

RULES = bundled_rules()
PERCENT = re.compile(r"^Chance to hit: \d{1,3}%$")


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def d10(n: int) -> list[int]:
    return [0 if n == 10 else n]


def flat(*parts) -> list[int]:
    out: list[int] = []
    for p in parts:
        out += flat(*p) if isinstance(p, list | tuple) else [p]
    return out


def make_hero(strength=50, dex=40, intelligence=40, hp=20, fate=0, lives=0, weapon=True):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", strength), ("DEX", dex), ("INT", intelligence)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp, ch.fate, ch.lives = hp, fate, lives
    if weapon:
        ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


def push(win, *faces) -> None:
    win.game.override.push(*flat(*faces))


def used_all(win) -> bool:
    return win.game.override.remaining == 0


def click(qtbot, button: QPushButton) -> None:
    assert button.isEnabled(), f"{button.text()} is disabled: {button.toolTip()}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def titles(panel) -> list[str]:
    return [s.title for s in panel.shown_steps]


def step(panel, title_start: str):
    found = [s for s in panel.shown_steps if s.title.startswith(title_start)]
    assert found, f"no step {title_start!r} in {titles(panel)}"
    return found[-1]


def row_faces(panel, title_start: str) -> list[list[int]]:
    """The faces drawn in the step row whose title starts with ``title_start``."""
    rows = [r for r in panel.step_rows if r.step.title.startswith(title_start)]
    assert rows, f"no row {title_start!r}"
    return [[f.face for f in view.faces()] for view in rows[-1].dice_views]


def members(panel) -> list[tuple[int, int, bool]]:
    return panel.hp_view.members()


def start_typed(win, panel, monster, fate_windows=False, *faces) -> None:
    push(win, *faces)
    assert panel.send(StartCombat(source="monster", monster=monster, fate_windows=fate_windows)), panel.last_error


# --------------------------------------------------------------------------- the Giant Rats, round by round


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_giant_rats_round_by_round_to_victory(qtbot, make_window):
    win, panel = make_window(make_hero(fate=1))
    ended, active = [], []
    panel.fight_ended.connect(ended.append)
    panel.fight_active_changed.connect(active.append)
    assert panel.pages.currentWidget() is panel.idle_page
    assert "roll Table E in the dice panel" in panel.idle_label.text()

    # start: Table E 05 -> Giant Rats (rows 1-10); the reaction (5) waits for its Fate window
    dialog = panel.open_start_dialog()
    qtbot.addWidget(dialog)
    assert dialog.table_e.isChecked()
    push(win, d100(5), d10(5))
    click(qtbot, dialog.fight_button)
    assert not dialog.isVisible() and dialog.message.text() == ""
    assert panel.pages.currentWidget() is panel.fight_page
    assert panel.monster_name.text().startswith("Giant Rats") and "[C] Creature" in panel.monster_name.text()
    assert "AV</b> 25" in panel.monster_stats.text() and "+10 Pack" in panel.monster_stats.text()
    assert "[K:Table P]" in panel.monster_stats.text() and "DMG</b> -2" in panel.monster_stats.text()
    assert members(panel) == [(3, 3, False), (2, 2, False), (2, 2, False)]
    badges = {w.text(): w.toolTip() for w in panel.ability_row.widgets}
    assert list(badges) == ["Disease", "Pack"]
    assert "+10 this round (3 alive)" in badges["Pack"] and "disease track: 0 of" in badges["Disease"]
    assert row_faces(panel, "Table E") == [[0, 5]]
    assert step(panel, "Round 1 against Giant Rats").kind == "round"
    assert row_faces(panel, "Monster reaction") == [[5]]
    said = [t for s in panel.shown_steps for t in (s.title, *s.lines)]
    assert not [t for t in said if "accept the roll" in t or "choose your action" in t]  # the buttons say that
    # waiting on the reaction roll: Continue and Fate, no action yet
    assert panel.combat.waiting == "roll"
    assert panel.continue_button is not None and panel.continue_button.isEnabled()
    assert [b.text() for b in panel.fate_buttons] == ["Re-roll d10"]
    assert [f.face for f in panel.big_dice.faces()] == [5]
    assert not panel.buttons["attack_main"].isEnabled()
    assert panel.buttons["attack_main"].toolTip().startswith("The fight is waiting for the roll to be accepted")
    assert panel.hit_odds.text() == "Chance to hit: 50%"
    assert panel.monster_odds.text() == "Monster hits: 35%"
    assert re.fullmatch(r"Win: \d{1,3}% · Expected HP lost: \d+\.\d", panel.win_odds.text())
    assert "The odds assume:" in panel.win_odds.toolTip() and "no Fate is spent" in panel.win_odds.toolTip()

    # round 1: accept the reaction; attack; 80 misses, Fate re-rolls the tens to 20: a hit
    click(qtbot, panel.continue_button)
    assert panel.combat.waiting == "action" and panel.prompt_label.text() == "Round 1: choose your action."
    assert "it attacks as normal" in " ".join(step(panel, "Monster reaction").lines)
    expect = {
        "attack_main": "",
        "escape": "",
        "pass": "",
        "attack_off": "There is no weapon in your off weapon slot.",
        "block_escape": "The monster is not trying to escape.",
        "cast_spell": "Spell Caster is locked (INT below 50): only scrolls work.",
        "use_belt": "Your belt is empty.",
    }
    for name, why in expect.items():
        button = panel.buttons[name]
        assert button.isEnabled() == (not why), name
        if why:
            assert button.toolTip() == why
    assert panel.buttons["attack_main"].text() == "Attack with Sword (A)"
    assert not panel.main_stat.isVisibleTo(panel)  # a hand weapon has no STR/DEX choice
    push(win, d100(80))
    click(qtbot, panel.buttons["attack_main"])
    assert panel.combat.waiting == "test" and "ATTACK" in panel.prompt_label.text()
    assert [f.face for f in panel.big_dice.faces()] == [8, 0]
    assert [b.text() for b in panel.fate_buttons] == ["Re-roll tens", "Re-roll units", "Re-roll both (F)", "Re-roll picked"]
    push(win, 2)
    click(qtbot, panel.fate_buttons[0])
    assert win.game.campaign.character.fate == 0 and [f.face for f in panel.big_dice.faces()] == [2, 0]
    assert row_faces(panel, "Fate") == [[2, 0]]
    assert "80 re-rolled to 20" in step(panel, "Fate").lines[0]
    # accept: d6 2 at the arms (d10 4): 2 damage, the first rat has 1 HP left; the rats roll 33
    # against AV 35 and hit the hands (d10 5) with a natural 1: 1 - 2 = no damage, but disease;
    # no Fate left, so the fight runs on to round 2's reaction (3)
    push(win, 2, d10(4), d100(33), 1, d10(5), d10(3))
    click(qtbot, panel.continue_button)
    assert members(panel) == [(1, 3, False), (2, 2, False), (2, 2, False)]
    assert panel.hp_text.text() == "HP 1/2/2 of 3/2/2"
    assert panel.round_label.text() == "Round 2" and panel.combat.waiting == "action"
    assert "Disease 1" in [w.text() for w in panel.condition_row.widgets]
    assert titles(panel)[0].startswith("Round 2 against Giant Rats") and row_faces(panel, "Monster reaction") == [[3]]
    assert panel.continue_button is None and panel.fate_buttons == []
    assert panel.buttons["attack_main"].isEnabled()
    # look back at round 1: every step with its dice
    picker = panel.round_picker
    assert [picker.itemText(i) for i in range(picker.count())] == ["Before the fight", "Round 1", "Round 2 (latest)"]
    picker.setCurrentIndex(1)
    picker.activated.emit(1)
    assert row_faces(panel, "Test ATTACK") == [[8, 0]]
    assert row_faces(panel, "Damage and hit location") == [[2, 4]]
    assert "Giant Rats HP 3/2/2 -> 1/2/2." in " ".join(step(panel, "Damage and hit location").lines)
    assert row_faces(panel, "Giant Rats attacks, AV 35") == [[3, 3]]
    assert row_faces(panel, "Giant Rats: damage and hit location") == [[1, 5]]
    assert any("disease track 0 -> 1" in t for t in step(panel, "Giant Rats: damage and hit location").lines)
    picker.setCurrentIndex(2)
    picker.activated.emit(2)
    assert titles(panel)[0].startswith("Round 2")

    # round 2: 15 hits, d6 3 at the torso (+1): 4 damage carries over 1 -> 2 -> 1; the rats (AV 35) roll 90
    push(win, d100(15), 3, d10(3), d100(90), d10(2))
    click(qtbot, panel.buttons["attack_main"])
    assert members(panel) == [(0, 3, True), (0, 2, True), (1, 2, False)]
    assert "rolls 90 against AV 35: miss" in " ".join(" ".join([s.title, *s.lines]) for s in _section(panel, 2))
    # round 3's reaction 2: below half its HP, AV +5; one rat alive: no Pack bonus
    assert "Reaction 2: It gains AV+5 this round." in panel.reaction_label.text()
    assert "+5 reaction" in panel.monster_stats.text() and "Pack" not in panel.monster_stats.text()
    assert panel.monster_odds.text() == "Monster hits: 30%"
    assert "+0 this round (1 alive)" in {w.text(): w.toolTip() for w in panel.ability_row.widgets}["Pack"]

    # round 3: a natural 07 hits (experience!), d6 5 at the legs kills the last rat; it still
    # attacks (50 against 30: miss); Table P 02: EARS
    push(win, d100(7), 5, d10(9), d100(50), d100(2))
    click(qtbot, panel.buttons["attack_main"])
    assert win.game.campaign.combat is None and used_all(win)
    assert ended == ["won"] and active == [True, False]
    assert panel.pages.currentWidget() is panel.fight_page and panel.end_banner.isVisibleTo(panel)
    assert panel.end_title.text() == "Victory"
    assert "Combat track: Giant Rats in box 1 of sheet 1." in panel.end_text.text()
    assert "Giant Rats EARS (10 gp) goes in the backpack" in panel.end_text.text()
    assert not panel.actions_box.isVisibleTo(panel) and not panel.monster_card.isVisibleTo(panel)
    assert row_faces(panel, "Test ATTACK") == [[0, 7]]
    assert row_faces(panel, "Table P") == [[0, 2]]
    # the experience of the natural 07, offered like the skill-test dialog does
    [xp] = [d for d in win.game.campaign.pending if isinstance(d, ExperienceChoice)]
    buttons = panel.decision_buttons[xp.id]
    assert [b.text() for b in buttons] == ["1 pip on STR", "Don't take it"]
    click(qtbot, buttons[0])
    assert win.game.campaign.character.characteristics["STR"].pips == 1 and panel.decision_buttons == {}
    assert panel.end_banner.isVisibleTo(panel)  # the experience belongs to the fight: its summary stays
    click(qtbot, panel.done_button)
    assert panel.pages.currentWidget() is panel.idle_page


def _section(panel, round_no):
    return next(s for s in panel.record.sections if s.round == round_no).steps


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_die_of_the_fight_is_drawn(qtbot, make_window):
    """Whatever the round shown, every roll in the fight's log appears once as drawn dice."""
    win, panel = make_window(make_hero(fate=2))
    rats = typed_monster("Giant Rats", av=25, hp="3/2/2", dmg=-2, special="Disease, Pack", loot="[K:Table P]")
    start_typed(win, panel, rats, True, d10(10))  # reaction 10: it tries to escape
    push(win, 5)
    click(qtbot, panel.fate_buttons[0])  # Fate: 10 -> 5
    click(qtbot, panel.continue_button)
    push(win, d100(20))
    panel.attack_shortcut.activated.emit()  # A: a hit, waiting for its Fate window
    push(win, 4, d10(4))
    click(qtbot, panel.continue_button)  # the damage roll waits too
    push(win, 1, d10(4))
    panel.fate_shortcut.activated.emit()  # F: both dice of the damage roll again: 1 at the arms
    assert win.game.campaign.character.fate == 0
    push(win, d100(99), d10(4))  # the rats miss; round 2
    click(qtbot, panel.continue_button)
    push(win, d100(99), d100(99), d10(4))  # round 2: both miss; round 3
    click(qtbot, panel.buttons["attack_main"])
    assert panel.combat.round == 3 and members(panel) == [(2, 3, False), (2, 2, False), (2, 2, False)]
    drawn: list[list[int]] = []
    picker = panel.round_picker
    for i in range(picker.count()):
        picker.setCurrentIndex(i)
        picker.activated.emit(i)
        if picker.itemData(i) == 0:
            continue  # round 1 shows "Before the fight" too
        drawn += [[f.face for f in v.faces()] for r in panel.step_rows for v in r.dice_views]
    log = win.game.campaign.log[panel.record.start :]
    assert drawn == [[d.face for d in roll.dice] for entry in log for roll in entry.rolls]
    assert used_all(win)


# --------------------------------------------------------------------------- refusals, with the reason


def test_no_weapon_attack_is_refused_with_the_reason(qtbot, make_window):
    win, panel = make_window(make_hero(weapon=False))
    start_typed(win, panel, typed_monster("Goblin", av=40, hp=5), False, d10(5))
    reason = "You have no weapon: an adventurer without one must flee (there is no unarmed combat)."
    attack = panel.buttons["attack_main"]
    assert not attack.isEnabled() and attack.toolTip() == reason
    assert panel.buttons["escape"].isEnabled() and not panel.buttons["pass"].isEnabled()
    assert panel.hit_odds.text() == "Chance to hit: 0%"
    assert "You have no weapon: you cannot win this fight" in panel.win_odds.toolTip()
    log_length = len(win.game.campaign.log)
    panel.attack_shortcut.activated.emit()  # the A key is refused by the engine, not hidden
    assert panel.error_label.text() == reason and len(win.game.campaign.log) == log_length
    push(win, d100(90), d100(99), d10(5))  # escape fails (-2 HP), the goblin misses
    click(qtbot, panel.buttons["escape"])
    assert panel.error_label.text() == "" and win.game.campaign.character.hp == 18 and used_all(win)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_webbed_hero_cannot_escape_or_attack(qtbot, make_window):
    win, panel = make_window(make_hero())
    start_typed(win, panel, typed_monster("Giant Spider", av=40, hp=8, special="Web"), False, d10(5))
    assert not any(w.text().startswith("Webbed") for w in panel.condition_row.widgets)
    push(win, d100(99), d100(99), d100(85), d10(5))  # both miss; AVOID WEB 85 > DEX 40 + 20: caught
    click(qtbot, panel.buttons["attack_main"])
    assert panel.combat.round == 2 and panel.combat.waiting == "action"
    badges = [w.text() for w in panel.condition_row.widgets]
    assert "Webbed: no attack this round" in badges and "No escape this round" in badges
    escape, attack = panel.buttons["escape"], panel.buttons["attack_main"]
    assert not escape.isEnabled() and escape.toolTip() == "You cannot escape this round: you are caught in the web."
    assert not attack.isEnabled() and attack.toolTip() == "You forfeit your attack this round: you are caught in the web."
    assert panel.buttons["pass"].isEnabled()
    panel.escape_shortcut.activated.emit()
    assert panel.error_label.text() == "You cannot escape this round: you are caught in the web."
    assert not panel.send(CombatEscape())
    push(win, d100(99), d100(20), d10(5))  # hold back; it misses; AVOID WEB 20: free
    click(qtbot, panel.buttons["pass"])
    assert panel.buttons["escape"].isEnabled() and panel.buttons["attack_main"].isEnabled() and used_all(win)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_keys_work_in_the_panel_window_while_a_fight_is_on(qtbot, make_window):
    win, panel = make_window(make_hero(fate=1))
    window_wide = {
        "A": panel.attack_shortcut,
        "E": panel.escape_shortcut,
        "F": panel.fate_shortcut,
        "Space": panel.continue_shortcuts[0],
    }
    for text, shortcut in window_wide.items():
        assert shortcut.key().toString() == text
        assert shortcut.context() == Qt.ShortcutContext.WindowShortcut
        assert not shortcut.isEnabled()  # no fight: the letters are free
    # Enter stays with the panel: elsewhere it belongs to the field that has the focus
    assert panel.continue_shortcuts[1].key().toString() == "Return"
    assert panel.continue_shortcuts[1].context() == Qt.ShortcutContext.WidgetWithChildrenShortcut
    start_typed(win, panel, typed_monster("Goblin", av=40, hp=5), True, d10(5))
    qtbot.waitExposed(panel)
    panel.activateWindow()
    panel.setFocus()
    QApplication.processEvents()
    qtbot.keyClick(panel, Qt.Key.Key_Space)  # accept the reaction
    assert panel.combat.waiting == "action"
    push(win, d100(30))
    qtbot.keyClick(panel, Qt.Key.Key_A)
    assert panel.combat.waiting == "test"
    push(win, 1, 0)
    qtbot.keyClick(panel, Qt.Key.Key_F)  # Fate on both dice: 30 -> 10
    assert panel.waiting_test().roll.natural == 10 and used_all(win)


# --------------------------------------------------------------------------- choices the fight waits for


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_offsets_perfect_aim_and_loot_choice(qtbot, make_window):
    hero = make_hero(dex=50)  # Perfect Aim
    hero.equipment["head"] = Item(name="Helm", kind="armour", slot="head", defence=0)
    hero.equipment["off_weapon"] = Item(name="Buckler", kind="shield", slot="off_weapon", shield=3)
    win, panel = make_window(hero)
    goblin = typed_monster("Goblin", av=50, hp=5, loot="[K:Table P/Table TA]")
    start_typed(win, panel, goblin, False, d10(5))
    push(win, d100(20), 3, d10(4))
    click(qtbot, panel.buttons["attack_main"])
    assert [b.text() for b in panel.aim_buttons] == ["Keep location 4 (Arms)", "Re-roll the location once"]
    push(win, d10(1))
    click(qtbot, panel.aim_buttons[1])
    assert [b.text() for b in panel.aim_buttons] == ["First: 4 (Arms)", "Second: 1 (Head)"]
    push(win, d100(10), 5, d10(1))  # second: head, 3 + 3 = 6 - DEF 0: no, 5 HP: dead; it hits the head: 5 + 3
    click(qtbot, panel.aim_buttons[1])
    assert panel.combat.waiting == "offset" and "8 damage to your Head" in panel.prompt_label.text()
    assert (panel.offset_item.maximum(), panel.offset_shield.maximum()) == (2, 3)
    assert panel.offset_item.value() == 2 and panel.offset_shield.value() == 3
    panel.offset_shield.setValue(1)
    click(qtbot, panel.offset_apply)
    ch = win.game.campaign.character
    assert ch.hp == 15 and ch.equipment["head"].repair_pips == 2
    assert panel.combat.waiting == "loot"
    assert [b.text() for b in panel.loot_buttons] == ["Roll Table P", "Roll Table TA"]
    push(win, d100(2))
    click(qtbot, panel.loot_buttons[0])
    assert panel.end_title.text() == "Victory" and "EARS" in panel.end_text.text() and used_all(win)


# --------------------------------------------------------------------------- endings


@pytest.mark.parametrize(
    ("hero_kw", "monster_kw", "action", "faces", "title", "said"),
    [
        ({}, {}, "escape", [d100(20)], "You escaped", "Mark it on the map"),
        ({}, {}, "attack_main", [d10(10), d100(99)], "The monster escaped", "It is marked on the map as escaped."),
        (
            {"hp": 2},
            {"av": 90, "dmg": 5},
            "attack_main",
            [d100(99), d100(10), 6, d10(1)],
            "Fallen",
            "joins the hall of the fallen",
        ),
    ],
)
def test_every_ending_is_shown(qtbot, make_window, hero_kw, monster_kw, action, faces, title, said):
    win, panel = make_window(make_hero(**hero_kw))
    ended = []
    panel.fight_ended.connect(ended.append)
    first = faces[0] if title == "The monster escaped" else d10(5)
    rest = faces[1:] if title == "The monster escaped" else faces
    start_typed(win, panel, typed_monster("Orc", **{"av": 40, "hp": 20, **monster_kw}), False, first)
    if title == "The monster escaped":
        assert "It is trying to escape!" in panel.reaction_label.text() and panel.buttons["block_escape"].isEnabled()
    push(win, rest)
    click(qtbot, panel.buttons[action])
    assert panel.end_banner.isVisibleTo(panel) and panel.end_title.text() == title
    assert said in panel.end_text.text()
    assert ended == [{"You escaped": "hero_escaped", "The monster escaped": "monster_escaped", "Fallen": "died"}[title]]
    assert used_all(win)
    if title == "Fallen":
        assert win.game.campaign.character is None and not panel.hero_box.isVisibleTo(panel)
        click(qtbot, panel.done_button)
        assert "Create a character first" in panel.idle_label.text() and not panel.start_button.isEnabled()


# --------------------------------------------------------------------------- starting a fight


def test_start_dialog_checks_every_field(qtbot, make_window):
    win, panel = make_window(make_hero())
    dialog = panel.open_start_dialog()
    qtbot.addWidget(dialog)
    assert isinstance(dialog, StartFightDialog) and not dialog.form_box.isEnabled()
    dialog.typed.setChecked(True)
    assert dialog.form_box.isEnabled()
    dialog.activateWindow()
    qtbot.waitActive(dialog)
    dialog.name.setFocus()
    qtbot.keyClicks(dialog.name, "Feral Ape")  # the panel's letter keys stay out of the dialog
    assert dialog.name.text() == "Feral Ape" and panel.error_label.text() == ""
    cases = [
        ({}, "Give the monster a name."),
        ({"name": "Ogre"}, "AV must be a whole number, like 25 (it is required)."),
        ({"name": "Ogre", "av": "lots"}, "AV must be a whole number, like 25, not 'lots'."),
        ({"name": "Ogre", "av": "140"}, "AV must be between 1 and 100."),
        ({"name": "Ogre", "av": "40", "defence": "x"}, "DEF must be a whole number, like -2 or +1, not 'x'."),
        ({"name": "Ogre", "av": "40", "hp": "3/x"}, "HP must be a number or numbers joined by '/', like 16 or 3/2/2"),
        ({"name": "Ogre", "av": "40", "hp": "0"}, "Every HP value must be at least 1."),
        ({"name": "Ogre", "av": "40", "hp": "12", "loot": "gold"}, "Loot reads like [K:Table P]"),
        ({"name": "Ogre", "av": "40", "hp": "12", "special": "Large, Grumpy"}, "Special: Grumpy is not a Monster Ability."),
    ]
    fields = ("name", "av", "defence", "dmg", "hp", "loot", "special")
    for values, message in cases:
        for f in fields:
            getattr(dialog, f).setText(values.get(f, ""))
        click(qtbot, dialog.fight_button)
        assert dialog.message.text().startswith(message), (values, dialog.message.text())
        assert win.game.campaign.combat is None
    for f, v in zip(fields, ("Ogre", "40", "2", "+1", "12", "[K:Table P +10]", "Large"), strict=True):
        getattr(dialog, f).setText(v)
    dialog.type.setCurrentIndex(dialog.type.findData("H"))
    push(win, d10(5))
    click(qtbot, dialog.fight_button)
    m = win.game.campaign.combat.monster
    assert (m.name, m.type, m.av, m.defence, m.dmg, m.hp, [a.id for a in m.abilities]) == ("Ogre", "H", 40, 2, 1, [12], ["large"])
    assert m.loot.options[0].modifier == 10 and panel.monster_name.text() == "Ogre  [H] Humanoid"


def test_start_dialog_shows_the_engine_refusal_for_a_missing_table_e_row(qtbot, make_window):
    win, panel = make_window(make_hero())
    dialog = panel.open_start_dialog()
    qtbot.addWidget(dialog)
    assert not dialog.table_value.isEnabled()
    dialog.use_value.setChecked(True)
    dialog.table_value.setText("0")
    click(qtbot, dialog.fight_button)
    assert dialog.message.text() == "The Table E roll must be between 1 and 100."
    dialog.table_value.setText("40")
    click(qtbot, dialog.fight_button)
    assert dialog.message.text().startswith("Table E 40 is in rows 26-100, which your tables do not have")
    assert dialog.isVisible() and win.game.campaign.combat is None
    dialog.snake.setChecked(True)
    push(win, d10(5))
    click(qtbot, dialog.fight_button)
    assert win.game.campaign.combat.monster.name == "Giant Snake" and not dialog.isVisible()
    assert [w.text() for w in panel.ability_row.widgets] == ["Poison"]


# --------------------------------------------------------------------------- a saved fight reads back the same


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_fight_saved_mid_round_shows_the_same_steps(qtbot, make_window):
    win, panel = make_window(make_hero(fate=1))
    rats = typed_monster("Giant Rats", av=25, hp="3/2/2", dmg=-2, special="Disease, Pack", loot="[K:Table P]")
    start_typed(win, panel, rats, True, d10(5))
    click(qtbot, panel.continue_button)
    push(win, d100(20), 2, d10(4))
    click(qtbot, panel.buttons["attack_main"])
    click(qtbot, panel.continue_button)
    before = [(s.title, s.lines, [[f.face for f in r.dice] for r in s.rolls]) for s in panel.shown_steps]
    saved = Campaign.model_validate_json(win.game.campaign.model_dump_json())
    game = Game(saved, win.game.library, win.game.command_types.values(), rules=bundled_rules(), tilesets=standard_tilesets())
    again = CombatPanel(EngineBridge(game))
    qtbot.addWidget(again)
    assert [(s.title, s.lines, [[f.face for f in r.dice] for r in s.rolls]) for s in again.shown_steps] == before
    assert again.combat.waiting == "roll" and [b.text() for b in again.fate_buttons][:2] == ["Re-roll d6", "Re-roll location"]
    assert again.hit_odds.text() == panel.hit_odds.text() and again.win_odds.text() == panel.win_odds.text()


def test_read_fight_without_a_fight_is_none(make_window):
    win, panel = make_window(make_hero())
    assert read_fight(win.game.campaign.log, []) is None
    assert panel.record is None and panel.pages.currentWidget() is panel.idle_page and panel.start_button.isEnabled()


# --------------------------------------------------------------------------- instead of attacking


def _menu(menu) -> dict[str, bool]:
    return {a.text(): a.isEnabled() for a in menu.actions()}


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_spell_belt_and_weapon_menus(qtbot, make_window):
    from d100gui.engine.hero.model import SpellEntry

    hero = make_hero(intelligence=55)
    hero.spell_book[0] = SpellEntry(name="FIRE BALL", cost="-2 HP")
    hero.spell_book[5] = SpellEntry(name="HEAL", cost="-1 STR")
    hero.belt[1] = Item(name="Brew of Lesser Strength", kind="brew", effect="+3 Str for your next dice roll.")
    hero.equipment["off_weapon"] = Item(name="Short Bow", kind="weapon", weapon_type="H,R", dmg=-1)
    hero.backpack.append(Item(name="Great Axe", kind="weapon", weapon_type="H", dmg=2, two_handed=True))
    win, panel = make_window(hero)
    start_typed(win, panel, typed_monster("Goblin", av=40, hp=10, defence=1), False, d10(5))
    assert _menu(panel.cast_menu) == {"FIRE BALL (-2 HP)": True, "HEAL (-1 STR) - needs INT 60": False}
    assert _menu(panel.belt_menu) == {"2. Brew of Lesser Strength - +3 Str for your next dice roll.": True}
    assert _menu(panel.change_menu) == {
        "Swap main and off weapons": True,
        "Take Great Axe in your main hand": True,
        "Take Great Axe in your off hand": True,
        "Put Sword in the backpack": True,
        "Put Short Bow in the backpack": True,
    }
    assert panel.buttons["attack_off"].text() == "Attack with Short Bow"
    assert panel.off_stat.isVisibleTo(panel) and not panel.main_stat.isVisibleTo(panel)
    assert panel.spell_bonus.isVisibleTo(panel)

    push(win, d100(99), d10(5))  # the brew instead of attacking; the goblin misses
    panel.belt_menu.actions()[0].trigger()
    assert "Brew of Lesser Strength: +3 STR" in [w.text() for w in panel.condition_row.widgets]
    assert _menu(panel.belt_menu) == {"Your belt is empty": False}
    assert not panel.buttons["use_belt"].isEnabled() and panel.buttons["use_belt"].toolTip() == "Your belt is empty."

    push(win, d100(30), d100(99), d10(7), d10(5))  # FIRE BALL cast (INT 55); round 3: 7 - DEF 1 = 6
    panel.cast_menu.actions()[0].trigger()
    assert panel.combat.round == 3 and members(panel) == [(4, 10, False)]
    assert row_faces(panel, "FIRE BALL: damage") == [[7]]
    assert "FIRE BALL: 7 - DEF 1 = 6." in step(panel, "FIRE BALL: damage").lines

    panel.off_stat.setCurrentText("DEX")  # the (H,R) bow shoots with DEX
    push(win, d100(35), 2, d10(4), d100(99), d10(5))
    click(qtbot, panel.buttons["attack_off"])
    [attack] = [s for s in _section(panel, 3) if s.title == "Test ATTACK: DEX"]
    assert attack.lines[0] == "40 = 40; rolled 35 - success." and [d.face for d in attack.rolls[0].dice] == [3, 5]
    assert members(panel) == [(4, 10, False)]  # 2 - 1 - DEF 1: nothing gets through

    push(win, d100(99), d10(5))
    panel.change_menu.actions()[1].trigger()  # the Great Axe, two-handed: both hands' weapons go in the backpack
    ch = win.game.campaign.character
    assert ch.equipment["main_weapon"].name == "Great Axe" and panel.buttons["attack_main"].text() == "Attack with Great Axe (A)"
    assert not panel.buttons["attack_off"].isEnabled() and used_all(win)


def test_undo_takes_the_panel_back(qtbot, make_window):
    win, panel = make_window(make_hero())
    rats = typed_monster("Giant Rats", av=25, hp="3/2/2", dmg=-2, special="Disease, Pack")
    start_typed(win, panel, rats, False, d10(5))
    push(win, d100(20), 4, d10(4), d100(99), d10(6))
    click(qtbot, panel.buttons["attack_main"])
    assert panel.combat.round == 2 and members(panel) == [(0, 3, True), (1, 2, False), (2, 2, False)]
    assert win.bridge.undo()
    assert panel.combat.round == 1 and members(panel) == [(3, 3, False), (2, 2, False), (2, 2, False)]
    assert titles(panel)[-1] == "Monster reaction" and panel.round_picker.count() == 2
    assert panel.buttons["attack_main"].isEnabled() and panel.hit_odds.text() == "Chance to hit: 50%"


def test_a_sheet_correction_mid_fight_leaves_the_steps_whole(qtbot, make_window):
    from d100gui.engine.hero.sheet_edits import SetCharacteristic

    win, panel = make_window(make_hero())
    start_typed(win, panel, typed_monster("Goblin", av=40, hp=10), False, d10(5))
    assert win.bridge.send(SetCharacteristic(stat="DEX", primary=45))
    push(win, d100(99), d100(99), d10(4))
    click(qtbot, panel.buttons["attack_main"])
    assert [panel.round_picker.itemText(i) for i in range(panel.round_picker.count())] == [
        "Before the fight",
        "Round 1",
        "Round 2 (latest)",
    ]
    assert [s.title for s in _section(panel, 1)][-2:] == ["Test ATTACK: STR", "Goblin attacks, AV 40"]
    assert row_faces(panel, "Monster reaction") == [[4]] and used_all(win)
