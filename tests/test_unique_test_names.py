"""Every test module has a basename of its own: tests/ has no packages, so pytest imports test modules
by basename and refuses to collect a second ``test_x.py`` anywhere in the tree (the whole run stops)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_two_test_modules_share_a_basename():
    seen: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if path.name not in ("__init__.py", "conftest.py"):
            seen[path.name].append(str(path.relative_to(TESTS)))
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}
