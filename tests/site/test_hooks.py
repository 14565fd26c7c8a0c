"""The ruleset hooks the site uses, with their defaults for rulesets that do not implement them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from resolver.core.rulesdoc import SHARED_KEYS, RulesTable, generic_sections
from resolver.engine.ruleset import Game, Ruleset, get_ruleset
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign


class Bare(Ruleset):
    """A ruleset with no headlines.yaml and no rules_sections of its own (the defaults)."""

    id = "bare"


def nations_game(tmp_path: Path) -> Game:
    root = tmp_path / "camp"
    new_campaign(root, "nations", 4, default_factions(2, 4))
    return Store(root).game()


def event(kind: str, actors: list[str], **data: Any) -> dict[str, Any]:
    return {"kind": kind, "actors": actors, "place": None, "data": data, "visibility": "public"}


def test_default_headlines_cover_the_shared_events_only(tmp_path: Path) -> None:
    game = nations_game(tmp_path)
    bare = Bare()
    tale = event("gm_narrate", [], headline="A comet in the sky", text="")
    assert bare.headline(tale, game) == (90, "A comet in the sky")
    assert bare.headline(event("battle", ["red", "blue"]), game) is None


def test_nations_headlines_rank_what_matters(tmp_path: Path) -> None:
    game = nations_game(tmp_path)
    ruleset = get_ruleset("nations")
    falls = event("settlement_falls", ["red"], choice="capture", settlement="Oakham", owner="blue")
    found = event("settlement_founded", ["red"], settlement="Newby", type="farming")
    nothing = event("exploration", ["red"], outcome="nothing", amount=0, army="1")
    assert ruleset.headline(falls, game) == (100, f"Oakham falls to {game.name_of('red')}")
    assert ruleset.headline(found, game)[0] < ruleset.headline(falls, game)[0]
    assert ruleset.headline(nothing, game) is None  # an empty text is no news


def test_default_rules_sections_show_every_block_of_rules_data(tmp_path: Path) -> None:
    game = nations_game(tmp_path)
    sections = generic_sections(game.rules)
    # Each check has its own section (keyed checks.<id>), so its house-rule notes show beside its table.
    assert {s.keys[0].split(".")[0] for s in sections} == {k for k in game.rules if k not in SHARED_KEYS}
    combat = next(s for s in sections if s.keys == ("combat",))
    table = combat.blocks[0]
    assert isinstance(table, RulesTable)
    assert ("Max rounds", game.rules["combat"]["max_rounds"]) in table.rows
    assert Bare().rules_sections(game) == sections


def test_nations_rules_sections_take_their_numbers_from_the_house_rules(tmp_path: Path) -> None:
    game = nations_game(tmp_path)
    ruleset = get_ruleset("nations")
    changed = replace(game, rules={**game.rules, "actions": {"per_turn": 5, "fast_movement": 2}})
    text = str(ruleset.rules_sections(changed)[0].blocks[0])
    assert "**5 action points**" in text
    titles = [s.title for s in ruleset.rules_sections(game)]
    assert {"Combat", "Settlements", "Units"} <= set(titles)
