"""The combat dock: :class:`~.panel.CombatPanel` and its parts.

``record`` (the fight read from the log's events, no Qt) · ``panel`` (composes the parts) ·
``monster_card`` · ``hero_box`` · ``steps_view`` · ``decision_view`` · ``actions`` (step 2 and
the keys) · ``odds_view`` · ``start_dialog`` · ``dice_views`` · ``widgets``.
"""
