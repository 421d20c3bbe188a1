"""Every event a fight emits, declared once with its typed payload.

The combat panel renders a fight from these payloads (and from ``Campaign.combat``), never
from the sentences: :meth:`Event.payload` gives the typed model back. Kind strings and data
keys are stable (saved campaigns keep them in their logs); new fields only ever get a
default, so an old log still validates. Two kinds the fight shares with other packages,
``decision`` and ``fate_used``, are declared in :mod:`d100gui.engine.protocol`
(:class:`~d100gui.engine.protocol.Decision`, :class:`~d100gui.engine.protocol.FateUsed`).

Each kind has one topic (the views it concerns): a kind whose events may change the sheet
is on ``character``, so the sheet refreshes after it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.hero.model import TestPart
from d100gui.engine.protocol import Event, Payload, declare

__all__ = ["emit"]


def emit(payload: Payload, message: str = "") -> Event:
    """The event of ``payload`` (its kind's declared topic decides which views hear of it)."""
    return Event.of(payload, message)


# --------------------------------------------------------------------------- the fight as a whole


@declare("combat_started", topic="combat")
class CombatStarted(Payload):
    """A fight begins against ``monster`` (its printed stats, full HP)."""

    monster: Monster


@declare("combat_note", topic="combat")
class CombatNote(Payload):
    """A remark about the fight for the player: an unread Special, no weapon, an escaped monster back."""


@declare("combat_roll", topic="combat")
class CombatRoll(Payload):
    """Dice were rolled for the fight: ``roll`` (a held roll, a Large re-roll) or ``table_roll`` (Table E)."""

    roll: RollRecord | None = None
    table_roll: TableRoll | None = None
    purpose: str = ""


@declare("combat_round", topic="combat")
class CombatRound(Payload):
    """A new combat round starts (``round`` counts from 1); ``pack_bonus`` is this round's Pack AV bonus."""

    round: int
    hp: list[int] = Field(default_factory=list)
    pack_bonus: int = 0


@declare("combat_over", topic="combat")
class CombatOver(Payload):
    """The fight ended: ``outcome`` ``won``, ``hero_escaped`` or ``monster_escaped`` (death is :class:`HeroDied`)."""

    outcome: str
    rounds: int = 0
    hp_lost: int = 0


@declare("combat_won", topic="combat")
class CombatWon(Payload):
    """The monster is defeated (and stays dead); the track and the loot follow."""

    outcome: str = "won"


@declare("hero_died", topic="campaign")
class HeroDied(Payload):
    """The hero died (no RES, no Life left) and joins the hall of the fallen; the fight is gone."""

    outcome: str = "died"
    reason: str = ""


# --------------------------------------------------------------------------- tests and the hero's action


@declare("combat_test", topic="combat")
class CombatTest(Payload):
    """A combat test (SURPRISE, FEAR, attack, ESCAPE, BLOCK, CAST, AVOID ..., DAZED) was rolled.

    ``decision`` is its pending test; ``parts`` the terms of ``target``; ``success`` as rolled
    (Fate may still change it)."""

    decision: str
    test: str
    target: int
    roll: RollRecord
    success: bool
    parts: list[TestPart] = Field(default_factory=list)


@declare("combat_surprise", topic="combat")
class CombatSurprise(Payload):
    """The SURPRISE test settled: ``surprised`` means the monster gets a free attack first."""

    surprised: bool = False


@declare("combat_fear", topic="combat")
class CombatFear(Payload):
    """The FEAR test failed: the hero forfeits the attack this round."""


@declare("combat_action", topic="character")
class CombatAction(Payload):
    """The hero chose the round's action (``attack``, ``change_weapon``, ``escape``, ``block_escape``, ``pass``)."""

    action: str = ""


@declare("combat_hit", topic="combat")
class CombatHit(Payload):
    """The hero's attack test succeeded: the damage roll (step 3) follows."""


@declare("combat_miss", topic="combat")
class CombatMiss(Payload):
    """The hero's attack test failed."""


@declare("combat_escape", topic="combat")
class CombatEscape(Payload):
    """An escape that did not happen: ``hero_failed`` (ESCAPE COMBAT failed) or ``monster_cut_down`` (killed fleeing)."""

    what: Literal["hero_failed", "monster_cut_down"] = "hero_failed"


@declare("combat_block", topic="combat")
class CombatBlock(Payload):
    """BLOCK ESCAPE succeeded: the monster stays and the hero goes on to the damage roll."""


@declare("combat_escaping", topic="decision")
class CombatEscaping(Payload):
    """The monster's reaction is to escape: the hero may let it go (still attacking) or block it."""


@declare("combat_aim", topic="combat")
class CombatAim(Payload):
    """Perfect Aim: the hero picked hit ``location`` from the two rolled."""

    location: int = 0


@declare("combat_damage", topic="combat")
class CombatDamage(Payload):
    """The hero's damage roll: ``total`` (dice + location mod + DMG + brew) less the monster's DEF is ``damage``."""

    location: int
    total: int
    damage: int
    dice: list[int] = Field(default_factory=list)
    location_mod: int = 0
    weapon_dmg: int = 0
    brew: int = 0
    defence: int = 0


@declare("combat_monster_hp", topic="combat")
class CombatMonsterHp(Payload):
    """Damage reached the monster (or did not): ``dealt`` HP taken of ``raw`` damage; ``hp`` after, per individual."""

    dealt: int = 0
    raw: int = 0
    source: str = ""
    hp: list[int] = Field(default_factory=list)
    alive: bool = True
    blocked: str = ""  # "ethereal" / "none" when nothing got through


@declare("combat_monster_heal", topic="combat")
class CombatMonsterHeal(Payload):
    """The monster regained ``healed`` HP (Regenerate, Drain Life); ``hp`` after, per individual."""

    healed: int = 0
    source: str = ""
    hp: list[int] = Field(default_factory=list)


@declare("combat_simultaneous", topic="combat")
class CombatSimultaneous(Payload):
    """The monster died this round but still attacks: both attacks are simultaneous."""


# --------------------------------------------------------------------------- the monster's round


@declare("combat_reaction", topic="combat")
class CombatReaction(Payload):
    """The monster's reaction d10: ``escaping`` or an ``av_bonus`` (+5 / +10 when below half HP)."""

    reaction: int
    escaping: bool
    av_bonus: int
    text: str = ""
    printed: str = ""


@declare("combat_dark_magic", topic="combat")
class CombatDarkMagic(Payload):
    """The Dark Magic d10 chose ``spell`` for this round."""

    spell: str
    roll: int = 0


@declare("combat_frozen", topic="combat")
class CombatFrozen(Payload):
    """Ice Storm froze the monster: it neither reacts nor attacks this round; the hero gains +10."""


@declare("combat_monster_attack", topic="combat")
class CombatMonsterAttack(Payload):
    """One of the monster's attacks: d100 ``roll`` against AV ``target``."""

    hit: bool
    roll: int = 0
    target: int = 0
    attack: int = 1
    attacks: int = 1


@declare("combat_monster_damage", topic="combat")
class CombatMonsterDamage(Payload):
    """The monster's damage at hit ``location``: ``total`` less Defence Bonus and DEF is ``damage`` (before offsets)."""

    damage: int = 0
    location: int = 0
    dice: list[int] = Field(default_factory=list)
    total: int = 0
    defence_bonus: int = 0
    defence: int = 0


@declare("combat_hero_hp", topic="character")
class CombatHeroHp(Payload):
    """The hero lost HP in the fight (``delta`` is negative); ``hp`` after."""

    delta: int
    hp: int = 0
    source: str = ""


@declare("combat_res", topic="character")
class CombatRes(Payload):
    """HP fell to 0: RES was used instead of a Life, HP back to ``hp``."""

    hp: int = 0


@declare("combat_life", topic="character")
class CombatLife(Payload):
    """HP fell to 0: a Life was spent (``lives`` left), HP back to ``hp``."""

    lives: int = 0
    hp: int = 0


@declare("combat_disease", topic="character")
class CombatDisease(Payload):
    """Disease: natural 1s on the monster's damage dice shaded the disease track (``before`` -> ``after``)."""

    before: int = 0
    after: int = 0


@declare("combat_poison", topic="character")
class CombatPoison(Payload):
    """Poison: natural 1s on the monster's damage dice shaded the poison track (``before`` -> ``after``)."""

    before: int = 0
    after: int = 0


@declare("combat_web", topic="combat")
class CombatWeb(Payload):
    """AVOID WEB failed: next round the hero forfeits the attack and cannot escape."""


@declare("combat_freeze", topic="combat")
class CombatFreeze(Payload):
    """AVOID FREEZE failed: -2 DEF next round (the HP loss follows as :class:`CombatHeroHp`)."""


@declare("combat_dazed", topic="combat")
class CombatDazed(Payload):
    """DAZED failed: next round no attack, no escape, no belt."""


@declare("combat_belt_check", topic="character")
class CombatBeltCheck(Payload):
    """A waist hit's Belt Check d10: ``item`` in ``where`` is destroyed ("" when the place was empty)."""

    roll: int = 0
    where: str = ""
    item: str = ""


@declare("combat_offset", topic="character")
class CombatOffset(Payload):
    """The hero offset ``points`` of damage onto ``item`` (``onto`` ``item`` or ``shield``)."""

    onto: Literal["item", "shield"] = "item"
    item: str = ""
    points: int = 0


@declare("combat_item_destroyed", topic="character")
class CombatItemDestroyed(Payload):
    """An item's repair track filled (offset, Arcane curse): ``item`` is destroyed."""

    item: str = ""


# --------------------------------------------------------------------------- spells, belt, curses


@declare("combat_cast", topic="character")
class CombatCast(Payload):
    """A spell in the fight: ``stage`` ``cast`` (begun), ``failed``, ``queued`` (lands next round) or ``effect``."""

    spell: str = ""
    stage: Literal["cast", "failed", "queued", "effect"] = "cast"


@declare("combat_cast_cost", topic="character")
class CombatCastCost(Payload):
    """A spell's cost lowered a characteristic's primary score (HP costs are :class:`CombatHeroHp`)."""

    stat: str = ""
    primary: int = 0


@declare("combat_spell", topic="combat")
class CombatSpell(Payload):
    """A spell cast last round lands (Fire Ball / Ice Storm d10 - DEF) or has killed the monster (``killed``)."""

    spell: str = ""
    roll: int = 0
    damage: int = 0
    killed: bool = False


@declare("combat_belt", topic="character")
class CombatBelt(Payload):
    """The hero used (or read) ``item`` from ``belt_slot`` instead of attacking."""

    item: str = ""
    belt_slot: int = 0


@declare("combat_boost", topic="combat")
class CombatBoost(Payload):
    """A brew: +``amount`` ``stat`` (STR/DEX/INT/DMG/DEF) for the next roll it concerns."""

    stat: str = ""
    amount: int = 0
    item: str = ""


@declare("combat_curse", topic="character")
class CombatCurse(Payload):
    """A failed CAST SPELL: Table C's roll (``table_roll``) or what the curse did."""

    table_roll: TableRoll | None = None


@declare("combat_curse_missing", topic="decision")
class CombatCurseMissing(Payload):
    """Table C rolled a row the tables do not have (logs of older versions: the row now waits in the fight)."""

    table_roll: TableRoll


# --------------------------------------------------------------------------- after the fight


@declare("combat_resurrection", topic="combat")
class CombatResurrection(Payload):
    """The killed monster's Resurrection d10: ``risen`` on a 1 (full HP, the fight goes on)."""

    roll: int = 0
    risen: bool = False


@declare("combat_track", topic="character")
class CombatTrack(Payload):
    """The defeated monster fills box ``position`` of combat-track sheet ``sheet`` (``full``: the sheet is full)."""

    position: int = 0
    sheet: int = 0
    full: bool = False


@declare("combat_milestone", topic="character")
class CombatMilestone(Payload):
    """A combat-track box with a printed ``reward`` was filled (its effects follow)."""

    reward: str


@declare("combat_loot", topic="character")
class CombatLoot(Payload):
    """The loot: ``table_roll`` on the monster's ``[K:...]`` table, ``item`` put in the backpack (Table P)."""

    table_roll: TableRoll | None = None
    item: str = ""


@declare("combat_loot_missing", topic="decision")
class CombatLootMissing(Payload):
    """The loot table rolled a row the tables do not have (logs of older versions: the row now waits in the fight)."""

    table_roll: TableRoll


@declare("combat_row_missing", topic="combat")
class CombatRowMissing(Payload):
    """A fight's table roll (``use``: ``loot`` or ``curse``) landed on a row the tables lack: the
    fight waits for the row (:class:`~.commands.CombatProvideRow` applies it at once)."""

    table_roll: TableRoll
    use: str = ""


#: every kind this package declares, with its payload class (the report and the docs list them)
COMBAT_PAYLOADS: tuple[type[Payload], ...] = tuple(
    cls
    for cls in list(globals().values())
    if isinstance(cls, type) and issubclass(cls, Payload) and cls.event_kind.startswith(("combat_", "hero_"))
)
