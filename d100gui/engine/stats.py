"""The campaign at a glance: statistics folded from the log's typed events, one entry at a time.

A campaign's log already says everything a player would add up by hand: each quest begun and how
it ended (``quest_begun``, ``quest_completed``, ``quest_failed``), each fight (``combat_started``,
``combat_over``, ``hero_died``), every HP, gold, REP and characteristic change with the value it
left, every Fate point and Life spent, and every die rolled (the entry's ``RollRecord``s).

:class:`Statistics` folds one :class:`~d100gui.engine.game.LogEntry` at a time (:meth:`fold`),
so a new action costs what its own entry holds; :meth:`Statistics.figures` gives the figures as
plain dicts (``Session.statistics()``, the Statistics view). It reads only payloads, never an
event's sentence, and no store: whoever holds the log (a session, the window's store pages)
feeds it. An undone entry cannot be folded out: start a new accumulator (the view does, lazily).

Dice fairness is Pearson's chi-square test of each die kind's faces against the fair (uniform)
distribution; its p-value is the chi-square survival function, worked out here as the
regularized upper incomplete gamma function (no scipy). Dice whose faces were given (physical
dice typed in, a script's faces: ``RollRecord.manual``) are counted apart from the app's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from d100gui.engine.game import LogEntry

#: bumped when :meth:`Statistics.state` changes shape (a kept state of another version is folded again)
#: 2: a ration eaten no longer sets HP to its payload default 0; 3: a death names its fight; 4: the sheet keeps Fate and Lives
STATE_VERSION = 4
#: the dice groups of a state: the app's dice, and the faces given (physical or scripted)
_DICE_GROUPS = (("app", False), ("physical", True))
#: the characteristics followed over quests (the sheet's three primaries)
CHARACTERISTICS = ("STR", "DEX", "INT")
#: below this p-value a die kind is called unfair (the usual 1% level: 1 fair kind in 100 fails by chance)
UNFAIR_P = 0.01
#: a kind with fewer rolls than this many per face is not judged (the chi-square approximation needs ~5)
MIN_PER_FACE = 5


# --------------------------------------------------------------------------- chi-square


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the series below a + 1, Lentz's continued fraction above."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def chi_square_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``dof`` degrees of freedom (the test's p-value)."""
    if dof <= 0:
        raise ValueError("degrees of freedom must be positive")
    return upper_gamma_regularized(dof / 2, statistic / 2)


def fairness(counts: list[int]) -> dict[str, Any]:
    """Pearson's chi-square test of face counts against a fair die: statistic, dof, p-value, verdict.

    ``judged`` is False when there are too few rolls (fewer than :data:`MIN_PER_FACE` a face on
    average): the p-value is still given, but no verdict is drawn from it.
    """
    n = sum(counts)
    faces = len(counts)
    if n == 0 or faces < 2:
        return {"rolls": n, "chi_square": 0.0, "dof": max(0, faces - 1), "p_value": 1.0, "judged": False, "fair": True}
    expected = n / faces
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    p = chi_square_sf(statistic, faces - 1)
    judged = expected >= MIN_PER_FACE
    return {
        "rolls": n,
        "chi_square": statistic,
        "dof": faces - 1,
        "p_value": p,
        "judged": judged,
        "fair": not judged or p >= UNFAIR_P,
    }


# --------------------------------------------------------------------------- the accumulator


@dataclass
class _Sheet:
    """The hero's figures as the events last left them (each event carries the value it left)."""

    hp: int | None = None
    gp: int = 0
    rep: int | None = None
    stats: dict[str, int] = field(default_factory=dict)
    fate: int | None = None
    lives: int | None = None

    def snapshot(self) -> dict[str, Any]:
        figures = {"hp": self.hp, "gp": self.gp, "rep": self.rep, "fate": self.fate, "lives": self.lives}
        return {**figures, **{s: self.stats.get(s) for s in CHARACTERISTICS}}


@dataclass
class _Quest:
    """One quest attempt, from its ``quest_begun`` to its ``quest_completed`` or ``quest_failed``."""

    number: int  # 1-based, over the campaign
    name: str
    attempt: int  # 1-based, this quest's attempts so far
    first_entry: int
    last_entry: int
    outcome: str = "in_progress"  # success, failure, in_progress, died
    turns: int = 0
    hp_lost: int = 0
    gold: int = 0
    rep: int = 0
    areas_mapped: int = 0
    fights_won: int = 0
    fights_fled: int = 0
    fights_lost: int = 0
    monsters_escaped: int = 0
    end: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "attempt": self.attempt,
            "outcome": self.outcome,
            "turns": self.turns,
            "hp_lost": self.hp_lost,
            "gold_gained": self.gold,
            "rep_gained": self.rep,
            "areas_mapped": self.areas_mapped,
            "fights_won": self.fights_won,
            "fights_fled": self.fights_fled,
            "fights_lost": self.fights_lost,
            "monsters_escaped": self.monsters_escaped,
            "first_entry": self.first_entry,
            "last_entry": self.last_entry,
            "end": dict(self.end),
        }


@dataclass
class _Monster:
    fights: int = 0
    won: int = 0
    fled: int = 0
    lost: int = 0
    escaped: int = 0
    hp_lost: int = 0
    rounds: int = 0


def death_words(cause: str, foe: str) -> str:
    """A death's cause in words, as the hall of the fallen names it: "HP 0 and no Lives left, fighting Orc"
    (the death event's reason or source, then the monster of the fight it ended; "" when neither is known)."""
    return ", ".join(part for part in (cause, f"fighting {foe}" if foe else "") if part)


def _die_value(sides: int, face: int) -> int | None:
    """The face as a 1..sides value (a d10's 0 reads 10, as does a d100's tens or units 0); None if off the die."""
    if sides == 10 and face == 0:
        return 10
    return face if 1 <= face <= sides else None


class Statistics:
    """The statistics of a campaign, folded from its log one entry at a time.

    ``fold(entry)`` costs what the entry holds (its events and dice); ``figures()`` costs what the
    figures hold (the quests, the monsters, the die kinds), never the log. Entries must come in
    log order; an entry at or below one already folded is ignored, so feeding the same entry
    twice (a page read, then the in-memory tail) counts it once.
    """

    def __init__(self) -> None:
        self.next_index = 0  #: the index the next entry must have to count
        self.entries = 0
        self._sheet = _Sheet()
        self._quests: list[_Quest] = []
        self._attempts: dict[str, int] = {}
        self._current: _Quest | None = None
        self._monsters: dict[str, _Monster] = {}
        self._fight: str | None = None
        self._experience: dict[str, int] = {}
        self._trained: dict[str, int] = {}
        self._fate_spent = 0
        self._lives_spent = 0
        self._res_used = 0
        self._deaths: list[dict[str, Any]] = []
        self._hp_lost = 0
        self._dice: dict[bool, dict[int, list[int]]] = {False: {}, True: {}}
        self._off_die = 0
        self._ending = ""  # the outcome of the quest this entry ends, once the entry's events are counted

    # ---------------------------------------------------------------- keeping it

    def state(self) -> dict[str, Any]:
        """Everything folded so far as plain JSON data, for :meth:`from_state`: a store may keep it
        beside the log so a campaign opened again folds only the entries after ``next_index``."""
        current = self._quests.index(self._current) if self._current is not None else None
        return {
            "version": STATE_VERSION,
            "next_index": self.next_index,
            "entries": self.entries,
            "sheet": {**vars(self._sheet), "stats": dict(self._sheet.stats)},
            "quests": [{**vars(q), "end": dict(q.end)} for q in self._quests],
            "current": current,
            "attempts": dict(self._attempts),
            "monsters": {name: dict(vars(m)) for name, m in self._monsters.items()},
            "fight": self._fight,
            "experience": dict(self._experience),
            "trained": dict(self._trained),
            "fate_spent": self._fate_spent,
            "lives_spent": self._lives_spent,
            "res_used": self._res_used,
            "deaths": [dict(d) for d in self._deaths],
            "hp_lost": self._hp_lost,
            "dice": {kind: {str(sides): list(c) for sides, c in self._dice[manual].items()} for kind, manual in _DICE_GROUPS},
            "off_die": self._off_die,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Statistics:
        """The accumulator :meth:`state` described; ``ValueError`` for another version (fold again)."""
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"statistics state version {state.get('version')!r} is not {STATE_VERSION}")
        stats = cls()
        stats.next_index = int(state["next_index"])
        stats.entries = int(state["entries"])
        stats._sheet = _Sheet(**state["sheet"])
        stats._quests = [_Quest(**q) for q in state["quests"]]
        current = state["current"]
        stats._current = stats._quests[current] if current is not None else None
        stats._attempts = dict(state["attempts"])
        stats._monsters = {name: _Monster(**m) for name, m in state["monsters"].items()}
        stats._fight = state["fight"]
        stats._experience = dict(state["experience"])
        stats._trained = dict(state["trained"])
        stats._fate_spent = int(state["fate_spent"])
        stats._lives_spent = int(state["lives_spent"])
        stats._res_used = int(state["res_used"])
        stats._deaths = [dict(d) for d in state["deaths"]]
        stats._hp_lost = int(state["hp_lost"])
        for kind, manual in _DICE_GROUPS:
            stats._dice[manual] = {int(sides): list(c) for sides, c in state["dice"][kind].items()}
        stats._off_die = int(state["off_die"])
        return stats

    # ---------------------------------------------------------------- folding

    def fold_all(self, entries: Iterable[LogEntry]) -> Statistics:
        """Fold every entry of ``entries`` in order; returns self."""
        for entry in entries:
            self.fold(entry)
        return self

    def fold(self, entry: LogEntry) -> None:
        """Count one log entry (its dice, then its events in order)."""
        if entry.index < self.next_index:
            return
        for record in entry.rolls:
            for die in record.dice:
                self.count_die(record.manual, die.sides, die.face)
        self.fold_events(entry.index, ((event.kind, event.data) for event in entry.events))

    def count_die(self, manual: bool, sides: int, face: int, times: int = 1) -> None:
        """Count ``times`` rolls of ``face`` on a ``sides``-sided die (``manual``: a face given, not rolled).

        With :meth:`fold_events` this is :meth:`fold` for a reader that has the log's rows rather than
        its entries (a store reading only the dice and the events the statistics read, in SQL)."""
        value = _die_value(sides, face)
        if value is None:
            self._off_die += times
            return
        faces = self._dice[bool(manual)]
        counts = faces.get(sides)
        if counts is None:
            counts = faces[sides] = [0] * sides
        counts[value - 1] += times

    def fold_events(self, index: int, events: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Count the events (kind, payload) of log entry ``index``, in order; an entry at or below one
        already counted is ignored. Entries skipped between two calls (no event the statistics read)
        count as entries, and a quest under way runs through them."""
        if index < self.next_index:
            return
        if self._current is not None and index > self.next_index:
            self._current.last_entry = index - 1  # the entries skipped were the quest's too
        self.entries += index + 1 - self.next_index
        self.next_index = index + 1
        for kind, data in events:
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, data, index)
        if self._current is not None:
            self._current.last_entry = index
            if self._ending:  # the quest's end pays its reward or costs in the same entry, after its event
                self._end_quest(self._ending)
        self._ending = ""

    @staticmethod
    def kinds() -> list[str]:
        """The event kinds the statistics read (every other kind is skipped), sorted."""
        return sorted(_HANDLERS)

    def counted_up_to(self, end: int) -> None:
        """Entries below ``end`` are all counted (the last ones held no event the statistics read)."""
        if end > self.next_index:
            self.fold_events(end - 1, ())

    # ---------------------------------------------------------------- event handlers

    def _lose_hp(self, amount: int) -> None:
        if amount <= 0:
            return
        self._hp_lost += amount
        if self._current is not None:
            self._current.hp_lost += amount

    def _on_hp(self, data: dict[str, Any], _at: int) -> None:
        delta = int(data.get("delta") or 0)
        self._lose_hp(-delta)
        if data.get("hp") is not None:
            self._sheet.hp = int(data["hp"])

    def _on_hp_value(self, data: dict[str, Any], _at: int) -> None:
        if data.get("hp") is not None:
            self._sheet.hp = int(data["hp"])

    def _on_hp_lost(self, data: dict[str, Any], at: int) -> None:
        self._lose_hp(int(data.get("hp_lost") or 0))
        self._on_hp_value(data, at)

    def _on_food(self, data: dict[str, Any], at: int) -> None:
        if data.get("spent"):
            return  # a ration eaten: its payload's hp is the default 0, not the hero's HP
        self._on_hp_lost(data, at)

    def _on_finishing(self, data: dict[str, Any], at: int) -> None:
        self._on_hp_value(data, at)
        self._on_fate_value(data, at)
        self._on_lives_value(data, at)

    def _on_fate_value(self, data: dict[str, Any], _at: int) -> None:
        value = data.get("fate", data.get("value"))
        if value is not None:
            self._sheet.fate = int(value)

    def _on_lives_value(self, data: dict[str, Any], _at: int) -> None:
        value = data.get("lives", data.get("value"))
        if value is not None:
            self._sheet.lives = int(value)

    def _on_gold(self, data: dict[str, Any], _at: int) -> None:
        delta = int(data.get("delta") or 0)
        self._sheet.gp += delta
        if self._current is not None:
            self._current.gold += delta

    def _on_gold_value(self, data: dict[str, Any], _at: int) -> None:
        if data.get("gp") is not None:
            self._sheet.gp = int(data["gp"])

    def _on_rep(self, data: dict[str, Any], _at: int) -> None:
        if data.get("rep") is None:
            return
        rep = int(data["rep"])
        before = data.get("before")
        before = self._sheet.rep if before is None else int(before)
        if self._current is not None and before is not None:
            self._current.rep += rep - before
        self._sheet.rep = rep

    def _on_characteristics(self, data: dict[str, Any], _at: int) -> None:
        for stat, value in (data.get("scores") or {}).items():
            self._sheet.stats[str(stat)] = int(value)

    def _on_characteristic(self, data: dict[str, Any], _at: int) -> None:
        if data.get("stat") and data.get("primary") is not None:
            self._sheet.stats[str(data["stat"])] = int(data["primary"])

    def _on_experience(self, data: dict[str, Any], _at: int) -> None:
        track = str(data.get("track") or "")
        if track:
            self._experience[track] = self._experience.get(track, 0) + 1

    def _on_trained(self, data: dict[str, Any], _at: int) -> None:
        track = str(data.get("track") or "")
        if track:
            self._trained[track] = self._trained.get(track, 0) + int(data.get("pips") or 0)
        self._on_gold_value(data, _at)

    def _on_quest_begun(self, data: dict[str, Any], at: int) -> None:
        if self._current is not None and self._ending:
            self._end_quest(self._ending)
        name = str(data.get("name") or "")
        self._attempts[name] = self._attempts.get(name, 0) + 1
        self._current = _Quest(len(self._quests) + 1, name, self._attempts[name], at, at)
        self._quests.append(self._current)

    def _end_quest(self, outcome: str) -> None:
        if self._current is None:
            return
        self._current.outcome = outcome
        self._current.end = self._sheet.snapshot()
        self._current = None

    def _on_quest_completed(self, _data: dict[str, Any], _at: int) -> None:
        self._ending = "success"

    def _on_quest_failed(self, _data: dict[str, Any], _at: int) -> None:
        self._ending = "failure"

    def _on_turn_moved(self, data: dict[str, Any], _at: int) -> None:
        if self._current is not None:
            self._current.turns = max(self._current.turns, int(data.get("number") or 0))
            if data.get("placed"):
                self._current.areas_mapped += 1

    def _on_turn_ended(self, data: dict[str, Any], _at: int) -> None:
        if self._current is not None:
            self._current.turns = max(self._current.turns, int(data.get("number") or 0))

    def _on_combat_started(self, data: dict[str, Any], _at: int) -> None:
        monster = data.get("monster") or {}
        self._fight = str(monster.get("name") or "?")
        self._monsters.setdefault(self._fight, _Monster()).fights += 1

    def _on_combat_over(self, data: dict[str, Any], _at: int) -> None:
        name = self._fight or "?"
        record = self._monsters.setdefault(name, _Monster())
        if self._fight is None:
            record.fights += 1
        self._fight = None
        outcome = str(data.get("outcome") or "")
        record.hp_lost += int(data.get("hp_lost") or 0)
        record.rounds += int(data.get("rounds") or 0)
        quest = self._current
        if outcome == "won":
            record.won += 1
            if quest is not None:
                quest.fights_won += 1
        elif outcome == "hero_escaped":
            record.fled += 1
            if quest is not None:
                quest.fights_fled += 1
        elif outcome == "monster_escaped":
            record.escaped += 1
            if quest is not None:
                quest.monsters_escaped += 1

    def _on_died(self, data: dict[str, Any], at: int) -> None:
        cause = str(data.get("reason") or data.get("source") or "")
        foe = self._fight or ""
        if self._fight is not None:
            record = self._monsters.setdefault(self._fight, _Monster())
            record.lost += 1
            if self._current is not None:
                self._current.fights_lost += 1
            self._fight = None
        quest = self._current.name if self._current else ""
        self._deaths.append({"entry": at, "cause": death_words(cause, foe), "foe": foe, "quest": quest})
        self._ending = "died"

    def _on_fate_used(self, data: dict[str, Any], at: int) -> None:
        self._fate_spent += 1
        self._on_fate_value(data, at)

    def _on_life(self, data: dict[str, Any], at: int) -> None:
        self._lives_spent += 1
        self._on_hp_value(data, at)
        self._on_lives_value(data, at)

    def _on_res(self, data: dict[str, Any], at: int) -> None:
        self._res_used += 1
        self._on_hp_value(data, at)

    def _on_death_cheated(self, data: dict[str, Any], at: int) -> None:
        if data.get("how") == "life":
            self._on_life(data, at)
        else:
            self._on_res(data, at)

    # ---------------------------------------------------------------- figures

    def sheet(self) -> dict[str, Any]:
        """The hero's HP, gold, REP, Fate, Lives and characteristics as the entries folded so far left them."""
        return self._sheet.snapshot()

    def last_quest_span(self) -> tuple[int, int, int] | None:
        """The latest quest attempt's (number, first entry, last entry), or None before any quest.

        Its last entry is the newest folded one while the attempt is under way (and the one that
        ended it afterwards): a walk beside this one (the chronicle) tells which entries are a quest's."""
        if not self._quests:
            return None
        q = self._quests[-1]
        return q.number, q.first_entry, q.last_entry

    def figures(self) -> dict[str, Any]:
        """Every figure as plain dicts and lists (JSON-ready): ``quests``, ``quest_totals``,
        ``campaign``, ``fights``, ``dice``. Costs the size of the figures, not of the log."""
        quests = [q.as_dict() for q in self._quests]
        totals: dict[str, dict[str, int]] = {}
        for q in self._quests:
            t = totals.setdefault(q.name, {"attempts": 0, "successes": 0, "failures": 0})
            t["attempts"] += 1
            t["successes"] += q.outcome == "success"
            t["failures"] += q.outcome == "failure"
        over_quests = [{"quest": q.number, "name": q.name, **q.end} for q in self._quests if q.end]
        fights = {
            name: {
                "fights": m.fights,
                "won": m.won,
                "fled": m.fled,
                "lost": m.lost,
                "monster_escaped": m.escaped,
                "win_rate": m.won / m.fights if m.fights else 0.0,
                "hp_lost": m.hp_lost,
                "rounds": m.rounds,
            }
            for name, m in sorted(self._monsters.items())
        }
        return {
            "entries": self.entries,
            "quests": quests,
            "quest_totals": totals,
            "campaign": {
                "now": self._sheet.snapshot(),
                "over_quests": over_quests,
                "experience": dict(sorted(self._experience.items())),
                "trained": dict(sorted(self._trained.items())),
                "hp_lost": self._hp_lost,
                "fate_spent": self._fate_spent,
                "lives_spent": self._lives_spent,
                "res_used": self._res_used,
                "deaths": [dict(d) for d in self._deaths],
                "quests_attempted": len(self._quests),
                "quests_completed": sum(q.outcome == "success" for q in self._quests),
                "quests_failed": sum(q.outcome == "failure" for q in self._quests),
                "fights": sum(m.fights for m in self._monsters.values()),
                "fights_won": sum(m.won for m in self._monsters.values()),
            },
            "fights": fights,
            "dice": {"app": self._dice_figures(False), "physical": self._dice_figures(True), "off_die": self._off_die},
        }

    def _dice_figures(self, manual: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for sides, counts in sorted(self._dice[manual].items()):
            n = sum(counts)
            out[f"d{sides}"] = {
                "sides": sides,
                "faces": list(range(1, sides + 1)),
                "counts": list(counts),
                "expected": n / sides,
                **fairness(counts),
            }
        return out


_HANDLERS = {
    "hp": Statistics._on_hp,
    "combat_hero_hp": Statistics._on_hp,
    "food_eaten": Statistics._on_food,
    "affliction_checked": Statistics._on_hp_lost,
    "time_track_refreshed": Statistics._on_hp_lost,
    "finishing": Statistics._on_finishing,
    "gp": Statistics._on_gold,
    "town_begun": Statistics._on_gold_value,
    "town_finished": Statistics._on_gold_value,
    "town_healed": Statistics._on_gold_value,
    "town_investment_traded": Statistics._on_gold_value,
    "town_market_bought": Statistics._on_gold_value,
    "town_repaired": Statistics._on_gold_value,
    "town_required_bought": Statistics._on_gold_value,
    "town_sold": Statistics._on_gold_value,
    "town_trained": Statistics._on_trained,
    "rep": Statistics._on_rep,
    "characteristics": Statistics._on_characteristics,
    "characteristic": Statistics._on_characteristic,
    "combat_cast_cost": Statistics._on_characteristic,
    "experience": Statistics._on_experience,
    "quest_begun": Statistics._on_quest_begun,
    "quest_completed": Statistics._on_quest_completed,
    "quest_failed": Statistics._on_quest_failed,
    "turn_moved": Statistics._on_turn_moved,
    "turn_ended": Statistics._on_turn_ended,
    "combat_started": Statistics._on_combat_started,
    "combat_over": Statistics._on_combat_over,
    "hero_died": Statistics._on_died,
    "hero_fell": Statistics._on_died,
    "fate_used": Statistics._on_fate_used,
    "fate": Statistics._on_fate_value,
    "life": Statistics._on_lives_value,
    "combat_life": Statistics._on_life,
    "combat_res": Statistics._on_res,
    "death_cheated": Statistics._on_death_cheated,
}


def statistics_of(entries: Iterable[LogEntry]) -> dict[str, Any]:
    """The figures of a whole log at once (a headless tool's shortcut for ``Statistics().fold_all``)."""
    return Statistics().fold_all(entries).figures()
