"""Dice: one injectable source of faces, and roll records that say exactly what happened.

Every roll in the app goes through :class:`Dice`. A roll is a :class:`RollRecord` holding
the faces of each die, the natural value (what the dice alone show: the ``+1`` of ``3d4+1``
is not part of it), the modifiers, the final value and a purpose label, so it can be logged,
drawn, and re-rolled die by die (which is what Fate does).

d100 is two d10 (tens and units, faces 0-9); 00 with 0 reads 100. A lone d10 shows
faces 0-9 too, and a 0 reads 10.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import Field, model_validator

from d100gui.engine.model import Model


class DiceError(ValueError):
    """A dice expression, face or script that cannot be used; the message says why."""


MAX_DICE = 100
MAX_SIDES = 1000

# --------------------------------------------------------------------------- expressions


class Term(Model):
    """One term of an expression: ``count`` dice of ``sides`` sides, or a constant."""

    sign: Literal[1, -1] = 1
    count: int = 0
    sides: int = 0
    constant: int = 0

    @property
    def is_dice(self) -> bool:
        return self.count > 0


_TERM_RE = re.compile(r"([+-]?)\s*(?:(\d*)\s*[dD]\s*(%|\d+)|(\d+))")


def parse_expression(text: str) -> list[Term]:
    """Parse ``d100``, ``d%``, ``2d6``, ``3d4+1``, ``1d6-1``, ``2d6+1d4`` into terms.

    Raises :class:`DiceError` with a message a player can read for anything else
    (``3d0``, ``d``, ``2x6``, an empty string).
    """
    src = text.strip()
    if not src:
        raise DiceError("Empty dice expression: try d100, 2d6 or 3d4+1.")
    pos = 0
    terms: list[Term] = []
    compact = src.replace(" ", "")
    while pos < len(compact):
        m = _TERM_RE.match(compact, pos)
        if not m or m.end() == pos:
            raise DiceError(f"Cannot read dice expression {text!r} at {compact[pos:]!r}: try d100, 2d6 or 3d4+1.")
        sign_txt, count_txt, sides_txt, const_txt = m.groups()
        if terms and not sign_txt:
            raise DiceError(f"Cannot read dice expression {text!r}: terms must be joined with + or -.")
        sign: Literal[1, -1] = -1 if sign_txt == "-" else 1
        if const_txt is not None:
            terms.append(Term(sign=sign, constant=int(const_txt)))
        else:
            count = int(count_txt) if count_txt else 1
            sides = 100 if sides_txt == "%" else int(sides_txt)
            if count < 1 or count > MAX_DICE:
                raise DiceError(f"{text!r}: the number of dice must be 1 to {MAX_DICE}.")
            if sides < 2 or sides > MAX_SIDES:
                raise DiceError(f"{text!r}: a die needs 2 to {MAX_SIDES} sides (d{sides} is not a die).")
            terms.append(Term(sign=sign, count=count, sides=sides))
        pos = m.end()
    if not any(t.is_dice for t in terms):
        raise DiceError(f"{text!r} has no dice in it: try d100, 2d6 or 3d4+1.")
    return terms


def expression_range(text: str) -> tuple[int, int]:
    """Lowest and highest totals an expression can give (its constants included)."""
    lo = hi = 0
    for t in parse_expression(text):
        if t.is_dice:
            a, b = t.count, t.count * t.sides
        else:
            a = b = t.constant
        if t.sign > 0:
            lo, hi = lo + a, hi + b
        else:
            lo, hi = lo - b, hi - a
    return lo, hi


# --------------------------------------------------------------------------- records


DieRole = Literal["die", "tens", "units"]  # a d100 is rolled as a tens and a units d10


class DieFace(Model):
    """One physical die: its kind, the face showing and what it counts for."""

    sides: int
    face: int
    role: DieRole = "die"
    term: int = 0

    @property
    def label(self) -> str:
        if self.role == "tens":
            return "d10 (tens)"
        if self.role == "units":
            return "d10 (units)"
        return f"d{self.sides}"

    @property
    def shown(self) -> str:
        """The face as printed on the die (the tens die shows 00-90)."""
        if self.role == "tens":
            return f"{self.face}0" if self.face else "00"
        return str(self.face)


class Modifier(Model):
    label: str
    value: int


class RollRecord(Model):
    """Everything about one roll, enough to show it, log it and re-roll a die of it."""

    expression: str
    purpose: str = ""
    terms: list[Term]
    dice: list[DieFace]
    natural: int
    modifiers: list[Modifier] = Field(default_factory=list)
    clamp: tuple[int, int] | None = None
    final: int
    manual: bool = False  # faces given (physical dice typed, or a script's): a replay takes them from the log
    rerolled: list[int] = Field(default_factory=list)

    @model_validator(mode="after")
    def _natural_without_constant(self) -> RollRecord:
        """A record saved before the natural value left out the expression's constant
        (``3d4+1`` showing 3, 3, 4 kept natural 11) reads as the dice alone (10)."""
        if self.constant and self.dice and self.natural == natural_total(self.terms, self.dice) + self.constant:
            self.natural -= self.constant
        return self

    @property
    def constant(self) -> int:
        """The expression's own number: +1 for ``3d4+1``, -100 for ``2d6-100``, 0 for ``d100``."""
        return expression_constant(self.terms)

    def describe(self) -> str:
        faces = " ".join(f"[{d.shown}]" for d in self.dice)
        constant = f" {self.constant:+d}" if self.constant else ""
        mods = "".join(f" {m.value:+d} ({m.label})" for m in self.modifiers)
        clamp = ""
        if self.clamp and self.natural + self.constant + sum(m.value for m in self.modifiers) != self.final:
            clamp = f" clamped to {self.clamp[0]}-{self.clamp[1]}"
        head = f"{self.purpose}: " if self.purpose else ""
        return f"{head}{self.expression} {faces} = {self.natural}{constant}{mods}{clamp} -> {self.final}"


def _die_value(d: DieFace) -> int:
    if d.sides == 10 and d.role == "die":
        return 10 if d.face == 0 else d.face
    return d.face


def expression_constant(terms: Sequence[Term]) -> int:
    """The sum of an expression's constant terms (the ``+1`` of ``3d4+1``)."""
    return sum(t.sign * t.constant for t in terms if not t.is_dice)


def natural_total(terms: Sequence[Term], dice: Sequence[DieFace]) -> int:
    """What the dice alone show: each dice term's faces, with its sign, and no constant
    (``3d4+1`` showing 3, 3, 4 is a natural 10); a d100 pair of 0 and 0 reads 100."""
    total = 0
    for index, term in enumerate(terms):
        if not term.is_dice:
            continue
        mine = [d for d in dice if d.term == index]
        if term.sides == 100:
            subtotal = 0
            for tens, units in zip(mine[0::2], mine[1::2], strict=True):
                value = tens.face * 10 + units.face
                subtotal += 100 if value == 0 else value
        else:
            subtotal = sum(_die_value(d) for d in mine)
        total += term.sign * subtotal
    return total


def _finish(natural: int, terms: Sequence[Term], modifiers: Sequence[Modifier], clamp: tuple[int, int] | None) -> int:
    """The final value: the natural roll, the expression's constant and the modifiers, clamped."""
    value = natural + expression_constant(terms) + sum(m.value for m in modifiers)
    if clamp is not None:
        value = max(clamp[0], min(clamp[1], value))
    return value


# --------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class FaceRequest:
    """What a source is asked for: one face of a die with this many sides."""

    sides: int
    role: str
    purpose: str
    expression: str

    @property
    def lowest(self) -> int:
        return 0 if self.sides == 10 else 1

    @property
    def highest(self) -> int:
        return 9 if self.sides == 10 else self.sides


def check_face(request: FaceRequest, face: int) -> int:
    """Validate a face for a die (a d10 face is 0-9, a d6 face 1-6, ...)."""
    if not isinstance(face, int) or isinstance(face, bool):
        raise DiceError(f"A die face must be a whole number, not {face!r}.")
    if not request.lowest <= face <= request.highest:
        name = "d10" if request.sides in (10, 100) else f"d{request.sides}"
        raise DiceError(f"A {name} face is {request.lowest}-{request.highest}; {face} is not on the die.")
    return face


class DiceSource(Protocol):
    """Anything that can give the face of one die."""

    def face(self, request: FaceRequest) -> int: ...


class RandomSource:
    """Seeded pseudo-random faces whose generator state can be saved and restored."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def face(self, request: FaceRequest) -> int:
        return self._rng.randint(request.lowest, request.highest)

    def get_state(self) -> list[Any]:
        """The generator state as JSON-friendly lists (saved in the campaign)."""
        version, internal, gauss = self._rng.getstate()
        return [version, list(internal), gauss]

    def set_state(self, state: list[Any]) -> None:
        version, internal, gauss = state
        self._rng.setstate((version, tuple(internal), gauss))


class ScriptExhausted(DiceError):
    """A scripted roll asked for more faces than the script holds (the scenario, not the player, is wrong)."""


class ScriptedSource:
    """Faces from a list, in order: the way tests script dice."""

    def __init__(self, faces: Sequence[int] = ()) -> None:
        self._faces = list(faces)

    def push(self, *faces: int) -> None:
        self._faces.extend(faces)

    @property
    def remaining(self) -> int:
        return len(self._faces)

    @property
    def faces(self) -> tuple[int, ...]:
        """The faces not rolled yet, in order."""
        return tuple(self._faces)

    def face(self, request: FaceRequest) -> int:
        if not self._faces:
            raise ScriptExhausted(f"Scripted dice ran out while rolling {request.expression} for {request.purpose!r}.")
        return check_face(request, self._faces.pop(0))


class DiceCancelled(DiceError):
    """The player closed the physical-dice dialog: the roll did not happen."""


class ManualSource:
    """Physical dice. Before a roll, ``ask`` gets every face the roll needs at once (a
    d100 asks for its tens and units together) and returns the faces, or None to cancel.
    Each face is validated against its die."""

    def __init__(self, ask: Callable[[list[FaceRequest]], Sequence[int] | None]) -> None:
        self._ask = ask
        self._queue: list[int] = []

    def begin(self, requests: list[FaceRequest]) -> None:
        answer = self._ask(requests)
        if answer is None:
            raise DiceCancelled("Roll cancelled: no dice were entered.")
        faces = list(answer)
        if len(faces) != len(requests):
            raise DiceError(f"Expected {len(requests)} faces, got {len(faces)}.")
        self._queue = [check_face(r, f) for r, f in zip(requests, faces, strict=True)]

    def face(self, request: FaceRequest) -> int:
        if not self._queue:
            self.begin([request])
        return self._queue.pop(0)


# --------------------------------------------------------------------------- roller


def _dice_for(terms: Sequence[Term]) -> list[tuple[int, int, DieRole]]:
    """(term index, sides, role) for every physical die an expression needs."""
    wanted: list[tuple[int, int, DieRole]] = []
    for index, term in enumerate(terms):
        for _ in range(term.count):
            if term.sides == 100:
                wanted.append((index, 10, "tens"))
                wanted.append((index, 10, "units"))
            else:
                wanted.append((index, term.sides, "die"))
    return wanted


class Dice:
    """The one roller. Swap ``source`` to change where faces come from."""

    def __init__(self, source: DiceSource | None = None) -> None:
        self.source: DiceSource = source if source is not None else RandomSource()

    def _begin(self, requests: list[FaceRequest]) -> None:
        begin = getattr(self.source, "begin", None)
        if begin is not None:
            begin(requests)

    def _face(self, index: int, sides: int, role: DieRole, purpose: str, expression: str) -> DieFace:
        request = FaceRequest(sides=sides, role=role, purpose=purpose, expression=expression)
        face = self.source.face(request)
        return DieFace(sides=sides, face=face, role=role, term=index)

    def roll(
        self,
        expression: str,
        purpose: str = "",
        modifiers: Sequence[Modifier | tuple[str, int]] = (),
        clamp: tuple[int, int] | None = None,
    ) -> RollRecord:
        """Roll an expression such as ``d100``, ``2d6`` or ``3d4+1``."""
        terms = parse_expression(expression)
        wanted = _dice_for(terms)
        self._begin([FaceRequest(sides=s, role=r, purpose=purpose, expression=expression) for _, s, r in wanted])
        dice = [self._face(i, s, r, purpose, expression) for i, s, r in wanted]
        mods = [m if isinstance(m, Modifier) else Modifier(label=m[0], value=m[1]) for m in modifiers]
        natural = natural_total(terms, dice)
        return RollRecord(
            expression=expression,
            purpose=purpose,
            terms=terms,
            dice=dice,
            natural=natural,
            modifiers=mods,
            clamp=clamp,
            final=_finish(natural, terms, mods, clamp),
            manual=self._given,
        )

    @property
    def _given(self) -> bool:
        """Whether this roller's faces are given (physical dice typed by the player, or a script's faces):
        logged as such (``manual``), a replay takes them from the log instead of the random generator."""
        return isinstance(self.source, (ManualSource, ScriptedSource))

    def d100(self, purpose: str = "", modifiers: Sequence[Modifier | tuple[str, int]] = ()) -> RollRecord:
        """A d100 roll, its final value clamped into 1-100."""
        return self.roll("d100", purpose, modifiers, clamp=(1, 100))

    def reroll(self, record: RollRecord, indexes: Sequence[int]) -> RollRecord:
        """Re-roll the dice at ``indexes`` (Fate), keeping the others and the modifiers.

        The new record's ``manual`` says where the *re-rolled* faces came from (this roller's
        source), not the first roll's: a physical roll re-rolled by the computer is not manual, a
        computer roll re-rolled with physical dice is. A replay needs exactly that to know whether
        the re-roll drew from the random generator (see ``game._physical_faces``).
        """
        if not indexes:
            raise DiceError("Choose at least one die to re-roll.")
        dice = list(record.dice)
        for i in indexes:
            if not 0 <= i < len(dice):
                raise DiceError(f"This roll has no die number {i + 1}.")
        if len(set(indexes)) != len(indexes):
            raise DiceError("Each die can be re-rolled once per re-roll.")
        self._begin(
            [
                FaceRequest(
                    sides=dice[i].sides, role=dice[i].role, purpose=f"{record.purpose} (re-roll)", expression=record.expression
                )
                for i in indexes
            ]
        )
        for i in indexes:
            old = dice[i]
            dice[i] = self._face(old.term, old.sides, old.role, record.purpose, record.expression)
        natural = natural_total(record.terms, dice)
        return record.model_copy(
            update={
                "dice": dice,
                "natural": natural,
                "final": _finish(natural, record.terms, record.modifiers, record.clamp),
                "rerolled": [*record.rerolled, *indexes],
                "manual": self._given,
            }
        )
