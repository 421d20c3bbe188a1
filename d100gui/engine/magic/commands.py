"""Spell book, casting, curse and boost commands, and ``MAGIC_COMMANDS``.

* :class:`LearnSpell` — write a spell at the first free position: by its Table S name (a spell
  found or bought), by rolling Table S, or from a scroll on the belt (the scroll is used up).
* :class:`RemoveSpell` — free a position; the others never move.
* :class:`CastSpell` — outside a fight: from the book (Spell Caster and the position's INT
  needed) or a belt scroll (no ability needed; used up). Pays the cost, rolls CAST SPELL,
  then the effect or Table C. In a fight, ``combat_cast_spell`` / ``combat_use_belt`` cast instead.
* :class:`RollCurse`, :class:`RollBoost` — a Table C or Table B roll the sheet asks for.
* :class:`ProvideCurseRow` — a Table C roll outside a fight fell on a missing row (it waits in
  ``Campaign.adventure.rows_waiting``, :mod:`d100gui.engine.dice.waiting`): the row typed from the
  rulebook (or a re-roll among the printed rows, this time) is applied in full. A curse cannot be
  skipped, and no other spell or curse is rolled while one waits.

The adventure's HP-zero rule (:func:`d100gui.engine.hero.health.settle_hp`) settles a
cost or curse that brings HP to 0; STILLING OF TIME's clocks are handed to the quest under
way (``Campaign.adventure.clocks_owed``, shaded by ``resume_time``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from d100gui.engine.combat.printed import TEST_SPECS
from d100gui.engine.combat.spells import SPELL_TABLE, printed_spell, scroll_spell, spell_id
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.events import RowProvided
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll
from d100gui.engine.dice.tables import Row, TableError
from d100gui.engine.dice.waiting import RowWaiting, curse_waiting, without_curse
from d100gui.engine.game import Command, GameContext
from d100gui.engine.hero import events as hero_events
from d100gui.engine.hero.decisions import ExperienceChoice, PendingTest, SpellWaiting, add_pending
from d100gui.engine.hero.events import HeroFell
from d100gui.engine.hero.experience import earns_experience
from d100gui.engine.hero.guards import living_character, refuse
from d100gui.engine.hero.health import lay_to_rest, settle_hp
from d100gui.engine.hero.invariants import enforce
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.primaries import changed_primaries, primaries
from d100gui.engine.hero.vitals import changed_vitals, vitals
from d100gui.engine.magic import book
from d100gui.engine.magic.boosts import roll_boost
from d100gui.engine.magic.casting import cast_test, check_castable, pay_cost, spell_effect
from d100gui.engine.magic.curses import CURSE_TABLE, CurseResult, apply_curse, roll_curse
from d100gui.engine.magic.events import (
    BoostApplied,
    CurseApplied,
    CurseRowMissing,
    SpellCast,
    SpellLearned,
    SpellRemoved,
    SpellRowMissing,
    SpellTookEffect,
)
from d100gui.engine.phases import ANSWER, OUTSIDE_FIGHT, Phases
from d100gui.engine.protocol import Decision, Event, told
from d100gui.engine.quest.access import adventure_of
from d100gui.engine.quest.model import AdventureState

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def outside_fight(campaign: Campaign, doing: str) -> None:
    """Refuse ``doing`` while a fight is on (a spell there replaces the attack: the combat commands cast it)."""
    if campaign.combat is not None:
        refuse(f"You cannot {doing} from here during a fight: in a fight a spell replaces your attack (cast it there).")


def _scroll(character: Character, belt_slot: int) -> Item:
    if not 1 <= belt_slot <= len(character.belt):
        refuse(f"Belt slots are 1 to {len(character.belt)}.")
    item = character.belt[belt_slot - 1]
    if item is None or item.kind != "scroll":
        refuse(f"Belt slot {belt_slot} holds no scroll.")
    return item


def _settle_hp(ctx: GameContext, source: str) -> list[Event]:
    """HP at 0 or less: RES, a Life, or the hero falls (and the quest ends with them)."""
    outcome = settle_hp(ctx.campaign, ctx.rules, source)
    if outcome is None:
        return []
    if isinstance(outcome, HeroFell):
        adventure = getattr(ctx.campaign, "adventure", None)
        if isinstance(adventure, AdventureState):
            adventure.end_with_hero()
    return [told(outcome)]


def settle_curse(
    ctx: GameContext,
    character: Character,
    result: CurseResult,
    before: dict[str, int] | None = None,
    held: dict[str, int] | None = None,
) -> list[Event]:
    """Emit a curse's result and do what it leaves to the campaign: a fallen hero, HP at 0, clocks to shade.

    ``before``: the primaries (:func:`~d100gui.engine.hero.primaries.primaries`) before the curse, so that a
    characteristic it lowered is told by its typed ``characteristic`` event too; ``held``: the HP, Fate and
    Lives (:func:`~d100gui.engine.hero.vitals.vitals`) before it, told by ``hp`` / ``fate`` / ``life`` events."""
    events = [Event.of(CurseApplied(result=result), " ".join(result.notes))]
    if before is not None:
        events += changed_primaries(character, before)
    if held is not None:
        events += changed_vitals(character, ctx.rules, held)
    campaign = ctx.campaign
    adventure = getattr(campaign, "adventure", None)
    if result.missing and result.table_roll is not None:
        adventure_of(campaign).rows_waiting.append(RowWaiting.curse(result.table_roll))
        lo, hi = result.table_roll.missing or (result.table_roll.roll.final, result.table_roll.roll.final)
        said = f"Table C rolled {result.table_roll.roll.final}: your tables lack row {lo}-{hi}. Type it in to apply the curse."
        events.append(Event.of(CurseRowMissing(table_roll=result.table_roll), said))
        return events
    if result.adventure_over:
        lay_to_rest(campaign, character)
        if isinstance(adventure, AdventureState):
            adventure.end_with_hero()
        events.append(told(HeroFell(name=character.name, source=result.curse)))
        return events
    if result.hp_zero:
        events += _settle_hp(ctx, result.curse)
    if result.clocks and isinstance(adventure, AdventureState) and adventure.quest is not None:
        adventure.clocks_owed += result.clocks
    return events


def no_curse_waiting(campaign: Campaign) -> None:
    """Refuse a new cast or curse while a Table C roll waits for its row (a curse cannot be skipped)."""
    state = getattr(campaign, "adventure", None)
    waiting = curse_waiting(state.rows_waiting) if isinstance(state, AdventureState) else None
    if waiting is not None:
        refuse(f"A curse waits for its row (Table C rolled {waiting.roll.final}): type the row in first.")


def _experience(ctx: GameContext, roll: RollRecord) -> list[Event]:
    """A natural CAST SPELL roll that earns experience leaves the choice of pips to the player."""
    spec, xp_rules = TEST_SPECS["cast"], ctx.rules.experience
    if not earns_experience(ctx.rules, roll, spec):
        return []
    skills = f" or {xp_rules.skill_pips} over {', '.join(spec.skills)}" if spec.skills else ""
    prompt = f"CAST SPELL: natural {roll.natural}. Shade {xp_rules.characteristic_pips} pip on {spec.characteristic}{skills}."
    choice = ExperienceChoice(characteristic=spec.characteristic, skills=list(spec.skills), test_name="CAST SPELL", prompt=prompt)
    xp = add_pending(ctx.campaign, choice)
    return [hero_events.emit(Decision(decision=xp.id), prompt)]


@register_command
class LearnSpell(Command):
    """Write a spell at the first free book position: ``spell`` (a Table S name), ``from_table`` (roll
    Table S) or ``belt_slot`` (copy the belt scroll's spell; the scroll is used up)."""

    kind: Literal["learn_spell"] = "learn_spell"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    spell: str = ""
    from_table: bool = False
    belt_slot: int = 0
    source: Literal["name", "market"] = "name"

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        rules, library = ctx.rules, ctx.tables.library
        table_roll = None
        source: Literal["table", "scroll", "market", "name"] = self.source
        if self.belt_slot:
            item = _scroll(ch, self.belt_slot)
            name, _sid, effect, cost = scroll_spell(library, item)
            entry = book.spell_from_table(library, name).model_copy(update={"effect": effect, "cost": cost})
            ch.belt[self.belt_slot - 1] = None
            source = "scroll"
        elif self.from_table:
            try:
                table_roll = ctx.tables.roll(SPELL_TABLE, "Table S - Spells (a spell for the book)")
            except TableError as exc:
                refuse(str(exc))
            if table_roll.row is None:
                return [Event.of(SpellRowMissing(table_roll=table_roll), table_roll.describe())]
            entry = book.spell_from_row(table_roll.row)
            source = "table"
        elif self.spell.strip():
            entry = book.spell_from_table(library, self.spell)
        else:
            refuse("Name the spell, roll Table S, or choose a scroll on the belt.")
        index = book.learn(ch, rules, entry)
        enforce(ch, rules)
        payload = SpellLearned(spell=entry.name, index=index, source=source, table_roll=table_roll)
        return [Event.of(payload, f"{entry.name} is written at position {index + 1} of the spell book.")]


@register_command
class RemoveSpell(Command):
    """Remove the spell at book position ``index`` (from 0); no other spell moves."""

    kind: Literal["remove_spell"] = "remove_spell"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    index: int

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        entry = book.remove(ch, ctx.rules, self.index)
        return [
            Event.of(SpellRemoved(spell=entry.name, index=self.index), f"{entry.name} is removed from position {self.index + 1}.")
        ]


@register_command
class CastSpell(Command):
    """Outside a fight, cast book position ``index`` (from 0) or the scroll in ``belt_slot`` (1-10).

    ``bonus`` is the spell bonus of the CAST SPELL test."""

    kind: Literal["cast_spell"] = "cast_spell"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    index: int | None = None
    belt_slot: int = 0
    bonus: int = 0
    # the test waits as a Fate window, answered per the Fate policy (the sheet's Cast sends it); False, as logs
    # made before it replay: settled at once
    window: bool = False

    def _spell(self, ctx: GameContext, ch: Character) -> tuple[str, str, str, Literal["book", "scroll"]]:
        library = ctx.tables.library
        if self.belt_slot:
            name, _sid, effect, cost = scroll_spell(library, _scroll(ch, self.belt_slot))
            check_castable(name)
            ch.belt[self.belt_slot - 1] = None  # a scroll is used up, whatever the test gives
            return name.title(), effect, cost, "scroll"
        if self.index is None:
            refuse("Choose a spell-book position or a scroll on the belt.")
        places = book.positions(ch, ctx.rules)
        if not 0 <= self.index < len(places) or places[self.index].spell is None:
            refuse(f"Spell book position {self.index + 1} is empty.")
        place = places[self.index]
        entry = place.spell
        assert entry is not None
        if not place.castable:
            refuse(f"You cannot cast {entry.name}: {place.why_not}")
        check_castable(entry.name)
        sid = spell_id(entry.name)
        _printed, effect, cost = printed_spell(library, sid) if sid else ("", "", "")
        return entry.name, entry.effect or effect, entry.cost or cost, "book"

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign, rules = ctx.campaign, ctx.rules
        ch = living_character(campaign)
        outside_fight(campaign, "cast a spell")
        no_curse_waiting(campaign)
        if any(isinstance(d, PendingTest) for d in campaign.pending):
            refuse("A rolled test is waiting: accept it or use Fate first.")
        name, effect, cost, source = self._spell(ctx, ch)
        before, held = primaries(ch), vitals(ch)
        paid = pay_cost(ch, rules, cost)
        events = changed_primaries(ch, before) + changed_vitals(ch, rules, held)
        events += _settle_hp(ctx, f"{name}'s cost") if ch.hp <= 0 else []
        if ch.dead:
            said = f"You cast {name}, paying {', '.join(paid)}: the cost is more than you have."
            return [Event.of(SpellCast(spell=name, source=source, paid=paid), said), *events]
        test = cast_test(ch, rules, ctx.dice, self.bonus, name)
        result = "success" if test.success else "failure - roll on Table C"
        if self.window:
            result = f"{'success' if test.success else 'failure'} (accept the roll or use Fate)"
        said = (
            f"You cast {name}"
            + (f", paying {', '.join(paid)}" if paid else "")
            + f". CAST SPELL: {test.preview.formula}; rolled {test.roll.natural} - {result}."
        )
        payload = SpellCast(
            spell=name, source=source, paid=paid, target=test.preview.target, roll=test.roll, success=test.success
        )
        events.insert(0, Event.of(payload, said))
        if self.window:  # "re-roll any dice of a roll they have just made": accept it or spend Fate, then it applies
            waiting = PendingTest(
                spec=TEST_SPECS["cast"],
                parts=test.preview.parts,
                target=test.preview.target,
                roll=test.roll,
                prompt=f"CAST SPELL ({name}): accept the roll or use Fate.",
                spell=SpellWaiting(name=name, effect=effect, source=source),
            )
            pending = add_pending(campaign, waiting)
            rolled = hero_events.TestRolled(decision=pending.id, target=test.preview.target, roll=test.roll, success=test.success)
            return [*events, hero_events.emit(rolled, waiting.prompt)]
        events += _experience(ctx, test.roll)
        return events + settle_cast(ctx, SpellWaiting(name=name, effect=effect, source=source), test.success)


def settle_cast(ctx: GameContext, spell: SpellWaiting, success: bool) -> list[Event]:
    """A CAST SPELL test settled outside a fight: the spell's effect on a success, Table C on a failure."""
    ch, rules = living_character(ctx.campaign), ctx.rules
    events: list[Event] = []
    if success:
        held = vitals(ch)
        done = spell_effect(ch, rules, spell.name, spell.effect)
        events.append(Event.of(SpellTookEffect(spell=spell.name, effect=done.kind, hp=done.hp), done.text))
        events += changed_vitals(ch, rules, held)  # Heal's HP: told by the typed hp event too
    else:
        before, held = primaries(ch), vitals(ch)
        cursed = roll_curse(ch, rules, ctx.tables, f"Table C - Curses ({spell.name} failed)")
        events += settle_curse(ctx, ch, cursed, before, held)
    if not ch.dead:
        enforce(ch, rules)
    return events


@register_command
class RollCurse(Command):
    """Roll Table C and apply the curse in full (a result on the sheet or in the dungeon asks for it)."""

    kind: Literal["roll_curse"] = "roll_curse"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    purpose: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        outside_fight(ctx.campaign, "roll a curse")
        no_curse_waiting(ctx.campaign)
        before, held = primaries(ch), vitals(ch)
        events = settle_curse(ctx, ch, roll_curse(ch, ctx.rules, ctx.tables, self.purpose or "Table C - Curses"), before, held)
        if not ch.dead:
            enforce(ch, ctx.rules)
        return events


@register_command
class ProvideCurseRow(Command):
    """The Table C row a curse outside a fight waits for: ``row`` typed from the rulebook (added to the
    player's tables), or ``sample`` to re-roll among the printed rows this time. The curse then applies in full."""

    kind: Literal["provide_curse_row"] = "provide_curse_row"
    when: ClassVar[Phases] = ANSWER
    row: Row | None = None
    sample: bool = False

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        state = adventure_of(ctx.campaign)
        waiting = curse_waiting(state.rows_waiting)
        if waiting is None:
            refuse("No Table C roll is waiting for its row.")
        events: list[Event] = []
        if self.row is not None:
            try:
                resolved = ctx.tables.resolve_missing(waiting, self.row)
            except (TableError, ValueError) as exc:
                refuse(str(exc))
            events.append(
                Event.of(
                    RowProvided(table_id=resolved.table_id, row=resolved.row), f"Row added to your tables: {resolved.describe()}"
                )
            )
        elif self.sample:
            resolved = _sample_curse(ctx, waiting)
        else:
            refuse("A curse cannot be skipped: type the row from your rulebook, or re-roll among the printed rows.")
        assert resolved.row is not None
        state.rows_waiting = without_curse(state.rows_waiting)
        before, held = primaries(ch), vitals(ch)
        events += settle_curse(ctx, ch, apply_curse(ch, ctx.rules, resolved.row, ctx.dice, resolved), before, held)
        if not ch.dead:
            enforce(ch, ctx.rules)
        return events


def _sample_curse(ctx: GameContext, waiting: TableRoll) -> TableRoll:
    """Sample play for one curse: Table C rolled again (with the first roll's modifiers) until it lands on a printed row."""
    modifier = sum(m.value for m in waiting.roll.modifiers)
    try:
        rolled = ctx.tables.with_policy(MissingRowPolicy.REROLL).roll(
            CURSE_TABLE, waiting.roll.purpose, modifier, "the first roll's modifiers"
        )
    except TableError as exc:
        refuse(str(exc))
    if rolled.row is None:
        refuse("Your Table C prints no row to re-roll among: type the row from your rulebook.")
    return rolled.model_copy(update={"sample": True})  # sample play, labelled as such


@register_command
class RollBoost(Command):
    """Roll Table B and apply the boost in full (a combat-track milestone or a find asks for it)."""

    kind: Literal["roll_boost"] = "roll_boost"
    when: ClassVar[Phases] = OUTSIDE_FIGHT
    purpose: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        ch = living_character(ctx.campaign)
        before, held = primaries(ch), vitals(ch)
        result = roll_boost(ch, ctx.rules, ctx.tables, self.purpose or "Table B - Boosts")
        enforce(ch, ctx.rules)
        told_too = [*changed_primaries(ch, before), *changed_vitals(ch, ctx.rules, held)]
        return [Event.of(BoostApplied(result=result), " ".join(result.notes)), *told_too]


MAGIC_COMMANDS: tuple[type[Command], ...] = (LearnSpell, RemoveSpell, CastSpell, RollCurse, ProvideCurseRow, RollBoost)
