"""Start-up order (issue 9): the window is shown first, the campaign opened on the first turn of the event
loop, and a campaign that cannot be opened never stops the start. Run as a player starts the app: a process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from d100gui.engine.api import Session
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore


def _start(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "d100gui", "--quit-when-idle", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)


def _marks(stderr: str) -> list[str]:
    """The start-up marks and the app's own messages, in the order they were printed."""
    return [line.split("=")[0].split(": it ")[0] for line in stderr.splitlines() if line.startswith("d100gui")]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_window_is_shown_then_the_campaign_opened_then_idle(tmp_path):
    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    session.run({"kind": "roll_dice", "expression": "2d6"})
    path = tmp_path / "c.d100"
    CampaignStore.create(path, session.campaign, session.game).close()
    done = _start(tmp_path, "--open", str(path))
    assert done.returncode == 0, done.stderr
    assert _marks(done.stderr) == ["d100gui-startup shown", "d100gui-startup idle"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.d100", "home"]  # opened and closed: no -wal left


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_campaign_that_cannot_be_opened_is_told_after_the_window_is_shown(tmp_path):
    broken = tmp_path / "broken.d100"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)  # a damaged database
    done = _start(tmp_path, "--open", str(broken))
    assert done.returncode == 0, done.stderr  # the app started all the same
    assert _marks(done.stderr) == ["d100gui-startup shown", "d100gui: broken.d100 cannot be opened", "d100gui-startup idle"]
    assert broken.read_bytes() == b"SQLite format 3\x00" + b"\x00" * 200  # left untouched


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_roll_asked_for_an_unknown_table_still_exits_with_its_status(tmp_path):
    done = _start(tmp_path, "--new", "--roll", "no.such.table")
    assert done.returncode == 2
    assert "there is no table 'no.such.table'" in done.stderr


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_toolbox_builds_a_tool_panel_when_it_is_first_shown(qtbot):
    """The toolbox starts behind the dice tab: only the tool in front is built, each other on its first showing,
    and a panel asked for by key is built then (what it shows is the same either way)."""
    from d100gui.ui.common.bridge import EngineBridge
    from d100gui.ui.toolbox.dock import ToolboxPanel

    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    dock = ToolboxPanel(EngineBridge(session.game))
    qtbot.addWidget(dock)
    built: list[object] = []
    dock.panel_built.connect(built.append)
    assert list(dock.built) == [next(iter(dock.tools))]  # the first tool, in front
    assert len(dock.panels) == len(dock.tools) > 1
    key = list(dock.tools)[1]
    panel = dock.choose(key)
    assert dock.current_panel is panel and built == [panel] and key in dock.built
    assert dock.panels[key] is panel and built == [panel]  # built once
    assert len(list(dock.panels.values())) == len(dock.tools) == len(dock.built)


DEFERRED = (  # opened on demand, never on the way to the first paint
    "d100gui.ui.map.export",
    "d100gui.ui.map.tile_editor",
    "d100gui.ui.hero.creation_wizard",
    "d100gui.ui.hero.sheet_print",
    "d100gui.ui.hero.skill_test_dialog",
    "d100gui.ui.help.panel",
    "d100gui.ui.help.tour",
    "d100gui.ui.help.shortcuts",
    "d100gui.ui.town.wizard",
    "d100gui.ui.table_editor.editor",
    "d100gui.ui.fallen_viewer",
    "d100gui.ui.roster.dialog",
    "d100gui.ui.toolbox.dock",  # behind the dice tab: built when first shown
    "d100gui.ui.toolbox.tools",
    "d100gui.engine.commands",  # every feature's commands: a kind's module is imported when the kind is met
    "d100gui.engine.toolbox.commands",
    "d100gui.engine.toolbox.classic_commands",
    "d100gui.ui.stats.window",  # View > Statistics, with its charts
    "d100gui.ui.chronicle.window",
    "d100gui.engine.stats",  # the statistics and the chronicle's readers: read when their windows ask
    "d100gui.engine.chronicle",
    "d100gui.storage.stats_read",
    "d100gui.storage.roster",  # the roster's lines: made when the roster opens
    "pyqtgraph",
    "numpy",
)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("start", ["--new", "the last campaign"])
def test_a_start_imports_none_of_what_opens_on_demand(tmp_path, start):
    """A start to idle (the tour already seen), new or reopening the last campaign, leaves the dialogs, wizards,
    help, export and print unimported."""
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    last = ""
    if start == "the last campaign":
        session = Session.new(bundled_game_data(), seed=3, policy="reroll")
        session.run({"kind": "roll_dice", "expression": "2d6"})
        CampaignStore.create(tmp_path / "last.d100", session.campaign, session.game).close()
        last = str(tmp_path / "last.d100")
    script = (
        "import sys; from pathlib import Path; from d100gui.app import main\n"
        "from d100gui.ui.common.settings import Preferences\n"
        "p = Preferences(); p.tour_shown = True\n"  # a player who has seen the tour
        f"if {last!r}: p.add_recent(Path({last!r}))\n"
        "p.sync()\n"
        f"status = main(['--quit-when-idle'] + ([] if {last!r} else ['--new']))\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith(('d100gui.', 'pyqtgraph', 'numpy')))))\n"
        "sys.exit(status)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "not reopened" not in done.stderr
    loaded = set(done.stdout.split())
    assert "d100gui.ui.main_window" in loaded and "d100gui.engine.game" in loaded  # it did start
    assert sorted(loaded.intersection(DEFERRED)) == []


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_model_is_the_projects_and_is_built_on_first_use():
    """Every pydantic model of the engine and the storage inherits the project's base model (its validator built
    on first use, in the tests as in the app: no start-up switch); importing them all builds few of them."""
    script = (
        "import importlib, json, pkgutil, d100gui.engine, d100gui.storage\n"
        "from pydantic import BaseModel\n"
        "from d100gui.engine.model import Model\n"
        "for package in (d100gui.engine, d100gui.storage):\n"
        "    for info in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "seen, todo = [], [BaseModel]\n"
        "while todo:\n"
        "    for sub in todo.pop().__subclasses__():\n"
        "        seen.append(sub); todo.append(sub)\n"
        "ours = [m for m in seen if m.__module__.startswith('d100gui.') and m is not Model]\n"
        "print(json.dumps({'models': len(ours), 'built': sum(m.__pydantic_complete__ for m in ours),\n"
        "    'outside': [f'{m.__module__}.{m.__qualname__}' for m in ours if not issubclass(m, Model)],\n"
        "    'builtin list': [f'{m.__qualname__}.{n}' for m in ours if not m.__pydantic_complete__\n"
        "                     for n, f in m.model_fields.items() if f.default_factory is list],\n"
        "    'lists': sum(f.default_factory is not None and f.default_factory.__name__ == '_new_list'\n"
        "                 for m in ours for f in m.model_fields.values()),\n"
        "    'defer': Model.model_config.get('defer_build')}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    found = json.loads(done.stdout)
    assert found["outside"] == []  # each inherits d100gui.engine.model.Model
    # a list field's default comes from a Python function when the validator is built (the builtin's signature is
    # parsed from its text at each build); a model rebuilt from a forward reference at import gets the builtin back
    assert found["builtin list"] == [] and found["lists"] > 100
    assert found["defer"] is True and found["models"] > 400
    assert found["built"] < found["models"] // 10  # a few are built as their modules use them (a constant model)


def _tables(commands: dict[str, str], events: dict[str, str]) -> str:
    """kind_index.py's two tables as they should read."""
    lines = []
    for name, table in (("COMMAND_MODULES", commands), ("EVENT_MODULES", events)):
        lines += [f"{name}: dict[str, str] = {{", *(f'    "{k}": "{table[k]}",' for k in sorted(table)), "}"]
    return "\n".join(lines)


def test_the_kind_index_names_the_module_of_every_command_and_event_kind():
    """A kind met before its module is imported is looked up in d100gui/engine/kind_index.py: it must name each
    kind's module (a new or moved command or event: paste the tables this failure prints into that file)."""
    import d100gui.engine.commands  # noqa: F401  (every kind registered)
    from d100gui.engine.command_registry import COMMAND_KINDS
    from d100gui.engine.kind_index import COMMAND_MODULES, EVENT_MODULES
    from d100gui.engine.protocol import EVENT_KINDS

    commands = {kind: cls.__module__ for kind, cls in COMMAND_KINDS.items()}
    events = {kind: spec.payload.__module__ for kind, spec in dict.items(EVENT_KINDS)}
    assert (COMMAND_MODULES, EVENT_MODULES) == (commands, events), "\n" + _tables(commands, events)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_kind_s_module_is_imported_when_the_kind_is_first_met():
    """The store and the window's game import no command module they do not meet: a toolbox command's kind,
    or a toolbox event's, imports its module when first asked for; an unknown kind is still unknown."""
    script = (
        "import sys\n"
        "import d100gui.storage.store\n"
        "from d100gui.engine.game import EVERY_COMMAND\n"
        "from d100gui.engine.protocol import EVENT_KINDS, Event\n"
        "before = {m for m in ('d100gui.engine.toolbox.commands', 'd100gui.engine.toolbox.events') if m in sys.modules}\n"
        "command = EVERY_COMMAND['toolbox_classic_gems']\n"
        "event = EVENT_KINDS.get('toolbox_injury')\n"
        "print(sorted(before), command.__module__, event is not None and event.payload.__module__,\n"
        "      EVERY_COMMAND.get('no_such_kind'), 'no_such_kind' in EVENT_KINDS)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == [
        "[]",
        "d100gui.engine.toolbox.commands",
        "d100gui.engine.toolbox.events",
        "None",
        "False",
    ]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def last_campaign(tmp_path):
    """A played campaign (one roll) in a store, remembered as the last one played (the tour seen)."""
    from d100gui.ui.common.settings import Preferences

    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    session.run({"kind": "roll_dice", "expression": "2d6"})
    path = tmp_path / "last.d100"
    CampaignStore.create(path, session.campaign, session.game).close()
    prefs = Preferences()
    prefs.add_recent(path)
    prefs.tour_shown = True
    prefs.sync()
    return path


@pytest.fixture
def start_window(qtbot, bundled_library):
    """The window as app.py builds it, not yet shown, with its crash guard installed (as at a start)."""
    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.crash import CrashGuard
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    window = MainWindow(load_library(user_data_dir()), Preferences())
    qtbot.addWidget(window)
    guards: list[CrashGuard] = []

    def guard() -> CrashGuard:
        guards.append(CrashGuard(window).install())
        return guards[-1]

    yield window, guard
    for each in guards:
        each.uninstall()
    window.campaigns.close()


@pytest.mark.gui
def test_the_last_campaign_is_in_the_window_before_it_is_first_shown(start_window, last_campaign):
    """The start reads the last campaign before the window's first paint (never an empty window filled in
    later), and the open after the window is shown does not open it again."""
    from d100gui.app import _open_asked, _reopen_before_shown, build_parser

    window, guard = start_window
    args, installed = build_parser().parse_args([]), guard()
    assert _reopen_before_shown(window, window.prefs, args, installed) is True
    assert not window.isVisible() and window.campaigns.path == last_campaign
    assert window.game.campaign.log_length == 1 and window.windowTitle() != "New campaign — d100gui"
    store = window.campaigns.store
    assert _open_asked(window, window.prefs, args, installed, reopened=True) == 0
    assert window.campaigns.store is store and window.last_message_box is None  # not opened twice


@pytest.mark.gui
def test_a_damaged_last_campaign_is_refused_after_the_window_is_shown_and_left_untouched(start_window, last_campaign):
    from d100gui.app import _open_asked, _reopen_before_shown, build_parser

    last_campaign.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)  # a damaged database
    window, guard = start_window
    args, installed = build_parser().parse_args([]), guard()
    assert _reopen_before_shown(window, window.prefs, args, installed) is False
    assert window.campaigns.path is None and window.last_message_box is None  # nothing said before the window is up
    assert _open_asked(window, window.prefs, args, installed, reopened=False) == 0  # after the first paint: told
    assert window.last_message_box is not None and "cannot be opened" in window.last_message_box.text()
    assert last_campaign.read_bytes() == b"SQLite format 3\x00" + b"\x00" * 200


@pytest.mark.gui
@pytest.mark.parametrize("asked", [["--new"], ["--demo"], ["after a crash"]])
def test_the_last_campaign_is_not_read_early_when_the_start_asks_for_something_else(start_window, last_campaign, asked):
    """A new campaign, the demo, or the offer after a crash (a run left behind): nothing read before the window."""
    import json

    from d100gui.app import _reopen_before_shown, build_parser
    from d100gui.storage import crashlog
    from d100gui.storage.paths import user_data_dir

    window, guard = start_window
    if asked == ["after a crash"]:
        pid = _dead_pid()
        marker = user_data_dir() / f"{crashlog.MARKER_PREFIX}{pid}.json"
        marker.write_text(json.dumps({"pid": pid, "started": "2026-01-02T03:04:05+00:00", "version": "0.0.1", "campaign": None}))
        asked = []
    installed = guard()
    assert _reopen_before_shown(window, window.prefs, build_parser().parse_args(asked), installed) is False
    assert window.campaigns.path is None
