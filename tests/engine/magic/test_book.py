"""The spell book and casting outside a fight, with scripted dice."""

from __future__ import annotations

import pytest
from magic_support import RULES, dice_left, game_for, hero, kinds, run, scripted, sheet

from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.hero.model import Item
from d100gui.engine.magic.book import positions
from d100gui.engine.protocol import CommandRefused

SIX = ["Open Magic", "Resurrection", "Healing", "Heal", "Fire Blast", "Fire Ball"]


def _learn(game, *names: str) -> list[int]:
    return [run(game, "learn_spell", spell=name)[0].payload().index for name in names]


def test_the_rulebook_int_67_55_65_example():
    """INT 67 with six spells; a curse costs 12 INT (three CLUELESS, -4 each): at 55 the sixth spell
    is kept but cannot be cast; a Ring of Wisdom (INT +10) makes 65 and the sixth is back."""
    ch = hero()
    ch.characteristics["INT"].primary = 67
    ch.backpack = [Item(name="Ring of Wisdom", kind="jewellery", slot="ring_1", bonuses={"INT": 10})]
    game = game_for(ch)
    assert _learn(game, *SIX) == [0, 1, 2, 3, 4, 5]
    assert [p.castable for p in positions(sheet(game), RULES)][:7] == [True] * 6 + [False]
    scripted(game, 0, 5, 0, 5, 0, 5)  # Table C 5, three times: CLUELESS
    for _ in range(3):
        assert run(game, "roll_curse")[0].payload().result.curse == "Clueless"
    assert sheet(game).characteristics["INT"].primary == 55
    sixth = positions(sheet(game), RULES)[5]
    assert sixth.spell is not None and sixth.spell.name == "Fire Ball" and not sixth.castable and not sixth.in_reach
    assert [p.castable for p in positions(sheet(game), RULES)][:5] == [True] * 5
    with pytest.raises(CommandRefused, match=r"Position 6 needs INT 60 \(yours is 55\): the spell is kept"):
        run(game, "cast_spell", index=5)
    run(game, "equip_item", index=0, slot="ring_1")
    sixth = positions(sheet(game), RULES)[5]
    assert sixth.castable and sixth.spell is not None and sixth.spell.name == "Fire Ball"
    assert dice_left(game) == 0


def test_spells_fill_the_first_free_position_and_never_swap():
    game = game_for(hero())  # INT 30: Spell Caster locked, yet spells may be added
    _learn(game, "Heal", "Fire Blast", "Open Magic")
    removed = run(game, "remove_spell", index=0)[0].payload()
    assert (removed.spell, removed.index) == ("Heal", 0)
    book = sheet(game).spell_book
    assert book[0] is None and book[1].name == "Fire Blast" and book[2].name == "Open Magic"
    assert _learn(game, "Ice Storm") == [0]
    assert [e.name if e else None for e in sheet(game).spell_book[:4]] == ["Ice Storm", "Fire Blast", "Open Magic", None]
    learned = run(game, "learn_spell", spell="FIRE BALL")[0].payload()
    assert learned.index == 3 and sheet(game).spell_book[3].cost == "-2 HP"
    with pytest.raises(CommandRefused, match=r"not a spell of d100.S"):
        run(game, "learn_spell", spell="Lightning")
    with pytest.raises(CommandRefused, match=r"Spell book position 9 is empty"):
        run(game, "remove_spell", index=8)


def test_a_spell_from_a_table_s_roll_and_from_a_scroll():
    ch = hero()
    ch.belt[2] = Item(name="Scroll of Resurrection", kind="scroll")
    game = game_for(ch)
    scripted(game, 1, 0)  # Table S 10: HEALING
    learned = run(game, "learn_spell", from_table=True)[0].payload()
    assert (learned.spell, learned.source, learned.table_roll.roll.final) == ("Healing", "table", 10)
    copied = run(game, "learn_spell", belt_slot=3)[0].payload()
    assert (copied.spell, copied.index, copied.source) == ("Resurrection", 1, "scroll")
    assert sheet(game).belt[2] is None
    scripted(game, 9, 9)  # Table S 99: not in the excerpt
    assert kinds(run(game, "learn_spell", from_table=True)) == ["magic_spell_roll_missing"]


def test_casting_from_the_book_needs_spell_caster():
    game = game_for(hero())
    _learn(game, "Heal")
    with pytest.raises(CommandRefused, match=r"Spell Caster is locked until INT reaches 50: only scrolls work"):
        run(game, "cast_spell", index=0)


def _caster(int_value: int = 55, hp: int = 20):
    ch = hero()
    ch.characteristics["INT"].primary = int_value
    ch.hp = hp
    return ch


def test_heal_pays_its_str_then_the_int_test_restores_10_hp():
    game = game_for(_caster(hp=8))
    _learn(game, "Heal")
    scripted(game, 2, 0)  # CAST SPELL 20 <= 55
    events = run(game, "cast_spell", index=0)
    # the STR cost and the HP healed: each told by its typed event (the statistics read them)
    assert kinds(events) == ["magic_cast", "characteristic", "magic_spell_effect", "hp"]
    cast = events[0].payload()
    assert (cast.target, cast.success, cast.paid) == (55, True, ["1 STR (primary now 49)"])
    assert events[2].payload().effect == "healed" and sheet(game).hp == 18
    assert (events[3].data["delta"], events[3].data["hp"]) == (10, 18)


def test_healing_resurrection_and_open_magic_outside_a_fight():
    game = game_for(_caster(hp=5))
    _learn(game, "Healing", "Resurrection", "Open Magic")
    scripted(game, 3, 0, 3, 0, 3, 0)
    run(game, "cast_spell", index=0)
    assert sheet(game).hp == 20 and sheet(game).characteristics["STR"].primary == 48
    run(game, "cast_spell", index=1)
    assert sheet(game).res and sheet(game).characteristics["STR"].primary == 43
    opened = run(game, "cast_spell", index=2)
    assert kinds(opened) == ["magic_cast", "hp", "magic_spell_effect"]  # the 1 HP cost: its typed event
    assert opened[2].payload().effect == "open_magic_seal" and sheet(game).hp == 19
    assert (opened[1].data["delta"], opened[1].data["hp"]) == (-1, 19)


def test_a_failed_cast_rolls_table_c_and_a_low_natural_roll_earns_experience():
    game = game_for(_caster())
    _learn(game, "Open Magic")
    scripted(game, 9, 0, 0, 5)  # CAST SPELL 90 > 55: Table C 5 CLUELESS
    events = run(game, "cast_spell", index=0)
    # Open Magic's 1 HP cost, then CLUELESS lowers INT: each told by its typed event
    assert kinds(events) == ["magic_cast", "hp", "magic_curse", "characteristic"]
    assert sheet(game).characteristics["INT"].primary == 51
    scripted(game, 0, 5)  # natural 5: success and experience
    events = run(game, "cast_spell", index=0)
    assert kinds(events) == ["magic_cast", "hp", "decision", "magic_spell_effect"]
    choice = game.campaign.pending[-1]
    assert choice.decision == "experience" and choice.characteristic == "INT" and choice.skills == ["Magic"]


def test_a_scroll_casts_without_spell_caster_and_is_used_up():
    ch = hero(gp=0)
    ch.hp = 10
    ch.belt[0] = Item(name="Scroll of Heal", kind="scroll")
    game = game_for(ch)
    scripted(game, 2, 0)  # 20 <= INT 30
    events = run(game, "cast_spell", belt_slot=1)
    assert events[0].payload().source == "scroll" and sheet(game).belt[0] is None and sheet(game).hp == 20
    with pytest.raises(CommandRefused, match=r"Belt slot 1 holds no scroll"):
        run(game, "cast_spell", belt_slot=1)


def test_attack_spells_wait_for_a_fight_and_a_fight_casts_its_own_way():
    game = game_for(_caster())
    _learn(game, "Fire Ball")
    with pytest.raises(CommandRefused, match=r"Fire Ball strikes a monster at the start of the next combat round"):
        run(game, "cast_spell", index=0)
    assert sheet(game).hp == 20
    _learn(game, "Heal")  # learnt before the fight: no spell is learnt during one (issue 26)
    game.campaign.combat = CombatState(monster=Monster(name="Giant Rats", av=25, hp=[3, 2, 2]), hp=[3, 2, 2])
    with pytest.raises(CommandRefused, match=r"during a fight"):
        run(game, "cast_spell", index=1)


def test_a_cost_that_takes_the_last_hp_uses_a_life_first():
    ch = _caster(hp=1)
    ch.lives = 1
    game = game_for(ch)
    _learn(game, "Open Magic")
    scripted(game, 2, 0)
    events = run(game, "cast_spell", index=0)
    assert "death_cheated" in kinds(events) and sheet(game).lives == 0 and sheet(game).hp == 20
