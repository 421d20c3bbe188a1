"""The warm-up (ui/common/warm_up.py): after a campaign is shown, the engine's kind modules are imported and its
waiting models built while the window is idle, so the first search or fight of a session does not pay for them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gui

SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv)
    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.common.warm_up import models_waiting, modules_waiting
    from d100gui.ui.main_window import MainWindow

    window = MainWindow(packs.load_library(user_data_dir()), Preferences())  # its new campaign shown
    window.show()
    before = (len(modules_waiting()), len(models_waiting()))
    state = window.bridge.game.campaign.model_dump_json()
    slices, end = 0, time.monotonic() + 60
    while not window.warm_up.done and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.001)
        slices += 1
    done, after = window.warm_up.done, (len(modules_waiting()), len(models_waiting()))
    window.bridge.set_game(window.bridge.game)  # another campaign shown (here the same one re-read)
    again = window.warm_up._timer.isActive() and not window.warm_up.done
    print(json.dumps({
        "before": before,
        "after": after,
        "done": done,
        "slices": slices,
        "unchanged": window.bridge.game.campaign.model_dump_json() == state,
        "again": again,
    }))
    """
)


@pytest.mark.slow  # a fresh interpreter (the models of this one are built already): left out of `make check`
def test_a_campaign_shown_gets_its_modules_and_models_ready_while_idle(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", D100GUI_HOME=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    modules, models = report["before"]
    assert modules > 0 and models > 50, "a start leaves kind modules and models for later"
    assert report["done"] and report["after"] == [0, 0], "every kind module imported and every model built"
    assert report["slices"] > modules, "one module per idle turn, models a slice at a time: never all at once"
    assert report["unchanged"], "the warm-up changes nothing in the game"
    assert report["again"], "a campaign shown later starts it again (its modules may differ)"
