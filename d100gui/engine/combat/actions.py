"""What the hero may do at step 2 of the round, and why not."""

from __future__ import annotations

from d100gui.engine.combat.attack import WEAPON_SLOTS, has_weapon, weapon_in
from d100gui.engine.combat.flow import WAIT_TEXT, Fight
from d100gui.engine.game import Campaign
from d100gui.engine.hero.character import derive, refuse
from d100gui.engine.rules.model import Rules

ACTIONS = ("attack_main", "attack_off", "change_weapon", "cast_spell", "use_belt", "escape", "block_escape", "pass")
UNARMED = "You have no weapon: an adventurer without one must flee (there is no unarmed combat)."


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
            out[name] = ""
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
