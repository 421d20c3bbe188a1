"""The character sheet dock and its pip tracks, built on a real game (no window, no mocks)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtWidgets import QLabel

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.creation import (
    creation_commands,
)
from d100gui.engine.hero.sheet_edits import SetCharacteristic, SetSpell
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.pips import PipTrack
from d100gui.ui.hero.actions import HeroActions
from d100gui.ui.hero.sheet import CharacterSheet
from d100gui.ui.hero.skill_test_dialog import SkillTestDialog

pytestmark = pytest.mark.gui
RULES = bundled_rules()
CREATION = tuple(creation_commands("Judith", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]))


@pytest.fixture
def bridge(bundled_library):
    game = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    return EngineBridge(game)


@pytest.fixture
def sheet(qtbot, bridge):
    widget = CharacterSheet(bridge)
    qtbot.addWidget(widget)
    widget.resize(340, 880)
    widget.show()
    return widget


@pytest.fixture
def actions(sheet, bridge):
    """The sheet's requests answered as the main window answers them."""
    hero_actions = HeroActions(bridge, sheet)
    hero_actions.attach(sheet)
    return hero_actions


def create_hero(bridge, steps=CREATION):
    """Judith: STR 50 DEX 40 INT 30, Baton, Leather Tasset, Cuirass and Gauntlets."""
    bridge.game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in steps:
        assert bridge.send(command), command
    bridge.game.override = None
    return bridge.game.campaign.character


def click_pip(qtbot, track: PipTrack, k: int) -> None:
    qtbot.mouseClick(track, Qt.MouseButton.LeftButton, pos=track.pip_rect(k).center().toPoint())


# --------------------------------------------------------------------------- PipTrack


def test_pip_clicks_ask_for_a_value_and_never_change_the_track(qtbot):
    track = PipTrack(10, 3, name="test")
    qtbot.addWidget(track)
    track.show()
    asked = []
    track.value_requested.connect(asked.append)
    click_pip(qtbot, track, 7)
    click_pip(qtbot, track, 3)  # the last shaded pip: rub it out
    click_pip(qtbot, track, 1)
    assert asked == [7, 2, 1]
    assert track.value() == 3
    track.set_value(7)
    assert track.value() == 7 and asked == [7, 2, 1]  # set_value emits nothing
    track.setFocus()
    qtbot.keyClick(track, Qt.Key.Key_Right)
    qtbot.keyClick(track, Qt.Key.Key_Left)
    qtbot.keyClick(track, Qt.Key.Key_Home)
    assert asked[3:] == [8, 6, 0]
    assert track.accessibleDescription() == "7 of 10 shaded"


def test_read_only_tracks_ignore_clicks_and_pips_are_laid_out_in_rows(qtbot):
    track = PipTrack(40, 0, shape="box", per_row=10)
    qtbot.addWidget(track)
    asked = []
    track.value_requested.connect(asked.append)
    assert track.pip_rect(11).top() > track.pip_rect(10).top()
    assert track.pip_rect(11).left() == track.pip_rect(1).left()
    assert track.pip_rect(6).left() - track.pip_rect(5).left() > track.pip_rect(5).left() - track.pip_rect(4).left()
    track.set_read_only(True)
    click_pip(qtbot, track, 4)
    assert asked == []
    with pytest.raises(ValueError, match="shape"):
        PipTrack(3, shape="star")


# --------------------------------------------------------------------------- empty and creating


def test_no_character_offers_to_create_one(qtbot, sheet):
    assert sheet.stack.currentIndex() == 0
    assert sheet.empty_label.text() == "No character yet."
    assert not sheet.test_button.isEnabled()
    with qtbot.waitSignal(sheet.create_requested, timeout=1000):
        qtbot.mouseClick(sheet.create_button, Qt.MouseButton.LeftButton)


def test_a_character_being_created_shows_the_sheet_filling_in(qtbot, bridge, sheet):
    create_hero(bridge, CREATION[:5])
    assert sheet.stack.currentIndex() == 1
    assert sheet.creating_banner.isVisible()
    assert sheet.equipment.slot_items["main_weapon"].text() == "Baton"
    assert not sheet.test_button.isEnabled()
    with qtbot.waitSignal(sheet.create_requested, timeout=1000):
        qtbot.mouseClick(sheet.continue_button, Qt.MouseButton.LeftButton)


# --------------------------------------------------------------------------- reading like the paper sheet


def test_every_field_shows_the_hero(bridge, sheet):
    create_hero(bridge)
    assert not sheet.creating_banner.isVisible()
    assert sheet.name_edit.text() == "Judith"
    assert {k: b.value() for k, b in sheet.header.header_boxes.items()} == {
        "rep": 1,
        "gp": 0,
        "fate": 3,
        "lives": 3,
        "quest_encounter_modifier": 0,
    }
    assert {s: sheet.characteristics.adjusted_labels[s].text() for s in ("STR", "DEX", "INT")} == {
        "STR": "50",
        "DEX": "40",
        "INT": "30",
    }
    assert [sheet.characteristics.ability_badges[a].objectName() for a in ("mighty_blow", "perfect_aim", "spell_caster")] == [
        "badgeOn",
        "badgeOff",
        "badgeOff",
    ]
    assert (sheet.health.hp_box.value(), sheet.health.hp_max_label.text(), sheet.health.hp_primary_box.value()) == (
        20,
        "/ 20",
        20,
    )
    assert {s: label.text() for s, label in sheet.equipment.slot_items.items() if label.text() != "—"} == {
        "main_weapon": "Baton",
        "legs": "Leather Tasset",
        "torso": "Leather Cuirass",
        "hands": "Leather Gauntlets",
    }
    assert "-2 DMG" in sheet.equipment.slot_stats["main_weapon"].text()
    assert sheet.equipment.slot_repairs["torso"].isVisibleTo(sheet) and not sheet.equipment.slot_repairs["head"].isVisibleTo(
        sheet
    )
    badges = [w.text() for w in sheet.findChildren(QLabel) if w.objectName() == "locBadge"]
    assert badges[:13] == [str(n) for n in range(1, 11)] + ["–", "–", "–"]  # slots with their hit-location rolls
    assert [label.text() for label in sheet.belt.belt_labels[:4]] == ["Lesser Healing Potion"] * 3 + ["—"]
    assert {k: sheet.supplies.supply_tracks[k].value() for k in ("oil", "food", "picks")} == {"oil": 20, "food": 10, "picks": 15}
    assert sheet.supplies.supply_labels["picks"].text() == "<b>15</b> / 30"
    assert sheet.skills.skill_boxes["Locks"].value() == 5 and sheet.skills.skill_boxes["Aware"].value() == 0
    assert sheet.combat.combat_track.count() == RULES.sheet.combat_track.length


def test_the_time_track_carries_the_layouts_trigger_icons(bridge, sheet):
    create_hero(bridge)
    layout = RULES.sheet.time_track
    expected: dict[int, list[str]] = {}
    for t in layout.triggers:
        expected.setdefault(t.clock, []).append(f"{t.kind}:{t.number}" if t.number is not None else t.kind)
    assert sheet.time.time_track.icons() == expected
    assert sheet.time.time_track.count() == layout.clocks
    assert set(sheet.combat.combat_track._marks) == {m.position for m in RULES.sheet.combat_track.milestones}


def test_spell_book_greys_what_the_current_int_cannot_reach(bridge, sheet):
    create_hero(bridge)
    assert bridge.send(SetSpell(position=1, name="Heal", cost="-1 HP"))
    assert bridge.send(SetSpell(position=6, name="Fireball", cost="-3 HP"))
    assert not any(n.property("in_reach") for n in sheet.spells.spell_names)  # INT 30: Spell Caster locked
    assert "locked" in sheet.spells.spell_state.text()
    assert bridge.send(SetCharacteristic(stat="INT", primary=55))
    assert [n.property("in_reach") for n in sheet.spells.spell_names] == [True] * 5 + [False] * 5
    assert sheet.spells.spell_names[0].property("usable") and not sheet.spells.spell_names[5].property("usable")
    assert sheet.spells.spell_names[0].text() == "Heal  (-1 HP)"
    assert sheet.characteristics.ability_badges["spell_caster"].objectName() == "badgeOn"
    assert bridge.send(SetCharacteristic(stat="INT", primary=65))
    assert sheet.spells.spell_names[5].property("usable")


# --------------------------------------------------------------------------- editing through commands


def test_clicking_pips_sends_manual_commands_that_undo(qtbot, bridge, sheet):
    create_hero(bridge)
    click_pip(qtbot, sheet.characteristics.stat_tracks["STR"], 3)
    ch = bridge.game.campaign.character
    assert ch.characteristics["STR"].pips == 3 and sheet.characteristics.stat_tracks["STR"].value() == 3
    entry = bridge.game.campaign.log[-1]
    assert entry.manual and entry.command == {"kind": "set_track_pips", "track": "experience", "target": "STR", "value": 3}
    click_pip(qtbot, sheet.characteristics.stat_tracks["STR"], 3)
    assert bridge.game.campaign.character.characteristics["STR"].pips == 2
    click_pip(qtbot, sheet.skills.skill_tracks["Traps"], 4)
    click_pip(qtbot, sheet.tracks.count_tracks["poison"], 2)
    click_pip(qtbot, sheet.equipment.slot_repairs["torso"], 1)
    click_pip(qtbot, sheet.supplies.supply_tracks["oil"], 12)
    click_pip(qtbot, sheet.empire.share_tracks["trade"], 2)
    click_pip(qtbot, sheet.combat.combat_track, 3)
    ch = bridge.game.campaign.character
    assert (ch.skills["Traps"].pips, ch.poison, ch.equipment["torso"].repair_pips, ch.supplies.oil) == (4, 2, 1, 12)
    assert (ch.empire["trade"].shares, len(ch.combat_track)) == (2, 3)
    bridge.undo()
    assert sheet.combat.combat_track.value() == 0
    bridge.undo()
    assert sheet.empire.share_tracks["trade"].value() == 0 and sheet.supplies.supply_tracks["oil"].value() == 12
    bridge.undo()
    assert sheet.supplies.supply_tracks["oil"].value() == 20


def test_refused_edits_show_the_engines_message_and_keep_the_model(qtbot, bridge, sheet):
    create_hero(bridge)
    rep = sheet.header.header_boxes["rep"]
    rep.setValue(11)
    assert "REP must stay between 1 and 10 (it would be 11)" in sheet.message.text()
    assert sheet.message.isVisible()
    assert rep.value() == 1 and bridge.game.campaign.character.rep == 1
    sheet.skills.skill_boxes["Locks"].setValue(25)
    assert "Locks must stay between +0 and +20" in sheet.message.text()
    assert sheet.skills.skill_boxes["Locks"].value() == 5
    sheet.health.hp_box.setValue(21)
    assert "HP 21 is above the maximum of 20" in sheet.message.text()
    click_pip(qtbot, sheet.time.time_track, RULES.sheet.time_track.clocks)
    assert "refreshes the time track" in sheet.message.text()
    sheet.header.header_boxes["gp"].setValue(120)
    assert sheet.message.text() == "" and not sheet.message.isVisible()
    assert bridge.game.campaign.character.gp == 120
    assert bridge.game.campaign.log[-1].manual


def test_text_fields_commit_when_editing_finishes(qtbot, bridge, sheet):
    create_hero(bridge)
    sheet.name_edit.setText("Judith the Bold")
    sheet.name_edit.editingFinished.emit()
    sheet.notes_section.notes.setPlainText("East door locked.")
    sheet.notes_section.notes.editing_finished.emit()
    sheet.quest_log.current_quest.setText("The Lost Crypt")
    sheet.quest_log.current_quest.editingFinished.emit()
    ch = bridge.game.campaign.character
    assert (ch.name, ch.notes, ch.quest_log.current) == ("Judith the Bold", "East door locked.", "The Lost Crypt")
    kinds = [e.command.get("field") for e in bridge.game.campaign.log[-3:]]
    assert kinds == ["name", "notes", "current_quest"]
    sheet.notes_section.notes.editing_finished.emit()  # unchanged: no command
    assert len(bridge.game.campaign.log) == len(CREATION) + 3


def test_item_menus_unequip_equip_and_discard(bridge, sheet):
    create_hero(bridge)

    def act(menu, text):
        for action in menu.findChildren(QAction):
            if action.text() == text:
                action.trigger()
                return
        raise AssertionError(f"no {text!r} in {[a.text() for a in menu.findChildren(QAction)]}")

    act(sheet.item_menu("equipment", slot="torso"), "Unequip to the backpack")
    ch = bridge.game.campaign.character
    assert ch.equipment["torso"] is None and [i.name for i in ch.backpack] == ["Leather Cuirass"]
    assert sheet.equipment.slot_items["torso"].text() == "—"
    equip = sheet.item_menu("backpack", index=0)
    assert [a.text() for a in equip.findChildren(QAction) if a.text() in ("Torso", "Head")] == ["Torso"]
    act(equip, "Torso")
    assert bridge.game.campaign.character.equipment["torso"].name == "Leather Cuirass"
    act(sheet.item_menu("belt", index=2), "Discard")
    assert bridge.game.campaign.character.belt[2] is None
    assert bridge.game.campaign.log[-1].manual
    act(sheet.item_menu("belt", index=0), "Take off the belt")
    assert [p.name for p in bridge.game.campaign.character.potions] == ["Lesser Healing Potion"]
    act(sheet.item_menu("potions", index=0), "Put on the belt (slot 1)")
    assert bridge.game.campaign.character.belt[0].name == "Lesser Healing Potion"


def test_edit_an_item_through_its_form(bridge, sheet, actions):
    create_hero(bridge)
    sheet.edit_item("equipment", slot="torso")  # what a double-click on the torso line asks
    dialog = actions.item_dialog
    assert dialog.name.text() == "Leather Cuirass"
    dialog.defence.setValue(2)
    dialog.hp_bonus.setValue(3)
    dialog._try_accept()
    ch = bridge.game.campaign.character
    assert (ch.equipment["torso"].defence, ch.equipment["torso"].hp_bonus, ch.equipment["torso"].value) == (2, 3, 34)
    assert sheet.health.hp_max_label.text() == "/ 23"
    sheet.add_item("non_slot")
    add = actions.item_dialog
    add.name.setText("Silver Key")
    add._try_accept()
    assert [i.name for i in bridge.game.campaign.character.non_slot_items] == ["Silver Key"]
    assert bridge.game.campaign.log[-1].command["kind"] == "add_item"


def test_the_test_button_opens_the_skill_test_dialog(qtbot, bridge, sheet, actions):
    create_hero(bridge)
    assert sheet.test_button.isEnabled()
    qtbot.mouseClick(sheet.test_button, Qt.MouseButton.LeftButton)
    assert isinstance(actions.test_dialog, SkillTestDialog)
    assert actions.test_dialog.isVisible()
    assert actions.test_dialog.formula_label.text() == "50 = 50"  # STR, no modifier, no skills
    actions.test_dialog.reject()


def test_undoing_the_creation_empties_the_sheet(bridge, sheet):
    create_hero(bridge)
    while bridge.game.can_undo:
        bridge.undo()
    assert sheet.stack.currentIndex() == 0


def test_the_wheel_never_edits_an_unfocused_number(qtbot, bridge, sheet):
    create_hero(bridge)
    box = sheet.header.header_boxes["gp"]
    assert not box.hasFocus()
    event = QWheelEvent(
        QPointF(5, 5),
        QPointF(box.mapToGlobal(QPoint(5, 5))),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    box.wheelEvent(event)
    assert box.value() == 0 and bridge.game.campaign.character.gp == 0
