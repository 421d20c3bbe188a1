"""Combat: monsters, the combat round as pure step functions plus thin commands, the odds.

``monster`` (models and the fight's state) · ``abilities`` (the Monster Abilities as rules,
shared by the round and the odds) · ``printed`` (the combat tests as printed) · ``flow``
(the Fight context, held rolls, tests, the step loop) · ``steps`` · ``attack`` · ``defence``
· ``spells`` · ``rewards`` · ``actions`` · ``events`` (every kind the fight emits) · ``odds``
(the simulator) with ``odds_tables`` (its probability tables). Each name is imported from the
module that defines it (no front-door module). The fight's commands are a floor above, over the
effects interpreter they hand to the fight (:mod:`d100gui.engine.fight_commands`), and starting a
fight, which hands an offered monster to the adventure's turn, above that
(:mod:`d100gui.engine.fight_start`, with the fights an event or a roll offers).

The fight lives in ``Campaign.combat`` (:class:`~.monster.CombatState`), so a save made at
any moment restores exactly. A fight is a small state machine (``CombatState.step``) that
runs until it needs the player, who is then *waiting* on one of:

* ``roll`` — a roll was just made (reaction, Dark Magic, damage, hit location, the
  monster's attack, a Belt Check, ...). While the hero has Fate (and ``fate_windows`` is
  on) the fight stops so :class:`CombatFate` can re-roll any of its dice; otherwise it
  carries on at once. :class:`CombatContinue` accepts the roll.
* ``test`` — a combat test (SURPRISE, FEAR, the attack roll, ESCAPE COMBAT, BLOCK ESCAPE,
  CAST SPELL, AVOID WEB / FIRE / FREEZE, DAZED) rolled as a
  :class:`~d100gui.engine.hero.decisions.PendingTest`: the skill-test machinery's Fate window
  (:class:`~d100gui.engine.skill_test_commands.UseFate` or :class:`CombatFate`) and experience on a natural roll of
  10 or less (an :class:`~d100gui.engine.hero.decisions.ExperienceChoice`). :class:`CombatContinue` settles it.
* ``action`` — step 2: :class:`CombatAttack`, :class:`CombatChangeWeapon`,
  :class:`CombatCastSpell`, :class:`CombatUseBelt`, :class:`CombatEscape`,
  :class:`CombatBlockEscape` or :class:`CombatPass`. :func:`~.actions.available_actions` says which
  are allowed and why not.
* ``aim`` / ``aim_pick`` — Perfect Aim: keep the hit location or re-roll it, then pick
  (:class:`CombatPerfectAim`).
* ``offset`` — up to 2 points of damage onto the item at the location hit and up to the
  shield's S rating onto the shield (:class:`CombatOffset`).
* ``loot`` — a ``[K:...]`` offering a choice of tables (:class:`CombatChooseLoot`).
* ``row`` — a loot or Table C roll landed on a row the tables lack: :class:`CombatProvideRow`
  with the row typed from the rulebook (applied at once), or ``sample`` (re-roll among the
  printed rows this time), or, for loot only, nothing (go without).

The round, as the rulebook orders it: spells cast last round land (Fire Blast, Fire Ball,
Ice Storm); the monster's reaction (d10); Dark Magic (d10); the FEAR test; the hero's action
(step 2); the hero's damage (step 3: d6 + d10 location, Perfect Aim, Mighty Blow); the
monster's attack (step 4, even if it was killed in step 3: both attacks are simultaneous);
its damage (step 5: Large, Regenerate, Disease, Poison, Defence Bonus, DEF, Death Touch,
offsets, Drain Life, Belt Check on a waist hit, AVOID FIRE / FREEZE, DAZED); AVOID WEB at
the end of the round. A killed monster may resurrect (d10 = 1) before it is looted; a
defeated one goes on the combat track (milestones from the sheet layout) and its loot is
rolled. HP at 0 or less spends RES, then a Life; with neither the hero dies and joins the
hall of the fallen.

Rules judgment calls (the rulebook is silent or ambiguous; each with its reason):

* **Pack damage** goes to the individuals in printed order; what a hit leaves over after
  killing one carries on to the next ("the number of HP that is dealt to the monster or
  monsters"). Healing (Regenerate, Drain Life) restores the hurt living individual only:
  the dead stay dead. "Less than half its HP" compares the pack's HP together with its
  printed total. The Pack AV bonus is counted at the start of the round ("at the start of
  each combat round"), so individuals killed this round still count for this round's attack.
* **Several individuals without the Pack ability** (a "3/2/3/3" row with no Special) take
  damage the same way but get no AV bonus: the bonus is the Pack ability's.
* **A killed monster still attacks in the same round** (simultaneous attacks), but its
  Regenerate and Drain Life cannot bring it back to life; a monster killed by a spell at
  the start of a round dies before it acts. An escaping monster does not attack.
* **Escape reactions** (10; 9 if damaged last round; 8 if below half HP) end the round for
  the monster: the hero may still attack; if it survives it is removed (no track box, no
  loot) and recorded in ``Campaign.escaped_monsters`` as ``escaped_by="monster"``. When
  the hero escapes it is recorded as ``escaped_by="hero"`` (the map marks it: full HP).
* **BLOCK ESCAPE success** goes, as printed, to step 3: the hero's damage roll with the
  weapon named in the command, then the monster attacks as normal.
* **Forfeiting the attack** (FEAR, AVOID WEB, DAZED) forbids attacking and blocking only;
  "No Escape" and "cannot use belt slots" are listed separately where they apply, so a
  feared hero may still escape, cast, change weapon or drink. Web and Dazed act on the
  next round; FEAR on the round it is rolled in.
* **No weapon** means no weapon in either weapon slot: the hero may only escape (or pass
  when escape is barred), or change weapon if the backpack holds one.
* **(H,R) weapons** need STR or DEX named in the command; a weapon without a type counts as
  a hand weapon (STR). Mighty Blow applies to any weapon's damage die.
* **Perfect Aim** is offered after the damage and location roll (and its Fate window).
* **Attacks N**: each attack rolls against the same AV; the hits' damage dice are added for
  one combined total, with the location mod, DMG, Defence Bonus and DEF applied once.
  The Defence Bonus applies when the natural total of the counted dice is at most DB.
  Every natural 1 among the dice triggers Disease / Poison / Fire / Freeze / Regenerate.
* **Large** re-rolls a 1 or 2 until it shows 3 or more (a re-rolled 1 or 2 is again "a
  damage dice result of 1 and 2").
* **Regenerate**: a die showing 1 deals nothing and restores 1 HP; the other dice still deal
  damage (with the location mod and DMG); if every die shows 1 there is no damage at all.
* **Death Touch / AVOID FREEZE** lower the location's DEF, never below 0 ("ignores some of
  the character's DEF"). A Brew of Dodge adds its DEF to the location hit.
* **DAZED** is tested when HP are actually lost (after offsets), once per damaging attack.
* **Offsets**: up to 2 points onto the item at the location hit (1 pip each), and up to the
  shield's S rating onto an equipped shield (half a pip each, the odd half carried in
  ``Campaign.shield_half_pip``); both may apply when the shield itself is hit. A full
  track destroys the item. A Belt Check follows every waist hit, whatever the damage.
* **Tough** halves damage rounding down (each HP needs 2 damage), spells included.
  **Ethereal** takes damage only from legendary weapons and spells (book or scroll).
* **Spells**: the cost is paid first (HP, or primary STR for "-2 STR"), then CAST SPELL
  (INT + Magic + the spell bonus given in the command); a failure rolls Table C, whose
  printed curses are applied (DIVINE WRATH kills a hero with fewer than 2 Lives). A scroll
  casts its spell the same way but without needing Spell Caster or the INT level; it is
  used up either way. Fire Blast deals 2 (no DEF), Fire Ball and Ice Storm d10 - DEF at
  the start of the next round; Ice Storm's frozen monster neither reacts nor attacks that
  round and the hero gains +10 to hit.
* **Brews** last until used within this fight: +STR/DEX/INT for the next test or attack of
  that characteristic, +DMG for the next damage roll, +DEF before the monster's next damage.
* **Resurrection** is rolled every time the monster is killed, before the loot.
* **Lives**: HP 0 or less spends RES first, then a Life (HP back to maximum); with neither
  the hero dies: ``dead`` is set and the sheet moves to ``Campaign.hall_of_fallen``.
* **Combat track**: a box is filled when a monster is defeated (the rulebook's main text),
  with the milestone printed at that box (sheet layout); ``Character.combat_track`` keeps
  every defeated monster, box = (n - 1) % length + 1, so a full sheet starts a new one.
* **Loot**: each ``[K:...]`` table is rolled with its modifier (a "/" lets the player
  choose) and put on the sheet by the engine (:mod:`.loot`): a Table P part goes in the
  backpack as "<monster> <PART>" with its value; Table A / W rows become the armour or
  weapon; a bracketed effect ("(+1 Food)", "(Shade in 1 Key Pip)", "(Add one Objective)") is
  applied instead of carrying anything; coins ("SILVER PIECES") are gold; any other row is an
  item (a brew, potion, scroll or elixir of that kind, with its effect text and value) in
  the backpack (a potion with the unequipped potions).
* **Fate** re-rolls any dice of the roll or test the fight is waiting on; the fight only
  stops for it while the hero has Fate (and ``fate_windows`` is on). Table rolls (loot,
  Table C) are held the same way and applied only once accepted; Unskilled's d10 is not.
* **Weapons** in hand when the round starts are the round's: one taken in hand any other way
  than the Change weapon action cannot attack (or block) until the next round.
"""
