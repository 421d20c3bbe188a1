"""The combat tests exactly as the rulebook prints them, parsed once.

The round rolls them (:func:`.flow.roll_test`), the odds simulator reads their targets, and
the combat panel shows their text, all from here.
"""

from __future__ import annotations

from d100gui.engine.rules.model import STATS
from d100gui.engine.rules.notation import TestSpec, parse_test


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

#: HP lost on a failed test, as printed in its [F: ...] (the round applies them)
FAILED_TEST_HP = {"escape": 2, "fire": 2, "freeze": 1}
#: AVOID FREEZE failed: DEF lost next round
FREEZE_DEF_PENALTY = 2
