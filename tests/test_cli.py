"""The command line: --help, --version, --screenshot, --roll."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from d100gui import APP_ID, __version__
from d100gui.app import build_parser

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow


def run(*args, home):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "d100gui", *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_help_lists_options():
    text = build_parser().format_help()
    for option in ("--screenshot", "--version", "--seed", "--roll", "--theme"):
        assert option in text


def test_version(tmp_path):
    result = run("--version", home=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"d100gui {__version__}"


@pytest.mark.gui
def test_screenshot_writes_a_1400x900_png_with_a_roll(tmp_path):
    out = tmp_path / "shot.png"
    result = run("--screenshot", str(out), "--seed", "3", "--roll", "d100.E", home=tmp_path)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)


def test_unknown_table_for_roll_fails_clearly(tmp_path):
    result = run("--screenshot", str(tmp_path / "x.png"), "--roll", "d100.nope", home=tmp_path)
    assert result.returncode == 2
    assert "no table 'd100.nope'" in result.stderr


def _replay(path, home):
    return run("replay", "--check", str(path), home=home)


@pytest.mark.gui
def test_replay_of_a_store_played_with_physical_dice_matches(qtbot, _fresh_home):
    from PySide6.QtCore import Qt

    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)  # the app's dice
    win.game.physical = lambda requests: [2] * len(requests)  # then the player's own dice
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    assert win.game.campaign.dice_history[1].roll.manual
    path = win.campaign_path
    win.close()
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr


def test_replay_says_which_tile_set_is_missing(tmp_path, _fresh_home):
    from d100gui.engine.campaign import Campaign
    from d100gui.storage.campaigns import save_campaign

    path = tmp_path / "elsewhere.d100.json"
    save_campaign(Campaign(tileset="my-caves"), path)
    result = _replay(path, _fresh_home)
    assert result.returncode == 2
    assert "tile set 'my-caves'" in result.stderr


@pytest.mark.gui
@pytest.mark.parametrize("physical_first", [True, False])
def test_replay_of_fate_re_rolls_matches(qtbot, _fresh_home, physical_first):
    from d100gui.engine.dice_commands import RerollDice, RollDice
    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=8)
    qtbot.addWidget(win)
    by_hand = lambda requests: [1] * len(requests)
    win.game.physical = by_hand if physical_first else None
    assert win.bridge.send(RollDice(expression="3d6"))
    win.game.physical = None if physical_first else by_hand
    assert win.bridge.send(RerollDice(entry=0, dice=[0, 2]))  # a Fate re-roll, with the other kind of dice
    win.game.physical = None
    assert win.bridge.send(RollDice(expression="d100"))  # the random state after it must match too
    path = win.campaign_path
    win.close()
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr


SEED_WITH_AN_OPEN_EXIT = 1


def test_replay_of_a_campaign_on_the_players_own_tile_set_matches(tmp_path, _fresh_home):
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.dungeon.commands import MoveHero, SetTileSet
    from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
    from d100gui.engine.game import CampaignMeta, Game
    from d100gui.engine.protocol import CommandRefused
    from d100gui.storage.campaigns import save_campaign
    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.storage.resources import bundled_rules, standard_tileset, standard_tilesets
    from d100gui.storage.tilesets import save_tileset

    mine = standard_tileset()
    green = mine.model_copy(update={"tiles": [t.model_copy(update={"colour": "G"}) for t in mine.tiles]})
    saved = save_tileset(green, "My Caves")
    game = Game(
        Campaign(meta=CampaignMeta(seed=SEED_WITH_AN_OPEN_EXIT)),  # a fixed seed: the entrance has a way on
        load_library(user_data_dir()).library,
        ALL_COMMANDS,
        rules=bundled_rules(),
        tilesets={**standard_tilesets(), saved.id: saved},
    )
    game.execute(SetTileSet(tileset=saved.id))
    game.execute(NewDungeon(quest="Cellar"))
    game.execute(EnterDungeon())
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon is not None
    area = dungeon.hero_area()
    assert area is not None
    assert area.colour == "G"  # mapped from the player's own tile set
    moved = 0
    for side in [side for side, exit_ in area.exits.items() if exit_.kind == "open"]:
        try:
            game.execute(MoveHero(side=side))
            moved += 1
            break
        except CommandRefused:
            continue  # the exit back out of the dungeon
    assert moved == 1 and len(dungeon.areas) >= 1
    path = tmp_path / "caves.d100.json"
    save_campaign(game.campaign, path)
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr


def test_replay_names_the_players_rows_this_machine_lacks(tmp_path, _fresh_home):
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.dice.dice import ScriptedSource
    from d100gui.engine.dice.tables import Row
    from d100gui.engine.dice_commands import RollTable
    from d100gui.engine.game import Game
    from d100gui.storage.campaigns import save_campaign
    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.storage.resources import bundled_rules, standard_tilesets

    library = load_library(user_data_dir()).library  # this machine's pack has no rows of its own
    library.add_user_row("d100.E", Row(range=(26, 100), fields={"monster": "Ghoul"}, partial=True, user=True))
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([4, 2])
    game.execute(RollTable(table_id="d100.E"))
    path = tmp_path / "elsewhere.d100.json"
    save_campaign(game.campaign, path)
    result = _replay(path, _fresh_home)
    assert result.returncode == 2
    assert "player's own table row(s): d100.E row 26-100" in result.stderr


def test_replay_of_a_campaign_that_typed_a_missing_row_matches(tmp_path, _fresh_home):
    """The typed row is in the player's pack by the time of the replay: the replay must still see
    the roll land on the gap, as it did in play, and type the row in again."""
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.dice.tables import Row
    from d100gui.engine.dice_commands import ProvideRow, RollTable
    from d100gui.engine.game import Game
    from d100gui.storage import packs
    from d100gui.storage.campaigns import save_campaign
    from d100gui.storage.paths import user_data_dir
    from d100gui.storage.resources import bundled_rules, standard_tilesets

    loaded = packs.load_library(user_data_dir())
    game = Game(Campaign(), loaded.library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.physical = lambda requests: [4, 2][: len(requests)]  # the player's own dice: the log keeps the faces
    game.execute(RollTable(table_id="d100.E"))
    game.physical = None
    assert game.campaign.dice_history[0].table is not None and game.campaign.dice_history[0].table.missing
    game.execute(ProvideRow(entry=0, row=Row(range=(26, 100), fields={"monster": "Ghoul"}, partial=True)))
    packs.save_user_table(loaded.user_pack_path, loaded.library.get("d100.E"))  # as the window does
    game.execute(RollTable(table_id="d100.E"))
    path = tmp_path / "typed.d100.json"
    save_campaign(game.campaign, path)
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr


# --------------------------------------------------------------------------- issue 27: scripted dice replay, files


_DICE = {"d100": (0, 9, 2), "2d6": (1, 6, 2), "d6": (1, 6, 1), "d10": (0, 9, 1)}


def _scripted_game(seed: int):
    """A random game mixing scripted and seeded rolls (as a headless scenario plays)."""
    import random

    from d100gui.engine.api import Session
    from d100gui.storage.resources import bundled_game_data

    chance = random.Random(seed)
    session = Session.new(bundled_game_data(), seed=seed, policy="reroll")
    for _ in range(chance.randint(3, 10)):
        expression = chance.choice(sorted(_DICE))
        low, high, count = _DICE[expression]
        if chance.random() < 0.7:
            session.script_dice([chance.randint(low, high) for _ in range(count)])
        session.run({"kind": "roll_dice", "expression": expression})
        session.seeded_dice()
    return session


def test_random_scripted_games_replay_exactly(tmp_path, _fresh_home, capsys):
    """Scripted rolls are logged as given faces (like physical dice): ``replay --check`` reproduces them."""
    from d100gui.app import replay_main
    from d100gui.storage.campaigns import save_campaign

    for seed in range(12):
        session = _scripted_game(seed)
        assert any(h.roll.manual for h in session.campaign.dice_history) or seed  # scripted faces are marked
        path = tmp_path / f"scripted-{seed}.d100.json"
        save_campaign(session.campaign, path)
        status = replay_main([str(path), "--check"])
        err = capsys.readouterr().err
        assert status == 0 and "matches" in err, (seed, err)


def test_session_policy_sample_is_the_reroll_of_sample_play():
    from d100gui.engine.api import Session
    from d100gui.engine.dice.roller import MissingRowPolicy
    from d100gui.storage.resources import bundled_game_data

    session = Session.new(bundled_game_data(), seed=1, policy="sample")
    assert session.policy is MissingRowPolicy.REROLL
    with pytest.raises(ValueError, match="'ask'"):
        Session.new(bundled_game_data(), policy="sometimes")


@pytest.mark.parametrize("name", ["x.d100", "x.d100.json"])
def test_replay_of_a_fifo_is_refused_at_once(tmp_path, _fresh_home, name):
    fifo = tmp_path / name
    os.mkfifo(fifo)
    result = run("replay", "--check", str(fifo), home=_fresh_home)  # the timeout in run() fails a hang
    assert result.returncode == 2
    assert "not a regular file" in result.stderr


# --------------------------------------------------------------------------- the desktop way (issue 20)


def test_a_file_is_positional_and_open_still_works():
    parser = build_parser()
    assert parser.parse_args(["x.d100"]).file == "x.d100"
    assert parser.parse_args(["--open", "x.d100"]).open == "x.d100"
    assert "FILE" in parser.format_help()


def test_a_file_and_open_together_are_refused(tmp_path):
    result = run("a.d100", "--open", "b.d100", home=tmp_path)
    assert result.returncode == 2 and "give one file to open" in result.stderr


def test_without_a_display_the_app_says_so_plainly(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["D100GUI_HOME"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-m", "d100gui"], capture_output=True, text=True, env=env, timeout=120, check=False)
    if not sys.platform.startswith("linux"):
        pytest.skip("a display is a Linux question")
    assert result.returncode == 2
    assert "no display: set DISPLAY or run under Xvfb, or use QT_QPA_PLATFORM=offscreen" in result.stderr


def _recent(home):
    settings = home / "config" / "settings.ini"
    return settings.read_text(encoding="utf-8") if settings.exists() else ""


@pytest.mark.gui
def test_d100gui_file_opens_a_store_and_imports_a_campaign_json(tmp_path):
    from d100gui.engine.campaign import Campaign
    from d100gui.storage.campaigns import save_campaign
    from d100gui.storage.store import CampaignStore

    store = tmp_path / "mine.d100"
    CampaignStore.create(store, Campaign()).close()
    result = run("--screenshot", str(tmp_path / "a.png"), str(store), home=tmp_path / "one")
    assert result.returncode == 0, result.stderr
    assert "mine.d100" in _recent(tmp_path / "one")  # opened in place
    exported = tmp_path / "friend.d100.json"
    save_campaign(Campaign(), exported)
    result = run("--screenshot", str(tmp_path / "b.png"), str(exported), home=tmp_path / "two")
    assert result.returncode == 0, result.stderr
    imported = list((tmp_path / "two" / "data" / "campaigns").glob("*.d100"))
    assert [p.name for p in imported] == ["friend.d100"]  # imported into the campaigns folder, as File > Import does
    assert not (tmp_path / "friend.d100").exists()  # nothing written beside the player's file


@pytest.mark.gui
def test_the_window_carries_the_desktop_file_id(tmp_path):
    """Run in its own process: a start changes process-wide state (pydantic's memo, gc) other tests check."""
    code = (
        "import sys; from PySide6.QtGui import QGuiApplication; from d100gui.app import main; "
        f"status = main(['--screenshot', {str(tmp_path / 'shot.png')!r}]); "
        "print(QGuiApplication.desktopFileName()); sys.exit(status)"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == APP_ID  # Wayland docks match the window to io.github.d100gui.d100gui.desktop
