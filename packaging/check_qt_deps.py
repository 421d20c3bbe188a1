"""Before ``make run``: does Qt's X11 (xcb) platform plugin find every system library it needs?

On a fresh Linux desktop the PySide6 wheel brings Qt itself but not the X11 helper libraries
(``libxcb-cursor0``, ``libxcb-icccm4``, ``libxcb-keysyms1``, ...). Qt then aborts naming one
of them, not always the right one. This script finds the plugin in the installed PySide6,
asks ``ldd`` what it cannot resolve (or, without ``ldd``, tries to load each library Qt is
known to need) and prints the exact packages with the install command for Debian/Ubuntu and
Fedora. Exit status: 0 nothing missing (or nothing to check here), 1 something missing, 2 no display
(Linux without ``DISPLAY`` or ``WAYLAND_DISPLAY``: said plainly, where Qt would blame a missing xcb-cursor0).

It never imports Qt (loading the plugin is what fails), and it runs only where the xcb
plugin will be used: Linux, a ``DISPLAY``, and no other ``QT_QPA_PLATFORM`` (offscreen, ...).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The shared libraries Qt's xcb plugin (and the Qt libraries it loads) take from the system,
#: each with the package that ships it on Debian/Ubuntu and on Fedora.
LIBRARIES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
}

#: Platforms that do not load the xcb plugin (QT_QPA_PLATFORM may list several: "wayland;xcb").
OTHER_PLATFORMS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb", "wayland")

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


@dataclass(frozen=True)
class Missing:
    """The libraries that cannot be loaded and the packages that bring them."""

    libraries: tuple[str, ...]
    debian: tuple[str, ...]
    fedora: tuple[str, ...]
    unknown: tuple[str, ...]  # not in LIBRARIES: named as they are

    def __bool__(self) -> bool:
        return bool(self.libraries)


#: what `make run` says without a display (d100gui/app.py's NO_DISPLAY says the same: a test keeps them equal)
NO_DISPLAY = (
    "d100gui: no display: set DISPLAY or run under Xvfb, or use QT_QPA_PLATFORM=offscreen for a screenshot "
    "(e.g. QT_QPA_PLATFORM=offscreen d100gui --screenshot window.png)."
)


def no_display(platform: str, env: Mapping[str, str]) -> bool:
    """Linux with no X or Wayland display and no offscreen (or other display-less) platform chosen."""
    if not platform.startswith("linux") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip().lower()
    return not chosen or chosen in ("xcb", "wayland")


def should_check(platform: str, env: Mapping[str, str]) -> bool:
    """Whether Qt will use the xcb plugin here: Linux, an X display, no other platform chosen."""
    if not platform.startswith("linux") or not env.get("DISPLAY"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip().lower()
    return chosen not in OTHER_PLATFORMS


def find_xcb_plugin() -> Path | None:
    """``libqxcb.so`` in the installed PySide6 (found without importing Qt), if any."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        for candidate in (
            Path(root) / "Qt" / "plugins" / "platforms" / "libqxcb.so",
            Path(root) / "plugins" / "platforms" / "libqxcb.so",
        ):
            if candidate.is_file():
                return candidate
    return None


def not_found_in_ldd(output: str) -> list[str]:
    """The libraries ``ldd`` printed as ``=> not found``, once each, in its order."""
    found: list[str] = []
    for line in output.splitlines():
        match = _NOT_FOUND.match(line)
        if match and match.group(1) not in found:
            found.append(match.group(1))
    return found


def run_ldd(plugin: Path) -> str | None:
    """``ldd``'s output for the plugin (None: no ``ldd`` on this system, or it failed)."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.stdout else None


def not_loadable(names: Sequence[str], load: Callable[[str], object] = ctypes.CDLL) -> list[str]:
    """The libraries of ``names`` that cannot be loaded (the check without ``ldd``)."""
    missing = []
    for name in names:
        try:
            load(name)
        except OSError:
            missing.append(name)
    return missing


def packages(libraries: Sequence[str]) -> Missing:
    """The Debian/Ubuntu and Fedora packages that bring ``libraries``, each named once."""
    debian: list[str] = []
    fedora: list[str] = []
    unknown: list[str] = []
    for lib in libraries:
        if lib not in LIBRARIES:
            unknown.append(lib)
            continue
        deb, rpm = LIBRARIES[lib]
        debian += [deb] if deb not in debian else []
        fedora += [rpm] if rpm not in fedora else []
    return Missing(tuple(libraries), tuple(debian), tuple(fedora), tuple(unknown))


def report(missing: Missing, sudo: bool = True) -> str:
    """What to tell the player: the missing libraries and the exact command to install them."""
    as_root = "sudo " if sudo else ""
    lines = [
        "d100gui cannot start yet: Qt's X11 platform plugin (xcb) needs system libraries that are not installed:",
        *(f"  {lib}" for lib in missing.libraries),
        "",
    ]
    if missing.debian:
        lines += ["Debian / Ubuntu:", f"  {as_root}apt-get install {' '.join(missing.debian)}", ""]
    if missing.fedora:
        lines += ["Fedora:", f"  {as_root}dnf install {' '.join(missing.fedora)}", ""]
    if missing.unknown:
        lines += [f"Also install the package that provides: {', '.join(missing.unknown)}", ""]
    lines.append("Then run `make run` again. (The README lists every system package by OS.)")
    return "\n".join(lines)


def check(plugin: Path, ldd_output: str | None, load: Callable[[str], object] = ctypes.CDLL) -> Missing:
    """What the plugin lacks: from ``ldd``'s output when there is one, else by loading each known library."""
    if ldd_output is not None:
        return packages(not_found_in_ldd(ldd_output))
    return packages(not_loadable(list(LIBRARIES), load))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    force = "--force" in args  # check even without a display (to try it out)
    if not force and no_display(sys.platform, os.environ):
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    if not force and not should_check(sys.platform, os.environ):
        return 0
    plugin = find_xcb_plugin()
    if plugin is None:
        print("check_qt_deps: no Qt xcb platform plugin found in PySide6; nothing to check.", file=sys.stderr)
        return 0
    missing = check(plugin, run_ldd(plugin))
    if missing:
        print(report(missing, sudo=os.geteuid() != 0), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
