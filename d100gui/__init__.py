"""d100gui: a desktop companion for the solo dungeon crawl D100 Dungeon.

The one place for the app's version, licence and id: pyproject.toml reads ``__version__``
(``dynamic = ["version"]``), ``--version`` and Help > About show it, and the packaging files
(the PyInstaller spec, the .desktop file, the AppStream metainfo) use ``APP_ID``
(tests/packaging checks they agree).
"""

__version__ = "0.1.0"
#: the licence pyproject.toml declares (a test checks they agree)
__license__ = "MIT"
#: reverse-DNS id: the AppStream component, the .desktop file's name, the macOS bundle identifier
APP_ID = "io.github.d100gui.d100gui"
