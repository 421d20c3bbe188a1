"""Create a hero, play tests, quit, reopen: everything is restored, a pending experience choice too."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.hero import creation as cr
from d100gui.engine.hero.decisions import ExperienceChoice, pending_of
from d100gui.engine.skill_test_commands import AcceptTest, AssignExperience, RollTest
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_create_play_quit_reopen(qtbot):
    prefs = Preferences()
    prefs.missing_row_policy = MissingRowPolicy.REROLL
    win = MainWindow(packs.load_library(user_data_dir()), prefs, seed=21)
    qtbot.addWidget(win)
    send = win.bridge.send
    for command in (
        cr.CreateCharacter(),
        cr.AssignCharacteristics(scores={"STR": 40, "DEX": 50, "INT": 30}),
        cr.ChooseStartingSkills(skills=["Traps", "Lucky"]),
        cr.SetStartingReputation(),
        cr.RollStartingWeapon(),
    ):
        assert send(command), win.dice_panel.result_text.text()
    for _ in range(3):
        assert send(cr.RollStartingArmour())
        for clash in pending_of(win.game.campaign, cr.ArmourClash):
            assert send(cr.ResolveArmourClash(decision=clash.id, choice="keep_new"))
    for command in (cr.TakeStartingSupplies(), cr.TakeStartingPotions(), cr.SetStartingHealth()):
        assert send(command)
    assert send(cr.NameCharacter(name="Judith"))
    assert send(cr.FinishCharacter())
    # Judith's pendulum trap: a natural 8 -> experience to place
    win.game.override = ScriptedSource([0, 8])
    assert send(RollTest(text="PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)"))
    [pending_test] = win.game.campaign.pending
    assert send(AcceptTest(decision=pending_test.id))
    [choice] = pending_of(win.game.campaign, ExperienceChoice)
    saved = win.game.campaign.model_dump_json()
    path = win.campaign_path
    win.close()

    again = MainWindow(packs.load_library(user_data_dir()), Preferences())
    qtbot.addWidget(again)
    assert again.open_campaign(path)
    assert again.game.campaign.model_dump_json() == saved
    [restored] = pending_of(again.game.campaign, ExperienceChoice)
    assert restored.id == choice.id
    assert again.sheet.name_edit.text() == "Judith"
    assert again.bridge.send(AssignExperience(decision=restored.id, choice="skills", skills=["Traps", "Lucky"]))
    skills = again.game.campaign.character.skills
    assert (skills["Traps"].pips, skills["Lucky"].pips) == (1, 1)
