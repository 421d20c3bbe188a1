"""The odds simulator agrees with fights played through the real combat commands.

Both sides use the same rule functions (``engine/combat/abilities.py``), but the simulator
folds them into probability tables while the round plays them die by die. Here a few
thousand seeded fights go through :class:`Game` with the policy the simulator assumes
(attack with the best weapon, let an escaping monster go, never escape, accept every roll,
offset nothing, no Fate), and the win rate and mean HP lost must agree with the
simulator's within 4 standard errors.
"""

from __future__ import annotations

import math

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.actions import available_actions
from d100gui.engine.combat.monster import Monster, giant_snake, monster_from_row, typed_monster
from d100gui.engine.combat.odds import fight_odds
from d100gui.engine.fight_commands import CombatAttack, CombatContinue, CombatOffset, CombatPass, CombatProvideRow
from d100gui.engine.fight_start import COMBAT_COMMANDS, StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.storage.resources import bundled_rules, standard_tilesets

# slow: left out of `make check` (the fast lane); `make test` runs it
pytestmark = pytest.mark.slow

RULES = bundled_rules()
SIMULATED = 40_000
BOUND = 4.0  # standard errors


def hero() -> Character:
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Agreement"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.fate = 0
    ch.lives = 1
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", weapon_type="H")
    ch.equipment["legs"] = Item(name="Leather Tasset", kind="armour", slot="legs", defence=1)
    return ch


def play(library, monster: Monster, fights: int, seed0: int) -> tuple[list[int], list[int]]:
    """(won 0/1, HP lost) of each fight played through the commands with the simulator's policy."""
    won, lost = [], []
    tilesets = standard_tilesets()
    for i in range(fights):
        campaign = Campaign(character=hero())
        campaign.meta.seed = seed0 + i
        game = Game(campaign, library, commands=COMBAT_COMMANDS, rules=RULES, tilesets=tilesets)
        events = list(game.execute(StartCombat(source="monster", monster=monster, fate_windows=False)))
        while game.campaign.combat is not None:
            waiting = game.campaign.combat.waiting
            if waiting == "action":
                can_attack = not available_actions(game.campaign, RULES)["attack_main"]
                command = CombatAttack() if can_attack else CombatPass()
            elif waiting == "offset":
                command = CombatOffset()
            elif waiting == "row":  # a loot row the excerpt lacks: go without (the odds do not count loot)
                command = CombatProvideRow()
            else:
                command = CombatContinue()
            events += game.execute(command)
        end = next(e for e in reversed(events) if e.kind in ("combat_over", "hero_died"))
        won.append(int(end.data["outcome"] == "won"))
        lost.append(sum(-e.data.get("delta", 0) for e in events if e.kind == "combat_hero_hp"))
    return won, lost


def _mean_sd(values: list[int]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(var)


#: the monsters, and how many fights each plays (a long fight costs more: the snake's last ~10 rounds)
MONSTERS = {
    "giant rats (pack, disease)": (lambda lib: monster_from_row(lib.get("d100.E").find(1)), 500),
    "giant snake (poison, DEF 3)": (giant_snake, 300),
    "bat swarm (fly, surprise, pack)": (lambda lib: monster_from_row(lib.get("d100.E").find(11)), 450),
    "cultist (dark magic, regenerate, stunned)": (
        lambda lib: typed_monster("Cultist", av=35, hp=9, defence=1, dmg=1, special="Dark Magic, Regenerate, Stunned"),
        450,
    ),
}


@pytest.mark.parametrize("name", list(MONSTERS))
def test_win_rate_and_hp_lost_agree(bundled_library, name):
    make, fights = MONSTERS[name]
    monster = make(bundled_library)
    won, lost = play(bundled_library, monster, fights, seed0=50_000)
    odds = fight_odds(hero(), monster, RULES, fights=SIMULATED, seed=11)

    p = odds.win
    se_win = math.sqrt(max(p * (1 - p), 1e-4) * (1 / fights + 1 / SIMULATED))
    played_win = sum(won) / fights
    assert abs(played_win - odds.win) <= BOUND * se_win, (name, played_win, odds.win, se_win)

    played_lost, sd = _mean_sd(lost)
    se_lost = max(sd, 0.5) * math.sqrt(1 / fights + 1 / SIMULATED)
    assert abs(played_lost - odds.expected_hp_lost) <= BOUND * se_lost, (name, played_lost, odds.expected_hp_lost, se_lost)
