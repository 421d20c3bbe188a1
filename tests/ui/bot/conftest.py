"""The never-stuck player's marker: ``stuck`` tests are the long runs, skipped unless ``D100GUI_STUCK=1``."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "stuck: the long never-stuck run in a real window (run with D100GUI_STUCK=1 ... -m stuck tests/ui/bot)"
    )
