"""Combat as commands: the rulebook's combat round, step by step, with every Monster Ability.

The fight lives in ``Campaign.combat`` (:class:`~.monster.CombatState`), so a save made at
any moment restores exactly. A fight is a small state machine (``CombatState.step``) that
runs until it needs the player, who is then *waiting* on one of:

* ``roll`` — a roll was just made (reaction, Dark Magic, damage, hit location, the
  monster's attack, a Belt Check, ...). While the hero has Fate (and ``fate_windows`` is
  on) the fight stops so :class:`CombatFate` can re-roll any of its dice; otherwise it
  carries on at once. :class:`CombatContinue` accepts the roll.
* ``test`` — a combat test (SURPRISE, FEAR, the attack roll, ESCAPE COMBAT, BLOCK ESCAPE,
  CAST SPELL, AVOID WEB / FIRE / FREEZE, DAZED) rolled as a
  :class:`~.character.PendingTest`: the skill-test machinery's Fate window
  (:class:`~.skill_test.UseFate` or :class:`CombatFate`) and experience on a natural roll of
  10 or less (an :class:`~.character.ExperienceChoice`). :class:`CombatContinue` settles it.
* ``action`` — step 2: :class:`CombatAttack`, :class:`CombatChangeWeapon`,
  :class:`CombatCastSpell`, :class:`CombatUseBelt`, :class:`CombatEscape`,
  :class:`CombatBlockEscape` or :class:`CombatPass`. :func:`available_actions` says which
  are allowed and why not.
* ``aim`` / ``aim_pick`` — Perfect Aim: keep the hit location or re-roll it, then pick
  (:class:`CombatPerfectAim`).
* ``offset`` — up to 2 points of damage onto the item at the location hit and up to the
  shield's S rating onto the shield (:class:`CombatOffset`).
* ``loot`` — a ``[K:...]`` offering a choice of tables (:class:`CombatChooseLoot`).

The round, as the rulebook orders it: spells cast last round land (Fire Blast, Fire Ball,
Ice Storm); the monster's reaction (d10); Dark Magic (d10); the FEAR test; the hero's action
(step 2); the hero's damage (step 3: d6 + d10 location, Perfect Aim, Mighty Blow); the
monster's attack (step 4, even if it was killed in step 3: both attacks are simultaneous);
its damage (step 5: Large, Regenerate, Disease, Poison, Defence Bonus, DEF, Death Touch,
offsets, Drain Life, Belt Check on a waist hit, AVOID FIRE / FREEZE, DAZED); AVOID WEB at
the end of the round. A killed monster may resurrect (d10 = 1) before it is looted; a
defeated one goes on the combat track (milestones from the sheet layout) and its loot is
rolled. HP at 0 or less spends RES, then a Life; with neither the hero dies and joins the
hall of the fallen.

Rules judgment calls (the rulebook is silent or ambiguous; each with its reason):

* **Pack damage** goes to the individuals in printed order; what a hit leaves over after
  killing one carries on to the next ("the number of HP that is dealt to the monster or
  monsters"). Healing (Regenerate, Drain Life) restores the hurt living individual only:
  the dead stay dead. "Less than half its HP" compares the pack's HP together with its
  printed total. The Pack AV bonus is counted at the start of the round ("at the start of
  each combat round"), so individuals killed this round still count for this round's attack.
* **Several individuals without the Pack ability** (a "3/2/3/3" row with no Special) take
  damage the same way but get no AV bonus: the bonus is the Pack ability's.
* **A killed monster still attacks in the same round** (simultaneous attacks), but its
  Regenerate and Drain Life cannot bring it back to life; a monster killed by a spell at
  the start of a round dies before it acts. An escaping monster does not attack.
* **Escape reactions** (10; 9 if damaged last round; 8 if below half HP) end the round for
  the monster: the hero may still attack; if it survives it is removed (no track box, no
  loot) and recorded in ``Campaign.escaped_monsters`` as ``escaped_by="monster"``. When
  the hero escapes it is recorded as ``escaped_by="hero"`` (the map marks it: full HP).
* **BLOCK ESCAPE success** goes, as printed, to step 3: the hero's damage roll with the
  weapon named in the command, then the monster attacks as normal.
* **Forfeiting the attack** (FEAR, AVOID WEB, DAZED) forbids attacking and blocking only;
  "No Escape" and "cannot use belt slots" are listed separately where they apply, so a
  feared hero may still escape, cast, change weapon or drink. Web and Dazed act on the
  next round; FEAR on the round it is rolled in.
* **No weapon** means no weapon in either weapon slot: the hero may only escape (or pass
  when escape is barred), or change weapon if the backpack holds one.
* **(H,R) weapons** need STR or DEX named in the command; a weapon without a type counts as
  a hand weapon (STR). Mighty Blow applies to any weapon's damage die.
* **Perfect Aim** is offered after the damage and location roll (and its Fate window).
* **Attacks N**: each attack rolls against the same AV; the hits' damage dice are added for
  one combined total, with the location mod, DMG, Defence Bonus and DEF applied once.
  The Defence Bonus applies when the natural total of the counted dice is at most DB.
  Every natural 1 among the dice triggers Disease / Poison / Fire / Freeze / Regenerate.
* **Large** re-rolls a 1 or 2 until it shows 3 or more (a re-rolled 1 or 2 is again "a
  damage dice result of 1 and 2").
* **Regenerate**: a die showing 1 deals nothing and restores 1 HP; the other dice still deal
  damage (with the location mod and DMG); if every die shows 1 there is no damage at all.
* **Death Touch / AVOID FREEZE** lower the location's DEF, never below 0 ("ignores some of
  the character's DEF"). A Brew of Dodge adds its DEF to the location hit.
* **DAZED** is tested when HP are actually lost (after offsets), once per damaging attack.
* **Offsets**: up to 2 points onto the item at the location hit (1 pip each), and up to the
  shield's S rating onto an equipped shield (half a pip each, the odd half carried in
  ``Campaign.shield_half_pip``); both may apply when the shield itself is hit. A full
  track destroys the item. A Belt Check follows every waist hit, whatever the damage.
* **Tough** halves damage rounding down (each HP needs 2 damage), spells included.
  **Ethereal** takes damage only from legendary weapons and spells (book or scroll).
* **Spells**: the cost is paid first (HP, or primary STR for "-2 STR"), then CAST SPELL
  (INT + Magic + the spell bonus given in the command); a failure rolls Table C, whose
  printed curses are applied (DIVINE WRATH kills a hero with fewer than 2 Lives). A scroll
  casts its spell the same way but without needing Spell Caster or the INT level; it is
  used up either way. Fire Blast deals 2 (no DEF), Fire Ball and Ice Storm d10 - DEF at
  the start of the next round; Ice Storm's frozen monster neither reacts nor attacks that
  round and the hero gains +10 to hit.
* **Brews** last until used within this fight: +STR/DEX/INT for the next test or attack of
  that characteristic, +DMG for the next damage roll, +DEF before the monster's next damage.
* **Resurrection** is rolled every time the monster is killed, before the loot.
* **Lives**: HP 0 or less spends RES first, then a Life (HP back to maximum); with neither
  the hero dies: ``dead`` is set and the sheet moves to ``Campaign.hall_of_fallen``.
* **Combat track**: a box is filled when a monster is defeated (the rulebook's main text),
  with the milestone printed at that box (sheet layout); ``Character.combat_track`` keeps
  every defeated monster, box = (n - 1) % length + 1, so a full sheet starts a new one.
* **Loot**: each ``[K:...]`` table is rolled with its modifier (a "/" lets the player
  choose); a Table P part goes in the backpack as "<monster> <PART>" with its value; other
  tables' results are reported for the item features to take.
* **Fate** re-rolls any dice of the roll or test the fight is waiting on; the fight only
  stops for it while the hero has Fate (and ``fate_windows`` is on). Table rolls (loot,
  curses) are not held for Fate.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, Literal

from d100gui.engine.combat.monster import (
    AttackChoice,
    Boost,
    CastInfo,
    CombatState,
    CombatStep,
    CombatTestKind,
    CombatTestRef,
    EscapedMonster,
    HeldRoll,
    HeroHit,
    Monster,
    MonsterHit,
    QueuedSpell,
    giant_snake,
    monster_from_row,
)
from d100gui.engine.dice.dice import DiceError, RollRecord
from d100gui.engine.dice.tables import TableError
from d100gui.engine.dungeon import map as dg
from d100gui.engine.game import Campaign, Command, Event, GameContext
from d100gui.engine.hero.character import (
    STATS,
    Character,
    CombatTrackEntry,
    Item,
    PendingTest,
    TestPart,
    add_pending,
    clamp_hp,
    derive,
    destroy_belt_check,
    enforce,
    equip,
    items_at,
    refuse,
)
from d100gui.engine.hero.skill_test import apply_effect, apply_outcome, living_character, preview_test, settle_test
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Outcome, TestSpec, parse_effects, parse_test

# --------------------------------------------------------------------------- the printed tests


def _spec(text: str) -> TestSpec:
    spec = parse_test(text)
    assert spec is not None and spec.characteristic in STATS, text
    return spec


#: The combat tests exactly as printed (SURPRISE gains the colon the other tests have).
TEST_TEXTS: dict[str, str] = {
    "surprise": "SURPRISE – Test: Int -10 [S: No Effect] [F: Monster has free attack, then start combat normally] (Aware)",
    "fear": "FEAR – Test: Int -15 [S: Attack as Normal] [F: Forfeit next attack] (Bravery)",
    "fire": "AVOID FIRE – Test: Dex -5 [S: No Effect] [F:-2HP] (Dodge)",
    "freeze": "AVOID FREEZE – Test: Dex [S: No Effect] [F: -1HP, -2 DEF Next Combat Round] (Dodge)",
    "dazed": "DAZED – Test: STR-15 [S: No Effect] [F: Forfeit next attack, No Escape, cannot use belt slots] (Dodge)",
    "web": "AVOID WEB – Test: Dex +20 [S: Attack as Normal] [F: Forfeit next attack, No Escape] (Dodge)",
    "escape": "ESCAPE COMBAT – Test: Dex -10 [S:Remove Monster] [F:-2 HP] (Escape)",
    "block": "BLOCK ESCAPE – Test: STR-10 [S:Start Combat at Step 3] [F:Remove Monster] (Escape)",
    "cast": "CAST SPELL – Test: INT (+/- Spell Bonus) [S:Cast] [F: Roll on TABLE C - CURSES] (Magic)",
}
TEST_SPECS: dict[str, TestSpec] = {k: _spec(v) for k, v in TEST_TEXTS.items()}


def _bare(spec: TestSpec) -> TestSpec:
    """The spec without outcomes: the combat applies them itself (settle_test only does experience)."""
    return spec.model_copy(update={"success": Outcome(), "failure": Outcome()})


SPELL_IDS: dict[str, str] = {
    "FIREBLAST": "fire_blast",
    "FIREBALL": "fire_ball",
    "ICESTORM": "ice_storm",
    "HEAL": "heal",
    "HEALING": "healing",
    "RESURRECTION": "resurrection",
    "OPENMAGIC": "open_magic",
}
_SPELL_NAMES = {v: k for k, v in SPELL_IDS.items()}
_PRINTED_SPELLS = {
    "fire_blast": ("FIRE BLAST", "Deal 2 HP of damage to a Monster at the start of the next combat round.", "-1 HP"),
    "fire_ball": (
        "FIRE BALL",
        "Deal 1d10 damage to a Monster at the start of the next combat round, deduct the Monsters DEF from the result.",
        "-2 HP",
    ),
    "ice_storm": (
        "ICE STORM",
        "Deal 1d10 damage to a Monster at the start of the next combat round, deduct the Monsters DEF from the result. "
        "If the monster is still alive it is frozen for the next combat round and you gain +10 to your attack for that round.",
        "",
    ),
    "heal": ("HEAL", "Restores 10 lost HP.", "-1 STR"),
    "healing": ("HEALING", "Restores a characters HP to maximum.", "-2 STR"),
    "resurrection": ("RESURRECTION", 'Add "RES" to the characters LIVES section of the character sheet.', "-5 STR"),
    "open_magic": ("OPEN MAGIC", "Opens magic sealed doors.", "-1 HP"),
}


def spell_id(name: str) -> str:
    """``"Fire Ball"`` -> ``"fire_ball"``; ``""`` for a spell the engine does not know by name."""
    return SPELL_IDS.get(re.sub(r"[^A-Z]", "", (name or "").upper()), "")


WAIT_TEXT = {
    "": "nothing",
    "roll": "the roll to be accepted (or re-rolled with Fate)",
    "test": "the test to be accepted (or re-rolled with Fate)",
    "action": "your action: attack, change weapon, cast a spell, use a belt item, escape, block or pass",
    "aim": "Perfect Aim: keep the hit location or re-roll it",
    "aim_pick": "Perfect Aim: pick the first or the second hit location",
    "offset": "how much damage to offset onto your items",
    "loot": "which table to roll the loot on",
}

WEAPON_SLOTS = ("main_weapon", "off_weapon")


def _d10(value: int) -> int:
    return 10 if value == 0 else value


def _die_value(record: RollRecord, index: int) -> int:
    d = record.dice[index]
    return _d10(d.face) if d.sides == 10 else d.face


def weapon_in(character: Character, slot: str) -> Item | None:
    """The weapon the hero can attack with from ``slot`` (a shield is not one)."""
    for item in items_at(character, slot):
        if item.kind == "weapon":
            if slot == "off_weapon" and character.equipment.get("off_weapon") is None:
                return None  # a two-handed main weapon covers the slot: it attacks from the main slot
            return item
    return None


def has_weapon(character: Character) -> bool:
    return any(weapon_in(character, s) is not None for s in WEAPON_SLOTS)


def weapon_stats(item: Item) -> list[str]:
    """(H) uses STR, (R) DEX, (H,R) either; an item without a type counts as a hand weapon."""
    if item.weapon_type == "R":
        return ["DEX"]
    if item.weapon_type == "H,R":
        return ["STR", "DEX"]
    return ["STR"]


# --------------------------------------------------------------------------- the flow


class _Flow:
    """One command's view of the fight: runs steps, rolls, tests, and collects events."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.campaign: Campaign = ctx.campaign
        self.rules: Rules = ctx.rules
        self.ch: Character = living_character(ctx.campaign)
        combat = ctx.campaign.combat
        if combat is None:
            refuse("There is no fight in progress.")
        self.c: CombatState = combat
        self.events: list[Event] = []
        self.over = False

    # ------------------------------------------------------------------ basics
    def ev(self, kind: str, message: str, topic: str = "combat", **data: object) -> None:
        self.events.append(Event(kind=kind, message=message, topic=topic, data=data))

    @property
    def m(self) -> Monster:
        return self.c.monster

    def window(self) -> bool:
        """Stop for a Fate window? Only while the hero has Fate to spend."""
        return self.c.fate_windows and self.ch.fate >= self.rules.fate_cost

    def need(self, *waiting: str) -> None:
        if self.c.waiting not in waiting:
            refuse(f"Not now: the fight is waiting for {WAIT_TEXT[self.c.waiting]}.")

    def finish(self) -> list[Event]:
        """Run on, then check the sheet (a refused rule undoes the whole command)."""
        self.run()
        ch = self.campaign.character
        if ch is not None and not ch.dead:
            enforce(ch, self.rules)
        return self.events

    def run(self) -> None:
        guard = 0
        while not self.over and self.campaign.combat is self.c and not self.c.waiting:
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, never a rule
                raise RuntimeError(f"combat stuck at step {self.c.step}")
            if not self._steps[self.c.step](self):
                break

    def hold(self, expression: str, purpose: str, step: CombatStep) -> bool:
        """Roll and hold the roll for its Fate window; ``step`` resolves it. True: carry on."""
        record = self.ctx.dice.roll(expression, purpose)
        self.c.held = HeldRoll(step=step, record=record)
        self.c.step = step
        self.ev("combat_roll", record.describe(), roll=record.model_dump(mode="json"))
        if self.window():
            self.c.waiting = "roll"
            self.ev("decision", f"{purpose}: accept the roll or spend Fate to re-roll dice.", topic="decision")
            return False
        return True

    def take_held(self) -> RollRecord:
        held = self.c.held
        assert held is not None
        self.c.held = None
        return held.record

    # ------------------------------------------------------------------ tests
    def test(self, kind: CombatTestKind, spec: TestSpec, next_step: CombatStep, extra: list[TestPart] | None = None) -> bool:
        """Roll a combat test as a PendingTest; settle it at once unless a Fate window is open."""
        preview = preview_test(self.ch, self.rules, spec)
        parts = list(preview.parts) + list(extra or [])
        for boost in [b for b in self.c.boosts if b.stat == spec.characteristic]:
            parts.append(TestPart(label=boost.source or f"brew {boost.stat}", value=boost.amount))
            self.c.boosts.remove(boost)
        target = sum(p.value for p in parts)
        purpose = f"Test {spec.label()}"
        roll = self.ctx.dice.d100(purpose)
        pending = add_pending(
            self.campaign,
            PendingTest(
                spec=_bare(spec), parts=parts, target=target, roll=roll, prompt=f"{purpose}: accept the roll or use Fate."
            ),
        )
        assert isinstance(pending, PendingTest)
        self.c.test = CombatTestRef(decision=pending.id, kind=kind, next_step=next_step)
        formula = f"{parts[0].value}" + "".join(f" {p.value:+d}" for p in parts[1:]) + f" = {target}"
        self.ev(
            "combat_test",
            f"{purpose}: {formula}; rolled {roll.natural} - {'success' if pending.success else 'failure'}.",
            decision=pending.id,
            test=kind,
            target=target,
            roll=roll.model_dump(mode="json"),
            success=pending.success,
        )
        if self.window():
            self.c.waiting = "test"
            self.ev("decision", pending.prompt, topic="decision", decision=pending.id)
            return False
        return self.settle()

    def settle(self) -> bool:
        ref = self.c.test
        assert ref is not None
        test = next((d for d in self.campaign.pending if d.id == ref.decision and isinstance(d, PendingTest)), None)
        if test is None:
            refuse(
                f"The fight's {ref.kind.upper()} test is no longer waiting (it was settled outside the fight): "
                "undo that action to carry on."
            )
        success = test.success
        self.events += settle_test(self.ctx, ref.decision)
        self.c.test = None
        self.c.waiting = ""
        self.c.step = ref.next_step
        self._on_test[ref.kind](self, success)
        return not self.over

    def _t_surprise(self, ok: bool) -> None:
        if ok:
            self.ev("combat_surprise", "Not surprised: the fight starts normally.")
            return
        self.ev("combat_surprise", f"Surprised! {self.m.name} has a free attack, then the fight starts normally.")
        self.c.free_attack = True
        self.c.pack_bonus = self.pack_bonus()
        self.c.monster_hit = MonsterHit(attacks=self.m.attacks, target=self.monster_av())
        self.c.step = "monster_attack"

    def _t_fear(self, ok: bool) -> None:
        if not ok:
            self.c.forfeit_attack = "you failed the FEAR test"
            self.ev("combat_fear", "Fear grips you: you forfeit your attack this round.")

    def _t_attack(self, ok: bool) -> None:
        if ok:
            self.ev("combat_hit", f"You hit {self.m.name}.")
            self.c.step = "hero_damage"
        else:
            self.ev("combat_miss", "You miss.")

    def _t_escape(self, ok: bool) -> None:
        if ok:
            area = _mark_escaped_on_map(self.campaign, self.m.name)
            self.campaign.escaped_monsters.append(
                EscapedMonster(monster=self.m, escaped_by="hero", round=self.c.round, area=area)
            )
            self.end("hero_escaped", f"You escape from {self.m.name}. Mark it on the map: next time it is back at full HP.")
        else:
            self.ev("combat_escape", "You fail to escape.")
            self.hero_loses(2, "ESCAPE COMBAT failed")

    def _t_block(self, ok: bool) -> None:
        if ok:
            self.c.monster_escaping = False
            self.ev("combat_block", f"You block {self.m.name}'s escape: on to step 3, your damage roll.")
            self.c.step = "hero_damage"
        else:
            self.monster_escapes("It slips past your block.")

    def _t_cast(self, ok: bool) -> None:
        info = self.c.casting
        assert info is not None
        if ok:
            self.spell_takes_effect(info)
        else:
            self.ev("combat_cast", f"{info.name} fails: roll on Table C - Curses.")
            self.curse()

    def _t_web(self, ok: bool) -> None:
        if not ok:
            self.c.next_forfeit_attack = self.c.next_forfeit_attack or "you are caught in the web"
            self.c.next_no_escape = self.c.next_no_escape or "you are caught in the web"
            self.ev("combat_web", "Caught in the web: next round you forfeit your attack and cannot escape.")

    def _t_fire(self, ok: bool) -> None:
        if not ok:
            self.hero_loses(2, "AVOID FIRE failed")

    def _t_freeze(self, ok: bool) -> None:
        if not ok:
            self.c.next_def_penalty = 2
            self.ev("combat_freeze", "Frozen: -2 DEF next combat round.")
            self.hero_loses(1, "AVOID FREEZE failed")

    def _t_dazed(self, ok: bool) -> None:
        if not ok:
            self.c.next_forfeit_attack = "you are dazed"
            self.c.next_no_escape = "you are dazed"
            self.c.next_no_belt = "you are dazed"
            self.ev("combat_dazed", "Dazed: next round you forfeit your attack, cannot escape and cannot use your belt.")

    _on_test: ClassVar[dict[str, Callable[[_Flow, bool], None]]] = {
        "surprise": _t_surprise,
        "fear": _t_fear,
        "attack": _t_attack,
        "escape": _t_escape,
        "block": _t_block,
        "cast": _t_cast,
        "web": _t_web,
        "fire": _t_fire,
        "freeze": _t_freeze,
        "dazed": _t_dazed,
    }

    # ------------------------------------------------------------------ numbers
    def pack_bonus(self) -> int:
        return 5 * max(0, self.c.living - 1) if self.m.has("pack") else 0

    def monster_av(self) -> int:
        return self.m.av + self.c.av_bonus + self.c.pack_bonus + self.c.dark_av

    def attack_parts(self, choice: AttackChoice) -> list[TestPart]:
        parts = []
        if choice.stat == "STR" and self.m.has("fly"):
            parts.append(TestPart(label="Fly", value=-10))
        if self.m.has("phase"):
            parts.append(TestPart(label="Phase", value=-10))
        if self.c.attack_bonus:
            parts.append(TestPart(label="Ice Storm: monster frozen", value=self.c.attack_bonus))
        return parts

    def boost(self, stat: str) -> int:
        total = sum(b.amount for b in self.c.boosts if b.stat == stat)
        self.c.boosts = [b for b in self.c.boosts if b.stat != stat]
        return total

    # ------------------------------------------------------------------ HP
    def hero_loses(self, amount: int, source: str) -> bool:
        """The hero loses ``amount`` HP (Drain Life feeds the monster). False if the hero died."""
        if amount <= 0:
            return True
        before = self.ch.hp
        self.ch.hp -= amount
        self.c.hero_hp_lost += amount
        self.ev("combat_hero_hp", f"{source}: you lose {amount} HP ({before} -> {self.ch.hp}).", topic="character", delta=-amount)
        if self.c.drain_life and self.c.alive:
            self.heal_monster(amount, "Drain Life")
        if self.ch.hp <= 0:
            return self.cheat_death()
        return True

    def cheat_death(self) -> bool:
        maximum = derive(self.ch, self.rules).max_hp
        if self.ch.res:
            self.ch.res = False
            self.ch.hp = maximum
            self.ev("combat_res", f"RES: you are resurrected instead of using a Life (HP {maximum}).", topic="character")
            return True
        if self.ch.lives > 0:
            self.ch.lives -= 1
            self.ch.hp = maximum
            self.ev(
                "combat_life",
                f"You cheat death: a Life is spent ({self.ch.lives} left), HP back to {maximum}.",
                topic="character",
            )
            return True
        self.die("HP 0 and no Lives left")
        return False

    def die(self, reason: str) -> None:
        ch = self.ch
        ch.dead = True
        name = ch.name or "The hero"
        self.campaign.hall_of_fallen.append(ch)
        self.campaign.character = None
        self.campaign.pending = []
        self.campaign.combat = None
        self.over = True
        self.ev(
            "hero_died",
            f"{name} has died ({reason}) fighting {self.m.name} and joins the hall of the fallen.",
            topic="campaign",
            outcome="died",
        )

    def damage_monster(self, raw: int, source: str, *, spell: bool = False) -> int:
        """Deal ``raw`` damage: Ethereal, Tough, then over the pack in printed order. Returns HP taken."""
        m, c = self.m, self.c
        if raw <= 0:
            self.ev("combat_monster_hp", f"{source}: no damage gets through.")
            return 0
        if m.has("ethereal") and not spell:
            weapon = weapon_in(self.ch, c.attack.slot) if c.attack else None
            if weapon is None or not weapon.legendary:
                self.ev("combat_monster_hp", f"{source}: {raw} damage passes straight through the ethereal {m.name}.")
                return 0
        hp_damage = raw // 2 if m.has("tough") else raw
        before = m.hp_label(c.hp)
        remaining, dealt = hp_damage, 0
        for i, value in enumerate(c.hp):
            if remaining <= 0:
                break
            if value <= 0:
                continue
            take = min(value, remaining)
            c.hp[i] = value - take
            remaining -= take
            dealt += take
        if dealt:
            c.damaged_this_round = True
        tough = f" (Tough: {raw} damage takes {hp_damage} HP)" if m.has("tough") else ""
        self.ev(
            "combat_monster_hp",
            f"{source}: {raw} damage{tough} - {m.name} HP {before} -> {m.hp_label(c.hp)}"
            + ("; it is dead." if not c.alive else "."),
            dealt=dealt,
        )
        return dealt

    def heal_monster(self, amount: int, source: str) -> None:
        """Restore lost HP to the living individual that has been hurt (the dead stay dead)."""
        c = self.c
        for i, value in enumerate(c.hp):
            if value > 0:
                healed = min(amount, self.m.hp[i] - value)
                if healed > 0:
                    c.hp[i] = value + healed
                    self.ev("combat_monster_heal", f"{source}: {self.m.name} regains {healed} HP ({self.m.hp_label(c.hp)}).")
                return

    # ------------------------------------------------------------------ endings
    def end(self, outcome: str, message: str) -> None:
        self.ev("combat_over", message, outcome=outcome, rounds=self.c.round, hp_lost=self.c.hero_hp_lost)
        if self.c.test is not None:
            self.campaign.pending = [d for d in self.campaign.pending if d.id != self.c.test.decision]
        self.campaign.combat = None
        self.over = True

    def monster_escapes(self, why: str) -> None:
        self.campaign.escaped_monsters.append(EscapedMonster(monster=self.m, escaped_by="monster", round=self.c.round))
        self.end(
            "monster_escaped",
            " ".join(
                filter(
                    None, [why, f"{self.m.name} escapes: it is removed from play and off the combat track (no loot, no reward)."]
                )
            ),
        )

    # ------------------------------------------------------------------ steps
    def s_start(self) -> bool:
        self.c.step = "round_start"
        if self.c.surprise:
            return self.test("surprise", TEST_SPECS["surprise"], "round_start")
        return True

    def s_round_start(self) -> bool:
        c = self.c
        c.round += 1
        c.damaged_last_round, c.damaged_this_round = c.damaged_this_round, False
        c.forfeit_attack, c.next_forfeit_attack = c.next_forfeit_attack, ""
        c.no_escape, c.next_no_escape = c.next_no_escape, ""
        c.no_belt, c.next_no_belt = c.next_no_belt, ""
        c.def_penalty, c.next_def_penalty = c.next_def_penalty, 0
        c.reaction, c.reaction_text, c.monster_escaping, c.av_bonus = None, "", False, 0
        c.dark_spell, c.dark_av, c.dark_def, c.dark_dmg, c.drain_life = "", 0, 0, 0, False
        c.frozen, c.attack_bonus = False, 0
        c.action, c.attack, c.casting, c.hero_hit, c.monster_hit = "", None, None, None, None
        c.after_tests = []
        c.pack_bonus = self.pack_bonus()
        pack = f" Pack: AV +{c.pack_bonus} for {c.living - 1} more alive." if c.pack_bonus else ""
        self.ev("combat_round", f"Round {c.round} against {self.m.name} (HP {self.m.hp_label(c.hp)}).{pack}", round=c.round)
        c.step = "spell" if c.queued_spell else "reaction"
        return True

    def s_spell(self) -> bool:
        queued = self.c.queued_spell
        assert queued is not None
        if queued.spell == "fire_blast":
            self.c.queued_spell = None
            self.damage_monster(2, "Fire Blast", spell=True)
            self.c.step = "after_spell"
            return True
        return self.hold("d10", f"{queued.name}: damage", "spell_resolve")

    def s_spell_resolve(self) -> bool:
        record = self.take_held()
        queued = self.c.queued_spell
        assert queued is not None
        self.c.queued_spell = None
        roll = _die_value(record, 0)
        self.ev("combat_spell", f"{queued.name}: {roll} - DEF {self.m.defence} = {max(0, roll - self.m.defence)}.")
        self.damage_monster(max(0, roll - self.m.defence), queued.name, spell=True)
        if queued.spell == "ice_storm" and self.c.alive:
            self.c.frozen = True
            self.c.attack_bonus += 10
            self.ev("combat_frozen", f"{self.m.name} is frozen this round: it cannot act, and you gain +10 to your attack.")
        self.c.step = "after_spell"
        return True

    def s_after_spell(self) -> bool:
        if not self.c.alive:
            self.ev("combat_spell", f"The spell kills {self.m.name} at the start of the round, before it can act.")
            self.c.step = "monster_dead"
        else:
            self.c.step = "reaction"
        return True

    def s_reaction(self) -> bool:
        if self.c.frozen:
            self.c.reaction_text = "Frozen: no reaction"
            self.c.step = "dark_magic"
            return True
        return self.hold("d10", "Monster reaction", "reaction_resolve")

    def s_reaction_resolve(self) -> bool:
        c = self.c
        r = _die_value(self.take_held(), 0)
        below = c.below_half
        c.reaction = r
        printed = self._row_text("d100.reaction", r, "reaction")
        if r == 10 or (r == 9 and c.damaged_last_round) or (r == 8 and below):
            c.monster_escaping = True
            text = "it tries to escape"
        elif r == 2 and below:
            c.av_bonus, text = 5, "it gains AV+5 this round"
        elif r == 1 and below:
            c.av_bonus, text = 10, "it gains AV+10 this round"
        elif r == 9:
            text = "it was not damaged last round, so it attacks as normal"
        elif r in (8, 2, 1):
            text = "it is not below half its HP, so it attacks as normal"
        else:
            text = "it attacks as normal"
        c.reaction_text = text[0].upper() + text[1:]
        head = f"Reaction {r}" + (f" ({printed})" if printed else "")
        self.ev("combat_reaction", f"{head}: {text}.", reaction=r, escaping=c.monster_escaping, av_bonus=c.av_bonus)
        if c.monster_escaping:
            self.ev(
                "combat_escaping",
                "It tries to escape: let it go (you may still attack; if it survives it is gone) or block it (BLOCK ESCAPE, instead of attacking).",
                topic="decision",
            )
        c.step = "dark_magic"
        return True

    def _row_text(self, table_id: str, value: int, key: str) -> str:
        try:
            row = self.ctx.tables.library.get(table_id).find(value)
        except TableError:
            return ""
        return row.fields.get(key, "") if row is not None else ""

    def s_dark_magic(self) -> bool:
        if not self.m.has("dark_magic") or self.c.frozen:
            self.c.step = "fear"
            return True
        return self.hold("d10", "Dark Magic", "dark_magic_resolve")

    def s_dark_magic_resolve(self) -> bool:
        c = self.c
        r = _die_value(self.take_held(), 0)
        c.step = "fear"
        if r <= 2:
            c.dark_spell, c.dark_av = "Dark Strike", 20
            text = "+20 AV this round"
        elif r <= 4:
            c.dark_spell, c.dark_def = "Shadowy Cloak", 4
            text = "+4 DEF this round"
        elif r <= 6:
            c.dark_spell, c.dark_dmg = "Evil Touch", 2
            text = "+2 DMG this round"
        elif r <= 8:
            c.dark_spell, c.drain_life = "Drain Life", True
            text = "every HP you lose this round is added to the monster"
        else:
            c.dark_spell = "Death Bolt"
            text = "you lose 2 HP"
        self.ev("combat_dark_magic", f"Dark Magic {r}: {c.dark_spell} - {text}.", spell=c.dark_spell)
        if c.dark_spell == "Death Bolt":
            return self.hero_loses(2, "Death Bolt")
        return True

    def s_fear(self) -> bool:
        self.c.step = "action"
        if self.m.has("fear"):
            return self.test("fear", TEST_SPECS["fear"], "action")
        return True

    def s_action(self) -> bool:
        self.c.waiting = "action"
        allowed = [name for name, why in available_actions(self.campaign, self.rules).items() if not why]
        self.ev(
            "decision", f"Round {self.c.round}: choose your action ({', '.join(allowed)}).", topic="decision", actions=allowed
        )
        return False

    # step 3: the hero's damage
    def s_hero_damage(self) -> bool:
        return self.hold("d6+d10", "Damage and hit location", "hero_damage_resolve")

    def s_hero_damage_resolve(self) -> bool:
        record = self.take_held()
        location = _die_value(record, 1)
        self.c.hero_hit = HeroHit(dice=[record.dice[0].face], location=location)
        self.c.step = "mighty"
        if derive(self.ch, self.rules).abilities.get("perfect_aim"):
            self.c.hero_hit.first_location = location
            self.c.waiting = "aim"
            self.ev(
                "decision",
                f"Perfect Aim: hit location {location} ({self._location_name(location)}). Keep it or re-roll once and pick.",
                topic="decision",
            )
            return False
        return True

    def _location_name(self, location: int) -> str:
        slot = self.rules.slot_at_location(location)
        if slot is None:
            return "?"
        mod = self.rules.damage_mod(slot.id)
        return f"{slot.name} {mod:+d}" if mod else slot.name

    def s_aim_resolve(self) -> bool:
        hit = self.c.hero_hit
        assert hit is not None
        hit.second_location = _die_value(self.take_held(), 0)
        self.c.step = "mighty"
        self.c.waiting = "aim_pick"
        self.ev(
            "decision",
            f"Perfect Aim: first {hit.first_location} ({self._location_name(hit.first_location or 0)}), "
            f"second {hit.second_location} ({self._location_name(hit.second_location)}): pick one.",
            topic="decision",
        )
        return False

    def s_mighty(self) -> bool:
        hit = self.c.hero_hit
        assert hit is not None
        if hit.dice[-1] == 6 and derive(self.ch, self.rules).abilities.get("mighty_blow"):
            return self.hold("d6", "Mighty Blow: a natural 6, roll again and add", "mighty_resolve")
        self.c.step = "hero_hit"
        return True

    def s_mighty_resolve(self) -> bool:
        hit = self.c.hero_hit
        assert hit is not None
        hit.dice.append(self.take_held().dice[0].face)
        self.c.step = "mighty"
        return True

    def s_hero_hit(self) -> bool:
        c, hit = self.c, self.c.hero_hit
        assert hit is not None and c.attack is not None
        d = derive(self.ch, self.rules)
        slot = self.rules.slot_at_location(hit.location)
        mod = self.rules.damage_mod(slot.id) if slot else 0
        weapon_dmg = d.weapon_dmg.get(c.attack.slot, d.dmg_bonus)
        brew = self.boost("DMG")
        defence = self.m.defence + c.dark_def
        total = sum(hit.dice) + mod + weapon_dmg + brew
        raw = max(0, total - defence)
        dice = " + ".join(str(x) for x in hit.dice)
        bits = [f"d6 {dice}"]
        if mod:
            bits.append(f"{slot.name if slot else 'location'} {mod:+d}")
        if weapon_dmg:
            bits.append(f"DMG {weapon_dmg:+d}")
        if brew:
            bits.append(f"brew {brew:+d}")
        self.ev(
            "combat_damage",
            f"Your damage: {', '.join(bits)} = {total}; monster DEF {defence} -> {raw}.",
            location=hit.location,
            total=total,
            damage=raw,
        )
        self.damage_monster(raw, f"Your hit ({self._location_name(hit.location)})")
        c.step = "monster_turn"
        return True

    # steps 4 and 5: the monster's attack
    def s_monster_turn(self) -> bool:
        c = self.c
        if c.monster_escaping:
            if c.alive:
                self.monster_escapes("")
                return False
            self.ev("combat_escape", f"{self.m.name} is cut down as it tries to flee.")
            c.step = "round_end"
            return True
        if c.frozen:
            self.ev("combat_frozen", f"{self.m.name} is frozen and cannot attack this round.")
            c.step = "after_monster"
            return True
        if not c.alive:
            self.ev("combat_simultaneous", f"{self.m.name} is dead, but both attacks are simultaneous: it still attacks.")
        c.monster_hit = MonsterHit(attacks=self.m.attacks, target=self.monster_av())
        c.step = "monster_attack"
        return True

    def s_monster_attack(self) -> bool:
        mh = self.c.monster_hit
        assert mh is not None
        done = len(mh.rolls)
        if done < mh.attacks:
            label = f"{self.m.name} attacks" + (f" ({done + 1} of {mh.attacks})" if mh.attacks > 1 else "") + f", AV {mh.target}"
            return self.hold("d100", label, "monster_attack_resolve")
        mh.hits = sum(1 for r in mh.rolls if r <= mh.target)
        self.c.step = "monster_damage" if mh.hits else "after_monster"
        return True

    def s_monster_attack_resolve(self) -> bool:
        mh = self.c.monster_hit
        assert mh is not None
        natural = self.take_held().natural
        mh.rolls.append(natural)
        hit = natural <= mh.target
        self.ev(
            "combat_monster_attack", f"{self.m.name} rolls {natural} against AV {mh.target}: {'hit' if hit else 'miss'}.", hit=hit
        )
        self.c.step = "monster_attack"
        return True

    def s_monster_damage(self) -> bool:
        mh = self.c.monster_hit
        assert mh is not None
        dice = "d6" if mh.hits == 1 else f"{mh.hits}d6"
        return self.hold(f"{dice}+d10", f"{self.m.name}: damage and hit location", "monster_damage_resolve")

    def s_monster_damage_resolve(self) -> bool:
        mh = self.c.monster_hit
        assert mh is not None
        record = self.take_held()
        faces = [d.face for d in record.dice if d.sides == 6]
        mh.location = _die_value(record, len(record.dice) - 1)
        if self.m.has("large"):
            for i in range(len(faces)):
                tries = 0
                while faces[i] <= 2 and tries < 1000:
                    tries += 1
                    again = self.ctx.dice.roll("d6", f"Large: re-roll the damage die showing {faces[i]}")
                    self.ev("combat_roll", again.describe(), roll=again.model_dump(mode="json"))
                    faces[i] = again.natural
        mh.dice = faces
        slot = self.rules.slot_at_location(mh.location)
        mh.slot = slot.id if slot else ""
        self.c.step = "monster_damage_apply"
        return True

    def s_monster_damage_apply(self) -> bool:
        c, m, ch, rules = self.c, self.m, self.ch, self.rules
        mh = c.monster_hit
        assert mh is not None
        d = derive(ch, rules)
        mh.ones = sum(1 for f in mh.dice if f == 1)
        counted = [f for f in mh.dice if f != 1] if m.has("regenerate") else list(mh.dice)
        mh.heal = mh.ones if m.has("regenerate") else 0
        where = self._location_name(mh.location)
        if counted:
            natural = sum(counted)
            mod = rules.damage_mod(mh.slot) if mh.slot else 0
            dmg = m.dmg + c.dark_dmg
            mh.total = natural + mod + dmg
            db = d.defence_bonus
            mh.defence_bonus = db if db > 0 and natural <= db else 0
            dodge = self.boost("DEF")
            armour = d.defence.get(mh.slot, 0)
            touch = 2 if m.has("death_touch") else 0
            mh.defence = max(0, armour + dodge - touch - c.def_penalty)
            mh.damage = max(0, mh.total - mh.defence_bonus - mh.defence)
            steps = f"die {' + '.join(map(str, counted))}" + (f" {mod:+d} ({where})" if mod else f" ({where})") + f" {dmg:+d} DMG"
            steps += f" = {mh.total}"
            if mh.defence_bonus:
                steps += f"; Defence Bonus -{mh.defence_bonus} (natural {natural} ≤ DB {db}) = {mh.total - mh.defence_bonus}"
            defence_bits = [f"DEF {armour}"]
            if dodge:
                defence_bits.append(f"brew +{dodge}")
            if touch:
                defence_bits.append("Death Touch -2")
            if c.def_penalty:
                defence_bits.append(f"frozen -{c.def_penalty}")
            steps += f"; {' '.join(defence_bits)} -> {mh.damage} damage"
            self.ev("combat_monster_damage", f"{m.name} hits your {where}: {steps}.", damage=mh.damage, location=mh.location)
        else:
            mh.total = mh.damage = 0
            self.ev("combat_monster_damage", f"{m.name}'s damage dice all show 1: Regenerate - no damage.")
        if mh.ones:
            for ability, track, name in (("disease", "disease_track", "disease"), ("poison", "poison_track", "poison")):
                if m.has(ability):
                    length = int(getattr(rules.sheet, track))
                    before = getattr(ch, name)
                    setattr(ch, name, min(length, before + mh.ones))
                    self.ev(
                        f"combat_{name}",
                        f"{ability.title()}: a natural 1 on the damage die - {name} track {before} -> {getattr(ch, name)}.",
                        topic="character",
                    )
            c.after_tests += ["fire"] * mh.ones if m.has("fire") else []
            c.after_tests += ["freeze"] * mh.ones if m.has("freeze") else []
        c.step = "monster_damage_hp"
        if mh.damage > 0:
            items = items_at(ch, mh.slot) if mh.slot else []
            if items:
                mh.item_name = items[0].name
                mh.item_max = min(rules.repair.max_item_offset, mh.damage)
            shield = ch.equipment.get("off_weapon")
            if shield is not None and shield.kind == "shield" and shield.shield > 0:
                mh.shield_name = shield.name
                mh.shield_max = min(shield.shield, mh.damage)
            if mh.item_max or mh.shield_max:
                c.waiting = "offset"
                options = []
                if mh.item_max:
                    options.append(f"up to {mh.item_max} onto {mh.item_name} (1 repair pip each)")
                if mh.shield_max:
                    options.append(f"up to {mh.shield_max} onto {mh.shield_name} (half a pip each)")
                self.ev(
                    "decision",
                    f"{mh.damage} damage: you may offset {' and '.join(options)}.",
                    topic="decision",
                    damage=mh.damage,
                    item_max=mh.item_max,
                    shield_max=mh.shield_max,
                )
                return False
        return True

    def s_monster_damage_hp(self) -> bool:
        c, mh = self.c, self.c.monster_hit
        assert mh is not None
        lost = mh.damage - mh.offset_item - mh.offset_shield
        if lost > 0 and not self.hero_loses(lost, f"{self.m.name}'s attack"):
            return False
        if mh.heal and c.alive:
            self.heal_monster(mh.heal, "Regenerate")
        if lost > 0 and self.m.has("stunned"):
            c.after_tests.append("dazed")
        slot = self.rules.slot(mh.slot) if mh.slot else None
        c.step = "belt_check" if slot is not None and slot.belt_check else "after_tests"
        return True

    def s_belt_check(self) -> bool:
        return self.hold("d10", "Belt Check (waist hit)", "belt_check_resolve")

    def s_belt_check_resolve(self) -> bool:
        roll = _die_value(self.take_held(), 0)
        where, item = destroy_belt_check(self.ch, self.rules, roll)
        if item is None:
            self.ev("combat_belt_check", f"Belt Check: rolled {roll}, {where} is empty - nothing lost.", topic="character")
        else:
            self.ev("combat_belt_check", f"Belt Check: rolled {roll}, {item.name} in {where} is destroyed.", topic="character")
        self.c.step = "after_tests"
        return True

    def s_after_tests(self) -> bool:
        if self.c.after_tests:
            kind = self.c.after_tests.pop(0)
            return self.test(kind, TEST_SPECS[kind], "after_tests")
        self.c.step = "after_monster"
        return True

    def s_after_monster(self) -> bool:
        c = self.c
        if c.free_attack:
            c.free_attack = False
            c.monster_hit = None
            c.step = "round_start"
        else:
            c.step = "round_end"
        return True

    def s_round_end(self) -> bool:
        if not self.c.alive:
            self.c.step = "monster_dead"
            return True
        self.c.step = "round_start"
        if self.m.has("web"):
            return self.test("web", TEST_SPECS["web"], "round_start")
        return True

    def s_monster_dead(self) -> bool:
        if self.m.has("resurrection"):
            return self.hold("d10", f"Resurrection: does {self.m.name} rise again (1)?", "resurrection_resolve")
        self.c.step = "victory"
        return True

    def s_resurrection_resolve(self) -> bool:
        roll = _die_value(self.take_held(), 0)
        if roll == 1:
            self.c.hp = list(self.m.hp)
            self.c.resurrections += 1
            self.ev("combat_resurrection", f"Resurrection ({roll}): {self.m.name} rises again at full HP - fight on!")
            self.c.step = "round_start"
        else:
            self.ev("combat_resurrection", f"Resurrection ({roll}): {self.m.name} stays dead.")
            self.c.step = "victory"
        return True

    def s_victory(self) -> bool:
        m, ch = self.m, self.ch
        self.ev("combat_won", f"{m.name} is defeated!", outcome="won")
        self.record_on_track()
        if self.over:  # pragma: no cover - a milestone cannot kill
            return False
        options = m.loot.options if m.loot is not None else []
        if len(options) > 1:
            self.c.step = "loot"
            self.c.waiting = "loot"
            self.ev(
                "decision",
                f"{m.loot.describe() if m.loot else 'Loot'}: choose the table.",
                topic="decision",
                options=[o.text for o in options],
            )
            return False
        if options:
            self.roll_loot(options[0].table, options[0].modifier, options[0].text)
        self.end("won", f"The fight with {m.name} is over: you won. HP {ch.hp}.")
        return False

    def s_loot(self) -> bool:  # pragma: no cover - only reached through CombatChooseLoot
        self.c.waiting = "loot"
        return False

    _steps: ClassVar[dict[str, Callable[[_Flow], bool]]] = {}

    # ------------------------------------------------------------------ after the fight
    def record_on_track(self) -> None:
        m, ch = self.m, self.ch
        ch.combat_track.append(CombatTrackEntry(monster=m.name, av=m.av, defence=m.defence, dmg=m.dmg, hp=m.hp_label()))
        layout = self.rules.sheet.combat_track
        n = len(ch.combat_track)
        position = (n - 1) % layout.length + 1
        sheet = (n - 1) // layout.length + 1
        self.ev(
            "combat_track",
            f"Combat track: {m.name} in box {position} of sheet {sheet}.",
            topic="character",
            position=position,
            sheet=sheet,
        )
        milestone = next((ms for ms in layout.milestones if ms.position == position), None)
        if milestone is not None:
            source = f"Combat track box {position}: {milestone.reward}"
            self.ev("combat_milestone", f"{source}!", topic="character", reward=milestone.reward)
            self.events += apply_outcome(self.ctx, parse_effects(milestone.effect), source)
        if position == layout.length:
            self.ev("combat_track", "The combat track sheet is full: the next defeated monster starts a new sheet.")

    def roll_loot(self, table: str, modifier: int, text: str) -> None:
        m = self.m
        if not table:
            self.ev("combat_loot", f"Loot: {text}", topic="log")
            return
        try:
            result = self.ctx.tables.roll(table, f"Loot: {m.name}", modifier, "loot modifier")
        except (TableError, DiceError) as exc:
            self.ev("combat_loot", f"Loot: {exc}", topic="log")
            return
        data = result.model_dump(mode="json")
        if result.row is None:
            self.ev("combat_loot_missing", result.describe(), topic="decision", table_roll=data)
            return
        message = result.describe()
        if table == "d100.P":
            f = result.row.fields
            part = f.get("part", "").strip() or "PART"
            value = int(re.sub(r"[^\d]", "", f.get("value", "")) or 0)
            item = Item(name=f"{m.name} {part}", kind="item", value=value, source=f"{table} {result.row.range_label()}")
            self.ch.backpack.append(item)
            message += f" - {item.name} ({value} gp) goes in the backpack."
        self.ev("combat_loot", message, topic="character", table_roll=data)

    # ------------------------------------------------------------------ spells and curses
    def pay_cost(self, name: str, cost: str) -> bool:
        if not cost.strip():
            return True
        outcome = parse_effects(cost)
        for effect in outcome.options[0].effects if outcome.options else []:
            if effect.kind == "hp" and effect.amount is not None and effect.amount < 0:
                if not self.hero_loses(-effect.amount, f"{name} costs {cost}"):
                    return False
            elif effect.kind == "characteristic" and effect.amount is not None and effect.stat in STATS:
                score = self.ch.characteristics[effect.stat]
                score.primary = max(0, score.primary + effect.amount)
                clamp_hp(self.ch, self.rules)
                self.ev("combat_cast_cost", f"{name} costs {cost}: {effect.stat} primary now {score.primary}.", topic="character")
            else:
                self.events += apply_effect(self.ctx, effect, f"{name} cost")
        return True

    def cast(self, info: CastInfo, cost: str, bonus: int) -> None:
        self.c.casting = info
        self.c.action = "cast"
        self.c.waiting = ""
        self.ev("combat_cast", f"You cast {info.name}" + (f" (cost {cost})" if cost else "") + ".")
        if not self.pay_cost(info.name, cost):
            return
        extra = [TestPart(label="spell bonus", value=bonus)] if bonus else []
        self.c.step = "monster_turn"
        self.test("cast", TEST_SPECS["cast"], "monster_turn", extra)

    def spell_takes_effect(self, info: CastInfo) -> None:
        ch = self.ch
        if info.spell in ("fire_blast", "fire_ball", "ice_storm"):
            self.c.queued_spell = QueuedSpell(spell=info.spell, name=info.name)  # type: ignore[arg-type]
            self.ev("combat_cast", f"{info.name} is cast: it strikes at the start of the next round.")
        elif info.spell == "heal":
            self.events += apply_effect(self.ctx, parse_effects("+10 HP").options[0].effects[0], info.name)
        elif info.spell == "healing":
            before = ch.hp
            ch.hp = max(ch.hp, derive(ch, self.rules).max_hp)
            self.ev("combat_cast", f"{info.name}: HP {before} -> {ch.hp}.", topic="character")
        elif info.spell == "resurrection":
            ch.res = True
            self.ev("combat_cast", f"{info.name}: RES is written in your Lives box.", topic="character")
        elif info.spell == "open_magic":
            self.ev("combat_cast", f"{info.name} is cast, but there is no magic seal to open in a fight.")
        else:
            self.ev("combat_cast", f"{info.name} is cast.")
            self.events += apply_outcome(self.ctx, parse_effects(info.effect), info.name)

    def curse(self) -> None:
        ch, rules = self.ch, self.rules
        try:
            result = self.ctx.tables.roll("d100.C", "Table C - Curses (failed CAST SPELL)")
        except (TableError, DiceError) as exc:
            self.ev("combat_curse", f"Table C: {exc}", topic="log")
            return
        if result.row is None:
            self.ev("combat_curse_missing", result.describe(), topic="decision", table_roll=result.model_dump(mode="json"))
            return
        name = result.row.fields.get("name", "").upper()
        effect = result.row.fields.get("effect", "")
        self.ev("combat_curse", result.describe(), topic="character", table_roll=result.model_dump(mode="json"))
        if "DIVINE WRATH" in name:
            if ch.lives >= 2:
                ch.hp, ch.fate, ch.lives = 1, 0, ch.lives - 2
                self.ev("combat_curse", f"Divine Wrath: HP 1, Fate 0, Lives {ch.lives}.", topic="character")
            else:
                self.die("DIVINE WRATH with fewer than 2 Lives to lose")
        elif "ARCANE" in name:
            m = re.search(r"(\d+)\s*pips?", effect)
            self.shade_all_items(int(m.group(1)) if m else 1, name.title())
        elif "UNSKILLED" in name:
            roll = self.ctx.dice.roll("d10", "Unskilled: which skill").natural
            skill = rules.skills[(roll - 1) % len(rules.skills)]
            score = ch.skills[skill]
            if score.bonus >= 10:
                score.bonus -= 10
                self.ev("combat_curse", f"Unskilled ({roll}): {skill} -10, now +{score.bonus}.", topic="character")
            else:
                self.ev("combat_curse", f"Unskilled ({roll}): {skill} has no +10 to lose - suffer 7 HP instead.")
                self.hero_loses(7, "Unskilled")
        else:
            self.events += apply_outcome(self.ctx, parse_effects(effect), name.title() or "Curse")
            if ch.hp <= 0 and not ch.dead:
                self.cheat_death()

    def shade_all_items(self, pips: int, source: str) -> None:
        ch = self.ch
        length_of = lambda item: item.repair_track or self.rules.sheet.repair_track
        for slot, item in list(ch.equipment.items()):
            if item is not None and item.kind in ("armour", "weapon", "shield"):
                item.repair_pips = min(length_of(item), item.repair_pips + pips)
                if item.repair_pips >= length_of(item):
                    ch.equipment[slot] = None
                    self.ev("combat_item_destroyed", f"{source}: {item.name} is destroyed.", topic="character")
        kept = []
        for item in ch.backpack:
            if item.kind in ("armour", "weapon", "shield"):
                item.repair_pips = min(length_of(item), item.repair_pips + pips)
                if item.repair_pips >= length_of(item):
                    self.ev("combat_item_destroyed", f"{source}: {item.name} (backpack) is destroyed.", topic="character")
                    continue
            kept.append(item)
        ch.backpack = kept
        clamp_hp(ch, self.rules)
        self.ev("combat_curse", f"{source}: {pips} repair pips on every equipped and backpacked item.", topic="character")

    # ------------------------------------------------------------------ offsets
    def shade_item(self, item: Item, pips: int, source: str) -> None:
        length = item.repair_track or self.rules.sheet.repair_track
        item.repair_pips = min(length, item.repair_pips + pips)
        if item.repair_pips >= length:
            for slot, held in self.ch.equipment.items():
                if held is item:
                    self.ch.equipment[slot] = None
            clamp_hp(self.ch, self.rules)
            self.ev(
                "combat_item_destroyed", f"{source}: {item.name}'s repair track is full - it is destroyed.", topic="character"
            )


_Flow._steps = {name[2:]: getattr(_Flow, name) for name in dir(_Flow) if name.startswith("s_")}


# --------------------------------------------------------------------------- what the hero may do


def available_actions(campaign: Campaign, rules: Rules) -> dict[str, str]:
    """Each step-2 action and why it is not allowed now ("" = allowed)."""
    c, ch = campaign.combat, campaign.character
    names = ("attack_main", "attack_off", "change_weapon", "cast_spell", "use_belt", "escape", "block_escape", "pass")
    if c is None or ch is None:
        return dict.fromkeys(names, "There is no fight in progress.")
    if c.waiting != "action":
        return dict.fromkeys(names, f"The fight is waiting for {WAIT_TEXT[c.waiting]}.")
    armed = has_weapon(ch)
    unarmed = "You have no weapon: an adventurer without one must flee (there is no unarmed combat)."
    out: dict[str, str] = {}
    for name, slot in (("attack_main", "main_weapon"), ("attack_off", "off_weapon")):
        if not armed:
            out[name] = unarmed
        elif c.forfeit_attack:
            out[name] = f"You forfeit your attack this round: {c.forfeit_attack}."
        elif weapon_in(ch, slot) is None:
            out[name] = f"There is no weapon in your {slot.replace('_', ' ')} slot."
        else:
            out[name] = ""
    backpack_weapon = any(i.kind in ("weapon", "shield") for i in ch.backpack)
    swappable = any(ch.equipment.get(s) is not None for s in WEAPON_SLOTS)
    out["change_weapon"] = "" if (backpack_weapon or swappable) else "You have no weapon to change to."
    d = derive(ch, rules)
    if not armed:
        out["cast_spell"] = unarmed
    elif not any(d.usable_spells):
        out["cast_spell"] = (
            "Spell Caster is locked (INT below 50): only scrolls work."
            if not d.abilities.get("spell_caster", True)
            else "No spell in your book is within your INT."
        )
    else:
        out["cast_spell"] = ""
    if not armed:
        out["use_belt"] = unarmed
    elif c.no_belt:
        out["use_belt"] = f"You cannot use your belt this round: {c.no_belt}."
    elif not any(i is not None for i in ch.belt):
        out["use_belt"] = "Your belt is empty."
    else:
        out["use_belt"] = ""
    out["escape"] = f"You cannot escape this round: {c.no_escape}." if c.no_escape else ""
    if not c.monster_escaping:
        out["block_escape"] = "The monster is not trying to escape."
    elif not armed:
        out["block_escape"] = unarmed
    elif c.forfeit_attack:
        out["block_escape"] = f"Blocking costs your attack, and you have none this round: {c.forfeit_attack}."
    else:
        out["block_escape"] = ""
    if not armed and not c.no_escape:
        out["pass"] = unarmed
    else:
        out["pass"] = ""
    return out


def _allowed(flow: _Flow, action: str) -> None:
    flow.need("action")
    why = available_actions(flow.campaign, flow.rules)[action]
    if why:
        refuse(why)


def _attack_choice(ch: Character, slot: str, stat: str) -> AttackChoice:
    weapon = weapon_in(ch, slot)
    if weapon is None:  # pragma: no cover - available_actions refuses first
        refuse(f"There is no weapon in your {slot.replace('_', ' ')} slot.")
    allowed = weapon_stats(weapon)
    chosen = stat.upper()[:3]
    if not chosen:
        if len(allowed) > 1:
            refuse(f"{weapon.name} is (H,R): choose STR (hand) or DEX (ranged) for the attack.")
        chosen = allowed[0]
    if chosen not in allowed:
        kind = {"STR": "a hand weapon (STR)", "DEX": "a ranged weapon (DEX)"}[allowed[0]]
        refuse(f"{weapon.name} is {kind}: it cannot attack with {chosen}.")
    return AttackChoice(slot=slot, stat=chosen, weapon=weapon.name)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- commands


def _mark_escaped_on_map(campaign: Campaign, name: str) -> str:
    """Mark the monster on the hero's map area ("If you escape a monster, mark the monster in
    that section"); returns the area key, or "" when no dungeon is in play."""
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is None or dungeon.hero is None or dungeon.area_at(dungeon.hero) is None:
        return ""
    campaign.dungeons = dg.replace_current(campaign.dungeons, dg.mark_escaped(dungeon, dungeon.hero, name))
    return dg.pos_key(dungeon.hero)


class FaceEscapedMonster(Command):
    """Back in an area where the hero escaped a monster: it is there again, at full HP."""

    kind: Literal["face_escaped_monster"] = "face_escaped_monster"
    pos: str

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        record = next((e for e in reversed(campaign.escaped_monsters) if e.escaped_by == "hero" and e.area == self.pos), None)
        if record is None:
            refuse(f"No monster you escaped from waits in area {self.pos}.")
        dungeon = campaign.dungeons.current_dungeon
        if dungeon is not None and dungeon.area_at(dg.parse_key(self.pos)) is not None:
            campaign.dungeons = dg.replace_current(campaign.dungeons, dg.mark_escaped(dungeon, dg.parse_key(self.pos), ""))
        campaign.escaped_monsters.remove(record)
        events = StartCombat(source="monster", monster=record.monster).apply(ctx)
        note = Event(kind="combat_note", message=f"{record.monster.name} is here again, back at full HP.", topic="combat")
        return [note, *events]


class StartCombat(Command):
    """Start a fight: ``source`` ``table_e`` (roll Table E with the quest's encounter modifier,
    or use ``table_value`` already rolled), ``snake`` (Table G's GIANT SNAKE) or ``monster``
    (typed in). ``surprise`` forces a SURPRISE test (Table F: "it has SURPRISE").
    ``fate_windows``: stop after each roll while the hero has Fate."""

    kind: Literal["start_combat"] = "start_combat"
    source: Literal["table_e", "snake", "monster"] = "table_e"
    monster: Monster | None = None
    table_value: int | None = None
    modifier: int | None = None
    surprise: bool = False
    fate_windows: bool = True

    def apply(self, ctx: GameContext) -> list[Event]:
        campaign = ctx.campaign
        ch = living_character(campaign)
        if campaign.combat is not None:
            refuse(f"A fight with {campaign.combat.monster.name} is already under way.")
        if any(isinstance(d, PendingTest) for d in campaign.pending):
            refuse("A rolled test is waiting: accept it or use Fate first.")
        events: list[Event] = []
        if self.source == "monster":
            if self.monster is None:
                refuse("Type the monster in first (name, AV, DEF, DMG, HP, loot, abilities).")
            monster = self.monster
        elif self.source == "snake":
            try:
                monster = giant_snake(ctx.tables.library)
            except (TableError, ValueError) as exc:
                refuse(str(exc))
        else:
            monster = self._from_table_e(ctx, ch, events)
        state = CombatState(
            monster=monster,
            hp=list(monster.hp),
            fate_windows=self.fate_windows,
            surprise=self.surprise or monster.has("surprise"),
        )
        campaign.combat = state
        flow = _Flow(ctx)
        flow.events = events
        flow.ev("combat_started", f"A fight! {monster.describe()}", monster=monster.model_dump(mode="json"))
        for note in monster.notes:
            flow.ev("combat_note", f"{monster.name}: {note}")
        if not has_weapon(ch):
            flow.ev("combat_note", "You have no weapon: you must flee (ESCAPE COMBAT each round until you get away).")
        return flow.finish()

    def _from_table_e(self, ctx: GameContext, ch: Character, events: list[Event]) -> Monster:
        try:
            table = ctx.tables.library.get("d100.E")
        except TableError as exc:
            refuse(str(exc))
        modifier = ch.quest_encounter_modifier if self.modifier is None else self.modifier
        if self.table_value is not None:
            lo, hi = table.die_range()
            value = max(lo, min(hi, self.table_value))
            row = table.find(value)
            if row is None:
                gap = table.gap_containing(value)
                refuse(
                    f"Table E {value} is in rows {gap[0] if gap else value}-{gap[1] if gap else value}, which your tables do not have: "
                    "type the row in (or the monster), then start the fight."
                )
        else:
            result = ctx.tables.roll("d100.E", "Table E - Encounter", modifier, "encounter modifier")
            events.append(
                Event(
                    kind="combat_roll",
                    message=result.describe(),
                    topic="combat",
                    data={"table_roll": result.model_dump(mode="json")},
                )
            )
            if result.row is None:
                lo, hi = result.missing or (result.value, result.value)
                refuse(
                    f"Table E rolled {result.value}: rows {lo}-{hi} are not in your tables. Type the row in from your "
                    "rulebook (or type the monster in) and start the fight again - the same roll will be used."
                )
            row = result.row
        try:
            return monster_from_row(row, table.id)
        except ValueError as exc:
            refuse(str(exc))


class CombatContinue(Command):
    """Accept the roll or test the fight is waiting on and carry on."""

    kind: Literal["combat_continue"] = "combat_continue"

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        c = flow.c
        if c.waiting == "test":
            flow.settle()
        elif c.waiting == "roll":
            c.waiting = ""
        elif c.waiting:
            refuse(f"The fight is waiting for {WAIT_TEXT[c.waiting]}.")
        return flow.finish()


class CombatFate(Command):
    """Spend Fate to re-roll dice of the roll or test the fight is waiting on (0-based indexes;
    a d100 is tens 0 and units 1; a damage roll is the d6(s) then the d10)."""

    kind: Literal["combat_fate"] = "combat_fate"
    dice: list[int]

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        c, ch = flow.c, flow.ch
        flow.need("roll", "test")
        if ch.fate < flow.rules.fate_cost:
            refuse("No Fate left to spend.")
        if c.waiting == "roll":
            assert c.held is not None
            record = c.held.record
        else:
            assert c.test is not None
            test = next((d for d in ctx.campaign.pending if d.id == c.test.decision and isinstance(d, PendingTest)), None)
            if test is None:
                refuse("The fight's test is no longer waiting.")
            record = test.roll
        try:
            again = ctx.dice.reroll(record, self.dice)
        except DiceError as exc:
            refuse(str(exc))
        ch.fate -= flow.rules.fate_cost
        if c.waiting == "roll":
            assert c.held is not None
            c.held.record = again
        else:
            test.roll = again
        flow.ev(
            "fate_used",
            f"Fate spent ({ch.fate} left): {record.natural} re-rolled to {again.natural}.",
            roll=again.model_dump(mode="json"),
        )
        return flow.finish()


class CombatAttack(Command):
    """Step 2: attack with the weapon in ``slot``; ``stat`` STR/DEX for an (H,R) weapon."""

    kind: Literal["combat_attack"] = "combat_attack"
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"
    stat: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "attack_main" if self.slot == "main_weapon" else "attack_off")
        choice = _attack_choice(flow.ch, self.slot, self.stat)
        c = flow.c
        c.attack, c.action, c.waiting = choice, "attack", ""
        flow.ev("combat_action", f"You attack with {choice.weapon} ({choice.stat}).")
        c.step = "monster_turn"
        flow.test("attack", TestSpec(name="ATTACK", characteristic=choice.stat), "monster_turn", flow.attack_parts(choice))
        return flow.finish()


class CombatChangeWeapon(Command):
    """Instead of attacking, change weapons: ``swap`` main and off weapons, or equip backpack
    item ``backpack_index`` in ``slot`` (what was there goes in the backpack), or neither to
    put the weapon in ``slot`` away."""

    kind: Literal["combat_change_weapon"] = "combat_change_weapon"
    swap: bool = False
    backpack_index: int | None = None
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "change_weapon")
        ch, rules = flow.ch, flow.rules
        main, off = ch.equipment.get("main_weapon"), ch.equipment.get("off_weapon")
        if self.swap:
            if main is not None and main.two_handed:
                refuse(f"{main.name} is two-handed: it uses both weapon slots and cannot be swapped.")
            if main is not None and main.kind == "shield":  # pragma: no cover - the sheet never allows it
                refuse("A shield goes only in the off weapon slot.")
            if off is not None and off.kind == "shield":
                refuse(f"{off.name} is a shield: it stays in the off weapon slot.")
            ch.equipment["main_weapon"], ch.equipment["off_weapon"] = off, main
            message = "You swap your main and off weapons."
        elif self.backpack_index is not None:
            if not 0 <= self.backpack_index < len(ch.backpack):
                refuse(f"There is no item {self.backpack_index + 1} in the backpack.")
            item = ch.backpack[self.backpack_index]
            if item.kind not in ("weapon", "shield"):
                refuse(f"{item.name} is not a weapon or shield.")
            ch.backpack.pop(self.backpack_index)
            stowed = []
            held = ch.equipment.get(self.slot)
            if held is not None:
                ch.equipment[self.slot] = None
                ch.backpack.append(held)
                stowed.append(held.name)
            if item.two_handed and self.slot == "main_weapon" and ch.equipment.get("off_weapon") is not None:
                other = ch.equipment["off_weapon"]
                assert other is not None
                ch.equipment["off_weapon"] = None
                ch.backpack.append(other)
                stowed.append(other.name)
            if self.slot == "off_weapon" and main is not None and main.two_handed and main.name not in stowed:
                ch.equipment["main_weapon"] = None
                ch.backpack.append(main)
                stowed.append(main.name)
            equip(ch, rules, item, self.slot)
            message = f"You take {item.name} in hand" + (f" and put {', '.join(stowed)} away." if stowed else ".")
        else:
            held = ch.equipment.get(self.slot)
            if held is None:
                refuse(f"Nothing is in your {self.slot.replace('_', ' ')} slot.")
            ch.equipment[self.slot] = None
            ch.backpack.append(held)
            message = f"You put {held.name} in the backpack."
        clamp_hp(ch, rules)
        enforce(ch, rules)
        flow.c.action, flow.c.waiting, flow.c.step = "change_weapon", "", "monster_turn"
        flow.ev("combat_action", message + " (Your attack is forfeit this round.)", topic="character")
        return flow.finish()


class CombatCastSpell(Command):
    """Instead of attacking, cast spell-book entry ``index`` (0-based) or the spell named
    ``spell``; ``bonus`` is the spell bonus of the CAST SPELL test."""

    kind: Literal["combat_cast_spell"] = "combat_cast_spell"
    index: int | None = None
    spell: str = ""
    bonus: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        flow.need("action")
        ch, rules = flow.ch, flow.rules
        if not has_weapon(ch):
            refuse(available_actions(ctx.campaign, rules)["cast_spell"])
        d = derive(ch, rules)
        index = self.index
        if index is None:
            wanted = spell_id(self.spell) or re.sub(r"[^A-Z]", "", self.spell.upper())
            index = next(
                (
                    i
                    for i, e in enumerate(ch.spell_book)
                    if e is not None and (spell_id(e.name) or re.sub(r"[^A-Z]", "", e.name.upper())) == wanted
                ),
                None,
            )
            if index is None:
                refuse(f"{self.spell or 'That spell'} is not in your spell book.")
        if not 0 <= index < len(ch.spell_book) or ch.spell_book[index] is None:
            refuse(f"Spell book position {index + 1} is empty.")
        entry = ch.spell_book[index]
        assert entry is not None
        if not d.abilities.get("spell_caster", True):
            refuse(f"You cannot cast {entry.name}: Spell Caster is locked until INT reaches 50 (only scrolls work).")
        if not d.usable_spells[index]:
            need = d.spell_thresholds[index]
            refuse(f"You cannot cast {entry.name}: its place in the book needs INT {need} (yours is {d.characteristics['INT']}).")
        sid = spell_id(entry.name)
        effect = entry.effect or (_PRINTED_SPELLS[sid][1] if sid else "")
        cost = entry.cost or (_PRINTED_SPELLS[sid][2] if sid else "")
        flow.cast(CastInfo(name=entry.name, spell=sid, effect=effect, source="book"), cost, self.bonus)
        return flow.finish()


def _scroll_spell(flow: _Flow, item: Item) -> tuple[str, str, str, str]:
    """(name, id, effect, cost) of the spell on a scroll, from Table S or the printed spells."""
    text = f"{item.name} {item.effect}".upper()
    squashed = re.sub(r"[^A-Z]", "", text)
    try:
        rows = flow.ctx.tables.library.get("d100.S").rows
    except TableError:  # pragma: no cover - the bundled library has Table S
        rows = []
    for row in sorted(rows, key=lambda r: -len(r.fields.get("spell", ""))):
        name = row.fields.get("spell", "")
        if name and re.sub(r"[^A-Z]", "", name.upper()) in squashed:
            sid = spell_id(name)
            cost = row.fields.get("cost", "") or (_PRINTED_SPELLS[sid][2] if sid else "")
            return name, sid, row.fields.get("effect", ""), cost
    for sid in sorted(_PRINTED_SPELLS, key=lambda s: -len(_SPELL_NAMES[s])):
        if _SPELL_NAMES[sid] in squashed:
            name, effect, cost = _PRINTED_SPELLS[sid]
            return name, sid, effect, cost
    refuse(f"Cannot tell which spell is written on {item.name}: name the spell in the item (e.g. 'Scroll of Fire Ball').")


class CombatUseBelt(Command):
    """Instead of attacking, use the item in belt slot ``belt_slot`` (1-10): a potion heals, a
    brew boosts the next roll (STR/DEX/INT), the next damage roll (DMG) or your DEF before the
    monster's next damage roll, a scroll casts its spell (``bonus``: the spell bonus)."""

    kind: Literal["combat_use_belt"] = "combat_use_belt"
    belt_slot: int
    bonus: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "use_belt")
        ch, c = flow.ch, flow.c
        if not 1 <= self.belt_slot <= len(ch.belt):
            refuse(f"Belt slots are 1 to {len(ch.belt)}.")
        item = ch.belt[self.belt_slot - 1]
        if item is None:
            refuse(f"Belt slot {self.belt_slot} is empty.")
        if item.kind == "scroll":
            name, sid, effect, cost = _scroll_spell(flow, item)
            ch.belt[self.belt_slot - 1] = None
            flow.ev("combat_belt", f"You read {item.name} (belt slot {self.belt_slot}).", topic="character")
            flow.cast(CastInfo(name=name, spell=sid, effect=effect, source="scroll"), cost, self.bonus)
            return flow.finish()
        ch.belt[self.belt_slot - 1] = None
        c.action, c.waiting, c.step = "use_belt", "", "monster_turn"
        flow.ev("combat_belt", f"You use {item.name} (belt slot {self.belt_slot}).", topic="character")
        outcome = parse_effects(item.effect or item.name)
        effects = outcome.options[0].effects if outcome.options else []
        for effect in effects:
            if effect.kind == "characteristic" and effect.stat in STATS and (effect.amount or 0) > 0:
                c.boosts.append(Boost(stat=effect.stat, amount=effect.amount or 0, source=item.name))  # type: ignore[arg-type]
                flow.ev("combat_boost", f"{item.name}: +{effect.amount} {effect.stat} for your next {effect.stat} roll.")
            elif effect.kind in ("dmg", "def") and (effect.amount or 0) > 0:
                stat = effect.kind.upper()
                c.boosts.append(Boost(stat=stat, amount=effect.amount or 0, source=item.name))  # type: ignore[arg-type]
                when = "your next damage roll" if stat == "DMG" else "the monster's next damage roll"
                flow.ev("combat_boost", f"{item.name}: +{effect.amount} {stat} for {when}.")
            else:
                flow.events += apply_effect(ctx, effect, item.name)
        if not effects:
            flow.ev("combat_belt", f"{item.name}: its effect is not recorded on the sheet - apply it by hand.")
        return flow.finish()


class CombatEscape(Command):
    """Instead of attacking, try to escape: ESCAPE COMBAT – Test: Dex -10 [S:Remove Monster] [F:-2 HP] (Escape)."""

    kind: Literal["combat_escape"] = "combat_escape"

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "escape")
        c = flow.c
        c.action, c.waiting, c.step = "escape", "", "monster_turn"
        flow.ev("combat_action", "You try to escape.")
        flow.test("escape", TEST_SPECS["escape"], "monster_turn")
        return flow.finish()


class CombatBlockEscape(Command):
    """Forfeit the attack to block the escaping monster: BLOCK ESCAPE – Test: STR-10
    [S:Start Combat at Step 3] [F:Remove Monster] (Escape). On a success the damage roll of
    step 3 is made with the weapon in ``slot``."""

    kind: Literal["combat_block_escape"] = "combat_block_escape"
    slot: Literal["main_weapon", "off_weapon"] = "main_weapon"
    stat: str = ""

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "block_escape")
        if weapon_in(flow.ch, self.slot) is None:
            refuse(f"There is no weapon in your {self.slot.replace('_', ' ')} slot to strike with.")
        c = flow.c
        c.attack = _attack_choice(flow.ch, self.slot, self.stat or weapon_stats(weapon_in(flow.ch, self.slot))[0])  # type: ignore[arg-type]
        c.action, c.waiting, c.step = "block_escape", "", "monster_turn"
        flow.ev("combat_action", f"You block {flow.m.name}'s escape.")
        flow.test("block", TEST_SPECS["block"], "monster_turn")
        return flow.finish()


class CombatPass(Command):
    """Do nothing this round (a forfeited attack, or letting an escaping monster go)."""

    kind: Literal["combat_pass"] = "combat_pass"

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        _allowed(flow, "pass")
        c = flow.c
        c.action, c.waiting, c.step = "pass", "", "monster_turn"
        flow.ev("combat_action", "You hold back this round.")
        return flow.finish()


class CombatPerfectAim(Command):
    """Perfect Aim: ``keep`` the hit location or ``reroll`` it once, then pick ``first`` or ``second``."""

    kind: Literal["combat_perfect_aim"] = "combat_perfect_aim"
    choice: Literal["keep", "reroll", "first", "second"]

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        c = flow.c
        hit = c.hero_hit
        if c.waiting == "aim":
            assert hit is not None
            if self.choice == "keep":
                c.waiting = ""
            elif self.choice == "reroll":
                c.waiting = ""
                flow.hold("d10", "Perfect Aim: re-roll the hit location", "aim_resolve")
            else:
                refuse("Re-roll the location first, or keep it.")
        elif c.waiting == "aim_pick":
            assert hit is not None and hit.second_location is not None
            if self.choice not in ("first", "second"):
                refuse("Pick the first or the second hit location.")
            hit.location = hit.first_location if self.choice == "first" else hit.second_location  # type: ignore[assignment]
            c.waiting = ""
            flow.ev("combat_aim", f"Perfect Aim: you take hit location {hit.location} ({flow._location_name(hit.location)}).")
        else:
            flow.need("aim", "aim_pick")
        return flow.finish()


class CombatOffset(Command):
    """Offset ``item`` points (at most 2) onto the item at the location hit (1 repair pip each)
    and ``shield`` points (at most its S rating) onto the shield (half a pip each)."""

    kind: Literal["combat_offset"] = "combat_offset"
    item: int = 0
    shield: int = 0

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        flow.need("offset")
        c, ch, campaign = flow.c, flow.ch, ctx.campaign
        mh = c.monster_hit
        assert mh is not None
        if not 0 <= self.item <= mh.item_max:
            refuse(f"You can offset 0 to {mh.item_max} points onto {mh.item_name or 'an item at that location'}.")
        if not 0 <= self.shield <= mh.shield_max:
            refuse(f"You can offset 0 to {mh.shield_max} points onto {mh.shield_name or 'a shield'}.")
        if self.item + self.shield > mh.damage:
            refuse(f"Only {mh.damage} damage can be offset.")
        item = items_at(ch, mh.slot)[0] if self.item else None
        shield = ch.equipment.get("off_weapon") if self.shield else None
        if self.shield and (shield is None or shield.kind != "shield"):  # pragma: no cover - checked with the offer
            refuse("You have no shield to offset onto.")
        if item is not None:
            flow.ev("combat_offset", f"{self.item} damage offset onto {item.name}: {self.item} repair pip(s).", topic="character")
            flow.shade_item(item, self.item, "Offset")
        if shield is not None:
            halves = self.shield + (1 if campaign.shield_half_pip == shield.name else 0)
            pips, left = divmod(halves, 2)
            campaign.shield_half_pip = shield.name if left else ""
            flow.ev(
                "combat_offset",
                f"{self.shield} damage offset onto {shield.name}: {self.shield / 2:g} pip(s)"
                + (" (half a pip carried on the track)" if left else "")
                + ".",
                topic="character",
            )
            if pips and ch.equipment.get("off_weapon") is shield:  # not already broken by the points above
                flow.shade_item(shield, pips, "Shield offset")
        mh.offset_item, mh.offset_shield = self.item, self.shield
        c.waiting = ""
        return flow.finish()


class CombatChooseLoot(Command):
    """Choose which table the loot is rolled on when ``[K:...]`` offers several (0-based)."""

    kind: Literal["combat_choose_loot"] = "combat_choose_loot"
    option: int

    def apply(self, ctx: GameContext) -> list[Event]:
        flow = _Flow(ctx)
        flow.need("loot")
        loot = flow.m.loot
        options = loot.options if loot else []
        if not 0 <= self.option < len(options):
            refuse(f"Choose option 1 to {len(options)}.")
        chosen = options[self.option]
        flow.roll_loot(chosen.table, chosen.modifier, chosen.text)
        flow.end("won", f"The fight with {flow.m.name} is over: you won. HP {flow.ch.hp}.")
        return flow.finish()


COMBAT_COMMANDS: tuple[type[Command], ...] = (
    FaceEscapedMonster,
    StartCombat,
    CombatContinue,
    CombatFate,
    CombatAttack,
    CombatChangeWeapon,
    CombatCastSpell,
    CombatUseBelt,
    CombatEscape,
    CombatBlockEscape,
    CombatPass,
    CombatPerfectAim,
    CombatOffset,
    CombatChooseLoot,
)
