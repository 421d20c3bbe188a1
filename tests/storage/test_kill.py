"""Kill test: SIGKILL the app's own save path at random moments; the campaign always opens whole.

A child process plays a :class:`Game` with a :class:`CampaignStore` attached (the window's save
path: each action, undo and redo in its own transaction), in a loop, reporting each action
before it starts and once it is saved. The parent kills it at a random moment, then opens the
campaign, validates it and checks that at most the action in progress was lost.

    D100GUI_KILL=200 .venv/bin/python -m pytest -m kill tests/storage/test_kill.py   # the long run: 200 kills

``make test`` runs the short version (10 kills). ``D100GUI_KILL_SEED`` picks the moments. The child says
``done N`` only once the action's transaction has committed (the store saves in the game's change
listener, before ``execute`` returns): that is the commit counter read after each kill. An action
acknowledged is never lost: the reopened log is the last acknowledged length, or the one in progress.
After each kill the campaign reopens whole and undo works (issue 21, Deliver 3).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Game
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow

assert ALL_COMMANDS  # the event kinds the log holds are declared with the commands (as in the app)

CHILD = r"""
import sys
from pathlib import Path
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.campaign import Campaign
from d100gui.engine.game import Game
from d100gui.engine.dice_commands import RollDice, RollTable
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore

path = Path(sys.argv[1])
data = bundled_game_data()
store = CampaignStore.open(path) if path.exists() else None
campaign = store.load() if store else Campaign()
game = Game(campaign, data.library, ALL_COMMANDS, rules=data.rules, tilesets=data.tilesets)
if store is None:
    store = CampaignStore.create(path, campaign, game)
store.attach(game)
turn = 0
while True:
    turn += 1
    length = game.campaign.log_length
    if turn % 7 == 0 and game.can_undo:
        print(f"next {length - 1}", flush=True)
        game.undo()
    elif turn % 3 == 0:
        print(f"next {length + 1}", flush=True)
        game.execute(RollTable(table_id="d100.A"))
    else:
        print(f"next {length + 1}", flush=True)
        game.execute(RollDice(expression="3d6"))
    print(f"done {game.campaign.log_length}", flush=True)
"""


def _run_and_kill(path: Path, rng: random.Random) -> tuple[int, int, int]:
    """Start the child, kill it at a random moment once it plays; (last saved length, length in progress,
    actions acknowledged in this run)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(child.stdout.readline, b"")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    deadline = time.monotonic() + 60
    while not any(line.startswith(b"done") for line in lines):
        assert child.poll() is None, child.stderr.read().decode()  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the child never played an action"
        time.sleep(0.01)
    time.sleep(rng.uniform(0, 0.25))
    child.send_signal(signal.SIGKILL)
    child.wait()
    reader.join(timeout=5)
    child.stdout.close()  # type: ignore[union-attr]
    child.stderr.close()  # type: ignore[union-attr]
    done = [int(line.split()[1]) for line in lines if line.startswith(b"done")]
    pending = [int(line.split()[1]) for line in lines if line.startswith(b"next")]
    return done[-1], pending[-1], len(done)


@pytest.mark.kill
def test_a_kill_loses_at_most_the_action_in_progress(tmp_path):
    kills = int(os.environ.get("D100GUI_KILL", "10"))
    seed = int(os.environ.get("D100GUI_KILL_SEED", "9"))
    rng = random.Random(seed)
    path = tmp_path / "killed.d100"
    lost = undo_failed = acknowledged = 0
    data = bundled_game_data()
    for _kill in range(kills):
        saved, in_progress, done = _run_and_kill(path, rng)
        acknowledged += done
        with CampaignStore.open(path) as store:
            campaign = store.load()  # checks the file, the state, the log's tail and the undo steps reached next
            length = store.log_length
            assert store.log_page(0, length)[-1:] == campaign.log[-1:]  # the whole log reads and validates
            lost += length not in (saved, in_progress)
            assert len(campaign.dice_history) == length  # every action is one roll: state and log agree
            assert campaign.log_length == length
            game = Game(campaign, data.library, ALL_COMMANDS, rules=data.rules, tilesets=data.tilesets)
            store.attach(game)
            if length:  # undo is there after every kill, and works: then redone, the game as it was
                try:
                    game.undo()
                    game.redo()
                except CommandRefused:
                    undo_failed += 1
            assert store.log_length == length
    print(f"kill runs: {kills}, acknowledged actions: {acknowledged}, lost: {lost}, undo unavailable: {undo_failed}")
    assert lost == 0 and undo_failed == 0
    assert not path.with_name(path.name + "-wal").exists()
