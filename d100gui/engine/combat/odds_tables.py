"""The fight-odds probability tables: one hero against one monster, built from the round's rules.

:class:`FightTables` works out once, as probability tables, everything that does not depend
on the hero's HP: the HP dealt in a round, what the monster's attack does, and the joint
outcome of a whole round per situation (see :mod:`.odds`). Every number comes from the rules
the round applies: the tests' targets from :func:`preview_test` of the printed tests, the
monster's abilities from :mod:`.abilities`; nothing here restates a rule.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable
from math import comb
from typing import Any

from d100gui.engine.combat import abilities as ab
from d100gui.engine.combat.attack import WEAPON_SLOTS, attack_parts, has_weapon, weapon_in, weapon_stats
from d100gui.engine.combat.monster import Monster
from d100gui.engine.combat.printed import FAILED_TEST_HP, FREEZE_DEF_PENALTY, TEST_SPECS
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.skill_test import preview_test
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import TestSpec

MIGHTY_DEPTH = 8  # Mighty Blow re-rolls followed: a 9th natural 6 in a row (1 in 1.7 million) stops there

# outcome of a round: (monster escapes, HP dealt, HP lost before the attacks (Death Bolt),
# HP lost to the monster's damage, HP lost after it (AVOID FIRE / FREEZE), Regenerate heal,
# Drain Life active, attack forfeit next round, -2 DEF next round)
Outcome = tuple[int, int, int, int, int, int, int, int, int]
# the monster's attack: (HP lost, HP lost after, heal, dazed next, frozen DEF next)
Attack = tuple[int, int, int, int, int]
Joint = tuple[list[float], list[Outcome]]
Sampler = Callable[[Callable[[], float]], Outcome]
# a round: a joint cumulative table, a staged sampler, or None (nothing can ever change)
RoundTable = Joint | Sampler | None
# reaction: (chance, escapes, AV bonus); Dark Magic: (chance, spell)
Reactions = list[tuple[float, int, int]]
Darks = list[tuple[float, ab.DarkSpell]]
JOINT_LIMIT = 40_000  # outcome combinations a joint round table may cross before a staged sampler is used


def chance(target: int) -> float:
    return max(0, min(100, target)) / 100.0


def cumulative(dist: Iterable[tuple[float, Any]]) -> tuple[list[float], list[Any]]:
    """A distribution as a cumulative table for :func:`bisect_right` (renormalised)."""
    items = [(q, v) for q, v in dist if q > 0]
    total = sum(q for q, _ in items)
    cum, values, acc = [], [], 0.0
    for q, v in items:
        acc += q / total
        cum.append(acc)
        values.append(v)
    cum[-1] = 1.0
    return cum, values


def reaction_chances(dlr: int, below: int) -> Reactions:
    """The reaction d10 as chances, from the round's own rule (:func:`.abilities.reaction`)."""
    dist: dict[tuple[int, int], float] = defaultdict(float)
    for roll in ab.D10:
        r = ab.reaction(roll, bool(dlr), bool(below))
        dist[(int(r.escaping), r.av_bonus)] += 1 / len(ab.D10)
    return [(p, e, b) for (e, b), p in dist.items()]


def dark_chances(monster: Monster) -> Darks:
    """The Dark Magic d10 as chances (no spell for a monster without Dark Magic)."""
    if not ab.acts_with_dark_magic(monster, False):
        return [(1.0, ab.NO_SPELL)]
    dist: dict[ab.DarkSpell, float] = defaultdict(float)
    for roll in ab.D10:
        dist[ab.dark_magic(roll)] += 1 / len(ab.D10)
    return [(p, s) for s, p in dist.items()]


class FightTables:
    """The precomputed probability tables of one hero against one monster.

    Every number comes from the rules the round applies: the tests' targets from
    :func:`preview_test` of the printed tests, the monster's abilities from :mod:`.abilities`.
    """

    def __init__(self, character: Character, monster: Monster, rules: Rules) -> None:
        self.rules = rules
        self.character = character
        self.m = monster
        self.d = derive(character, rules)
        self.max_hp = self.d.max_hp
        self.total = monster.max_hp
        self._members()

        def test_chance(kind: str) -> float:
            return chance(preview_test(character, rules, TEST_SPECS[kind]).target)

        self.p_fear = test_chance("fear") if monster.has("fear") else 1.0
        self.p_web = test_chance("web") if monster.has("web") else 1.0
        self.p_fire = test_chance("fire")
        self.p_freeze = test_chance("freeze")
        self.p_dazed = test_chance("dazed")
        self.p_surprise = test_chance("surprise")
        self.p_resurrect = ab.resurrection_chance(monster)
        # location -> (damage mod, hero DEF there)
        self.locations: list[tuple[int, int]] = []
        for loc in ab.D10:
            slot = self.rules.slot_at_location(loc)
            self.locations.append((self.rules.damage_mod(slot.id), self.d.defence.get(slot.id, 0)) if slot else (0, 0))
        self._choose_weapon()
        self._hero_cache: dict[tuple[int, int], list[tuple[float, int]]] = {}
        self._monster_cache: dict[tuple[int, int, int], list[tuple[float, Attack]]] = {}
        self._round_cache: dict[tuple[int, int, int, int, int], RoundTable] = {}
        self.joint_limit = JOINT_LIMIT
        self._after_cache: dict[tuple[bool, int], list[tuple[tuple[int, int, int], float]]] = {}

    def _members(self) -> None:
        """Living members and the HP of the dead ones, by damage dealt so far (damage goes in printed order)."""
        self.living_at: list[int] = []
        self.dead_prefix: list[int] = []
        for dealt in range(self.total + 1):
            left, dead, living = dealt, 0, 0
            for hp in self.m.hp:
                if left >= hp:
                    left -= hp
                    dead += hp
                else:
                    living += 1
                    left = 0
            self.living_at.append(living)
            self.dead_prefix.append(dead)
        self.below_at = [1 if 2 * (self.total - x) < self.total else 0 for x in range(self.total + 1)]

    def _choose_weapon(self) -> None:
        """The hero's weapon: the best (slot, stat) by expected HP dealt per round."""
        self.weapon, self.stat, self.slot, self.hit_target, self.legendary = "", "", "", 0, False
        best = -1.0
        if not has_weapon(self.character):
            return
        for slot in WEAPON_SLOTS:
            item = weapon_in(self.character, slot)
            if item is None:
                continue
            for stat in weapon_stats(item):
                target = self.attack_target(stat)
                dist = self._hero_damage(slot, item.legendary, self.m.defence)
                value = chance(target) * sum(p * x for p, x in dist)
                if value > best:
                    best = value
                    self.weapon, self.stat, self.slot, self.hit_target = item.name, stat, slot, target
                    self.legendary = item.legendary

    # ------------------------------------------------------------------ the hero's attack
    def attack_target(self, stat: str, bonus: int = 0) -> int:
        """The attack test's target, as the round builds it (the test, the monster's abilities, Ice Storm)."""
        base = preview_test(self.character, self.rules, TestSpec(name="ATTACK", characteristic=stat)).target
        return base + sum(p.value for p in attack_parts(self.m, stat, bonus))

    def _die(self) -> list[tuple[float, int]]:
        if not self.d.abilities.get("mighty_blow"):
            return [(1 / 6, v) for v in ab.D6]
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
        if ab.passes_through(self.m, legendary, spell=False):
            return [(1.0, 0)]
        dmg = self.d.weapon_dmg.get(slot, self.d.dmg_bonus)
        out: dict[int, float] = defaultdict(float)
        for pd, die in self._die():
            for pl, mod in self._location_mods():
                _total, raw = ab.hero_damage(die, mod, dmg, 0, defence)
                out[ab.hp_taken(self.m, raw)] += pd * pl
        return sorted((p, x) for x, p in out.items())

    def hero_round(self, cloak: int, bonus: int) -> list[tuple[float, int]]:
        """HP dealt in a round of attacking (a miss deals 0)."""
        key = (cloak, bonus)
        if key not in self._hero_cache:
            if not self.slot:
                self._hero_cache[key] = [(1.0, 0)]
            else:
                p = chance(self.attack_target(self.stat, bonus))
                dist: dict[int, float] = defaultdict(float)
                dist[0] += 1 - p
                for q, x in self._hero_damage(self.slot, self.legendary, self.m.defence + cloak):
                    dist[x] += p * q
                self._hero_cache[key] = [(q, x) for x, q in dist.items() if q > 0]
        return self._hero_cache[key]

    # ------------------------------------------------------------------ the monster's attack
    def _dice_sums(self, hits: int) -> dict[tuple[int, int, int], float]:
        """(counted natural total, natural 1s, any counted die) over ``hits`` damage dice."""
        faces = ab.damage_faces(self.m)
        per_face = [(ab.counted_dice(self.m, [f]), 1 / len(faces)) for f in faces]
        dice: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
        for _ in range(hits):
            step: dict[tuple[int, int, int], float] = defaultdict(float)
            for (s, ones, counted), q in dice.items():
                for (kept, one, _heal), pf in per_face:
                    step[(s + sum(kept), ones + one, counted or int(bool(kept)))] += q * pf
            dice = step
        return dice

    def monster_round(self, av: int, dmg_extra: int, def_pen: int) -> list[tuple[float, Attack]]:
        """(loss, loss after, heal, dazed next, frozen DEF next) of the monster's attack."""
        key = (av, dmg_extra, def_pen)
        if key in self._monster_cache:
            return self._monster_cache[key]
        m, p, n = self.m, chance(av), self.m.attacks
        out: dict[Attack, float] = defaultdict(float)
        for hits in range(n + 1):
            p_hits = comb(n, hits) * p**hits * (1 - p) ** (n - hits)
            if p_hits == 0:
                continue
            if hits == 0:
                out[(0, 0, 0, 0, 0)] += p_hits
                continue
            for (natural, ones, counted), q in self._dice_sums(hits).items():
                heal = ab.counted_dice(m, [1] * ones)[2]
                for mod, armour in self.locations:
                    damage = 0
                    if counted:
                        damage = ab.monster_damage(m, natural, mod, dmg_extra, self.d.defence_bonus, armour, 0, def_pen).damage
                    for (post, dazed, frozen), pb in self._after_damage(damage, ones):
                        out[(damage, post, heal, dazed, frozen)] += p_hits * q * 0.1 * pb
        result = [(q, k) for k, q in out.items() if q > 0]
        self._monster_cache[key] = result
        return result

    def _after_damage(self, damage: int, ones: int) -> list[tuple[tuple[int, int, int], float]]:
        """(HP lost after the damage, dazed next, frozen next) from AVOID FIRE / FREEZE and DAZED."""
        key = (damage > 0, ones)
        if key not in self._after_cache:
            branches: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
            for kind in ab.tests_after_damage(self.m, ones):
                if kind == "fire":
                    branches = _split(branches, self.p_fire, lambda b: (b[0] + FAILED_TEST_HP["fire"], b[1], b[2]))
                else:
                    branches = _split(branches, self.p_freeze, lambda b: (b[0] + FAILED_TEST_HP["freeze"], b[1], 1))
            if ab.dazes(self.m, damage):
                branches = _split(branches, self.p_dazed, lambda b: (b[0], 1, b[2]))
            self._after_cache[key] = list(branches.items())
        return self._after_cache[key]

    # ------------------------------------------------------------------ whole rounds
    def _branches(
        self,
        reactions: Reactions,
        darks: Darks,
        forfeit: bool,
        fear: bool,
        bonus: int,
        attacks: bool,
        def_pen: int,
        pack_bonus: int,
    ) -> list[tuple[float, int, ab.DarkSpell, list[tuple[float, int]], list[tuple[float, Attack]] | None]]:
        """The round before AVOID WEB: (chance, escapes, Dark Magic spell, HP dealt, the monster's attack or None)."""
        fear_split = [(self.p_fear, False), (1 - self.p_fear, True)] if fear else [(1.0, False)]
        out = []
        for (pr, escapes, av_bonus), (pd, spell), (pf, scared) in itertools.product(reactions, darks, fear_split):
            q = pr * pd * pf
            if q <= 0:
                continue
            hero = [(1.0, 0)] if (forfeit or scared) else self.hero_round(spell.defence, bonus)
            monster = None
            if attacks and not escapes:
                monster = self.monster_round(self.m.av + av_bonus + pack_bonus + spell.av, spell.dmg, def_pen)
            out.append((q, escapes, spell, hero, monster))
        return out

    def round_table(
        self,
        reactions: Reactions,
        darks: Darks,
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
        branches = self._branches(reactions, darks, forfeit, fear, bonus, attacks, def_pen, pack_bonus)
        web_split = [(self.p_web, 0), (1 - self.p_web, 1)] if web else [(1.0, 0)]
        size = len(reactions) * len(darks) * (2 if fear else 1) * len(web_split)
        size *= len(self.hero_round(0, bonus)) * (len(self.monster_round(self.m.av, 0, def_pen)) if attacks else 1)
        if size > self.joint_limit:
            return self._staged(branches, web)
        joint: dict[Outcome, float] = defaultdict(float)
        for q, escapes, spell, hero, monster in branches:
            pre, drain = spell.hero_loses, int(spell.drain)
            for ph, dealt in hero:
                if escapes:
                    joint[(1, dealt, pre, 0, 0, 0, 0, 0, 0)] += q * ph
                    continue
                for pm, (loss, post, heal, dazed, frozen) in monster or [(1.0, (0, 0, 0, 0, 0))]:
                    for pw, caught in web_split:
                        joint[(0, dealt, pre, loss, post, heal, drain, dazed or caught, frozen)] += q * ph * pm * pw
        return _joint_table(joint, self_loop)

    def _staged(self, branches: list[Any], web: bool) -> Sampler:
        """The round drawn stage by stage: reaction / Dark Magic / FEAR, the hero's hit, the
        monster's attack, AVOID WEB. Same distribution as the joint table, more draws."""
        stages = [
            (q, (escapes, spell.hero_loses, int(spell.drain), cumulative(hero), cumulative(monster) if monster else None))
            for q, escapes, spell, hero, monster in branches
        ]
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

    def situation(self, dealt: int, dlr: int, forfeit: int, def_pen: int) -> RoundTable:
        """The round table for a situation at the start of a round (built once, then cached)."""
        living = self.living_at[dealt]
        below = self.below_at[dealt]
        key = (living, below, dlr, forfeit, def_pen)
        if key not in self._round_cache:
            self._round_cache[key] = self.round_table(
                reaction_chances(dlr, below),
                dark_chances(self.m),
                bool(forfeit),
                self.m.has("fear"),
                0,
                True,
                FREEZE_DEF_PENALTY if def_pen else 0,
                ab.pack_bonus(self.m, living),
                self.m.has("web"),
                (dlr, forfeit, def_pen),
            )
        return self._round_cache[key]


def _joint_table(joint: dict[Outcome, float], self_loop: tuple[int, int, int] | None) -> RoundTable:
    """The joint outcomes as a cumulative table, without the rounds that change nothing."""
    items = []
    for key, q in joint.items():
        if q <= 0:
            continue
        if self_loop is not None:
            esc, dealt, pre, loss, post, heal, _drain, nf, nz = key
            if not (esc or dealt or pre or loss or post or heal) and (0, nf, nz) == self_loop:
                continue  # nothing changes: drop the round
        items.append((q, key))
    if sum(q for q, _ in items) <= 1e-15:
        return None
    return cumulative(items)


def _split(
    branches: dict[tuple[int, int, int], float], p_pass: float, fail: Callable[[tuple[int, int, int]], tuple[int, int, int]]
) -> dict[tuple[int, int, int], float]:
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for b, q in branches.items():
        out[b] += q * p_pass
        out[fail(b)] += q * (1 - p_pass)
    return out
