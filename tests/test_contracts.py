"""The import contracts of pyproject.toml hold, and they really fail when broken.

``make test`` runs ``lint-imports`` itself; these tests also prove that the contracts can
fail: a copy of the package where the engine imports storage, or one ui feature folder
imports another, must be reported as broken.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed in this environment")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "packaging")]))  # + the runtime_layers type
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(ROOT / "d100gui", root / "d100gui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / "packaging").mkdir()
    shutil.copy(ROOT / "packaging" / "import_contracts.py", root / "packaging" / "import_contracts.py")  # runtime_layers
    return root


def test_the_contracts_name_what_the_engine_must_not_import():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    engine = next(c for c in contracts if c.get("source_modules") == ["d100gui.engine"])
    assert {"PySide6", "d100gui.storage", "d100gui.ui"} <= set(engine["forbidden_modules"])


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_contracts_are_kept():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_an_engine_module_importing_storage_breaks_the_build(tmp_path):
    root = _copy(tmp_path)
    protocol = root / "d100gui" / "engine" / "protocol.py"
    protocol.write_text(protocol.read_text(encoding="utf-8") + "\nimport d100gui.storage.paths  # noqa\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_one_ui_feature_importing_another_breaks_the_build(tmp_path):
    root = _copy(tmp_path)
    target = root / "d100gui" / "ui" / "dice" / "__init__.py"
    target.write_text(target.read_text(encoding="utf-8") + "\nimport d100gui.ui.combat  # noqa\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_menus_importing_the_main_window_breaks_the_build(tmp_path):
    """menus and roster_actions reach the window through Protocols: even a type-only import back is refused."""
    root = _copy(tmp_path)
    target = root / "d100gui" / "ui" / "menus.py"
    text = target.read_text(encoding="utf-8").replace(
        "from d100gui.engine.flow import Flow\n",
        "from d100gui.engine.flow import Flow\n\nif TYPE_CHECKING:\n    from d100gui.ui.main_window import MainWindow  # noqa\n",
    )
    assert "d100gui.ui.main_window" in text  # the import was added (menus.py's imports as the test expects)
    target.write_text(
        text.replace("from typing import Literal, Protocol", "from typing import TYPE_CHECKING, Literal, Protocol"),
        encoding="utf-8",
    )
    result = _lint(root)
    assert result.returncode != 0
    assert "d100gui.ui.menus -> d100gui.ui.main_window" in result.stdout


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_feature_importing_the_campaign_breaks_the_floors_unless_for_annotations(tmp_path):
    """The saved Campaign stands above the features: they may name it under TYPE_CHECKING, never import it to run."""
    root = _copy(tmp_path)
    guards = root / "d100gui" / "engine" / "hero" / "guards.py"
    text = guards.read_text(encoding="utf-8")
    assert "    from d100gui.engine.campaign import Campaign\n" in text  # a type-only import: the floors hold
    result = _lint(root)
    assert result.returncode == 0, result.stdout + result.stderr
    guards.write_text(text + "\nimport d100gui.engine.campaign  # noqa\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode != 0
    assert "d100gui.engine.hero.guards -> d100gui.engine.campaign" in result.stdout


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_game_importing_a_feature_breaks_the_floors(tmp_path):
    root = _copy(tmp_path)
    game = root / "d100gui" / "engine" / "game.py"
    game.write_text(game.read_text(encoding="utf-8") + "\nimport d100gui.engine.hero.model  # noqa\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode != 0
    assert "d100gui.engine.game -> d100gui.engine.hero.model" in result.stdout
