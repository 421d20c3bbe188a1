"""packaging/check_qt_deps.py: what `make run` says when Qt's xcb plugin lacks system libraries."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "packaging" / "check_qt_deps.py"


def _load():
    spec = importlib.util.spec_from_file_location("check_qt_deps", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_qt_deps"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


deps = _load()

#: ldd's output on a fresh Debian 12 desktop, cut down: two libraries are missing (one twice).
LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f97)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f97)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f97)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f97)
"""


def test_the_libraries_ldd_cannot_find_are_named_once_in_order():
    assert deps.not_found_in_ldd(LDD) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert deps.not_found_in_ldd("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


def test_the_report_names_the_exact_packages_and_both_install_commands():
    missing = deps.check(Path("libqxcb.so"), LDD)
    assert missing and missing.debian == ("libxcb-icccm4", "libxcb-keysyms1")
    assert missing.fedora == ("xcb-util-wm", "xcb-util-keysyms")
    text = deps.report(missing)
    assert "libxcb-icccm.so.4" in text and "libxcb-keysyms.so.1" in text
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in text
    assert "sudo dnf install xcb-util-wm xcb-util-keysyms" in text
    assert "libxcb-cursor0" not in text  # present: not asked for (Qt's own message names it, wrongly)
    assert "apt-get install libxcb-icccm4" in deps.report(missing, sudo=False)
    assert "sudo" not in deps.report(missing, sudo=False)


def test_libraries_of_the_same_package_ask_for_it_once_and_unknown_ones_are_named():
    missing = deps.packages(["libxcb-randr.so.0", "libxcb-shape.so.0", "libweird.so.3"])
    assert missing.debian == ("libxcb-randr0", "libxcb-shape0")
    assert missing.fedora == ("libxcb",)
    assert missing.unknown == ("libweird.so.3",)
    assert "libweird.so.3" in deps.report(missing)


def test_nothing_missing_is_quiet():
    missing = deps.check(Path("libqxcb.so"), "\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\n")
    assert not missing


def test_without_ldd_each_known_library_is_loaded():
    absent = {"libxcb-cursor.so.0"}

    def load(name: str) -> object:
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file")
        return object()

    missing = deps.check(Path("libqxcb.so"), None, load)
    assert missing.libraries == ("libxcb-cursor.so.0",) and missing.debian == ("libxcb-cursor0",)


@pytest.mark.parametrize(
    ("platform", "env", "checked"),
    [
        ("linux", {"DISPLAY": ":0"}, True),
        ("linux", {"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, True),
        ("linux", {"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
        ("linux", {"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland;xcb"}, False),
        ("linux", {}, False),  # no display: nothing will load the plugin
        ("darwin", {"DISPLAY": ":0"}, False),
        ("win32", {}, False),
    ],
)
def test_it_checks_only_where_the_xcb_plugin_will_load(platform, env, checked):
    assert deps.should_check(platform, env) is checked


def test_main_exits_non_zero_and_prints_the_commands(monkeypatch, capsys, tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setattr(deps, "find_xcb_plugin", lambda: plugin)
    monkeypatch.setattr(deps, "run_ldd", lambda _plugin: LDD)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(deps.sys, "platform", "linux")
    assert deps.main([]) == 1
    err = capsys.readouterr().err
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in err and "dnf install xcb-util-wm xcb-util-keysyms" in err
    monkeypatch.setattr(deps, "run_ldd", lambda _plugin: "")
    assert deps.main([]) == 0


def test_main_does_nothing_offscreen(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(deps, "find_xcb_plugin", lambda: pytest.fail("looked for the plugin offscreen"))
    assert deps.main([]) == 0


def test_the_real_plugin_is_found_in_the_installed_pyside6():
    plugin = deps.find_xcb_plugin()
    if sys.platform.startswith("linux"):
        assert plugin is not None and plugin.name == "libqxcb.so"


def test_make_run_checks_first_and_make_test_does_not():
    makefile = (SCRIPT.parents[1] / "Makefile").read_text(encoding="utf-8")
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "packaging/check_qt_deps.py" in run and run.index("check_qt_deps") < run.index("-m d100gui")
    test = makefile.split("\ntest:", 1)[1].split("\n", 1)[0]
    assert "check_qt_deps" not in test and "qtdeps" not in test


def test_the_readme_lists_the_system_packages_per_os():
    readme = (SCRIPT.parents[1] / "README.md").read_text(encoding="utf-8")
    debian = sorted({deb for deb, _rpm in deps.LIBRARIES.values()})
    fedora = sorted({rpm for _deb, rpm in deps.LIBRARIES.values()})
    assert all(name in readme for name in debian), [n for n in debian if n not in readme]
    assert all(name in readme for name in fedora), [n for n in fedora if n not in readme]


# --------------------------------------------------------------------------- no display (issue 20)


def test_no_display_is_said_plainly_with_what_to_do_instead(capsys, monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(deps.sys, "platform", "linux")
    assert deps.main([]) == 2
    said = capsys.readouterr().err
    assert "no display: set DISPLAY or run under Xvfb, or use QT_QPA_PLATFORM=offscreen for a screenshot" in said
    assert "xcb-cursor0" not in said


@pytest.mark.parametrize(
    ("platform", "env", "expected"),
    [
        ("linux", {}, True),
        ("linux", {"QT_QPA_PLATFORM": "xcb"}, True),
        ("linux", {"DISPLAY": ":0"}, False),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, False),
        ("linux", {"QT_QPA_PLATFORM": "offscreen"}, False),
        ("darwin", {}, False),
        ("win32", {}, False),
    ],
)
def test_no_display_only_where_qt_would_need_one(platform, env, expected):
    assert deps.no_display(platform, env) is expected


def test_make_run_and_the_app_say_the_same_about_no_display():
    from d100gui import app

    assert app.NO_DISPLAY == deps.NO_DISPLAY
    assert app.no_display("linux", {}) == deps.NO_DISPLAY and app.no_display("linux", {"DISPLAY": ":1"}) is None
    makefile = (SCRIPT.parents[1] / "Makefile").read_text(encoding="utf-8")
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert run.index("check_qt_deps.py") < run.index("-m d100gui"), "the check runs first in `make run`"
