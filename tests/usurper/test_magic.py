"""The numeric spells: what a leader who knows one adds when it takes part, and the month-end yields."""

from __future__ import annotations

from resolver.rulesets.usurper import magic

from .scoring_support import context, usurper, usurper_rules

RULES = usurper_rules()


def leader(*spells: str) -> dict:
    return {"id": "red-l1", "spells": list(spells), "lair": "red-lair1"}


def test_action_spells_add_ten_to_their_own_action_only() -> None:
    seer = leader("seer", "druid_lore", "runesmith")
    for action, name in (("scout", "Seer"), ("harvest", "Druid-Lore"), ("craft", "Runesmith")):
        assert [(m.source, m.value) for m in magic.action_modifiers(RULES, [seer], action)] == [(name, 10)]
    assert magic.action_modifiers(RULES, [seer], "build") == []
    assert magic.action_modifiers(RULES, [leader()], "scout") == []


def test_two_casters_stack() -> None:
    both = [leader("seer"), {**leader("seer"), "id": "red-l2"}]
    assert sum(m.value for m in magic.action_modifiers(RULES, both, "scout")) == 20


def test_napoleon_on_morale_and_loyalty() -> None:
    napoleon = leader("napoleon")
    for check in ("morale", "loyalty"):
        assert [m.value for m in magic.check_modifiers(RULES, [napoleon], check)] == [10]
    assert magic.check_modifiers(RULES, [napoleon], "action") == []


def test_combat_spells_give_dice_to_one_unit() -> None:
    caster = leader("might", "fervor")
    assert magic.combat_dice(RULES, [caster], ["red-u1", "red-u2"]) == {
        "red-u1": {"strength": 1, "offense": 1}
    }
    assert magic.combat_dice(RULES, [caster], ["red-u1", "red-u2"], "red-u2") == {
        "red-u2": {"strength": 1, "offense": 1}
    }
    assert magic.combat_dice(RULES, [leader("seer")], ["red-u1"]) == {}


def test_forced_march() -> None:
    assert magic.speed_bonus(RULES, [leader("forced_march")]) == 1
    assert magic.speed_bonus(RULES, [leader()]) == 0


def test_midas_touch_and_cornucopia_at_month_end() -> None:
    red = usurper("red")
    red["leaders"]["red-l1"]["spells"] = ["midas_touch"]
    red["leaders"]["red-l2"]["spells"] = ["cornucopia"]
    red["lairs"]["red-lair2"] = {"id": "red-lair2", "grid": "A1", "rooms": [], "storage": {}, "gems": []}
    state = {"turn": 4, "factions": {"red": red, "blue": usurper("blue")}}
    ctx = context(RULES, 4)
    magic.month_end(ctx, state)
    assert red["lairs"]["red-lair1"]["gems"] == [{"value": 4, "quality": "high"}]
    assert red["lairs"]["red-lair1"]["storage"]["foodstuffs"] == 2
    assert red["lairs"]["red-lair2"]["storage"]["foodstuffs"] == 2
    assert state["factions"]["blue"]["lairs"]["blue-lair1"]["storage"]["foodstuffs"] == 0
    assert [(e.kind, e.visible_to, e.data) for e in ctx.events] == [
        ("spells_month_end", ["red"], {"gems": 1, "foodstuffs": 4})
    ]
