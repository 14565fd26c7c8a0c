"""The standard game of Diplomacy: seven powers, 75 provinces, simultaneous orders and no dice.

Being built (issue 27), not registered in ``RULESETS`` yet. The adjudication is pure and stands apart from
the engine's turn: ``pieces`` (units, orders, outcomes), ``board`` (the standard map, read from
``rules/map.yaml``), ``notation`` (order text as players and the DATC write it), ``legality`` (the rule
an order breaks), ``adjudication`` (a movement phase: moves, supports and convoys resolved together),
``retreats`` and ``adjustments`` (the other two phases of a year).
"""
