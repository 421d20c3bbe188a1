"""The Linux desktop files and the icon: valid for the freedesktop tools, and agreeing with the package."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from d100gui import APP_ID, __license__, __version__

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
DESKTOP = PACKAGING / f"{APP_ID}.desktop"
METAINFO = PACKAGING / f"{APP_ID}.metainfo.xml"
sys.path.insert(0, str(PACKAGING))

import make_icons  # noqa: E402


def _tool(name):
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (Debian/Ubuntu: desktop-file-utils, appstream)")
    return found


def test_the_desktop_file_passes_desktop_file_validate():
    done = subprocess.run([_tool("desktop-file-validate"), str(DESKTOP)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_the_metainfo_passes_appstreamcli_validate_without_warnings():
    command = [_tool("appstreamcli"), "validate", "--no-net", "--pedantic", str(METAINFO)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    problems = [line for line in output.splitlines() if line[:2] in ("E:", "W:")]
    assert problems == [], output


def test_desktop_file_metainfo_and_package_name_the_same_app():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(DESKTOP, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Icon"] == APP_ID and desktop["Exec"].split()[0] == "d100gui"
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("icon") == APP_ID
    assert root.findtext("project_license") == __license__
    newest = root.find("releases/release")
    assert newest is not None and newest.get("version") == __version__, "add a <release> for the new version"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": __license__}  # the table form setuptools < 77 reads too
    assert set(project["gui-scripts"]) == {"d100gui"}


def test_the_spec_builds_the_bundle_from_the_package_constants():
    spec = (PACKAGING / "d100gui.spec").read_text(encoding="utf-8")
    assert '_constant("__version__"), _constant("APP_ID")' in spec
    assert "bundle_identifier=APP_ID" in spec
    assert '(str(root / "resources"), "d100gui/resources")' in spec


def test_the_icon_is_our_svg_with_no_font_in_it():
    svg = ET.parse(make_icons.SOURCE).getroot()
    assert svg.tag.endswith("svg")
    assert not [el for el in svg.iter() if el.tag.endswith("text")], "draw letters as paths: fonts differ per machine"


@pytest.mark.gui
def test_every_png_size_is_committed_and_matches_the_svg(qapp):
    from PySide6.QtGui import QImage

    for size in make_icons.SIZES:
        path = make_icons.png_path(size)
        committed = QImage(str(path))
        assert (committed.width(), committed.height()) == (size, size), f"{path}: run `make icons`"
        fresh = make_icons.render(size).convertToFormat(committed.format())
        diff = sum(
            abs(committed.pixelColor(x, y).alpha() - fresh.pixelColor(x, y).alpha())
            + abs(committed.pixelColor(x, y).lightness() - fresh.pixelColor(x, y).lightness())
            for x in range(0, size, max(1, size // 32))
            for y in range(0, size, max(1, size // 32))
        ) / (min(size, 32) ** 2)
        assert diff < 6, f"{path} differs from packaging/d100gui.svg: run `make icons` and commit"
    for name in make_icons.PLATFORM_FILES:
        assert (make_icons.OUT / name).stat().st_size > 0
