"""Fight-odds benchmark (PRODUCT.md §7). A script, not a test: ``python tests/benchmarks/bench_odds.py``.

Bar: the chance to win and the expected HP lost from at least 10,000 simulated fights in
under 200 ms. Times :func:`d100gui.engine.combat.odds.fight_odds` end to end (tables built from the
character and the monster, then 10,000 fights), 20 runs each with a different seed, against
Table E's Giant Rats (a pack with Disease) and Table G's Giant Snake (16 HP, DEF 3, Poison),
for a starting hero (STR 50 / DEX 40 / INT 30, a sword, leather armour, 20 HP, 3 Lives).
Prints the median, the fastest and the slowest run in milliseconds and the odds themselves,
and exits non-zero if a median misses the bar.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from figures import emit

from d100gui.engine.combat.monster import Monster, giant_snake, monster_from_row
from d100gui.engine.combat.odds import fight_odds
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules

FIGHTS = 10_000
RUNS = 20
BAR_MS = 200.0


def starting_hero() -> Character:
    rules = bundled_rules()
    ch = new_character(rules)
    ch.creation = None
    ch.name = "Benchmark"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.fate = ch.lives = 3
    ch.equipment["main_weapon"] = Item(name="Short Sword", kind="weapon", weapon_type="H")
    ch.equipment["torso"] = Item(name="Leather Cuirass", kind="armour", slot="torso", defence=0)
    ch.equipment["arms"] = Item(name="Leather Arm Guards", kind="armour", slot="arms", defence=0)
    ch.equipment["legs"] = Item(name="Leather Tasset", kind="armour", slot="legs", defence=1)
    return ch


def bench(name: str, monster: Monster) -> float:
    rules = bundled_rules()
    hero = starting_hero()
    fight_odds(hero, monster, rules, fights=FIGHTS, seed=0)  # warm-up (imports, first allocations)
    times = []
    odds = None
    for run in range(RUNS):
        start = time.perf_counter()
        odds = fight_odds(hero, monster, rules, fights=FIGHTS, seed=run)
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    assert odds is not None
    print(
        f"{name:<12} median {median:7.1f} ms  (min {min(times):.1f}, max {max(times):.1f})  "
        f"win {odds.win:.3f}  lose {odds.lose:.3f}  escapes {odds.monster_escapes:.3f}  "
        f"HP lost {odds.expected_hp_lost:.2f}"
    )
    return median


def main() -> int:
    library = load_library(None).library
    rats = monster_from_row(library.get("d100.E").find(1))
    snake = giant_snake(library)
    print(f"Fight odds: {FIGHTS} fights per run, median of {RUNS} runs (bar {BAR_MS:.0f} ms)")
    medians = [bench("Giant Rats", rats), bench("Giant Snake", snake)]
    missed = [m for m in medians if m >= BAR_MS]
    print("PASS" if not missed else "FAIL: a median is over the bar")
    for name, median in zip(("Giant Rats", "Giant Snake"), medians, strict=True):
        emit("odds", f"{FIGHTS} fights, {name}, median", median, "ms", f"< {BAR_MS:.0f}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
