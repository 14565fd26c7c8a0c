"""The titles chapter's orders in a whole month: STANCE, CLAIM of a title on the hero's own place, GUARD
under that title, the press reward before day 1, and the taxes the title brings at month end."""

from __future__ import annotations

from resolver.core.orders import Article, OrderFile
from resolver.engine.turn import resolve_turn

from .support import game, order_file, start, unit_of


def test_stance_claim_guard_press_and_taxes_in_one_month() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = state["units"][hero]["location"]
    place = state.setdefault("places", {}).setdefault(where, {})
    place["title"] = {"tag": "shrf", "holder": None}
    place["taxes"] = 1000
    state["units"][hero]["skills"]["cmbt"] = 15
    state["units"][hero].setdefault("items", {})["coin"] = 300
    orders = [
        {"action": "unit", "unit": hero, "orders": ["STANCE blue HOSTILE", f"CLAIM shrf {where}", "-@GUARD"]},
    ]
    files: dict[str, OrderFile] = {"red": order_file(g, state, "red", orders)}
    assert files["red"].ok, [issue.format() for issue in files["red"].errors]
    files["red"].press.append(Article(headline="The Empire stands", body="Our banners fly over the town."))
    result = resolve_turn(g, state, files, sealed=True)
    after = result.state
    assert after["factions"]["red"]["stances"]["blue"] == "hostile"
    assert after["places"][where]["title"]["holder"] == hero
    assert after["units"][hero]["title"] == {"tag": "shrf", "location": where}
    kinds = [(e.kind, e.tick) for e in result.events]
    assert ("stance_changed", 1) in kinds and ("title_claimed", 1) in kinds
    claimed = next(e for e in result.events if e.kind == "title_claimed")
    assert claimed.data["paid"] == g.rules["titles"]["shrf"]["cost"] and claimed.visible_to is None
    # Released by the claim, the guard line guards from day 2 on: the hero earns no wages.
    assert after["units"][hero]["orders"] == ["@GUARD"]
    collected = [e for e in result.events if e.kind == "taxes_collected"]
    assert [(e.actors, e.data["amount"]) for e in collected] == [(["red"], 1000 * _season_share(g, state))]
    rewards = [(e.tick, e.visible_to, e.data["amount"]) for e in result.events if e.kind == "press_reward"]
    assert rewards == [(0, ["red"], 50)]
    # Every sentence of the chapter's events reads in words.
    for event in result.events:
        if event.kind in ("stance_changed", "title_claimed", "taxes_collected", "press_reward"):
            text = g.ruleset.describe(event.to_data(), g)
            assert "{" not in text and hero not in text, text


def _season_share(g, state) -> int:
    autumn = g.calendar.date(int(state["turn"])).season == g.rules["taxation"]["autumn"]
    return (100 + g.rules["taxation"]["autumn_bonus"]) // 100 if autumn else 1
