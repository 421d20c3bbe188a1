"""A large campaign for benchmarks: a demo hero, 100 quests in the log, 2,000 mapped areas.

Built with the real engine: the demo campaign (real commands), then 2,000 areas placed with
``place_manual`` over 20 dungeons of 100 areas (one per quest attempt), and the quest log
filled in. Cached in a temp file so the startup benchmark can open it cold.
"""

from __future__ import annotations

import random
from pathlib import Path

from d100gui.demo import build_demo_campaign
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.dungeon.map import ROTATIONS, Dungeon, DungeonBook, place_manual
from d100gui.storage.campaigns import save_campaign
from d100gui.storage.packs import load_library
from d100gui.storage.resources import standard_tileset

AREAS = 2000
DUNGEONS = 20
QUESTS = 100


def _dungeon(index: int, areas: int, doors: TableRoller, rng: random.Random) -> Dungeon:
    tileset = standard_tileset()
    d = Dungeon(id=f"bench-{index}", name=f"Quest {index}", width=15, height=11)
    placed = 0
    for row in range(d.height):
        for col in range(d.width):
            if placed >= areas or (col, row) == d.outside:
                continue
            d, _ = place_manual(d, col, row, tileset.tile(rng.randint(1, 100)), rng.choice(ROTATIONS), doors)
            placed += 1
    return d


def large_campaign(seed: int = 7, log_entries: int = 5000, history_per_entry: float = 0.0) -> Campaign:
    """The large campaign; ``log_entries`` long, with ``history_per_entry`` dice-history lines per log entry.

    A played campaign keeps about one dice-history line per roll; 0 keeps the demo's history.
    """
    library = load_library(None).library
    campaign = build_demo_campaign(library)
    rng = random.Random(seed)
    doors = TableRoller(library, Dice(RandomSource(seed)), MissingRowPolicy.REROLL)
    dungeons = [_dungeon(i + 1, AREAS // DUNGEONS, doors, rng) for i in range(DUNGEONS)]
    campaign.dungeons = DungeonBook(dungeons=dungeons, current=len(dungeons) - 1)
    assert campaign.character is not None
    campaign.character.quest_log.attempted = QUESTS
    campaign.character.quest_log.completed = 80
    campaign.character.quest_log.failed = 20
    # 100 quests attempted and 100 ended: none is under way (bare map moves are refused during one)
    campaign.adventure.quest = campaign.adventure.turn = None
    campaign.character.quest_log.current = ""
    # a long command log, as 100 quests would leave
    entries = list(campaign.log)
    while len(campaign.log) < log_entries:
        for entry in entries:
            campaign.log.append(entry.model_copy(update={"index": len(campaign.log)}))
    del campaign.log[log_entries:]
    lines = list(campaign.dice_history)
    while lines and len(campaign.dice_history) < int(log_entries * history_per_entry):
        campaign.dice_history.extend(lines)
    return campaign


def large_campaign_file(directory: Path) -> Path:
    path = directory / "large.d100.json"
    if not path.exists():
        save_campaign(large_campaign(), path)
    return path


#: the monster the action benches fight (it survives many rounds), and the answer to each thing a fight waits for
BENCH_MONSTER = {"name": "Bench troll", "av": 5, "defence": 0, "dmg": 0, "hp": [60]}
FIGHT_ANSWERS = {
    "action": {"kind": "combat_attack"},
    "roll": {"kind": "combat_continue"},
    "test": {"kind": "combat_continue"},
    "offset": {"kind": "combat_offset"},
    "loot": {"kind": "combat_choose_loot", "option": 0},
    "aim": {"kind": "combat_perfect_aim", "choice": "keep"},
    "aim_pick": {"kind": "combat_perfect_aim", "choice": "first"},
}
