"""The character feature's models and rules, by their former single address.

The sheet's jobs now live in modules named for them:

* :mod:`.model` — :class:`Character`, :class:`Item` and the sheet's other fields;
* :mod:`.item_rows` — items read from Table A / Table W rows;
* :mod:`.decisions` — the pending decisions left to the player;
* :mod:`.derive` — every derived value (:func:`derive`), incoming damage, :func:`clamp_hp`;
* :mod:`.invariants` — :func:`violations` / :func:`enforce`;
* :mod:`.experience` — experience tracks;
* :mod:`.time_track` — the time track;
* :mod:`.equipment` — equipping and Belt Checks;
* :mod:`.guards` — :func:`refuse`, :func:`living_character`.

This module re-exports every name it used to define, so ``from d100gui.engine.hero.character
import ...`` keeps working; new code imports from the module that does the job.
"""

from __future__ import annotations

from d100gui.engine.hero.decisions import (
    ArmourClash,
    CalledTest,
    ExperienceChoice,
    OutcomeChoice,
    PendingDecision,
    PendingTest,
    RowNeeded,
    T,
    TargetChoice,
    _Pending,
    add_pending,
    pending_of,
    take_pending,
)
from d100gui.engine.hero.derive import DamageSteps, Derived, clamp_hp, derive, equipped, incoming_damage, items_at
from d100gui.engine.hero.equipment import belt_check_target, check_equip, destroy_belt_check, equip, unequip
from d100gui.engine.hero.experience import at_maximum, experience_value, shade_experience
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.invariants import enforce, violations
from d100gui.engine.hero.item_rows import apply_adjustments, item_from_armour_row, item_from_weapon_row, slot_for_name
from d100gui.engine.hero.model import (
    Character,
    CombatTrackEntry,
    CreationProgress,
    Investment,
    Item,
    ItemKind,
    QuestLog,
    Score,
    SkillScore,
    SpellEntry,
    Supplies,
    TestPart,
    TimeBonus,
    TimeTrack,
    WeaponType,
    new_character,
)
from d100gui.engine.hero.time_track import FiredTrigger, advance_time
from d100gui.engine.rules.model import STATS

__all__ = [
    "STATS",
    "ArmourClash",
    "CalledTest",
    "Character",
    "CombatTrackEntry",
    "CreationProgress",
    "DamageSteps",
    "Derived",
    "ExperienceChoice",
    "FiredTrigger",
    "Investment",
    "Item",
    "ItemKind",
    "OutcomeChoice",
    "PendingDecision",
    "PendingTest",
    "QuestLog",
    "RowNeeded",
    "Score",
    "SkillScore",
    "SpellEntry",
    "Supplies",
    "T",
    "TargetChoice",
    "TestPart",
    "TimeBonus",
    "TimeTrack",
    "WeaponType",
    "_Pending",
    "add_pending",
    "advance_time",
    "apply_adjustments",
    "at_maximum",
    "belt_check_target",
    "check_equip",
    "clamp_hp",
    "derive",
    "destroy_belt_check",
    "enforce",
    "equip",
    "equipped",
    "experience_value",
    "incoming_damage",
    "item_from_armour_row",
    "item_from_weapon_row",
    "items_at",
    "new_character",
    "pending_of",
    "refuse",
    "shade_experience",
    "slot_for_name",
    "take_pending",
    "unequip",
    "violations",
]
