"""Open anyway: a campaign refused for values out of range, with those values brought into range.

The range rules are the engine's (:func:`d100gui.engine.checks.campaign_problems` and the hero's
invariants): this module only moves each number the sheet keeps within bounds to the nearest value
those rules allow, then checks the campaign again with them. What it cannot bring into range (a tile
that is not a Table M tile, an item in the wrong slot) stays a refusal, named. The damaged file is only
read; the caller writes the clamped campaign to a new store beside it.
"""

from __future__ import annotations

from pathlib import Path

from d100gui.engine.campaign import Campaign
from d100gui.engine.checks import campaign_problems
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.invariants import MOST_FATE_OR_LIVES
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.storage.campaigns import CampaignFileError, _campaign_from_text
from d100gui.storage.store import _reader, export_json


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def clamp_character(character: Character, rules: Rules, where: str = "the hero") -> list[str]:
    """Bring the sheet's counts into the ranges the rules give, in place; each change said."""
    changed: list[str] = []

    def set_to(owner: object, name: str, low: int, high: int, label: str) -> None:
        value = getattr(owner, name)
        new = _clamp(value, low, high)
        if new != value:
            setattr(owner, name, new)
            changed.append(f"{where}: {label} {value} -> {new}")

    rep = rules.reputation
    set_to(character, "rep", rep.min, rep.max, "REP")
    for key, maximum in rules.supplies_max.items():
        set_to(character.supplies, key, 0, maximum, key.title())
    for name in ("gp", "objectives"):
        set_to(character, name, 0, 2**53, name.upper() if name == "gp" else name.title())
    for name in ("fate", "lives"):
        set_to(character, name, 0, MOST_FATE_OR_LIVES, name.title())
    for name, track in (
        ("keys", "keys_track"),
        ("levers", "levers_track"),
        ("poison", "poison_track"),
        ("disease", "disease_track"),
    ):
        set_to(character, name, 0, int(getattr(rules.sheet, track)), name.title())
    for skill, score in character.skills.items():
        set_to(score, "bonus", 0, rules.skill_max, f"{skill} bonus")
        set_to(score, "pips", 0, rules.sheet.skill_track - 1, f"{skill} experience pips")
    for stat, stat_score in character.characteristics.items():
        set_to(stat_score, "pips", 0, rules.sheet.characteristic_track - 1, f"{stat} experience pips")
    if not character.dead:
        set_to(character, "hp", 0, max(derive(character, rules).max_hp, 0), "HP")
    return changed


def clamped(path: Path, rules: Rules) -> tuple[Campaign, list[str]]:
    """The campaign of the store at ``path`` (state and whole log) with its values brought into range,
    and what was changed. :class:`CampaignFileError` when something stays out of range."""
    store = _reader(path)
    try:
        text = export_json(store)
    finally:
        store.discard()
    campaign = _campaign_from_text(path, text, None, True)
    changed: list[str] = []
    if campaign.character is not None:
        changed += clamp_character(campaign.character, rules)
    for i, fallen in enumerate(campaign.hall_of_fallen):
        changed += clamp_character(fallen, rules, f"fallen hero {i + 1}")
    left = campaign_problems(campaign, rules)
    if left:
        raise CampaignFileError(path, "some of its values cannot be brought into range: " + " ".join(left[:3]))
    return campaign, changed
