"""The rules engine never imports Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "d100gui" / "engine"
CHECK = Path(__file__).resolve().parents[1] / "packaging" / "check_engine_qt_free.py"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_engine_sources_name_no_qt_module():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.name}: {n}" for n in names if n.split(".")[0] in {"PySide6", "PyQt5", "PyQt6", "qtpy", "shiboken6"}
            ]
            if isinstance(node, ast.ImportFrom) and node.level and node.module and node.module.split(".")[0] in {"ui"}:
                offenders.append(f"{path.name}: imports the UI layer")
    assert offenders == []


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_engine_imports_with_qt_blocked():
    result = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Qt-free" in result.stdout
