"""Installing d100gui: every package declared, and setuptools quiet (no "Package would be ignored")."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from d100gui import __version__

ROOT = Path(__file__).resolve().parents[2]
BUILD_SECONDS = 60


def declared() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def on_disk() -> set[str]:
    """Every folder of d100gui/ with Python in it, and of resources/ with a file in it (installed as
    d100gui.resources: tables, help pages, the chronicle's templates)."""
    names = set()
    for base, prefix in ((ROOT / "d100gui", "d100gui"), (ROOT / "resources", "d100gui.resources")):
        for folder in [base, *(p for p in base.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
            data = prefix.endswith("resources") and any(f.is_file() for f in folder.iterdir())
            if any(folder.glob("*.py")) or data:
                names.add(".".join([prefix, *folder.relative_to(base).parts]))
    return names


def test_every_package_in_the_tree_is_declared_and_every_declared_one_exists():
    assert sorted(on_disk() - declared()) == [], "add these to [tool.setuptools] packages in pyproject.toml"
    assert sorted(declared() - on_disk()) == [], "these are declared in pyproject.toml but have no folder"


def _setuptools_is_recent() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77  # the version pyproject's build-system asks for


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_building_the_wheel_prints_no_package_would_be_ignored(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("d100gui", "resources"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-input", "-w", str(tmp_path / "wheel"), str(source)]
    if _setuptools_is_recent():
        command.insert(4, "--no-build-isolation")
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_SECONDS, check=False, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.skip(f"building the wheel took over {BUILD_SECONDS} s")
    output = done.stdout + done.stderr
    if done.returncode != 0 and ("Could not find a version" in output or "NewConnectionError" in output):
        pytest.skip("the build backend could not be fetched (no package index reachable)")
    assert done.returncode == 0, output[-3000:]
    assert "would be ignored" not in output, output[output.find("would be ignored") - 600 :][:2000]
    [wheel] = (tmp_path / "wheel").glob("d100gui-*.whl")
    assert wheel.name.startswith(f"d100gui-{__version__}-"), "the version comes from d100gui/__init__.py"
    listing = subprocess.run([sys.executable, "-m", "zipfile", "-l", str(wheel)], capture_output=True, text=True, check=True)
    for data in ("d100gui/resources/tables/d100-dungeon.json", "d100gui/resources/tilesets/standard.json"):
        assert data in listing.stdout
