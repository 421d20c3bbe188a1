"""Fight odds: the chance to win and the HP the hero can expect to lose, from the current state.

:func:`combat_odds` (the fight in progress) and :func:`fight_odds` (a fight not yet started)
simulate many fights (10,000 by default) under the rules the combat round applies, with the
player's choices fixed where the rules leave them open (the result lists them in
``assumptions``): the hero always attacks with the weapon that deals most damage on
average, lets an escaping monster go while still attacking it, never escapes, casts,
drinks or offsets damage onto items, spends no Fate, and with Perfect Aim always re-rolls
the hit location and keeps the better one.

One definition of each rule: the tables are built by calling the round's own rule functions
(:mod:`.abilities` for Pack, Fly, Phase, reactions, Dark Magic, Large, Regenerate, Tough,
Ethereal, Death Touch, Resurrection; :func:`preview_test` of the printed tests for every
target), so the simulator cannot drift from the round; ``tests/engine/combat/
test_odds_agreement.py`` plays fights through both and compares.

Speed (pure Python, no pydantic in the loop). Everything that does not depend on the
hero's HP is worked out once as probability tables (:mod:`.odds_tables`):

* the HP the hero deals in a round (hit chance x damage die, Mighty Blow, hit location,
  Perfect Aim, DMG, the monster's DEF, Tough, Ethereal);
* what the monster's attack does (AV with every bonus, Attacks, Large, Regenerate, Defence
  Bonus, location DEF, Death Touch, AVOID FIRE / FREEZE and DAZED folded in as chances);
* per *situation* (damage dealt to the monster so far, damaged last round, attack forfeit,
  frozen DEF), the joint outcome of a whole round (reaction, Dark Magic, FEAR, both
  attacks, AVOID WEB) as one cumulative table, built the first time the situation occurs.

A round is then one ``random()`` and one ``bisect``. Rounds in which nothing changes are
taken out of the tables (the rest renormalised): they change neither who wins nor the HP
lost, so the result is the same, only faster. The random generator is seeded: the same
seed gives the same result.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pydantic import Field

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat.attack import ICE_STORM_ATTACK_BONUS
from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.combat.odds_tables import Attack, FightTables, RoundTable, chance, cumulative
from d100gui.engine.combat.spells import FIRE_BLAST_DAMAGE
from d100gui.engine.hero.model import Character
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

__all__ = ["DEFAULT_FIGHTS", "FightOdds", "FightTables", "combat_odds", "fight_odds", "life_warning"]

DEFAULT_FIGHTS = 10_000


class FightOdds(Model):
    """The odds of a fight, as the UI shows them."""

    win: float  # the monster is killed (and stays dead)
    lose: float  # the hero dies (no RES, no Lives left)
    monster_escapes: float
    expected_hp_lost: float  # every point of damage the hero takes, counted past 0 when a Life refills HP
    life_used: float  # chance that RES or a Life is spent
    hero_hit_chance: float  # this round's attack with the chosen weapon
    monster_hit_chance: float  # one attack of the monster, this round if known
    weapon: str = ""
    stat: str = ""
    fights: int
    seed: int
    method: str = "simulation"
    start: str = ""
    assumptions: list[str] = Field(default_factory=list)


def life_warning(odds: FightOdds) -> str:
    """A warning that a Life (or RES) may be spent in this fight, from the simulated fights ("" if none is)."""
    if odds.life_used <= 0:
        return ""
    share = "under 1%" if odds.life_used < 0.01 else f"{odds.life_used:.0%}"
    return f"A Life or RES may be spent: in {share} of the simulated fights your HP reach 0."


# --------------------------------------------------------------------------- the simulation


@dataclass
class _Start:
    """Where the simulated fights start."""

    dealt: int = 0
    dlr: int = 0
    forfeit: int = 0
    def_pen: int = 0
    surprise: bool = False
    first: RoundTable = None  # a known first round (the action step)
    spell: str = ""  # a spell landing at the start of the first round
    resurrection: bool = False  # the monster is dead and its Resurrection roll is still to come
    label: str = ""


@dataclass
class _Opening:
    """What may happen before the first full round, as tables: SURPRISE's free attack, a spell landing."""

    surprise: tuple[list[float], list[Attack]] | None = None
    spell: list[tuple[float, int]] | None = None  # HP the spell takes (after Tough)
    frozen: RoundTable = None  # Ice Storm: the first round, with the monster frozen

    @classmethod
    def of(cls, model: FightTables, start: _Start) -> _Opening:
        m = model.m
        opening = cls()
        if start.surprise:
            opening.surprise = cumulative(model.monster_round(m.av + ab.pack_bonus(m, m.members), 0, 0))
        if start.spell == "fire_blast":
            opening.spell = [(1.0, ab.hp_taken(m, FIRE_BLAST_DAMAGE))]
        elif start.spell in ("fire_ball", "ice_storm"):
            opening.spell = [(1 / len(ab.D10), ab.hp_taken(m, ab.spell_damage(v, m.defence))) for v in ab.D10]
        if start.spell == "ice_storm":
            opening.frozen = model.round_table(
                [(1.0, 0, 0)],
                [(1.0, ab.NO_SPELL)],
                bool(start.forfeit),
                m.has("fear"),
                ICE_STORM_ATTACK_BONUS,
                False,
                0,
                0,
                m.has("web"),
                None,
            )
        return opening


class _Run:
    """One simulated fight: the hero's HP and Lives, the damage dealt, the next round's situation."""

    __slots__ = ("dealt", "def_pen", "dlr", "forfeit", "hp", "lives", "lost", "max_hp", "result", "used")

    def __init__(self, hp: int, lives: int, max_hp: int, start: _Start) -> None:
        self.hp, self.lives, self.max_hp = hp, lives, max_hp
        self.dealt, self.dlr, self.forfeit, self.def_pen = start.dealt, start.dlr, start.forfeit, start.def_pen
        self.lost = self.used = 0
        self.result = 0  # 1 win, 2 death, 3 escape

    def hurt(self, amount: int) -> bool:
        """The hero loses ``amount`` HP (a Life refills them). True if the hero died."""
        self.hp -= amount
        self.lost += amount
        if self.hp > 0:
            return False
        if self.lives:
            self.lives -= 1
            self.used = 1
            self.hp = self.max_hp
            return False
        self.result = 2
        return True


def _open(model: FightTables, opening: _Opening, start: _Start, run: _Run, rnd: Callable[[], float]) -> RoundTable:
    """Play what comes before the first full round; returns the first round's table, if known."""
    first = start.first
    if run.dealt >= model.total:  # already dead: only Resurrection can bring it back
        if start.resurrection and rnd() < model.p_resurrect:
            run.dealt = 0
        else:
            run.result = 1
    if opening.surprise is not None and rnd() >= model.p_surprise:
        cum, outs = opening.surprise
        loss, post, heal, run.forfeit, run.def_pen = outs[bisect_right(cum, rnd())]
        if (loss and run.hurt(loss)) or (post and run.hurt(post)):
            return None
        if heal and run.dealt:
            run.dealt = max(model.dead_prefix[run.dealt], run.dealt - heal)
    if opening.spell and not run.result:
        u, acc, x = rnd(), 0.0, opening.spell[-1][1]
        for q, value in opening.spell:
            acc += q
            if u < acc:
                x = value
                break
        if x:
            run.dealt = min(model.total, run.dealt + x)
            run.dlr = 1
        if run.dealt >= model.total:
            first = None
            if rnd() < model.p_resurrect:
                run.dealt = 0
            else:
                run.result = 1
        elif opening.frozen is not None:
            first = opening.frozen
    return first


def _play(model: FightTables, run: _Run, first: RoundTable, tables: dict[int, RoundTable], rnd: Callable[[], float]) -> None:
    """Play rounds until the fight is decided: the fast inner loop, one table draw a round, on locals."""
    total, dead_prefix, p_resurrect, max_hp = model.total, model.dead_prefix, model.p_resurrect, run.max_hp
    hp, lives, lost, used = run.hp, run.lives, run.lost, run.used
    dealt, dlr, forfeit, def_pen = run.dealt, run.dlr, run.forfeit, run.def_pen
    result = 0
    table: RoundTable
    while not result:
        if first is not None:
            table, first = first, None
        else:
            index = ((dealt * 2 + dlr) * 2 + forfeit) * 2 + def_pen
            table = tables[index] if index in tables else tables.setdefault(index, model.situation(dealt, dlr, forfeit, def_pen))
            if table is None:  # nothing can change any more: the monster wanders off
                result = 3
                break
        if isinstance(table, tuple):
            esc, hit, pre, loss, post, heal, drain, forfeit, def_pen = table[1][bisect_right(table[0], rnd())]
        else:
            esc, hit, pre, loss, post, heal, drain, forfeit, def_pen = table(rnd)
        if hit:
            dealt = dealt + hit if dealt + hit < total else total
            dlr = 1
        else:
            dlr = 0
        if pre:  # Death Bolt, before the attacks
            hp -= pre
            lost += pre
            if hp <= 0:
                if not lives:
                    result = 2
                    break
                lives, used, hp = lives - 1, 1, max_hp
        if esc:
            if dealt < total:
                result = 3
                break
        elif loss or post:  # its damage, then AVOID FIRE / FREEZE
            for harm in (loss, post):
                if harm:
                    hp -= harm
                    lost += harm
                    if drain and dealt < total:
                        dealt = max(dead_prefix[dealt], dealt - harm)
                    if hp <= 0:
                        if not lives:
                            result = 2
                            break
                        lives, used, hp = lives - 1, 1, max_hp
            if result:
                break
        if heal and not esc and dealt < total:
            dealt = max(dead_prefix[dealt], dealt - heal)
        if not result and dealt >= total:
            if rnd() < p_resurrect:
                dealt = 0
            else:
                result = 1
    run.hp, run.lives, run.lost, run.used, run.dealt, run.result = hp, lives, lost, used, dealt, result


def _simulate(model: FightTables, hp0: int, lives0: int, start: _Start, fights: int, seed: int) -> tuple[int, int, int, int, int]:
    """(wins, deaths, escapes, total HP lost, fights with a Life used)."""
    rnd = random.Random(seed).random
    opening = _Opening.of(model, start)
    tables: dict[int, RoundTable] = {}
    counts = [0, 0, 0, 0]  # by result: -, win, death, escape
    lost_total = lives_used = 0
    for _ in range(fights):
        run = _Run(hp0, lives0, model.max_hp, start)
        first = _open(model, opening, start, run, rnd)
        if not run.result:
            _play(model, run, first, tables, rnd)
        counts[run.result or 3] += 1
        lost_total += run.lost
        lives_used += run.used
    return counts[1], counts[2], counts[3], lost_total, lives_used


# --------------------------------------------------------------------------- public API

ASSUMPTIONS = [
    "You always attack with the weapon that deals the most damage on average and never escape, block, cast, "
    "drink or use belt items.",
    "An escaping monster is let go while you still attack it.",
    "No damage is offset onto items or a shield, and no Fate is spent.",
    "Perfect Aim always re-rolls the hit location and keeps the better one.",
    "Disease, poison and Belt Checks do not change the fight and are left out.",
]


def _result(
    model: FightTables, character: Character, start: _Start, fights: int, seed: int, hero_bonus: int, monster_av: int
) -> FightOdds:
    lives = character.lives + (1 if character.res else 0)
    wins, deaths, escapes, lost, used = _simulate(model, character.hp, lives, start, fights, seed)
    notes = list(ASSUMPTIONS)
    if not model.slot:
        notes.insert(0, "You have no weapon: you cannot win this fight, only flee it.")
    return FightOdds(
        win=wins / fights,
        lose=deaths / fights,
        monster_escapes=escapes / fights,
        expected_hp_lost=lost / fights,
        life_used=used / fights,
        hero_hit_chance=chance(model.attack_target(model.stat, hero_bonus)) if model.slot else 0.0,
        monster_hit_chance=chance(monster_av),
        weapon=model.weapon,
        stat=model.stat,
        fights=fights,
        seed=seed,
        start=start.label,
        assumptions=notes,
    )


def fight_odds(character: Character, monster: Monster, rules: Rules, *, fights: int = DEFAULT_FIGHTS, seed: int = 0) -> FightOdds:
    """The odds of a fight that has not started yet (SURPRISE included)."""
    model = FightTables(character, monster, rules)
    start = _Start(surprise=monster.has("surprise"), label="before the fight")
    pack = ab.pack_bonus(monster, monster.members)
    return _result(model, character, start, max(1, fights), seed, 0, monster.av + pack)


def combat_odds(campaign: Campaign, rules: Rules, *, fights: int = DEFAULT_FIGHTS, seed: int = 0) -> FightOdds:
    """The odds of the fight in progress, from where it stands now."""
    c, ch = campaign.combat, campaign.character
    if c is None or ch is None:
        raise ValueError("There is no fight in progress.")
    model = FightTables(ch, c.monster, rules)
    start = _start_of(model, c)
    if c.waiting == "action":
        hero_bonus, av = c.attack_bonus, c.monster.av + c.av_bonus + c.pack_bonus + c.dark_av
    else:
        hero_bonus, av = 0, c.monster.av + ab.pack_bonus(c.monster, c.living)
    return _result(model, ch, start, max(1, fights), seed, hero_bonus, av)


def _start_of(model: FightTables, c: CombatState) -> _Start:
    dealt = model.total - c.current_hp
    if not c.alive:
        pending = c.monster.has("resurrection") and c.step not in ("victory", "loot")
        return _Start(dealt=dealt, resurrection=pending, label=f"round {c.round}: the monster is dead")
    if c.step == "start":
        return _Start(dealt=dealt, surprise=c.surprise, label="before the first round")
    if c.waiting == "action":
        reactions = [(1.0, 1 if c.monster_escaping else 0, c.av_bonus)]
        spell = replace(ab.dark_spell_named(c.dark_spell), hero_loses=0)  # a Death Bolt has already struck
        first = model.round_table(
            reactions,
            [(1.0, spell)],
            bool(c.forfeit_attack),
            False,  # this round's FEAR test is already behind
            c.attack_bonus,
            not c.frozen,
            c.def_penalty,
            c.pack_bonus,
            c.monster.has("web"),
            None,
        )
        return _Start(dealt=dealt, dlr=int(c.damaged_last_round), first=first, label=f"round {c.round}, at your action")
    return _Start(
        dealt=dealt,
        dlr=int(c.damaged_this_round),
        forfeit=int(bool(c.next_forfeit_attack)),
        def_pen=int(bool(c.next_def_penalty)),
        spell=c.queued_spell.spell if c.queued_spell else "",
        label=f"the start of round {c.round + 1} (the rest of round {c.round} is not simulated)",
    )
