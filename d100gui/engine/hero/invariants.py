"""The sheet's invariants: :func:`violations` lists every rule a sheet breaks, :func:`enforce` refuses it.

Commands call :func:`enforce` after changing the character, so a command that would break a
rule is refused whole (the game restores the campaign).
"""

from __future__ import annotations

from d100gui.engine.hero.derive import derive, equipped
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules

#: no rule gives a hero this many Fate points or Lives (they start at 3 and are mostly spent): a sanity
#: bound that the commands, the effects and the load check share (engine/checks.py)
MOST_FATE_OR_LIVES = 99
#: the most gold a sheet holds: beyond it a number loses digits in JSON readers (2^53)
MOST_GP = 2**53


def _track(rules: Rules, name: str) -> int:
    return int(getattr(rules.sheet, name))


def _counts(character: Character, rules: Rules) -> list[str]:
    """REP, supplies, gold, Fate, Lives, objectives and the count tracks within their bounds."""
    out: list[str] = []
    rep = rules.reputation
    if not rep.min <= character.rep <= rep.max:
        out.append(f"REP must stay between {rep.min} and {rep.max} (it would be {character.rep}).")
    for key, maximum in rules.supplies_max.items():
        value = getattr(character.supplies, key)
        if not 0 <= value <= maximum:
            out.append(f"{key.title()} must stay between 0 and {maximum} (it would be {value}).")
    for name in ("gp", "fate", "lives", "objectives"):
        if getattr(character, name) < 0:
            out.append(f"{name.upper() if name == 'gp' else name.title()} cannot go below 0.")
    for name in ("fate", "lives"):
        value = getattr(character, name)
        if value > MOST_FATE_OR_LIVES:
            out.append(f"{name.title()} is {value}; no rule gives more than {MOST_FATE_OR_LIVES}.")
    if character.gp > MOST_GP:
        out.append(f"GP is {character.gp}; a sheet holds at most {MOST_GP} gp.")
    for name, track in (
        ("keys", "keys_track"),
        ("levers", "levers_track"),
        ("poison", "poison_track"),
        ("disease", "disease_track"),
    ):
        value, length = getattr(character, name), _track(rules, track)
        if not 0 <= value <= length:
            out.append(f"The {name.title()} track has {length} pips (it would have {value}).")
    return out


def _experience(character: Character, rules: Rules) -> list[str]:
    """Skill bonuses within their maximum; experience pips short of a full track."""
    out: list[str] = []
    for skill, skill_score in character.skills.items():
        if not 0 <= skill_score.bonus <= rules.skill_max:
            out.append(f"{skill} must stay between +0 and +{rules.skill_max} (it would be {skill_score.bonus:+d}).")
        if not 0 <= skill_score.pips < rules.sheet.skill_track:
            out.append(f"{skill}'s experience track has {rules.sheet.skill_track} pips.")
    for stat, score in character.characteristics.items():
        if not 0 <= score.pips < rules.sheet.characteristic_track:
            out.append(f"{stat}'s experience track has {rules.sheet.characteristic_track} pips.")
    return out


def _equipment(character: Character, rules: Rules) -> list[str]:
    """HP within the maximum; the slots as the sheet has them, each item where it may go, none destroyed."""
    out: list[str] = []
    derived = derive(character, rules)
    if character.hp > derived.max_hp:
        out.append(f"HP {character.hp} is above the maximum of {derived.max_hp}.")
    if sorted(character.equipment) != sorted(rules.slot_ids()):
        out.append("The equipment slots do not match the sheet.")
    main, off = character.equipment.get("main_weapon"), character.equipment.get("off_weapon")
    if main is not None and main.two_handed and off is not None:
        out.append(f"{main.name} is two-handed and uses both weapon slots, so {off.name} cannot be in the off weapon slot.")
    for slot, item in equipped(character):
        if item.kind == "shield" and slot != "off_weapon":
            out.append(f"{item.name} is a shield: shields are always equipped to the off weapon slot.")
        if item.two_handed and slot != "main_weapon":
            out.append(f"{item.name} is two-handed: it is recorded in the main weapon slot.")
        if item.kind in rules.belt_kinds:
            out.append(f"{item.name} is a {item.kind}: it goes on the belt, not in an equipment slot.")
        length = item.repair_track or rules.sheet.repair_track
        if item.repair_pips >= length:
            out.append(f"{item.name}'s repair track is full: it is destroyed.")
    return out


def _belt_time_and_empire(character: Character, rules: Rules) -> list[str]:
    """The belt's slots and what they hold, the time track's clocks, the investments' shares and pips."""
    out: list[str] = []
    if len(character.belt) != rules.belt_slots:
        out.append(f"The belt has {rules.belt_slots} slots.")
    for i, belt_item in enumerate(character.belt, start=1):
        if belt_item is not None and belt_item.kind not in rules.belt_kinds:
            out.append(f"Belt slot {i}: only brews, potions and scrolls go on the belt, not {belt_item.name}.")
    if not 0 <= character.time_track.shaded < rules.sheet.time_track.clocks:
        out.append(f"The time track has {rules.sheet.time_track.clocks} clocks.")
    for key, inv in character.empire.items():
        if not 0 <= inv.shares <= rules.investments.max_shares:
            out.append(f"At most {rules.investments.max_shares} shares in {key.title()}.")
        if not 0 <= inv.pips < rules.investments.pips_per_share:
            out.append(f"{key.title()} pips must stay below {rules.investments.pips_per_share}.")
    return out


def violations(character: Character, rules: Rules) -> list[str]:
    """Every rule the sheet breaks, as messages a player can read (empty: all is well)."""
    return [
        *_counts(character, rules),
        *_experience(character, rules),
        *_equipment(character, rules),
        *_belt_time_and_empire(character, rules),
    ]


def enforce(character: Character, rules: Rules) -> None:
    """Refuse (CommandRefused) if the sheet breaks any rule."""
    problems = violations(character, rules)
    if problems:
        refuse(" ".join(problems))
