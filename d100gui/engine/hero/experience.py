"""Experience tracks (rulebook "Experience Tracks"): who earns pips, shading them, a full track's step.

Every number comes from the rules: the natural roll that earns experience
(``rules.experience.natural_max``), the pips it gives on the characteristic or over the skills
(``characteristic_pips`` / ``skill_pips``), each track's length (the sheet layout), the step a
full track adds and the maxima (``characteristic_step``/``_max``, ``skill_step``/``_max``).
Views ask :func:`experience_pips`, :func:`earns_experience`, :func:`full_track_step`,
:func:`track_maximum` and :func:`experience_track` rather than restating them.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character, Score, SkillScore
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import TestSpec


class ExperienceTrack(NamedTuple):
    """A characteristic's or skill's track: its value now, the maximum, the step a full track adds, its length."""

    value: int
    maximum: int
    step: int
    length: int


def experience_pips(rules: Rules, on: Literal["characteristic", "skills"]) -> int:
    """How many pips a natural roll that earns experience gives on the characteristic, or over the skills."""
    return rules.experience.characteristic_pips if on == "characteristic" else rules.experience.skill_pips


def full_track_step(rules: Rules, on: Literal["characteristic", "skill"]) -> int:
    """What a full experience track adds: the characteristic step or the skill step (+5 in the bundled rules)."""
    return rules.characteristic_step if on == "characteristic" else rules.skill_step


def track_maximum(rules: Rules, on: Literal["characteristic", "skill"]) -> int:
    """The value experience cannot take a characteristic or a skill past (80 and +20 in the bundled rules)."""
    return rules.characteristic_max if on == "characteristic" else rules.skill_max


def earns_experience(rules: Rules, roll: RollRecord, spec: TestSpec) -> bool:
    """Whether a test's roll earns experience: a natural d100 at or under ``natural_max`` on a characteristic test.

    A d10 count test (keys, levers) never does: a d10 is always at or under 10.
    """
    return (
        roll.expression == "d100"
        and roll.natural <= rules.experience.natural_max
        and spec.characteristic in rules.characteristics
    )


def experience_track(character: Character, rules: Rules, track: str) -> ExperienceTrack:
    """The experience track of characteristic or skill ``track``; refused if there is none."""
    if track in character.characteristics:
        return ExperienceTrack(
            character.characteristics[track].primary,
            rules.characteristic_max,
            rules.characteristic_step,
            rules.sheet.characteristic_track,
        )
    if track in character.skills:
        return ExperienceTrack(character.skills[track].bonus, rules.skill_max, rules.skill_step, rules.sheet.skill_track)
    refuse(f"There is no experience track called {track!r}.")


def at_maximum(character: Character, rules: Rules, track: str) -> bool:
    """Whether ``track`` is at its maximum, so it takes no more pips."""
    t = experience_track(character, rules, track)
    return t.value >= t.maximum


def _shade_one(character: Character, track: str, t: ExperienceTrack) -> str:
    score: Score | SkillScore = (
        character.characteristics[track] if track in character.characteristics else character.skills[track]
    )
    score.pips += 1
    label = track if isinstance(score, Score) else f"{track} skill"
    if score.pips < t.length:
        return f"Shaded a pip on {label}'s experience track ({score.pips}/{t.length})."
    score.pips = 0
    new = min(t.value + t.step, t.maximum)
    if isinstance(score, Score):
        score.primary = new
        return f"{track} experience track full: {track} {t.value} -> {new}, track cleared."
    score.bonus = new
    return f"{track} experience track full: {track} +{t.value} -> +{new}, track cleared."


def shade_experience(character: Character, rules: Rules, track: str, pips: int = 1) -> list[str]:
    """Shade ``pips`` on a characteristic's or skill's experience track.

    A full track adds the step (``characteristic_step`` / ``skill_step``) and clears. A track
    at its maximum (``characteristic_max`` / ``skill_max``) takes no more pips: refused.
    Returns what changed.
    """
    notes: list[str] = []
    for _ in range(pips):
        t = experience_track(character, rules, track)
        if t.value >= t.maximum:
            label = track if track in character.characteristics else f"{track} skill"
            shown = f"+{t.maximum}" if track in character.skills else str(t.maximum)
            refuse(f"{label} is at its maximum of {shown} and can no longer be increased.")
        notes.append(_shade_one(character, track, t))
    return notes
