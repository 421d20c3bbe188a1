"""Town tests run with undeclared events refused."""

from __future__ import annotations

import pytest

from d100gui.engine.protocol import require_declared, requires_declared


@pytest.fixture(autouse=True)
def _declared_events_only():
    before = requires_declared()
    require_declared(True)
    yield
    require_declared(before)
