"""Start-up: parse the command line, load the tables, build the window, wire it to storage."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from d100gui import __version__

SCREENSHOT_SIZE = (1400, 900)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="d100gui",
        description="A desktop companion for the solo dungeon crawl D100 Dungeon.",
    )
    parser.add_argument("--version", action="version", version=f"d100gui {__version__}")
    parser.add_argument(
        "--screenshot",
        metavar="PATH",
        help="render the main window offscreen at 1400x900 to a PNG and exit "
        "(with an empty roll history, one real roll on Table A is made first so the dice panel shows a result)",
    )
    parser.add_argument("--roll", metavar="TABLE_ID", help="roll this table once at start-up (e.g. d100.E)")
    parser.add_argument("--seed", type=int, help="seed the dice (for reproducible screenshots and bug reports)")
    parser.add_argument("--theme", choices=["system", "light", "dark"], help="override the theme preference for this run")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtWidgets import QApplication

    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.main_window import MainWindow
    from d100gui.ui.settings import Preferences
    from d100gui.ui.theme import apply_theme

    app = QApplication.instance() or QApplication(["d100gui"])
    assert isinstance(app, QApplication)
    app.setApplicationName("d100gui")
    app.setApplicationVersion(__version__)
    prefs = Preferences()
    apply_theme(app, args.theme or prefs.theme)
    loaded = load_library(user_data_dir())
    window = MainWindow(loaded, prefs, seed=args.seed)
    if args.roll:
        if not window.dice_panel.select_table(args.roll):
            print(f"d100gui: there is no table {args.roll!r}", file=sys.stderr)
            return 2
        window.dice_panel.roll_selected_table()
    if args.screenshot:
        return _screenshot(app, window, Path(args.screenshot))
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.show_startup_problems()
    return app.exec()


def _screenshot(app, window, path: Path) -> int:
    if not window.session.history and window.dice_panel.select_table("d100.A"):
        window.dice_panel.roll_selected_table()
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    for _ in range(5):
        app.processEvents()
    image = window.grab()
    ok = image.save(str(path), "PNG")
    window.close()
    if not ok:
        print(f"d100gui: could not write {path}", file=sys.stderr)
        return 1
    print(f"Saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
