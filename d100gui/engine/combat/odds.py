"""Fight odds: the chance to win and the HP the hero can expect to lose, from the current state.

:func:`combat_odds` (the fight in progress) and :func:`fight_odds` (a fight not yet started)
simulate many fights (10,000 by default) under the rules :mod:`.combat` applies, with the
player's choices fixed where the rules leave them open (the result lists them in
``assumptions``): the hero always attacks with the weapon that deals most damage on
average, lets an escaping monster go while still attacking it, never escapes, casts,
drinks or offsets damage onto items, spends no Fate, and with Perfect Aim always re-rolls
the hit location and keeps the better one.

Speed (pure Python, no pydantic in the loop). Everything that does not depend on the
hero's HP is worked out once as probability tables:

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

import itertools
import random
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, Field

from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.combat.round import TEST_SPECS, WEAPON_SLOTS, has_weapon, weapon_in, weapon_stats
from d100gui.engine.game import Campaign
from d100gui.engine.hero.character import Character, derive
from d100gui.engine.hero.skill_test import preview_test
from d100gui.engine.rules.model import Rules

DEFAULT_FIGHTS = 10_000
MIGHTY_DEPTH = 8  # Mighty Blow re-rolls followed: a 9th natural 6 in a row (1 in 1.7 million) stops there

# outcome of a round: (monster escapes, HP dealt, HP lost before the attacks (Death Bolt),
# HP lost to the monster's damage, HP lost after it (AVOID FIRE / FREEZE), Regenerate heal,
# Drain Life active, attack forfeit next round, -2 DEF next round)
Outcome = tuple[int, int, int, int, int, int, int, int, int]
# a round: a joint cumulative table, a staged sampler, or None (nothing can ever change)
RoundTable = tuple[list[float], list[Outcome]] | Callable[[Callable[[], float]], Outcome] | None
JOINT_LIMIT = 40_000  # outcome combinations a joint round table may cross before a staged sampler is used


class FightOdds(BaseModel):
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


def _chance(target: int) -> float:
    return max(0, min(100, target)) / 100.0


class _Model:
    """The precomputed probability tables of one hero against one monster."""

    def __init__(self, character: Character, monster: Monster, rules: Rules) -> None:
        self.rules = rules
        self.m = monster
        d = derive(character, rules)
        self.d = d
        self.max_hp = d.max_hp
        self.total = monster.max_hp
        members = list(monster.hp)
        # living members and the HP of the dead ones, by damage dealt so far (damage goes in printed order)
        self.living_at: list[int] = []
        self.dead_prefix: list[int] = []
        for dealt in range(self.total + 1):
            left, dead, living = dealt, 0, 0
            for hp in members:
                if left >= hp:
                    left -= hp
                    dead += hp
                else:
                    living += 1
                    left = 0
            self.living_at.append(living)
            self.dead_prefix.append(dead)
        self.below_at = [1 if 2 * (self.total - x) < self.total else 0 for x in range(self.total + 1)]

        def test_chance(kind: str) -> float:
            return _chance(preview_test(character, rules, TEST_SPECS[kind]).target)

        self.p_fear = test_chance("fear") if monster.has("fear") else 1.0
        self.p_web = test_chance("web") if monster.has("web") else 1.0
        self.p_fire = test_chance("fire")
        self.p_freeze = test_chance("freeze")
        self.p_dazed = test_chance("dazed")
        self.p_surprise = test_chance("surprise")
        # location -> (damage mod, hero DEF there, belt check)
        self.locations = []
        for loc in range(1, 11):
            slot = rules.slot_at_location(loc)
            mod = rules.damage_mod(slot.id) if slot else 0
            self.locations.append((mod, d.defence.get(slot.id, 0) if slot else 0))
        # the hero's weapon: the best (slot, stat) by expected HP dealt per round
        self.weapon, self.stat, self.slot, self.hit_target, self.legendary = "", "", "", 0, False
        best = -1.0
        if has_weapon(character):
            for slot in WEAPON_SLOTS:
                item = weapon_in(character, slot)
                if item is None:
                    continue
                for stat in weapon_stats(item):
                    target = self._attack_target(stat)
                    dist = self._hero_damage(slot, item.legendary, monster.defence)
                    value = _chance(target) * sum(p * x for p, x in dist)
                    if value > best:
                        best = value
                        self.weapon, self.stat, self.slot, self.hit_target = item.name, stat, slot, target
                        self.legendary = item.legendary
        self._hero_cache: dict[tuple[int, int], list[tuple[float, int]]] = {}
        self._monster_cache: dict[tuple[int, int, int], list[tuple[float, tuple[int, int, int, int, int]]]] = {}
        self._round_cache: dict[tuple, RoundTable] = {}
        self.joint_limit = JOINT_LIMIT
        self._after_cache: dict[tuple[bool, int], list[tuple[tuple[int, int, int], float]]] = {}

    # ------------------------------------------------------------------ the hero's attack
    def _attack_target(self, stat: str) -> int:
        target = self.d.characteristics[stat]
        if stat == "STR" and self.m.has("fly"):
            target -= 10
        if self.m.has("phase"):
            target -= 10
        return target

    def _die(self) -> list[tuple[float, int]]:
        if not self.d.abilities.get("mighty_blow"):
            return [(1 / 6, v) for v in range(1, 7)]
        out = []
        for k in range(MIGHTY_DEPTH):
            p = (1 / 6) ** (k + 1)
            out += [(p, 6 * k + r) for r in range(1, 6)]
        out.append(((1 / 6) ** MIGHTY_DEPTH, 6 * MIGHTY_DEPTH))
        return out

    def _location_mods(self) -> list[tuple[float, int]]:
        mods = [mod for mod, _ in self.locations]
        if not self.d.abilities.get("perfect_aim"):
            return [(0.1, m) for m in mods]
        return [(0.01, max(a, b)) for a, b in itertools.product(mods, mods)]

    def _hero_damage(self, slot: str, legendary: bool, defence: int) -> list[tuple[float, int]]:
        """HP dealt by one hit (not counting the hit chance)."""
        dmg = self.d.weapon_dmg.get(slot, self.d.dmg_bonus)
        out: dict[int, float] = defaultdict(float)
        if self.m.has("ethereal") and not legendary:
            return [(1.0, 0)]
        for pd, die in self._die():
            for pl, mod in self._location_mods():
                raw = max(0, die + mod + dmg - defence)
                out[raw // 2 if self.m.has("tough") else raw] += pd * pl
        return sorted((p, x) for x, p in out.items())

    def hero_round(self, cloak: int, bonus: int) -> list[tuple[float, int]]:
        """HP dealt in a round of attacking (a miss deals 0)."""
        key = (cloak, bonus)
        if key not in self._hero_cache:
            if not self.slot:
                self._hero_cache[key] = [(1.0, 0)]
            else:
                p = _chance(self.hit_target + bonus)
                dist: dict[int, float] = defaultdict(float)
                dist[0] += 1 - p
                for q, x in self._hero_damage(self.slot, self.legendary, self.m.defence + cloak):
                    dist[x] += p * q
                self._hero_cache[key] = [(q, x) for x, q in dist.items() if q > 0]
        return self._hero_cache[key]

    # ------------------------------------------------------------------ the monster's attack
    def monster_round(self, av: int, dmg_extra: int, def_pen: int) -> list[tuple[float, tuple[int, int, int, int, int]]]:
        """(loss, loss after, heal, dazed next, frozen DEF next) of the monster's attack."""
        key = (av, dmg_extra, def_pen)
        if key in self._monster_cache:
            return self._monster_cache[key]
        m, d = self.m, self.d
        p = _chance(av)
        n = m.attacks
        faces = [3, 4, 5, 6] if m.has("large") else [1, 2, 3, 4, 5, 6]
        regen = m.has("regenerate")
        touch = 2 if m.has("death_touch") else 0
        db = d.defence_bonus
        out: dict[tuple[int, int, int, int, int], float] = defaultdict(float)
        for hits in range(n + 1):
            p_hits = _binomial(n, hits, p)
            if p_hits == 0:
                continue
            if hits == 0:
                out[(0, 0, 0, 0, 0)] += p_hits
                continue
            # (counted natural total, number of 1s, any counted die) over the dice
            dice: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
            for _ in range(hits):
                step: dict[tuple[int, int, int], float] = defaultdict(float)
                for (s, ones, counted), q in dice.items():
                    for f in faces:
                        if f == 1 and regen:
                            step[(s, ones + 1, counted)] += q / len(faces)
                        else:
                            step[(s + f, ones + (f == 1), 1)] += q / len(faces)
                dice = step
            for (natural, ones, counted), q in dice.items():
                heal = ones if regen else 0
                for mod, armour in self.locations:
                    if counted:
                        total = natural + mod + m.dmg + dmg_extra
                        bonus = db if 0 < db and natural <= db else 0
                        defence = max(0, armour - touch - def_pen)
                        damage = max(0, total - bonus - defence)
                    else:
                        damage = 0
                    for branch, pb in self._after_damage(damage, ones):
                        out[(damage, *branch[:1], heal, *branch[1:])] += p_hits * q * 0.1 * pb
        result = [(q, k) for k, q in out.items() if q > 0]
        self._monster_cache[key] = result
        return result

    def _after_damage(self, damage: int, ones: int) -> list[tuple[tuple[int, int, int], float]]:
        """(HP lost after the damage, dazed next, frozen next) from AVOID FIRE / FREEZE and DAZED."""
        key = (damage > 0, ones)
        if key not in self._after_cache:
            self._after_cache[key] = self._after_damage_uncached(damage, ones)
        return self._after_cache[key]

    def _after_damage_uncached(self, damage: int, ones: int) -> list[tuple[tuple[int, int, int], float]]:
        m = self.m
        branches: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
        fire = ones if m.has("fire") else 0
        freeze = ones if m.has("freeze") else 0
        for _ in range(fire):
            branches = _split(branches, self.p_fire, lambda b: (b[0] + 2, b[1], b[2]))
        for _ in range(freeze):
            branches = _split(branches, self.p_freeze, lambda b: (b[0] + 1, b[1], 1))
        if damage > 0 and m.has("stunned"):
            branches = _split(branches, self.p_dazed, lambda b: (b[0], 1, b[2]))
        return list(branches.items())

    # ------------------------------------------------------------------ whole rounds
    def round_table(
        self,
        reactions: list[tuple[float, int, int]],
        darks: list[tuple[float, str]],
        forfeit: bool,
        fear: bool,
        bonus: int,
        attacks: bool,
        def_pen: int,
        pack_bonus: int,
        web: bool,
        self_loop: tuple[int, int, int] | None,
    ) -> RoundTable:
        """One round: a joint cumulative table ``(cum, outcomes)`` (None: nothing can ever change),
        or, when the joint table would be too big to build quickly, a staged sampler
        (a function of ``random``) that draws the same outcome stage by stage.

        ``reactions``: (chance, escapes, AV bonus); ``darks``: (chance, Dark Magic spell);
        ``self_loop``: (damaged last round, forfeit, frozen DEF) of this situation, so rounds
        that change nothing can be dropped from the joint table.
        """
        m = self.m
        fear_split = [(self.p_fear, False), (1 - self.p_fear, True)] if fear else [(1.0, False)]
        web_split = [(self.p_web, 0), (1 - self.p_web, 1)] if web else [(1.0, 0)]
        size = len(reactions) * len(darks) * len(fear_split) * len(web_split)
        size *= len(self.hero_round(0, bonus)) * (len(self.monster_round(m.av, 0, def_pen)) if attacks else 1)
        if size > self.joint_limit:
            return self._staged(reactions, darks, forfeit, fear_split, bonus, attacks, def_pen, pack_bonus, web)
        joint: dict[Outcome, float] = defaultdict(float)
        for pr, escapes, av_bonus in reactions:
            for pd, spell in darks:
                pre = 2 if spell == "bolt" else 0
                drain = 1 if spell == "drain" else 0
                cloak = 4 if spell == "cloak" else 0
                for pf, scared in fear_split:
                    hero = [(1.0, 0)] if (forfeit or scared) else self.hero_round(cloak, bonus)
                    base = pr * pd * pf
                    if base == 0:
                        continue
                    if escapes or not attacks:
                        for ph, dealt in hero:
                            if escapes:
                                joint[(1, dealt, pre, 0, 0, 0, 0, 0, 0)] += base * ph
                            else:
                                for pw, caught in web_split:
                                    joint[(0, dealt, pre, 0, 0, 0, drain, caught, 0)] += base * ph * pw
                        continue
                    av = m.av + av_bonus + pack_bonus + (20 if spell == "strike" else 0)
                    monster = self.monster_round(av, 2 if spell == "evil" else 0, def_pen)
                    for ph, dealt in hero:
                        for pm, (loss, post, heal, dazed, frozen) in monster:
                            for pw, caught in web_split:
                                key = (0, dealt, pre, loss, post, heal, drain, dazed or caught, frozen)
                                joint[key] += base * ph * pm * pw
        items = []
        for key, q in joint.items():
            if q <= 0:
                continue
            if self_loop is not None:
                esc, dealt, pre, loss, post, heal, _drain, nf, nz = key
                if not (esc or dealt or pre or loss or post or heal) and (0, nf, nz) == self_loop:
                    continue  # nothing changes: drop the round
            items.append((q, key))
        total = sum(q for q, _ in items)
        if total <= 1e-15:
            return None
        cum, outs, acc = [], [], 0.0
        for q, key in items:
            acc += q / total
            cum.append(acc)
            outs.append(key)
        cum[-1] = 1.0
        return cum, outs

    def _staged(
        self,
        reactions: list[tuple[float, int, int]],
        darks: list[tuple[float, str]],
        forfeit: bool,
        fear_split: list[tuple[float, bool]],
        bonus: int,
        attacks: bool,
        def_pen: int,
        pack_bonus: int,
        web: bool,
    ) -> Callable[[Callable[[], float]], Outcome]:
        """The round drawn stage by stage: reaction / Dark Magic / FEAR, the hero's hit, the
        monster's attack, AVOID WEB. Same distribution as the joint table, more draws."""
        m = self.m

        def cumulative(dist: list) -> tuple[list[float], list]:
            total = sum(q for q, _ in dist)
            cum, values, acc = [], [], 0.0
            for q, v in dist:
                acc += q / total
                cum.append(acc)
                values.append(v)
            cum[-1] = 1.0
            return cum, values

        stages = []
        for pr, escapes, av_bonus in reactions:
            for pd, spell in darks:
                for pf, scared in fear_split:
                    q = pr * pd * pf
                    if q <= 0:
                        continue
                    hero = [(1.0, 0)] if (forfeit or scared) else self.hero_round(4 if spell == "cloak" else 0, bonus)
                    monster = None
                    if attacks and not escapes:
                        av = m.av + av_bonus + pack_bonus + (20 if spell == "strike" else 0)
                        monster = cumulative(self.monster_round(av, 2 if spell == "evil" else 0, def_pen))
                    stages.append(
                        (q, (escapes, 2 if spell == "bolt" else 0, 1 if spell == "drain" else 0, cumulative(hero), monster))
                    )
        pre_cum, pre_values = cumulative(stages)
        caught_chance = (1 - self.p_web) if web else 0.0

        def sample(rnd: Callable[[], float]) -> Outcome:
            escapes, pre, drain, (hero_cum, hero_values), monster = pre_values[bisect_right(pre_cum, rnd())]
            dealt = hero_values[bisect_right(hero_cum, rnd())]
            if escapes:
                return (1, dealt, pre, 0, 0, 0, 0, 0, 0)
            loss = post = heal = dazed = frozen = 0
            if monster is not None:
                loss, post, heal, dazed, frozen = monster[1][bisect_right(monster[0], rnd())]
            caught = 1 if caught_chance and rnd() < caught_chance else 0
            return (0, dealt, pre, loss, post, heal, drain, dazed or caught, frozen)

        return sample

    def reactions(self, dlr: int, below: int) -> list[tuple[float, int, int]]:
        escape = 0.1 + (0.1 if dlr else 0) + (0.1 if below else 0)
        plus5 = plus10 = 0.1 if below else 0.0
        return [
            (p, e, b)
            for p, e, b in ((escape, 1, 0), (plus5, 0, 5), (plus10, 0, 10), (1 - escape - plus5 - plus10, 0, 0))
            if p > 0
        ]

    def darks(self) -> list[tuple[float, str]]:
        if not self.m.has("dark_magic"):
            return [(1.0, "")]
        return [(0.2, s) for s in ("strike", "cloak", "evil", "drain", "bolt")]

    def situation(self, dealt: int, dlr: int, forfeit: int, def_pen: int) -> RoundTable:
        """The round table for a situation at the start of a round (built once, then cached)."""
        living = self.living_at[dealt]
        below = self.below_at[dealt]
        key = (living, below, dlr, forfeit, def_pen)
        if key not in self._round_cache:
            self._round_cache[key] = self.round_table(
                self.reactions(dlr, below),
                self.darks(),
                bool(forfeit),
                self.m.has("fear"),
                0,
                True,
                2 if def_pen else 0,
                5 * max(0, living - 1) if self.m.has("pack") else 0,
                self.m.has("web"),
                (dlr, forfeit, def_pen),
            )
        return self._round_cache[key]


def _binomial(n: int, k: int, p: float) -> float:
    from math import comb

    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _split(
    branches: dict[tuple[int, int, int], float], p_pass: float, fail: Callable[[tuple[int, int, int]], tuple[int, int, int]]
) -> dict[tuple[int, int, int], float]:
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for b, q in branches.items():
        out[b] += q * p_pass
        out[fail(b)] += q * (1 - p_pass)
    return out


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


def _simulate(model: _Model, hp0: int, lives0: int, start: _Start, fights: int, seed: int) -> tuple[int, int, int, int, int]:
    """(wins, deaths, escapes, total HP lost, fights with a Life used)."""
    rng = random.Random(seed)
    rnd = rng.random
    total = model.total
    max_hp = model.max_hp
    dead_prefix = model.dead_prefix
    resurrects = model.m.has("resurrection")
    situation = model.situation
    tables: dict[int, RoundTable] = {}
    surprise_table = None
    if start.surprise:
        surprise_table = model.monster_round(model.m.av + (5 * (model.m.members - 1) if model.m.has("pack") else 0), 0, 0)
        s_cum, s_outs, acc = [], [], 0.0
        for q, o in surprise_table:
            acc += q
            s_cum.append(acc)
            s_outs.append(o)
        s_cum[-1] = 1.0
    spell_dist: list[tuple[float, int]] = []
    if start.spell == "fire_blast":
        spell_dist = [(1.0, 2)]
    elif start.spell in ("fire_ball", "ice_storm"):
        spell_dist = [(0.1, max(0, v - model.m.defence)) for v in range(1, 11)]
    frozen_table = None
    if start.spell == "ice_storm":
        frozen_table = model.round_table(
            [(1.0, 0, 0)], [(1.0, "")], bool(start.forfeit), model.m.has("fear"), 10, False, 0, 0, model.m.has("web"), None
        )
    wins = deaths = escapes = lost_total = lives_used = 0
    for _ in range(fights):
        hp, lives, dealt, dlr, forfeit, def_pen = hp0, lives0, start.dealt, start.dlr, start.forfeit, start.def_pen
        lost = 0
        used = 0
        result = 0  # 1 win, 2 death, 3 escape
        first = start.first
        if dealt >= total:  # already dead: only Resurrection can bring it back
            if start.resurrection and rnd() < 0.1:
                dealt = 0
            else:
                result = 1
        if surprise_table is not None and rnd() >= model.p_surprise:
            loss, post, heal, forfeit, def_pen = s_outs[bisect_right(s_cum, rnd())]
            for hit in (loss, post):
                if hit:
                    hp -= hit
                    lost += hit
                    if hp <= 0:
                        if lives:
                            lives -= 1
                            used = 1
                            hp = max_hp
                        else:
                            result = 2
                            break
            if heal and dealt:
                dealt = max(dead_prefix[dealt], dealt - heal)
        if spell_dist and not result:
            u, acc, x = rnd(), 0.0, spell_dist[-1][1]
            for q, value in spell_dist:
                acc += q
                if u < acc:
                    x = value
                    break
            x = x // 2 if model.m.has("tough") else x
            if x:
                dealt = min(total, dealt + x)
                dlr = 1
            if dealt >= total:
                first = None
                if not (resurrects and rnd() < 0.1):
                    result = 1
                else:
                    dealt = 0
            elif frozen_table is not None:
                first = frozen_table
        while not result:
            if first is not None:
                table, first = first, None
            else:
                index = ((dealt * 2 + dlr) * 2 + forfeit) * 2 + def_pen
                if index in tables:
                    table = tables[index]
                else:
                    table = tables[index] = situation(dealt, dlr, forfeit, def_pen)
                if table is None:  # nothing can change any more: the monster wanders off
                    result = 3
                    break
            if table.__class__ is tuple:
                cum, outs = table
                esc, hit, pre, loss, post, heal, drain, forfeit, def_pen = outs[bisect_right(cum, rnd())]
            else:
                esc, hit, pre, loss, post, heal, drain, forfeit, def_pen = table(rnd)
            if pre:
                hp -= pre
                lost += pre
                if hp <= 0:
                    if lives:
                        lives -= 1
                        used = 1
                        hp = max_hp
                    else:
                        result = 2
                        break
            before = dealt
            if hit:
                dealt += hit
                if dealt > total:
                    dealt = total
            dlr = 1 if dealt > before else 0
            if esc:
                if dealt < total:
                    result = 3
                    break
            else:
                for harm in (loss, post):
                    if harm:
                        hp -= harm
                        lost += harm
                        if drain and dealt < total:
                            dealt = max(dead_prefix[dealt], dealt - harm)
                        if hp <= 0:
                            if lives:
                                lives -= 1
                                used = 1
                                hp = max_hp
                            else:
                                result = 2
                                break
                if result:
                    break
                if heal and dealt < total:
                    dealt = max(dead_prefix[dealt], dealt - heal)
            if dealt >= total:
                if resurrects and rnd() < 0.1:
                    dealt = 0
                else:
                    result = 1
        if result == 1:
            wins += 1
        elif result == 2:
            deaths += 1
        else:
            escapes += 1
        lost_total += lost
        lives_used += used
    return wins, deaths, escapes, lost_total, lives_used


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
    model: _Model, character: Character, start: _Start, fights: int, seed: int, hero_bonus: int, monster_av: int
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
        hero_hit_chance=_chance(model.hit_target + hero_bonus) if model.slot else 0.0,
        monster_hit_chance=_chance(monster_av),
        weapon=model.weapon,
        stat=model.stat,
        fights=fights,
        seed=seed,
        start=start.label,
        assumptions=notes,
    )


def fight_odds(character: Character, monster: Monster, rules: Rules, *, fights: int = DEFAULT_FIGHTS, seed: int = 0) -> FightOdds:
    """The odds of a fight that has not started yet (SURPRISE included)."""
    model = _Model(character, monster, rules)
    start = _Start(surprise=monster.has("surprise"), label="before the fight")
    pack = 5 * (monster.members - 1) if monster.has("pack") else 0
    return _result(model, character, start, max(1, fights), seed, 0, monster.av + pack)


def combat_odds(campaign: Campaign, rules: Rules, *, fights: int = DEFAULT_FIGHTS, seed: int = 0) -> FightOdds:
    """The odds of the fight in progress, from where it stands now."""
    c, ch = campaign.combat, campaign.character
    if c is None or ch is None:
        raise ValueError("There is no fight in progress.")
    model = _Model(ch, c.monster, rules)
    start = _start_of(model, c)
    if c.waiting == "action":
        hero_bonus, av = c.attack_bonus, c.monster.av + c.av_bonus + c.pack_bonus + c.dark_av
    else:
        hero_bonus, av = 0, c.monster.av + (5 * (c.living - 1) if c.monster.has("pack") else 0)
    return _result(model, ch, start, max(1, fights), seed, hero_bonus, av)


def _start_of(model: _Model, c: CombatState) -> _Start:
    dealt = model.total - c.current_hp
    if not c.alive:
        pending = c.monster.has("resurrection") and c.step not in ("victory", "loot")
        return _Start(dealt=dealt, resurrection=pending, label=f"round {c.round}: the monster is dead")
    if c.step == "start":
        return _Start(dealt=dealt, surprise=c.surprise, label="before the first round")
    if c.waiting == "action":
        reactions = [(1.0, 1 if c.monster_escaping else 0, c.av_bonus)]
        spell = {
            "Dark Strike": "strike",
            "Shadowy Cloak": "cloak",
            "Evil Touch": "evil",
            "Drain Life": "drain",
        }.get(c.dark_spell, "")
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
