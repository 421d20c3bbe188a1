"""What the hero may do at step 2 of the round, and why not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.combat.attack import WEAPON_SLOTS, has_weapon, weapon_in
from d100gui.engine.combat.flow import WAIT_TEXT, Fight
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.fight_lock import CHANGE_WEAPON
from d100gui.engine.hero.guards import refuse
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

ACTIONS = ("attack_main", "attack_off", "change_weapon", "cast_spell", "use_belt", "escape", "block_escape", "pass")
UNARMED = "You have no weapon: an adventurer without one must flee (there is no unarmed combat)."
#: each action as the player reads it (the ids stay in the data)
ACTION_WORDS = {
    "attack_main": "Attack",
    "attack_off": "Attack with the off weapon",
    "change_weapon": CHANGE_WEAPON,
    "cast_spell": "Cast a spell",
    "use_belt": "Use a belt item",
    "escape": "Escape",
    "block_escape": "Block its escape",
    "pass": "Hold back",
}


def round_weapons(character: Character) -> dict[str, str]:
    """The weapons in hand, by slot ("" for none): what the round is fought with."""
    return {slot: (weapon.name if (weapon := weapon_in(character, slot)) is not None else "") for slot in WEAPON_SLOTS}


def changed_weapon(c: CombatState, character: Character, slot: str) -> str:
    """Why the weapon in ``slot`` cannot attack this round: it was taken in hand outside the
    fight's Change weapon action ("" when it is the round's weapon)."""
    weapon = weapon_in(character, slot)
    if c.round_weapons is None or weapon is None or c.round_weapons.get(slot, "") == weapon.name:
        return ""
    return (
        f"{weapon.name} was taken in hand this round outside the fight's {CHANGE_WEAPON} action: changing weapons "
        f"costs the attack, so use {CHANGE_WEAPON} (or put it back) and fight with it next round."
    )


def action_words(names: list[str], character: Character) -> str:
    """``"Attack with Sword, Change weapon, Hold back"``: the allowed actions in the player's words."""
    words = []
    for name in names:
        weapon = weapon_in(character, "main_weapon" if name == "attack_main" else "off_weapon")
        if name in ("attack_main", "attack_off") and weapon is not None:
            words.append(f"Attack with {weapon.name}")
        else:
            words.append(ACTION_WORDS.get(name, name.replace("_", " ")))
    return ", ".join(words)


def available_actions(campaign: Campaign, rules: Rules) -> dict[str, str]:
    """Each step-2 action and why it is not allowed now ("" = allowed)."""
    c, ch = campaign.combat, campaign.character
    if c is None or ch is None:
        return dict.fromkeys(ACTIONS, "There is no fight in progress.")
    if c.waiting != "action":
        return dict.fromkeys(ACTIONS, f"The fight is waiting for {WAIT_TEXT[c.waiting]}.")
    armed = has_weapon(ch)
    out: dict[str, str] = {}
    for name, slot in (("attack_main", "main_weapon"), ("attack_off", "off_weapon")):
        if not armed:
            out[name] = UNARMED
        elif c.forfeit_attack:
            out[name] = f"You forfeit your attack this round: {c.forfeit_attack}."
        elif weapon_in(ch, slot) is None:
            out[name] = f"There is no weapon in your {slot.replace('_', ' ')} slot."
        else:
            out[name] = changed_weapon(c, ch, slot)
    backpack_weapon = any(i.kind in ("weapon", "shield") for i in ch.backpack)
    swappable = any(ch.equipment.get(s) is not None for s in WEAPON_SLOTS)
    out["change_weapon"] = "" if (backpack_weapon or swappable) else "You have no weapon to change to."
    out["cast_spell"] = _cast_refusal(campaign, rules) if armed else UNARMED
    if not armed:
        out["use_belt"] = UNARMED
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
        out["block_escape"] = UNARMED
    elif c.forfeit_attack:
        out["block_escape"] = f"Blocking costs your attack, and you have none this round: {c.forfeit_attack}."
    else:
        out["block_escape"] = ""
    out["pass"] = UNARMED if not armed and not c.no_escape else ""
    return out


def _cast_refusal(campaign: Campaign, rules: Rules) -> str:
    ch = campaign.character
    assert ch is not None
    d = derive(ch, rules)
    if any(d.usable_spells):
        return ""
    if not d.abilities.get("spell_caster", True):
        return "Spell Caster is locked (INT below 50): only scrolls work."
    return "No spell in your book is within your INT."


def allowed(f: Fight, action: str) -> None:
    """Refuse unless the fight waits for the action and ``action`` is allowed."""
    f.need("action")
    why = available_actions(f.campaign, f.rules)[action]
    if why:
        refuse(why)
