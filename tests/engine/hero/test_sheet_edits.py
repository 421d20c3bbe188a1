"""Hand corrections on the sheet: validated, refused with a message, marked manual, undoable."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game, replay
from d100gui.engine.hero.creation import (
    CreateCharacter,
    creation_commands,
)
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.sheet_edits import (
    SHEET_EDIT_COMMANDS,
    DiscardItem,
    EditItem,
    SetCharacteristic,
    SetSheetField,
    SetSkillBonus,
    SetSpell,
    SetTrackPips,
)
from d100gui.engine.item_commands import CHARACTER_COMMANDS, AddItem
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()
COMMANDS = (*CHARACTER_COMMANDS, *SHEET_EDIT_COMMANDS)


def hero_game(library):
    """Judith: STR 40 DEX 50 INT 30, Traps and Lucky +5, Baton, Tasset, Cuirass, Gauntlets."""
    campaign = Campaign()
    campaign.meta.seed = 3
    game = Game(campaign, library, commands=COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in (*creation_commands("Judith", {"STR": 40, "DEX": 50, "INT": 30}, ["Traps", "Lucky"]),):
        game.execute(command)
    game.override = None
    return game


@pytest.fixture
def game(bundled_library):
    return hero_game(bundled_library)


def hero(game):
    return game.campaign.character


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (SetSheetField(field="rep", value=11), r"REP must stay between 1 and 10 \(it would be 11\)"),
        (SetSheetField(field="rep", value=0), "REP must stay between 1 and 10"),
        (SetSheetField(field="oil", value=21), r"Oil must stay between 0 and 20 \(it would be 21\)"),
        (SetSheetField(field="food", value=-1), "Food must stay between 0 and 10"),
        (SetSheetField(field="hp", value=21), "HP 21 is above the maximum of 20"),
        (SetSheetField(field="hp", value=-1), "HP cannot go below 0"),
        (SetSheetField(field="gp", value=-5), "GP cannot go below 0"),
        (SetSheetField(field="gp", value="lots"), "GP is a whole number"),
        (SetSheetField(field="name", value="   "), "A name cannot be empty"),
        (SetSkillBonus(skill="Locks", bonus=25), r"Locks must stay between \+0 and \+20 \(it would be \+25\)"),
        (SetSkillBonus(skill="Locks", bonus=7), r"steps of \+5"),
        (SetSkillBonus(skill="Cooking", bonus=5), "There is no skill called 'Cooking'"),
        (SetCharacteristic(stat="STR", primary=85), "between 0 and 80"),
        (SetTrackPips(track="keys", value=11), "The Keys track has 10 pips"),
        (SetTrackPips(track="time", value=12), "refreshes the time track"),
        (SetTrackPips(track="repair", target="torso", value=5), "shading them all destroys it"),
        (SetTrackPips(track="repair", target="head", value=1), "Nothing is equipped in the head slot"),
        (SetTrackPips(track="investment_pips", target="trade", value=5), "0 to 4 pips"),
        (SetTrackPips(track="investment_shares", target="gold", value=1), "no investment called 'gold'"),
        (SetTrackPips(track="experience", target="Locks", value=11), "experience track has 10 pips"),
        (SetTrackPips(track="combat", value=41), "combat track has 40 boxes"),
        (SetSpell(position=11, name="Fireball"), "positions 1 to 10"),
        (DiscardItem(where="belt", index=5), "Belt slot 6 is empty"),
    ],
)
def test_invalid_edits_are_refused_and_change_nothing(game, command, message):
    before = game.campaign.model_dump_json()
    log_length = len(game.campaign.log)
    with pytest.raises(CommandRefused, match=message):
        game.execute(command)
    assert game.campaign.model_dump_json() == before
    assert len(game.campaign.log) == log_length


def test_edits_need_a_finished_character(bundled_library):
    game = Game(Campaign(), bundled_library, commands=COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    with pytest.raises(CommandRefused, match="no character yet"):
        game.execute(SetSheetField(field="gp", value=5))
    game.execute(CreateCharacter())
    with pytest.raises(CommandRefused, match="Finish creating the character first"):
        game.execute(SetSheetField(field="gp", value=5))


# --------------------------------------------------------------------------- the log and undo


def test_a_correction_is_logged_as_manual_and_undo_restores_it(game):
    game.execute(SetSheetField(field="gp", value=50))
    entry = game.campaign.log[-1]
    assert entry.manual is True
    assert entry.command == {"kind": "set_sheet_field", "field": "gp", "value": 50}
    assert "Hand correction: GP 0 -> 50." in entry.messages
    assert game.campaign.log[-2].manual is False  # FinishCharacter is a rules command
    assert hero(game).gp == 50
    game.undo()
    assert hero(game).gp == 0
    assert game.campaign.log[-1].command["kind"] == "finish_character"
    game.redo()
    assert hero(game).gp == 50


def test_the_log_replays_hand_corrections(game, bundled_library):
    start = Campaign.model_validate_json(game.campaign.model_dump_json())
    created = len(game.campaign.log)
    game.execute(SetSheetField(field="name", value="  Judith   the Bold "))
    game.execute(SetTrackPips(track="poison", value=3))
    game.execute(SetSkillBonus(skill="aware", bonus=10))
    replayed = replay(
        game.campaign.log[created:], bundled_library, COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert replayed.character.model_dump() == hero(game).model_dump()
    assert replayed.character.name == "Judith the Bold"


# --------------------------------------------------------------------------- what each edit does


def test_simple_fields(game):
    for field, value in (
        ("fate", 1),
        ("lives", 2),
        ("rep", 10),
        ("quest_encounter_modifier", -10),
        ("oil", 0),
        ("food", 10),
        ("picks", 30),
        ("objectives", 2),
        ("quests_attempted", 3),
        ("quests_completed", 2),
        ("quests_failed", 1),
        ("current_quest", "  The   Lost Crypt "),
        ("notes", "Door at the east end\nis locked."),
        ("res", True),
        ("in_darkness", True),
    ):
        game.execute(SetSheetField(field=field, value=value))
    ch = hero(game)
    assert (ch.fate, ch.lives, ch.rep, ch.quest_encounter_modifier, ch.objectives) == (1, 2, 10, -10, 2)
    assert (ch.supplies.oil, ch.supplies.food, ch.supplies.picks) == (0, 10, 30)
    assert (ch.quest_log.attempted, ch.quest_log.completed, ch.quest_log.failed) == (3, 2, 1)
    assert ch.quest_log.current == "The Lost Crypt"
    assert ch.notes == "Door at the east end\nis locked."
    assert ch.res and ch.in_darkness
    assert derive(ch, RULES).characteristics["DEX"] == 30  # darkness: -20


def test_lower_primary_hp_brings_current_hp_down(game):
    game.execute(SetSheetField(field="hp_primary", value=15))
    ch = hero(game)
    assert (ch.hp_primary, ch.hp) == (15, 15)
    assert "HP down to the new maximum (15)" in game.campaign.log[-1].messages[0]
    game.execute(SetSheetField(field="hp", value=9))
    assert hero(game).hp == 9


def test_tracks(game):
    for track, target, value in (
        ("experience", "str", 4),
        ("experience", "Traps", 9),
        ("repair", "torso", 2),
        ("poison", "", 3),
        ("disease", "", 1),
        ("keys", "", 10),
        ("levers", "", 2),
        ("time", "", 11),
        ("investment_shares", "Finance", 4),
        ("investment_pips", "wars", 3),
        ("combat", "", 3),
    ):
        game.execute(SetTrackPips(track=track, target=target, value=value))
    ch = hero(game)
    assert ch.characteristics["STR"].pips == 4 and ch.skills["Traps"].pips == 9
    assert ch.equipment["torso"].repair_pips == 2
    assert (ch.poison, ch.disease, ch.keys, ch.levers, ch.time_track.shaded) == (3, 1, 10, 2, 11)
    assert (ch.empire["finance"].shares, ch.empire["wars"].pips) == (4, 3)
    assert len(ch.combat_track) == 3
    game.execute(SetTrackPips(track="combat", value=1))
    assert len(hero(game).combat_track) == 1


def test_filling_an_experience_track_adds_five_and_clears(game):
    game.execute(SetTrackPips(track="experience", target="Traps", value=10))
    traps = hero(game).skills["Traps"]
    assert (traps.bonus, traps.pips) == (10, 0)
    assert "Traps +5 -> +10" in game.campaign.log[-1].messages[0]
    game.execute(SetSkillBonus(skill="Traps", bonus=20))
    with pytest.raises(CommandRefused, match=r"at its maximum of \+20"):
        game.execute(SetTrackPips(track="experience", target="Traps", value=10))


def test_repair_pips_on_a_backpack_item(game):
    game.execute(AddItem(item=Item(name="Old Helm", kind="armour", slot="head", value=10)))
    game.execute(SetTrackPips(track="repair", target="backpack:0", value=4))
    assert hero(game).backpack[0].repair_pips == 4
    with pytest.raises(CommandRefused, match="There is no item 2 in the backpack"):
        game.execute(SetTrackPips(track="repair", target="backpack:1", value=1))


def test_characteristics_and_abilities(game):
    game.execute(SetCharacteristic(stat="int", primary=65))
    d = derive(hero(game), RULES)
    assert d.characteristics["INT"] == 65 and d.abilities["spell_caster"]
    game.execute(SetCharacteristic(stat="DEX", primary=45))
    assert not derive(hero(game), RULES).abilities["perfect_aim"]


def test_spell_book(game):
    game.execute(SetSpell(position=1, name="Heal", cost="-1 HP", effect="+3 hp"))
    game.execute(SetSpell(position=6, name="Fireball", cost="-3 HP"))
    book = hero(game).spell_book
    assert (book[0].name, book[0].cost, book[5].name) == ("Heal", "-1 HP", "Fireball")
    game.execute(SetSpell(position=1))
    assert hero(game).spell_book[0] is None
    with pytest.raises(CommandRefused, match="already empty"):
        game.execute(SetSpell(position=1))


def test_edit_and_discard_items(game):
    cuirass = hero(game).equipment["torso"]
    game.execute(EditItem(where="equipment", slot="torso", item=cuirass.model_copy(update={"defence": 2, "hp_bonus": 3})))
    ch = hero(game)
    assert derive(ch, RULES).defence["torso"] == 2 and derive(ch, RULES).max_hp == 23
    shield = Item(name="Buckler", kind="shield", slot="off_weapon", shield=1)
    with pytest.raises(CommandRefused, match="shields are always equipped to the off weapon slot"):
        game.execute(EditItem(where="equipment", slot="torso", item=shield))
    with pytest.raises(CommandRefused, match="Only brews, potions and scrolls go on the belt, not Rock"):
        game.execute(EditItem(where="belt", index=0, item=Item(name="Rock")))
    game.execute(SetSheetField(field="hp", value=23))
    game.execute(DiscardItem(where="equipment", slot="torso"))
    ch = hero(game)
    assert ch.equipment["torso"] is None and ch.hp == 20
    assert "Leather Cuirass discarded from the torso slot. HP 23 -> 20." in game.campaign.log[-1].messages[0]
    game.execute(DiscardItem(where="belt", index=1))
    assert [b is None for b in hero(game).belt[:3]] == [False, True, False]
