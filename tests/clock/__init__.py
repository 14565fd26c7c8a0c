"""A tiny ruleset that plays a turn as three days (``ticks: 3``), for the clock's tests only.

It lives outside ``resolver/rulesets`` and is not in ``RULESETS``: no campaign can choose it, and the
tests load it with ``ruleset_at("tests.clock")``."""

from __future__ import annotations

from resolver.engine.ruleset import Ruleset


class Clockwork(Ruleset):
    id = "clockwork"
    title = "Clockwork"
    summary = "Three days to a turn: a muster, then each day a patrol, with a blessing on the first day."


RULESET = Clockwork()
