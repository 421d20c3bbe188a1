"""The soak suite's marker: ``soak`` tests are the long runs, skipped unless ``D100GUI_SOAK=1``."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: the long autoplay soak (run with D100GUI_SOAK=1 ... -m soak tests/soak)")
