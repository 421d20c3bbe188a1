"""The Linux desktop files and the icon: valid for the freedesktop tools, and agreeing with the package."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import time
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


# --------------------------------------------------------------------------- file types (issue 20)

MIME = PACKAGING / f"{APP_ID}.mime.xml"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _mime_types():
    root = ET.parse(MIME).getroot()
    return {
        t.get("type"): {
            "globs": {g.get("pattern"): int(g.get("weight", "50")) for g in t.findall(f"{MIME_NS}glob")},
            "parents": [p.get("type") for p in t.findall(f"{MIME_NS}sub-class-of")],
        }
        for t in root.findall(f"{MIME_NS}mime-type")
    }


def test_the_desktop_file_opens_the_campaign_types_with_the_file():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(DESKTOP, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Exec"] == "d100gui %f"  # one file per start: a second start hands it to the running window
    declared = [t for t in desktop["MimeType"].split(";") if t]
    assert declared == list(_mime_types()) == ["application/x-d100gui-campaign", "application/x-d100gui-campaign+json"]


def test_a_campaign_store_is_its_own_type_over_sqlite_and_the_json_over_json():
    types = _mime_types()
    store, portable = types["application/x-d100gui-campaign"], types["application/x-d100gui-campaign+json"]
    assert store["parents"] == ["application/vnd.sqlite3"] and portable["parents"] == ["application/json"]
    assert store["globs"]["*.d100"] > 50 and portable["globs"]["*.d100.json"] > 50  # heavier than the default weight


def _mime_database(tmp_path, *packages):
    """A shared-mime-info database of the system's freedesktop.org.xml and ``packages``, built in tmp_path."""
    system = Path("/usr/share/mime/packages/freedesktop.org.xml")
    if not system.exists():
        pytest.skip("no shared-mime-info database on this system")
    folder = tmp_path / "share" / "mime" / "packages"
    folder.mkdir(parents=True)
    shutil.copy2(system, folder / system.name)
    for package in packages:
        shutil.copy2(package, folder / f"{APP_ID}.xml")  # the name it is installed under
    subprocess.run([_tool("update-mime-database"), str(folder.parent)], check=True, capture_output=True)
    return tmp_path / "share"


def _content_type(share, path):
    env = {**os.environ, "XDG_DATA_HOME": str(share), "XDG_DATA_DIRS": str(share)}
    done = subprocess.run(
        [_tool("gio"), "info", "-a", "standard::content-type", str(path)], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.split("standard::content-type:")[1].strip()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_desktop_sees_a_campaign_not_a_sqlite_database(tmp_path):
    from d100gui.engine.campaign import Campaign
    from d100gui.storage.campaigns import save_campaign
    from d100gui.storage.store import CampaignStore

    store, portable = tmp_path / "b30895f1ee2b.d100", tmp_path / "aria.d100.json"
    CampaignStore.create(store, Campaign()).close()
    save_campaign(Campaign(), portable)
    without = _mime_database(tmp_path / "without")
    assert _content_type(without, store) == "application/vnd.sqlite3"  # what the desktop said before
    share = _mime_database(tmp_path / "with", MIME)
    assert _content_type(share, store) == "application/x-d100gui-campaign"
    assert _content_type(share, portable) == "application/x-d100gui-campaign+json"


def test_the_macos_bundle_declares_the_campaign_document_type():
    import plistlib

    import macos_document_types

    keys = macos_document_types.document_types(APP_ID)
    plistlib.dumps(keys)  # the bundle's Info.plist can hold them
    [campaign] = keys["UTExportedTypeDeclarations"]
    tags = campaign["UTTypeTagSpecification"]
    assert tags["public.filename-extension"] == ["d100"] and tags["public.mime-type"] == ["application/x-d100gui-campaign"]
    assert "*.d100" in _mime_types()["application/x-d100gui-campaign"]["globs"]
    owned = [t for t in keys["CFBundleDocumentTypes"] if t["LSHandlerRank"] == "Owner"]
    assert owned and owned[0]["LSItemContentTypes"] == [campaign["UTTypeIdentifier"]]
    spec = (PACKAGING / "d100gui.spec").read_text(encoding="utf-8")
    assert "**document_types(APP_ID)" in spec


def test_the_packaging_readme_installs_the_mime_type():
    readme = (PACKAGING / "README.md").read_text(encoding="utf-8")
    assert f"packaging/{MIME.name}" in readme and "update-mime-database" in readme


def test_the_desktop_launches_d100gui_with_the_file(tmp_path):
    """`gio launch` runs the desktop file's Exec line as a file manager does on a double-click."""
    gio = _tool("gio")
    folder = tmp_path / "bin"
    folder.mkdir()
    said = tmp_path / "argv"
    stand_in = folder / "d100gui"  # stands in for the app: records the arguments it was started with
    stand_in.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > '{said}'\n", encoding="utf-8")
    stand_in.chmod(0o755)
    campaign = tmp_path / "my campaign.d100"
    campaign.write_bytes(b"")
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run([gio, "launch", str(DESKTOP), str(campaign)], env=env, check=True, capture_output=True, timeout=30)
    for _ in range(100):  # gio returns once the process is spawned: wait for what it wrote
        if said.exists() and said.read_text(encoding="utf-8").strip():
            break
        time.sleep(0.1)
    assert said.read_text(encoding="utf-8").splitlines() == [str(campaign)]
