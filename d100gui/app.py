"""Start-up: parse the command line, load the tables, build the window, wire it to storage."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d100gui import APP_ID, __version__

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from d100gui.engine.campaign import Campaign
    from d100gui.ui.common.crash import CrashGuard
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

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
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a campaign to open: its file (.d100), or an exported campaign JSON (.d100.json), which is imported; "
        "a table pack or a tile set (.json) is imported. If d100gui is running already, its window opens it.",
    )
    parser.add_argument("--open", metavar="FILE", help="open this campaign file (the same as giving FILE)")
    parser.add_argument("--new", action="store_true", help="start a new campaign instead of the last one played")
    parser.add_argument(
        "--demo", action="store_true", help="open a demo campaign: a hero made by the rules and a mapped dungeon (sample play)"
    )
    parser.add_argument("--quit-when-idle", action="store_true", help=argparse.SUPPRESS)  # start-up benchmark
    # start-up benchmark: once idle, the player's first action (the dice panel's Roll table on Table A), then quit
    parser.add_argument("--first-action", action="store_true", help=argparse.SUPPRESS)
    parser.epilog = "Also: d100gui replay FILE  re-runs a campaign's command log headless and prints the final state as JSON."
    return parser


def replay_main(argv: Sequence[str]) -> int:
    """``d100gui replay FILE``: re-run a campaign's command log headless, print the final state."""
    parser = argparse.ArgumentParser(prog="d100gui replay", description="Re-run a campaign's command log headless.")
    parser.add_argument("file", help="a campaign: its store (.d100) or its JSON (.d100.json)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the replayed state differs from the saved one")
    args = parser.parse_args(list(argv))

    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.game import replay
    from d100gui.engine.protocol import CommandRefused
    from d100gui.engine.replay_needs import missing_resources, replay_library
    from d100gui.storage.campaigns import CampaignFileError
    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.storage.resources import bundled_packs, player_rules, standard_tilesets

    try:
        saved = _read_whole(Path(args.file))
    except CampaignFileError as exc:
        print(f"d100gui replay: {exc}", file=sys.stderr)
        return 2
    tilesets = _tilesets_for(saved, standard_tilesets())
    loaded = load_library(user_data_dir())
    library = replay_library(bundled_packs(), loaded.user_pack, saved.log)
    missing = missing_resources(saved.log, saved.tileset, tilesets, library)
    if missing:
        print(f"d100gui replay: this machine lacks what the campaign used: {missing}", file=sys.stderr)
        return 2
    start = Campaign(meta=saved.meta, start_rng_state=saved.start_rng_state, rng_state=saved.start_rng_state)
    try:
        final = replay(
            saved.log,
            library,
            ALL_COMMANDS,
            start,
            rules=player_rules()[0],  # the layout the window plays by (the player's own, if saved)
            tilesets=tilesets,
        )
    except (CommandRefused, ValueError) as exc:
        print(f"d100gui replay: the log could not be replayed: {exc}", file=sys.stderr)
        return 1
    print(final.model_dump_json(indent=2, exclude={"log"}))
    if args.check:
        same = final.model_dump(exclude={"log", "meta"}) == saved.model_dump(exclude={"log", "meta"})
        print("replay matches the saved campaign" if same else "replay DIFFERS from the saved campaign", file=sys.stderr)
        return 0 if same else 1
    return 0


def _read_whole(path: Path) -> Campaign:
    """A campaign with its whole log, from a store (read, then closed) or a JSON file."""
    from d100gui.storage.campaigns import campaign_from_text, load_campaign
    from d100gui.storage.store import CampaignStore, export_json, is_store

    if not is_store(path):
        return load_campaign(path)
    with CampaignStore.read_only(path) as store:  # nothing written, no write access needed
        text = export_json(store)
    return campaign_from_text(path, text, migrate_old=True)


def _tilesets_for(campaign: Campaign, tilesets: dict[str, Any]) -> dict[str, Any]:
    """The bundled tile sets, and the player's own one the campaign rolls on, if this machine has it."""
    from d100gui.storage.tilesets import load_tileset

    if campaign.tileset not in tilesets:
        try:
            tilesets[campaign.tileset] = load_tileset(campaign.tileset)
        except Exception:
            pass
    return tilesets


def set_app_icon(app: QApplication) -> None:
    """Give every window of the app our icon (the title bar, the task bar, Alt+Tab)."""
    from PySide6.QtGui import QIcon

    from d100gui.storage.resources import app_icon_path

    app.setWindowIcon(QIcon(str(app_icon_path())))


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "replay":
        return replay_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.file and args.open:
        parser.error("give one file to open: FILE or --open FILE")
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if (problem := no_display(sys.platform, os.environ)) is not None:
        print(problem, file=sys.stderr)
        return 2

    was_collecting = gc.isenabled()
    gc.disable()  # start-up builds objects that all stay: the collector's passes over them only cost time
    try:
        return _start(args)
    finally:
        if was_collecting:
            gc.enable()


def _start(args: argparse.Namespace) -> int:
    """Build the window and show it; open the campaign once it is on screen (the screenshot opens it first)."""
    _import_before_qt()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["d100gui"])
    assert isinstance(app, QApplication)
    app.setApplicationName("d100gui")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)  # the .desktop file's id: Wayland docks match the window to its icon
    server = None
    if not args.screenshot:  # a screenshot is its own offscreen run, never handed over
        handed, server = _one_instance(args)
        if handed is not None:
            return handed

    from d100gui.storage.packs import load_library
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.common.theme import apply_theme
    from d100gui.ui.main_window import MainWindow

    set_app_icon(app)
    load_qt_translations(app)  # Qt's own dialogs and buttons in the system's language
    if not args.screenshot:
        enable_native_crash_log()
    prefs = Preferences()
    theme = apply_theme(app, args.theme or prefs.theme)
    loaded = load_library(user_data_dir())
    campaign = None
    if args.demo:
        from d100gui.demo import build_demo_campaign

        campaign = build_demo_campaign(loaded.library)
    window = MainWindow(loaded, prefs, seed=args.seed, campaign=campaign)
    window.map_area.set_dark(theme == "dark")
    app.aboutToQuit.connect(window.campaigns.close)  # however the app ends, the store is closed: no -wal
    guard = None if args.screenshot else _crash_guard(app, window)
    if not args.screenshot:
        from d100gui.ui import desktop

        desktop.install(window, server)  # drops open files; later starts hand their file to this window
        if server is not None:
            app.aboutToQuit.connect(server.close)
    if args.screenshot:
        return _open_asked(window, prefs, args, guard) or _screenshot(app, window, Path(args.screenshot))
    screen = app.primaryScreen().availableGeometry()  # a 1280x720 screen: the window fits it, never wider
    window.resize(min(SCREENSHOT_SIZE[0], screen.width()), min(SCREENSHOT_SIZE[1], screen.height()))
    window.restore_window_state()
    reopened = _reopen_before_shown(window, prefs, args, guard)
    window.show()
    QTimer.singleShot(0, lambda: _after_shown(app, window, prefs, args, guard, reopened))
    return app.exec()


def _reopen_before_shown(window: MainWindow, prefs: Preferences, args: argparse.Namespace, guard: Any) -> bool:
    """The last campaign played, read and put in the window before its first paint: the window appears with
    it, never empty first and filled in later. False (nothing done) when the start asked for something else,
    when the last run did not end cleanly (its offer comes instead), when the last campaign is not a store,
    or when it cannot be read: the open after the window is shown then tries again and tells why."""
    from d100gui.storage.store import is_store
    from d100gui.ui.campaign_files import read_campaign

    if args.new or args.open or args.file or args.demo or guard is None or guard.previous_runs:
        return False
    recent = prefs.recent()
    if not recent or not is_store(recent[0]):
        return False
    try:
        store, campaign = read_campaign(recent[0])
    except Exception:  # refused: told once the window is shown, by the same open tried again (_reopen_last)
        return False
    window.campaigns.show_opened(recent[0], store, campaign)
    return True


def _import_before_qt() -> None:
    """The engine, the storage and pydantic, imported before PySide6: once imported, PySide6 reads the source
    of every module imported after it (its import hook looks for ``__feature__`` use in each), some 320 modules
    of ours and pydantic's on a start that need no Qt (about 8% of a start's CPU)."""
    import importlib.metadata  # noqa: F401  (pydantic reads its plugins' entry points when it builds its first model)

    import d100gui.engine.flow  # (the game's flow, which the window shows at once: ~60 engine modules)
    import d100gui.storage.packs  # the tables, with the engine's models
    import d100gui.storage.store  # noqa: F401  (the campaign's store, with every command and event kind)


#: what faulthandler writes when Qt (or anything below Python) crashes the process, in the log folder
NATIVE_CRASH_LOG = "native-crash.log"
_kept_open: list[Any] = []  # the native crash log stays open for the whole run (faulthandler writes to its descriptor)


def enable_native_crash_log() -> Path | None:
    """A crash in Qt's C++ (a segfault, an abort) kills the process before any Python handler runs:
    ``faulthandler`` writes every thread's Python stack to ``native-crash.log`` in the log folder
    (Help > About shows the folder). None if the folder cannot be written (the app starts anyway)."""
    import faulthandler

    from d100gui.storage.paths import user_log_dir

    try:
        path = user_log_dir() / NATIVE_CRASH_LOG
        handle = path.open("a", encoding="utf-8")
    except OSError:
        return None
    faulthandler.enable(file=handle, all_threads=True)
    _kept_open.append(handle)
    return path


def load_qt_translations(app: Any, locale: Any = None) -> Any:
    """Qt's own translations (shipped with PySide6) for ``locale`` (default: the system's), so the
    standard dialogs' buttons and file dialogs speak the player's language: the installed translator,
    or None (none for that language: English)."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if not translator.load(locale or QLocale.system(), "qtbase", "_", folder):
        return None
    app.installTranslator(translator)
    return translator


def no_display(platform: str, env: Mapping[str, str]) -> str | None:
    """On Linux without a display (no ``DISPLAY``, no ``WAYLAND_DISPLAY``, no offscreen platform chosen),
    why the window cannot open and what to do instead of Qt's misleading "xcb-cursor0 is needed"."""
    if not platform.startswith("linux") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip().lower()
    if chosen and chosen not in ("xcb", "wayland"):
        return None
    return NO_DISPLAY


#: what a start without a display says (packaging/check_qt_deps.py says the same before `make run`)
NO_DISPLAY = (
    "d100gui: no display: set DISPLAY or run under Xvfb, or use QT_QPA_PLATFORM=offscreen for a screenshot "
    "(e.g. QT_QPA_PLATFORM=offscreen d100gui --screenshot window.png)."
)


def _one_instance(args: argparse.Namespace) -> tuple[int | None, Any]:
    """Hand this start's file to a running d100gui (then this start ends: its exit status), or become
    the running one (the server that later starts hand over to)."""
    from d100gui.ui import desktop

    name = desktop.server_name()
    request = desktop.request_from(args.open or args.file, new=args.new)
    try:
        if desktop.hand_over(name, request):
            print("d100gui is running already: its window " + ("opens the file." if request.file else "comes to the front."))
            return 0, None
    except desktop.HandOverFailed as exc:
        print(f"d100gui: {exc}", file=sys.stderr)
        return 1, None
    server = desktop.InstanceServer(name)
    if not server.listen():
        try:  # another start won the race to listen: hand over to it
            if desktop.hand_over(name, request):
                return 0, None
        except desktop.HandOverFailed as exc:
            print(f"d100gui: {exc}", file=sys.stderr)
            return 1, None
        print(
            f"d100gui: could not listen for later starts ({server.server.errorString()}); this window plays alone.",
            file=sys.stderr,
        )
        return None, None
    return None, server


def _after_shown(
    app: QApplication, window: MainWindow, prefs: Preferences, args: argparse.Namespace, guard: Any, reopened: bool = False
) -> None:
    """The window is on screen (its first paint done): open the campaign asked for (unless the last one was
    reopened before the window was shown), then let the collector run.

    The objects built so far (modules, classes, the window, the campaign) stay for the whole run:
    ``gc.freeze`` keeps the collector from walking them again on every later pass.
    """
    from PySide6.QtCore import QTimer

    _startup_mark(args, "shown")
    status = _open_asked(window, prefs, args, guard, reopened)
    window.table_files.show_startup_problems()
    gc.freeze()
    gc.enable()
    if status:
        app.exit(status)
    elif args.quit_when_idle:
        QTimer.singleShot(0, lambda: _quit_idle(app, window, args))


def _quit_idle(app: QApplication, window: MainWindow, args: argparse.Namespace) -> None:
    """Idle: every event waiting handled (the campaign's sheet and map painted); with ``--first-action``,
    the player's first action then, by the dice panel's real button, its result handled and painted."""
    app.processEvents()
    _startup_mark(args, "idle")
    if args.first_action:
        panel = window.dice_panel
        if not panel.select_table("d100.A"):
            raise SystemExit("d100gui: the first action's table d100.A is missing")
        length = window.game.campaign.log_length
        panel.table_button.click()
        app.processEvents()
        if window.game.campaign.log_length != length + 1:
            raise SystemExit("d100gui: the first action was not accepted")
        _startup_mark(args, "acted")
    app.quit()


def _startup_mark(args: argparse.Namespace, what: str) -> None:
    """For the start-up benchmark (``--quit-when-idle``): when the window was shown, went idle, acted, and
    the process's CPU time (user + system, all threads, since the process began) at that moment."""
    if args.quit_when_idle:
        print(f"d100gui-startup {what}={time.time():.6f} cpu={time.process_time():.6f}", file=sys.stderr, flush=True)


def _open_asked(window: MainWindow, prefs: Preferences, args: argparse.Namespace, guard: Any, reopened: bool = False) -> int:
    """Open what the command line asked (or the last campaign, unless ``reopened`` before the window was shown),
    roll ``--roll``; an exit status, 0 if fine."""
    if args.demo:
        window.dice_panel.reload_history()
    elif args.open or args.file:
        from d100gui.ui.desktop import open_document

        # --open FILE opens a campaign (a JSON converted beside it); FILE opens or imports what it is, as a drop does
        if not (window.open_campaign(args.open) if args.open else open_document(window, args.file)):
            box = window.last_message_box
            print(f"d100gui: {box.text() if box else 'the campaign was not opened'}", file=sys.stderr)
    elif not args.new and not reopened and not (guard is not None and guard.offer_recovery()):  # after a crash: the offer instead
        _reopen_last(window, prefs, quiet=bool(args.screenshot))
    if args.roll:
        if not window.dice_panel.select_table(args.roll):
            print(f"d100gui: there is no table {args.roll!r}", file=sys.stderr)
            return 2
        window.dice_panel.roll_selected_table()
    return 0


def _crash_guard(app: QApplication, window: MainWindow) -> CrashGuard:
    """Unhandled errors shown and logged, and the running marker that tells the next start of a crash."""
    from d100gui.ui.common.crash import CrashGuard

    guard = CrashGuard(window).install()
    app.aboutToQuit.connect(guard.uninstall)  # after the store has closed: a clean exit removes the marker
    return guard


def _reopen_last(window: MainWindow, prefs: Preferences, quiet: bool) -> None:
    """Reopen the last campaign played. A refusal never stops start-up: the app starts with a new
    campaign and the problem shown (the refused file is left untouched). A screenshot skips it."""
    recent = prefs.recent()
    if not recent or quiet:
        return
    try:
        opened = window.open_campaign(recent[0])
        box = window.last_message_box
        reason = box.text().split("\n")[0] if box else f"{recent[0]} could not be opened."
    except Exception as exc:  # whatever the file does, the app starts
        opened, reason = False, f"{recent[0]} could not be opened: {exc}."
    if not opened:
        window.campaigns.new_campaign()
        problem = f"The last campaign was not reopened: {reason} A new campaign was started."
        window.show_error(problem)
        print(f"d100gui: {problem}", file=sys.stderr)


def _screenshot(app: QApplication, window: MainWindow, path: Path) -> int:
    if not window.game.campaign.dice_history and window.dice_panel.select_table("d100.A"):
        window.dice_panel.roll_selected_table()
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    for _ in range(5):
        app.processEvents()
    window.map_area.fit_to_dungeon()
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
