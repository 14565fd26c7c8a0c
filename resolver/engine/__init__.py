"""The turn: what a ruleset plugs into, and the one table that runs a turn.

``ruleset`` is the plug-in boundary (``Game``, ``Ruleset``); ``context`` the turn a phase sees;
``steps`` the engine's own rows of the turn table and the loop that runs it; ``turn`` resolves one
turn, a pure function of the state and the checked orders; ``plans`` reads an order once for checker and
resolver; ``gm`` the GM's orders; ``validate``, ``bots`` and ``absence`` the checked, the bot's and the
stand-in order files. It reads no file, no clock and no git, and imports only ``core``.
"""
