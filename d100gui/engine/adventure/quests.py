"""Quests: choosing one, writing it on the sheet, completing and failing it (rulebook "Choosing a
Quest", "Completing and Failing Quests").

* A new hero takes the Dungeon Training quests in the order Table Q lists them
  (:func:`next_training`, :func:`training_row`) until all of them have been attempted: the
  quest log's attempts count them, as on paper.
* Then Table Q is rolled once per REP point and the player chooses (:func:`roll_quests`); a
  quest already completed (ticked) may be rolled again (:func:`reroll`).
* :func:`begin` writes the quest, its objective and its encounter modifier on the sheet and
  logs an attempt; :func:`finish` takes it off again.
* :func:`fail_costs` prices the fail column against the sheet: each cost says whether it can
  be paid and, if not, why; the quest cannot be failed while one cannot be paid.

Table Q's rows are read as printed: a column the excerpt cut off is listed in
:attr:`~.model.Quest.missing`, never invented.
"""

from __future__ import annotations

import re

from pydantic import Field

from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import Row, Table
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character
from d100gui.engine.model import Model
from d100gui.engine.quest.model import AdventureRules, Quest, QuestRoll, QuestState
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import Effect, Option

#: Table Q's column keys: quest name, objective, encounter modifier, reward, fail costs
NAME, OBJECTIVE, ENC_MOD, REWARD, FAIL = "quest", "objective", "enc_mod", "reward", "fail"
_SIGNED = re.compile(r"[-+−]?\s*\d+")


def _modifier(text: str) -> int:
    found = _SIGNED.search(text)
    return int(found.group().replace("−", "-").replace(" ", "")) if found else 0


def quest_from_row(table: Table, row: Row, training: int | None = None) -> Quest:
    """The quest a Table Q row prints; the columns it lacks are listed as missing."""
    fields = row.fields
    missing = [c.key for c in table.columns if not fields.get(c.key, "").strip()]
    return Quest(
        name=fields.get(NAME, "").strip() or f"Quest {row.range_label()}",
        objective=fields.get(OBJECTIVE, "").strip(),
        encounter_modifier=_modifier(fields.get(ENC_MOD, "")),
        reward=fields.get(REWARD, "").strip(),
        fail=fields.get(FAIL, "").strip(),
        table_id=table.id,
        range=row.range,
        training=training,
        missing=missing,
    )


# --------------------------------------------------------------------------- choosing


def next_training(character: Character, arules: AdventureRules) -> int | None:
    """The Dungeon Training quest (1-based) the hero takes next; None once all have been attempted."""
    attempted = character.quest_log.attempted
    return attempted + 1 if attempted < arules.training_quests else None


def training_row(table: Table, number: int) -> tuple[Row | None, tuple[int, int] | None]:
    """Training quest ``number`` is the table's ``number``-th row from the top: (row, None), or (None, the gap it is in).

    The rows are followed from the die's lowest result, each starting where the last ended, so
    a row the player typed elsewhere on the table is never taken for a training quest.
    """
    low = table.die_range()[0]
    row: Row | None = None
    for _ in range(number):
        row = table.find(low)
        if row is None:
            return None, table.gap_containing(low)
        low = row.high + 1
    return row, None


def quest_roll(table: Table, result: TableRoll, completed: list[str]) -> QuestRoll:
    """One Table Q roll as a choice: its quest (None where the row is missing), ticked or not."""
    if result.row is None:
        return QuestRoll(table_roll=result)
    quest = quest_from_row(table, result.row)
    return QuestRoll(table_roll=result, quest=quest, completed=quest.name in completed)


def roll_quests(character: Character, arules: AdventureRules, tables: TableRoller, completed: list[str]) -> list[QuestRoll]:
    """Roll Table Q once per REP point: the quests to choose from."""
    table = tables.library.get(arules.quest_table)
    return [
        quest_roll(table, tables.roll(arules.quest_table, f"Quest choice ({n + 1} of {character.rep})"), completed)
        for n in range(character.rep)
    ]


def reroll(rolled: QuestRoll, index: int, arules: AdventureRules, tables: TableRoller, completed: list[str]) -> QuestRoll:
    """Roll again for a quest already completed; refused for any other roll."""
    if rolled.quest is None or not rolled.completed:
        name = rolled.quest.name if rolled.quest else f"roll {index + 1}"
        refuse(f"Only a quest you have completed may be rolled again; {name} is not ticked on Table Q.")
    table = tables.library.get(arules.quest_table)
    again = quest_roll(table, tables.roll(arules.quest_table, f"Quest choice {index + 1} (again)"), completed)
    return again.model_copy(update={"discarded": [*rolled.discarded, rolled.table_roll]})


# --------------------------------------------------------------------------- on the sheet


def begin(character: Character, quest: Quest, sample: bool = False) -> QuestState:
    """Write the quest and its encounter modifier on the sheet and log an attempt; no objective met or time passed yet."""
    log = character.quest_log
    log.attempted += 1
    log.current = quest.name
    character.quest_encounter_modifier = quest.encounter_modifier
    character.objectives = 0
    character.time_track.total = 0
    return QuestState(quest=quest, attempt=log.attempted, sample=sample, carried=objective_items(character))


def finish(character: Character, won: bool) -> None:
    """The quest is over: count it as completed or failed and take it off the sheet."""
    log = character.quest_log
    if won:
        log.completed += 1
    else:
        log.failed += 1
    log.current = ""
    character.quest_encounter_modifier = 0


# --------------------------------------------------------------------------- the objective

#: the objective's item words -> the kind they count (Table Q: "loot 3 Parts", "1 Weapons, 1 parts and 1 Armour")
OBJECTIVE_KINDS = {"part": "parts", "weapon": "weapons", "armour": "armour", "armor": "armour"}
_NEED = re.compile(r"(\d+)\s+(parts?|weapons?|armou?rs?)\b", re.IGNORECASE)
#: Table P: a monster part is an item the parts table gave
PARTS_TABLE = "d100.P"


def objective_needs(objective: str) -> dict[str, int]:
    """The objective items a quest's objective names, by kind: ``loot 3 Parts`` -> ``{"parts": 3}``."""
    needs: dict[str, int] = {}
    for number, word in _NEED.findall(objective):
        kind = OBJECTIVE_KINDS[word.lower().rstrip("s")]
        needs[kind] = needs.get(kind, 0) + int(number)
    return needs


def _item_kind(item_kind: str, source: str) -> str:
    if source.startswith(PARTS_TABLE):
        return "parts"
    return {"weapon": "weapons", "armour": "armour"}.get(item_kind, "")


def objective_items(character: Character) -> dict[str, int]:
    """The objective items the backpack holds, by kind (a part from Table P, a weapon, an armour piece)."""
    counts: dict[str, int] = {}
    for item in character.backpack:
        kind = _item_kind(item.kind, item.source)
        if kind:
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def objective_missing(character: Character, state: QuestState) -> str:
    """What the objective still lacks ("" when it is met).

    Items looted during the quest (the backpack's count over what it held when the quest
    began) count by kind; each objective a blue area (or a find) counted stands for one
    missing item of any kind. An objective that names no items needs one such objective.
    """
    needs = objective_needs(state.quest.objective)
    spare = character.objectives
    if not needs:
        return "" if spare >= 1 else "the objective is not reached yet (no objective area found)"
    held = objective_items(character)
    lacking: list[str] = []
    for kind, need in needs.items():
        got = max(0, held.get(kind, 0) - state.carried.get(kind, 0))
        short = max(0, need - got)
        used = min(short, spare)
        spare -= used
        if short - used:
            lacking.append(f"{short - used} more {kind} ({got} of {need} looted)")
    return "; ".join(lacking)


class FailCost(Model):
    """One fail cost priced against the sheet. ``choices`` are what the player may pay it from."""

    effect: Effect
    payable: bool = True
    reason: str = ""  # why it cannot be paid
    choices: list[str] = Field(default_factory=list)


def _cost(effect: Effect, rules: Rules, ch: Character) -> FailCost:
    amount = -(effect.amount or 0)
    if effect.kind == "gp" and amount > 0 and ch.gp < amount:
        return FailCost(effect=effect, payable=False, reason=f"it costs {amount} gp and you have {ch.gp}")
    if effect.kind == "skill" and amount > 0:
        can = [s for s, sc in ch.skills.items() if sc.bonus >= amount]
        if effect.target:
            can = [s for s in can if s == effect.target]
        why = f"no skill{' ' + effect.target if effect.target else ''} has a +{amount} bonus to lose"
        return FailCost(effect=effect, payable=bool(can), reason="" if can else why, choices=can)
    if effect.kind == "characteristic" and amount > 0:
        named = [effect.stat] if effect.stat in rules.characteristics else list(rules.characteristics)
        can = [s for s in named if s in ch.characteristics and ch.characteristics[s].primary >= amount]
        why = f"no characteristic has {amount} to lose"
        return FailCost(effect=effect, payable=bool(can), reason="" if can else why, choices=can)
    if effect.kind == "rep" and amount > 0 and ch.rep - amount < rules.reputation.min:
        why = f"REP can never fall below {rules.reputation.min} and you have {ch.rep}"
        return FailCost(effect=effect, payable=False, reason=why)
    return FailCost(effect=effect)


def fail_costs(character: Character, rules: Rules, option: Option) -> list[FailCost]:
    """Price each cost of a fail column's option against the sheet (a test inside it is not a cost)."""
    return [_cost(item, rules, character) for item in option.items if isinstance(item, Effect)]


def unpaid_reason(costs: list[FailCost]) -> str:
    """Why the costs cannot be paid ("" when they can): each unpaid cost with its reason."""
    return "; ".join(f"{c.effect.describe()}: {c.reason}" for c in costs if not c.payable)


def with_choice(cost: FailCost, choice: str) -> Effect:
    """The cost's effect aimed at what the player chose to pay it from (a skill or a characteristic)."""
    if choice not in cost.choices:
        refuse(f"{cost.effect.describe()} cannot be paid from {choice!r}: choose one of {', '.join(cost.choices)}.")
    if cost.effect.kind == "skill":
        return cost.effect.model_copy(update={"target": choice})
    return cost.effect.model_copy(update={"stat": choice})
