"""The events of the toolbox: one declared kind per tool result, each carrying the typed result.

Every payload holds the result model itself (and, for the tools that keep state, the state
after the action), so the toolbox panel and the adventure log render from data. All are on
the ``log`` topic: a toolbox result changes nothing of the D100 Dungeon campaign.
"""

from __future__ import annotations

from d100gui.engine.protocol import Payload, declare
from d100gui.engine.toolbox.classic.air_sea import Bombing, Crash, NavalAction
from d100gui.engine.toolbox.classic.calendar import CalendarStep
from d100gui.engine.toolbox.classic.castles import CastleEncounter
from d100gui.engine.toolbox.classic.evasion import Evasion, UnderworldPursuit
from d100gui.engine.toolbox.classic.healing import Healing
from d100gui.engine.toolbox.classic.hiring import Barony, Hiring, Rumours, Upkeep
from d100gui.engine.toolbox.classic.items import ItemSave, SpellStoring, SpellTurning, TreasureHarm
from d100gui.engine.toolbox.classic.magic import MagicFind
from d100gui.engine.toolbox.classic.monsters import WanderingCheck, WanderingMonster
from d100gui.engine.toolbox.classic.stocking import Stocking
from d100gui.engine.toolbox.classic.swimming import Swimming
from d100gui.engine.toolbox.classic.swords import EgoContest, Sword, SwordPickup
from d100gui.engine.toolbox.classic.treasure import Gems, Hoard, Jewelry
from d100gui.engine.toolbox.classic.underworld import UnderworldCheck, UnderworldClock, UnderworldStep
from d100gui.engine.toolbox.classic.wilderness import WildernessDay
from d100gui.engine.toolbox.exploration import (
    DungeonClock,
    DungeonEncounterCheck,
    DungeonStep,
    InjuryResult,
    LightEvent,
    LightSource,
    PushOnResult,
    RestResult,
    TravelClock,
    TravelEncounterCheck,
    TravelStep,
)
from d100gui.engine.toolbox.scars import (
    AttackResult,
    DistanceResult,
    HirelingMoraleResult,
    InitiativeResult,
    MoraleResult,
    PackRetrievalResult,
    ReactionResult,
    RitualResult,
    ScarsClock,
    ScarsClockStep,
    ScarsEncounter,
    ZeroHealthResult,
)

# --------------------------------------------------------------------------- d20 scars combat


@declare("toolbox_scars_attack", topic="log")
class ScarsAttacked(Payload):
    """An attack was resolved (``encounter``: the fight after it, when it was made in one)."""

    result: AttackResult
    encounter: ScarsEncounter | None = None


@declare("toolbox_scars_round", topic="log")
class ScarsRoundStarted(Payload):
    """A new initiative round began: Scars modifiers return, stuns wear off."""

    encounter: ScarsEncounter


@declare("toolbox_scars_initiative", topic="log")
class ScarsInitiative(Payload):
    """An adventurer rolled initiative."""

    result: InitiativeResult


@declare("toolbox_scars_morale", topic="log")
class ScarsMorale(Payload):
    """An enemy tested morale (``encounter``: the fight after it, when made in one)."""

    result: MoraleResult
    encounter: ScarsEncounter | None = None


@declare("toolbox_scars_hireling_morale", topic="log")
class ScarsHirelingMorale(Payload):
    """A hireling's morale was tested."""

    result: HirelingMoraleResult


@declare("toolbox_scars_reaction", topic="log")
class ScarsReaction(Payload):
    """An enemy's first attitude was rolled on the reaction table."""

    result: ReactionResult


@declare("toolbox_scars_distance", topic="log")
class ScarsDistance(Payload):
    """The distance an encounter starts at was rolled."""

    result: DistanceResult


@declare("toolbox_scars_zero_health", topic="log")
class ScarsZeroHealth(Payload):
    """An adventurer at 0 health made the scars check (``encounter``: the fight after it, when made in one)."""

    result: ZeroHealthResult
    encounter: ScarsEncounter | None = None


@declare("toolbox_scars_pack", topic="log")
class ScarsPackRetrieval(Payload):
    """An adventurer dug into their pack in combat."""

    result: PackRetrievalResult


@declare("toolbox_scars_clock", topic="log")
class ScarsClockAdvanced(Payload):
    """Turns or Watches passed on the scars clock, with their encounter checks."""

    result: ScarsClockStep
    clock: ScarsClock


# --------------------------------------------------------------------------- exploration procedure


@declare("toolbox_explore_turns", topic="log")
class ExploreTurnsSpent(Payload):
    """Turns were spent on the dungeon clock (``result.clock`` is the clock after)."""

    result: DungeonStep


@declare("toolbox_light_lit", topic="log")
class LightLit(Payload):
    """An item was lit or activated on the dungeon clock."""

    source: LightSource
    clock: DungeonClock


@declare("toolbox_light_snuffed", topic="log")
class LightSnuffed(Payload):
    """A lit item was put out before it burned out."""

    source: LightSource
    clock: DungeonClock


@declare("toolbox_light_low", topic="log")
class LightLow(Payload):
    """A lit item is about to go out (the warning comes once, before it does)."""

    light: LightEvent


@declare("toolbox_light_out", topic="log")
class LightOut(Payload):
    """A lit item burned out."""

    light: LightEvent


@declare("toolbox_dungeon_encounter_check", topic="log")
class DungeonEncounterChecked(Payload):
    """The dungeon's encounter check was rolled (the card of Rounds was full)."""

    check: DungeonEncounterCheck


@declare("toolbox_travel_hours", topic="log")
class TravelHoursSpent(Payload):
    """Hours were spent on the travel clock (``result.clock`` is the clock after)."""

    result: TravelStep


@declare("toolbox_travel_encounter_check", topic="log")
class TravelEncounterChecked(Payload):
    """A travel Round's encounter check was rolled."""

    check: TravelEncounterCheck


@declare("toolbox_travel_encounter", topic="log")
class TravelEncounterMet(Payload):
    """The travel clock reached the hour of a rolled encounter: the action stops here."""

    check: TravelEncounterCheck
    clock: TravelClock


@declare("toolbox_push_on", topic="log")
class PushedOn(Payload):
    """The party pushed on without resting."""

    result: PushOnResult


@declare("toolbox_rest", topic="log")
class Rested(Payload):
    """What a rest restores was worked out."""

    result: RestResult


@declare("toolbox_injury", topic="log")
class InjuryRolled(Payload):
    """An injury was rolled (with its dice, and any roll-again results)."""

    result: InjuryResult


# --------------------------------------------------------------------------- classic treasure and magic
# (kinds start with "classic_": the toolbox's own d20/exploration kinds keep the "toolbox_" prefix)


@declare("classic_magic_find", topic="log")
class ClassicMagicFound(Payload):
    """A magic item or a map was generated, every roll expanded."""

    find: MagicFind


@declare("classic_sword", topic="log")
class ClassicSwordMade(Payload):
    """A complete sword was generated: alignment, intelligence, powers, languages, egoism."""

    sword: Sword


@declare("classic_ego_contest", topic="log")
class ClassicEgoContested(Payload):
    """A sword's ego met its wielder's."""

    result: EgoContest


@declare("classic_gems", topic="log")
class ClassicGemsRolled(Payload):
    """Gems were valued, each with its step-up rolls."""

    gems: Gems


@declare("classic_jewelry", topic="log")
class ClassicJewelryRolled(Payload):
    """Pieces of jewelry were valued."""

    jewelry: Jewelry


@declare("classic_hoard", topic="log")
class ClassicHoardRolled(Payload):
    """A treasure by dungeon level was rolled, every sub-roll expanded, with its value in gold."""

    hoard: Hoard


@declare("classic_wandering_check", topic="log")
class ClassicWanderingChecked(Payload):
    """The end-of-turn wandering monster check was rolled."""

    check: WanderingCheck


@declare("classic_wandering_monster", topic="log")
class ClassicWanderingMonster(Payload):
    """A wandering monster was rolled for a dungeon level."""

    monster: WanderingMonster


@declare("classic_rooms_stocked", topic="log")
class ClassicRoomsStocked(Payload):
    """Rooms of a dungeon level were stocked: monster and treasure dice, room by room."""

    stocking: Stocking


@declare("classic_wilderness_day", topic="log")
class ClassicWildernessDay(Payload):
    """A day of wilderness travel or rest: movement, lost check, encounter dice, encounters (the trip after is in it)."""

    day: WildernessDay


@declare("classic_castle", topic="log")
class ClassicCastleMet(Payload):
    """A castle was passed: whether its occupants came out, and who they are."""

    castle: CastleEncounter


@declare("classic_evasion", topic="log")
class ClassicEvaded(Payload):
    """A party tried to evade monsters in the wilderness (and was pursued when it failed)."""

    evasion: Evasion


@declare("classic_underworld_pursuit", topic="log")
class ClassicUnderworldPursued(Payload):
    """A fleeing party underground: whether the monster keeps following."""

    pursuit: UnderworldPursuit


@declare("classic_healing", topic="log")
class ClassicHealed(Payload):
    """Hit points regained by days of complete rest."""

    healing: Healing


@declare("classic_swimming", topic="log")
class ClassicSwam(Payload):
    """A man went into the water: whether he drowns, by his armour (and the storm)."""

    swimming: Swimming


@declare("classic_campaign_time", topic="log")
class ClassicTimePassed(Payload):
    """Game time was counted on the campaign calendar (the calendar after is in it)."""

    step: CalendarStep


__all__ = [
    "ClassicCastleMet",
    "ClassicEgoContested",
    "ClassicEvaded",
    "ClassicGemsRolled",
    "ClassicHealed",
    "ClassicHoardRolled",
    "ClassicJewelryRolled",
    "ClassicMagicFound",
    "ClassicRoomsStocked",
    "ClassicSwam",
    "ClassicSwordMade",
    "ClassicTimePassed",
    "ClassicUnderworldPursued",
    "ClassicWanderingChecked",
    "ClassicWanderingMonster",
    "ClassicWildernessDay",
    "DungeonEncounterChecked",
    "ExploreTurnsSpent",
    "InjuryRolled",
    "LightLit",
    "LightLow",
    "LightOut",
    "LightSnuffed",
    "PushedOn",
    "Rested",
    "ScarsAttacked",
    "ScarsClockAdvanced",
    "ScarsDistance",
    "ScarsHirelingMorale",
    "ScarsInitiative",
    "ScarsMorale",
    "ScarsPackRetrieval",
    "ScarsReaction",
    "ScarsRoundStarted",
    "ScarsZeroHealth",
    "TravelEncounterChecked",
    "TravelEncounterMet",
    "TravelHoursSpent",
]


# --------------------------------------------------------------------------- the referee's procedures (issue 22)


@declare("classic_underworld_check", topic="log")
class ClassicUnderworldChecked(Payload):
    """A door forced, a secret door sought or sensed, a door listened at, a trap passed or spikes tested."""

    check: UnderworldCheck


@declare("classic_underworld_turns", topic="log")
class ClassicUnderworldTurns(Payload):
    """Turns passed underground: moves and feet, or a rest; the clock after."""

    step: UnderworldStep
    clock: UnderworldClock


@declare("classic_sword_pickup", topic="log")
class ClassicSwordPickedUp(Payload):
    """A sword taken up by a character of another alignment: the damage, and whether it controls them."""

    pickup: SwordPickup


@declare("classic_spell_storing", topic="log")
class ClassicSpellStoring(Payload):
    """A ring of spell storing's spells: how many, their levels and kind."""

    ring: SpellStoring


@declare("classic_spell_turning", topic="log")
class ClassicSpellTurned(Payload):
    """A spell turned by the ring: the share back to its caster."""

    turning: SpellTurning


@declare("classic_item_save", topic="log")
class ClassicItemSaved(Payload):
    """A magic item's saving throw against fire or lightning."""

    save: ItemSave


@declare("classic_treasure_harm", topic="log")
class ClassicTreasureHarmed(Payload):
    """Gems and jewelry caught in fire or lightning."""

    harm: TreasureHarm


@declare("classic_hiring", topic="log")
class ClassicHired(Payload):
    """Specialists or men-at-arms hired: their cost, and the cost of finding them."""

    hiring: Hiring


@declare("classic_rumours", topic="log")
class ClassicRumoursBought(Payload):
    """A round of the taverns for rumours: what it cost."""

    rumours: Rumours


@declare("classic_upkeep", topic="log")
class ClassicUpkeepDue(Payload):
    """A character's support and upkeep."""

    upkeep: Upkeep


@declare("classic_barony", topic="log")
class ClassicBaronyFounded(Payload):
    """A barony's villages, people and annual tax."""

    barony: Barony


@declare("classic_aerial", topic="log")
class ClassicAerial(Payload):
    """A flyer's crash or a bomb's fall."""

    crash: Crash | None = None
    bombing: Bombing | None = None


@declare("classic_naval", topic="log")
class ClassicNaval(Payload):
    """A naval procedure: water shipped, a ram, a patch, grappling, oars sheared."""

    action: NavalAction


@declare("scars_ritual", topic="log")
class ScarsRitual(Payload):
    """A Ritual performed in a fight (after damage, the roll must beat it)."""

    result: RitualResult


__all__ += [
    "ClassicAerial",
    "ClassicBaronyFounded",
    "ClassicHired",
    "ClassicItemSaved",
    "ClassicNaval",
    "ClassicRumoursBought",
    "ClassicSpellStoring",
    "ClassicSpellTurned",
    "ClassicSwordPickedUp",
    "ClassicTreasureHarmed",
    "ClassicUnderworldChecked",
    "ClassicUnderworldTurns",
    "ClassicUpkeepDue",
    "ScarsRitual",
]


@declare("toolbox_run_continued", topic="log")
class ToolRunContinued(Payload):
    """A tool's run stopped at a missing row went on: its result replaces log entry ``replaces``'s.

    ``entry`` is the dice-history roll answered (``sample``: by a re-roll among the printed rows); the new result
    is the events beside this one; ``tool`` is the tool's command kind."""

    tool: str
    replaces: int
    entry: int
    sample: bool = False


__all__ += ["ToolRunContinued"]
