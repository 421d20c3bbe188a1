"""Import every engine module with Qt made unimportable: the engine must never need Qt.

Run by ``make test`` and by tests/test_boundary.py.
"""

from __future__ import annotations

import importlib
import importlib.abc
import pkgutil
import sys

FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "qtpy", "shiboken6")


class _BlockQt(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in FORBIDDEN:
            raise ImportError(f"the rules engine must not import Qt ({fullname})")
        return None


def main() -> int:
    sys.meta_path.insert(0, _BlockQt())
    import d100gui.engine as engine

    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "d100gui.engine.")]
    for name in names:
        importlib.import_module(name)
    loaded_qt = [m for m in sys.modules if m.split(".")[0] in FORBIDDEN]
    if loaded_qt:
        print(f"engine pulled in Qt: {loaded_qt}")
        return 1
    print(f"engine is Qt-free: {len(names)} modules imported with Qt blocked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
