"""Files can never hurt the app: out-of-range values are refused on load, saves never do harm.

Each test reproduces a defect seen on main (issue 9) and shows it is gone.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.campaign import Campaign
from d100gui.storage import atomic, campaigns
from d100gui.storage.campaigns import (
    MAX_CAMPAIGN_BYTES,
    CampaignFileError,
    CampaignSaveError,
    backups_of,
    load_campaign,
    save_campaign,
    size_warning,
)


@pytest.fixture(scope="module")
def demo_text(bundled_library) -> str:
    return build_demo_campaign(bundled_library).model_dump_json()


def _refused_untouched(path, message):
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(CampaignFileError) as info:
        load_campaign(path)
    assert message in str(info.value)
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
    return info.value


def _write(tmp_path, data: dict) -> os.PathLike:
    path = tmp_path / "c.d100.json"
    path.write_bytes(json.dumps(data).encode("utf-8", "surrogatepass"))
    return path


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("state", [["garbage"], [3, [1, 2, 3], None], [3, [0] * 624 + [999], None], [3, [2**40] * 625, None]])
def test_a_broken_random_state_is_refused(tmp_path, demo_text, state):
    data = json.loads(demo_text)
    data["rng_state"] = state
    _refused_untouched(_write(tmp_path, data), "rng_state")


def test_a_5000_digit_integer_anywhere_is_refused(tmp_path, demo_text):
    text = demo_text.replace('"decision_serial":', '"decision_serial":' + "9" * 5000 + ',"x":', 1)
    path = tmp_path / "c.d100.json"
    path.write_text(text, encoding="utf-8")
    _refused_untouched(path, "out of range")
    deep = json.loads(demo_text)
    deep["log"][0]["command"]["extra"] = int("7" * 5000) if False else 0
    text = json.dumps(deep).replace('"extra": 0', '"extra": ' + "7" * 5000)
    path.write_text(text, encoding="utf-8")
    _refused_untouched(path, "out of range")


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_gold_of_10_to_the_30_is_refused(tmp_path, demo_text):
    data = json.loads(demo_text)
    data["character"]["gp"] = 10**30
    _refused_untouched(_write(tmp_path, data), "out of range")


def test_a_lone_surrogate_in_the_heros_name_is_refused(tmp_path, demo_text):
    data = json.loads(demo_text)
    data["character"]["name"] = "Bra\ud800na"
    error = _refused_untouched(_write(tmp_path, data), "lone surrogate")
    assert "character.name" in error.reason


def test_infinity_and_nan_are_refused(tmp_path):
    path = tmp_path / "c.d100.json"
    path.write_text(Campaign().model_dump_json().replace('"decision_serial":0', '"decision_serial":NaN'), encoding="utf-8")
    _refused_untouched(path, "out of range")


def test_a_fifo_is_refused_without_hanging(tmp_path):
    path = tmp_path / "fifo.d100.json"
    os.mkfifo(path)
    with pytest.raises(CampaignFileError, match="not a regular file"):
        load_campaign(path)


def test_a_good_campaign_still_loads_fast_path(tmp_path, demo_text):
    path = tmp_path / "c.d100.json"
    path.write_text(demo_text, encoding="utf-8")
    assert load_campaign(path).model_dump_json() == demo_text


# --------------------------------------------------------------------------- saving


def test_saving_through_a_symlink_writes_its_target(tmp_path):
    real = tmp_path / "real.d100.json"
    save_campaign(Campaign(), real)
    link = tmp_path / "link.d100.json"
    link.symlink_to(real)
    campaign = Campaign()
    campaign.meta.seed = 77
    save_campaign(campaign, link)
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert load_campaign(real).meta.seed == 77


def test_saving_keeps_the_files_permissions(tmp_path):
    path = tmp_path / "c.d100.json"
    save_campaign(Campaign(), path)
    path.chmod(0o600)
    save_campaign(Campaign(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_read_only_campaign_is_refused_with_a_message(tmp_path):
    path = tmp_path / "c.d100.json"
    save_campaign(Campaign(), path)
    before = path.read_bytes()
    path.chmod(0o444)  # the player made it read-only (refused even when running as root)
    try:
        campaign = Campaign()
        campaign.meta.seed = 1
        with pytest.raises(CampaignSaveError, match="read-only"):
            save_campaign(campaign, path)
        assert path.read_bytes() == before and backups_of(path) == []
    finally:
        path.chmod(0o644)


def test_a_failed_save_never_rotates_the_backups(tmp_path, monkeypatch):
    path = tmp_path / "c.d100.json"
    for seed in (1, 2, 3, 4):
        campaign = Campaign()
        campaign.meta.seed = seed
        save_campaign(campaign, path)
    before = {p.name: p.read_bytes() for p in [path, *backups_of(path)]}

    def full_disk(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    for _ in range(3):  # three failures in a row: the backups still hold the three saves before
        with pytest.raises(CampaignSaveError, match="disk refused"):
            save_campaign(Campaign(), path)
    assert {p.name: p.read_bytes() for p in [path, *backups_of(path)]} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_orphaned_temp_files_are_cleaned_by_the_next_save(tmp_path):
    path = tmp_path / "c.d100.json"
    orphan = tmp_path / ".c.d100.json.abc123.tmp"
    orphan.write_bytes(b"x" * 1000)
    old = time.time() - 3600
    os.utime(orphan, (old, old))
    fresh = tmp_path / ".c.d100.json.fresh.tmp"  # a save in progress elsewhere is left alone
    fresh.write_bytes(b"y")
    other = tmp_path / ".other.d100.json.abc.tmp"
    other.write_bytes(b"z")
    os.utime(other, (old, old))
    save_campaign(Campaign(), path)
    assert not orphan.exists() and fresh.exists() and other.exists()


def test_a_save_bigger_than_the_app_can_open_is_refused(tmp_path):
    path = tmp_path / "c.d100.json"
    save_campaign(Campaign(), path)
    before = path.read_bytes()
    with pytest.raises(CampaignSaveError, match="more than the 50 MB"):
        save_campaign(Campaign(), path, text="x" * (MAX_CAMPAIGN_BYTES + 1))
    assert path.read_bytes() == before and backups_of(path) == []


def test_a_campaign_nearing_the_limit_is_warned_about():
    assert size_warning(1000) == ""
    assert "50 MB" in size_warning(campaigns.WARN_CAMPAIGN_BYTES + 1)


def test_save_returns_the_size_written(tmp_path):
    path = tmp_path / "c.d100.json"
    assert save_campaign(Campaign(), path) == path.stat().st_size


def test_a_campaigns_folder_blocked_by_a_file_is_a_save_error(tmp_path):
    blocker = tmp_path / "campaigns"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(CampaignSaveError):
        save_campaign(Campaign(), blocker / "c.d100.json")
