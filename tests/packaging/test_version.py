"""One version string: d100gui/__init__.py. pyproject reads it; --version and Help > About show it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from d100gui import __license__, __version__
from d100gui.app import build_parser

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_reads_the_version_from_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in config["project"], "no second copy of the version"
    assert "version" in config["project"]["dynamic"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "d100gui.__version__"}
    assert config["project"]["license"] == {"text": __license__}  # the table form setuptools < 77 reads too


def test_the_version_option_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"d100gui {__version__}"


def test_the_dist_extra_brings_pyinstaller_and_make_test_does_not_install_it():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(dep.startswith("pyinstaller") for dep in config["project"]["optional-dependencies"]["dist"])
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = makefile.split("$(STAMP): pyproject.toml", 1)[1].split("\n\n", 1)[0]
    assert "[dev]" in stamp and "dist" not in stamp
    assert "packaging/d100gui.spec" in makefile and "packaging/smoke.py" in makefile
