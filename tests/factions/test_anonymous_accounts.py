"""An action seen but not its doer is told from the few facts everyone may know (``ANONYMOUS_KEYS``):
every action's sentence reads from those alone, without an internal id, for whichever action it is."""

from __future__ import annotations

import pytest

from resolver.core.events import Event
from resolver.engine.ruleset import Game, get_ruleset
from resolver.rulesets.factions.phases import ANONYMOUS_KEYS
from resolver.workflow import default_factions, new_campaign

FACTS = {  # what the anonymous account of an action may carry, as the phases give it
    "action": "act",
    "band": "success",
    "location": "p-noby/docks",
    "location_name": "Docks of Noby",
    "npc": "watch",
    "npc_name": "The City Watch",
    "target": "red",
    "type_name": "Agitators",
    "destroyed": ["Agitators"],
    "holding_lost": True,
    "taken": True,
    "item": "a forged seal",
    "joined": ["x"],
}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    root = tmp_path_factory.mktemp("anonymous")
    return new_campaign(root, "factions", 3, default_factions(2, 3))


@pytest.mark.parametrize("action", sorted(get_ruleset("factions").default_rules()["catalogue"]))
def test_every_action_reads_when_its_doer_is_unseen(game: Game, action: str) -> None:
    assert set(FACTS) == set(ANONYMOUS_KEYS)
    data = {**FACTS, "action": action, "unidentified": True}
    event = Event(action, "actions", [], "p-noby", data)
    text = game.ruleset.describe(event.to_data(), game)
    assert text and "{" not in text and "_" not in text, text


@pytest.mark.parametrize("action", sorted(get_ruleset("factions").default_rules()["catalogue"]))
def test_the_street_retells_every_action_whose_doer_went_unseen(game: Game, action: str) -> None:
    """The street's headline about an anonymous deed keeps what the deed's account keeps, no more."""
    from resolver.rulesets.factions.phases import GIST_KEYS

    gist = {key: value for key, value in {**FACTS, "unidentified": True}.items() if key in GIST_KEYS}
    event = Event("headline", "interpretation", [], "p-noby", {**gist, "topic": action})
    text = game.ruleset.describe(event.to_data(), game)
    assert text and "{" not in text and "_" not in text, text
