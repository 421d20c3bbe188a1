"""`python -m d100gui` from the source folder while the app is installed from a wheel (not editable).

The folder's ``d100gui/`` then shadows the installed package, and ``resources/`` sits beside it, not inside
it (pyproject maps it to ``d100gui.resources`` only when installing): the loader uses the checkout's own.
Simulated without installing: ``python -S`` with only site-packages on the path leaves out the editable
install's finder, as a wheel install would have none.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from d100gui.storage.resources import source_resources

ROOT = Path(__file__).resolve().parents[2]


def test_resources_beside_the_package_are_found_only_when_they_are_the_bundle(tmp_path):
    (tmp_path / "d100gui").mkdir()
    assert source_resources(tmp_path / "d100gui") is None  # no resources/ beside it
    (tmp_path / "resources").mkdir()
    (tmp_path / "resources" / "__init__.py").write_text("", encoding="utf-8")
    assert source_resources(tmp_path / "d100gui") is None  # a folder of that name, but not ours
    shutil.copy2(ROOT / "resources" / "d100-rules.json", tmp_path / "resources")
    assert source_resources(tmp_path / "d100gui") == tmp_path / "resources"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.gui
def test_python_m_d100gui_runs_from_a_source_folder_that_shadows_an_installed_package(tmp_path):
    source = tmp_path / "checkout"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "d100gui", source / "d100gui", ignore=ignore)
    shutil.copytree(ROOT / "resources", source / "resources", ignore=ignore)
    site = sysconfig.get_paths()["purelib"]  # PySide6, pydantic...: without the .pth of an editable install
    start = f"import runpy, sys; sys.path[:0] = ['', {site!r}]; sys.argv[0] = 'd100gui'; runpy.run_module('d100gui', run_name='__main__')"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(tmp_path / "home")}
    shot = tmp_path / "shot.png"
    done = subprocess.run(
        [sys.executable, "-S", "-c", start, "--screenshot", str(shot)],
        cwd=source,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert "No module named d100gui.resources" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.exists()
