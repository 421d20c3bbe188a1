"""The source distribution is the whole project, and the metadata a distributor and PyPI read is complete.

MANIFEST.in is checked here against ``git ls-files`` without building anything (fast); `make sdist-check`
runs check-manifest itself, builds the sdist and wheel and runs ``twine check --strict`` on them.
"""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _manifest_covers(path: str, lines: list[str]) -> bool:
    """Whether MANIFEST.in's ``include``/``graft`` lines take ``path`` (and no ``global-exclude`` drops it)."""
    taken = False
    for line in lines:
        command, *args = line.split()
        if command == "include":
            taken |= any(fnmatch.fnmatch(path, pattern) for pattern in args)
        elif command == "graft":
            taken |= any(path.startswith(folder.rstrip("/") + "/") for folder in args)
        elif command == "global-exclude":
            if any(fnmatch.fnmatch(Path(path).name, pattern) or f"/{pattern}/" in f"/{path}" for pattern in args):
                taken = False
        else:
            raise AssertionError(f"MANIFEST.in: {command} is not checked by this test; extend it")
    return taken


def test_manifest_in_takes_every_file_git_tracks():
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run([git, "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    lines = [
        line.strip()
        for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    ignored = PROJECT["tool"]["check-manifest"]["ignore"]
    missing = [
        path
        for path in tracked
        if path
        and path != ".gitignore"  # check-manifest leaves VCS files out by default
        and not any(fnmatch.fnmatch(path, pattern) for pattern in ignored)
        and not _manifest_covers(path, lines)
    ]
    assert missing == [], "add these to MANIFEST.in (or to [tool.check-manifest] ignore, if not for distribution)"
    for needed in ("Makefile", "LICENSE", "docs/architecture.md", "packaging/d100gui.spec", "tests/conftest.py"):
        assert _manifest_covers(needed, lines), needed


def test_the_wheel_metadata_names_the_project():
    project = PROJECT["project"]
    assert project["authors"] == [{"name": "the d100gui developers"}]
    assert {"Homepage", "Source", "Issues"} <= set(project["urls"])
    assert "Topic :: Games/Entertainment :: Role-Playing" in project["classifiers"]
    assert project["keywords"]
    assert "check-manifest>=0.49" in project["optional-dependencies"]["dev"]


def test_the_licence_is_written_as_setuptools_before_77_reads_it():
    """`license = "MIT"` (an SPDX string) fails to build on setuptools < 77 (Ubuntu 24.04 has 68): the table form
    builds on both (checked by hand with setuptools 68.1.2: `pip wheel --no-build-isolation .`)."""
    assert PROJECT["project"]["license"] == {"text": "MIT"}
    assert "license-files" not in PROJECT["project"]  # a [project] key setuptools < 77 refuses
    [backend] = PROJECT["build-system"]["requires"]
    assert backend == "setuptools>=61"
    assert not any(c.startswith("License ::") for c in PROJECT["project"]["classifiers"])  # deprecated on >= 77
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2026 the d100gui developers" in licence


def test_the_readme_keeps_the_two_make_commands_first_then_pip_and_pipx():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_command = readme.index("```sh")
    assert readme[first_command:].startswith("```sh\nmake run\n```")
    assert readme.index("make test") < readme.index("pipx install") and readme.index("make test") < readme.index("pip install")
