"""Shared fixtures: every test runs offscreen with the player's directories in a temp dir."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Every Game in the suite checks its journal against full snapshots after each command (a change the
# journal missed, or a refused command that left something changed, fails the test that made it).
# D100GUI_CHECK_JOURNAL=0 turns it off for a quick run.
os.environ.setdefault("D100GUI_CHECK_JOURNAL", "1")
# Before any fixture runs (a module- or session-scoped one runs before `_fresh_home` below), the player's
# directories are already a temp dir: nothing in the suite may create or read the real ones.
os.environ["D100GUI_HOME"] = tempfile.mkdtemp(prefix="d100gui-tests-")

import platformdirs
import pytest


@pytest.fixture(autouse=True)
def _fresh_home(tmp_path, monkeypatch):
    """Point every user directory at a temp dir; fail loudly if anything asks platformdirs."""
    monkeypatch.setenv("D100GUI_HOME", str(tmp_path / "home"))

    def _forbidden(*_args, **_kwargs):
        raise AssertionError("a test reached for the real user directories")

    for name in ("user_data_dir", "user_config_dir", "user_cache_dir", "user_state_dir", "user_log_dir"):
        if hasattr(platformdirs, name):
            monkeypatch.setattr(platformdirs, name, _forbidden)
    return tmp_path / "home"


@pytest.fixture(scope="session")
def bundled_library():
    """The bundled packs, loaded once (read-only use only)."""
    from d100gui.storage.packs import load_library

    return load_library(None).library
