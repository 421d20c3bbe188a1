"""The player's folders come from platformdirs; a log folder an appdirs-era version left is moved over once."""

from __future__ import annotations

import platformdirs
import pytest

from d100gui.storage import paths


@pytest.fixture
def real_dirs(tmp_path, monkeypatch):
    """No D100GUI_HOME: platformdirs answers, pointed at folders inside tmp_path."""
    monkeypatch.delenv("D100GUI_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    state = tmp_path / "state" / "d100gui" / "log"
    monkeypatch.setattr(platformdirs, "user_log_dir", lambda *_a, **_k: str(state))
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *_a, **_k: str(tmp_path / "share" / "d100gui"))
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda *_a, **_k: str(tmp_path / "config" / "d100gui"))
    monkeypatch.setattr(paths.sys, "platform", "linux")
    return tmp_path


def test_data_and_config_folders_are_platformdirs(real_dirs):
    assert paths.user_data_dir() == real_dirs / "share" / "d100gui"
    assert paths.user_config_dir() == real_dirs / "config" / "d100gui"
    assert paths.user_data_dir().is_dir() and paths.user_config_dir().is_dir()


def test_an_old_log_folder_is_moved_to_the_new_place_once(real_dirs):
    old = real_dirs / "cache" / "d100gui" / "log"
    old.mkdir(parents=True)
    (old / "d100gui.log").write_text("a crash from last month\n", encoding="utf-8")

    new = paths.user_log_dir()

    assert new == real_dirs / "state" / "d100gui" / "log"
    assert (new / "d100gui.log").read_text(encoding="utf-8") == "a crash from last month\n"
    assert not old.exists()


def test_a_new_log_folder_is_never_overwritten_by_an_old_one(real_dirs):
    old = real_dirs / "cache" / "d100gui" / "log"
    old.mkdir(parents=True)
    (old / "d100gui.log").write_text("old\n", encoding="utf-8")
    new = real_dirs / "state" / "d100gui" / "log"
    new.mkdir(parents=True)
    (new / "d100gui.log").write_text("new\n", encoding="utf-8")

    assert paths.user_log_dir() == new
    assert (new / "d100gui.log").read_text(encoding="utf-8") == "new\n"
    assert (old / "d100gui.log").read_text(encoding="utf-8") == "old\n"  # left where it was, untouched


def test_no_legacy_folder_where_both_libraries_agree():
    assert paths.legacy_log_dir("win32") is None
    assert paths.legacy_log_dir("darwin") is None
    assert paths.legacy_log_dir("linux") is not None


def test_tests_never_reach_platformdirs():
    """The autouse fixture makes platformdirs raise: a test that forgot D100GUI_HOME fails loudly."""
    with pytest.raises(AssertionError, match="real user directories"):
        platformdirs.user_data_dir("d100gui", "d100gui")
