"""The storage tests' markers: ``kill`` (see test_kill.py)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "kill: SIGKILL the save path at random moments (D100GUI_KILL=100 for all)")
