"""The report's units that left the faction during the month (spec 1.6.5) and how the factions in contact
regard it (1.6.3), each through the real turn."""

from __future__ import annotations

import copy
from typing import Any

import jinja2

from resolver.core.events import visible
from resolver.engine.ruleset import Game
from resolver.engine.turn import TurnResult
from resolver.rulesets.overlord import report
from resolver.store.views import render_reports

from .support import month
from .test_report import TEMPLATES
from .test_warfare import game, run, setting


def _sections(g: Game, result: TurnResult, faction: str) -> dict[str, list[str]]:
    events = visible([e.to_data() for e in result.events], faction)
    return dict(g.ruleset.report_sections(g, result.state, faction, events))


def _block(lines: list[str], uid: str) -> list[str]:
    """One unit's block of a units section, from its heading to the next heading."""
    start = next(i for i, line in enumerate(lines) if line.startswith("### ") and f"[{uid}]" in line)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("### ")), len(lines))
    return lines[start:end]


def _faction(g: Game, state: dict[str, Any], faction: str) -> list[str]:
    return dict(report.sections(g, state, faction, []))["Your faction"]


def test_a_unit_slain_in_battle_is_reported_to_its_faction_up_to_its_death() -> None:
    g = game()
    state, lead, here = setting(g)
    orders = {
        "red": [{"action": "unit", "unit": lead["red"], "orders": [f"D3 ATTACK {lead['blue']}"]}],
        "blue": [{"action": "unit", "unit": lead["blue"], "orders": ["WITHDRAW 10"]}],
    }
    result = run(g, state, orders)
    assert lead["blue"] not in result.state["units"]
    blue = _sections(g, result, "blue")
    assert f"[{lead['blue']}]" not in "\n".join(blue["Your units"])
    block = _block(blue["Units lost this month"], lead["blue"])
    name = state["units"][lead["blue"]]["name"]
    assert block[0] == f"### {name} [{lead['blue']}], at {report._place(g, here)}; fell in battle on day 3"
    # Its record as it stood when it fell: the coins it drew on day 1 and the swords it carried.
    assert "- Has: 10 coins [coin], 4 swords [swrd]." in block
    assert any(line.startswith("- Day 1 - ") and "draws 10 coins" in line for line in block), block
    # The place where it stood gets its block, with no list of the units there: blue has none left.
    places = blue["Places"]
    start = places.index(next(line for line in places if line.startswith(f"### {report._place(g, here)}")))
    rest = places[start + 1 :]
    assert "- Units here:" not in rest[: next((i for i, x in enumerate(rest) if x.startswith("### ")), None)]
    # Nothing of a unit that is no longer the faction's to command.
    assert not [line for line in block if line.startswith(("- Orders:", "- Upkeep:", "- May learn:"))]
    # Its block is its faction's alone, even in an open campaign that publishes the battle.
    [told] = [e for e in result.events if e.kind == "unit_lost"]
    assert told.visible_to == ["blue"] and told.tick == 3 and told.data["fate"] == "slain"
    assert "Units lost this month" not in _sections(g, result, "red")
    sentence = g.ruleset.describe(told.to_data(), g)
    assert sentence.startswith(f"On day 3, {name} of The Blue League falls in battle at ")
    assert lead["blue"] not in sentence


def test_a_disbanded_unit_is_listed_with_its_day() -> None:
    g = game()
    state, lead, _ = setting(g)
    company = next(uid for uid, u in sorted(state["units"].items()) if u.get("stack") == lead["red"])
    result = run(g, state, {"red": [{"action": "unit", "unit": company, "orders": ["D2 DISBAND CONFIRM"]}]})
    assert company not in result.state["units"]
    red = _sections(g, result, "red")
    block = _block(red["Units lost this month"], company)
    assert block[0].endswith("; disbanded on day 2")
    assert any("disbands at" in line for line in block)  # its last deed, told under it


def test_a_unit_sworn_to_another_faction_is_told_to_both_each_its_share() -> None:
    """The old faction keeps the unit's deeds and record; the new one gets the unit as it is, without
    what it did for its old faction (a sealed campaign: an open one publishes every deed)."""
    g = game()
    state, lead, here = setting(g)
    orders = {
        "blue": [{"action": "unit", "unit": lead["blue"], "orders": ["WITHDRAW 10", f"OATH {lead['red']}"]}],
    }
    result = run(g, state, orders, sealed=True)
    assert result.state["units"][lead["blue"]]["owner"] == "red"
    name = state["units"][lead["blue"]]["name"]
    blue = _block(_sections(g, result, "blue")["Units lost this month"], lead["blue"])
    assert blue[0].endswith("; went over to The Empire [red] at the month's end, as it swore to")
    assert any("draws 10 coins" in line for line in blue)
    assert any("swears allegiance to" in line for line in blue)
    red = _sections(g, result, "red")
    assert "Units lost this month" not in red
    mine = _block(red["Your units"], lead["blue"])
    assert mine[0].startswith(f"### {name} [{lead['blue']}], at {report._place(g, here)}")
    assert not any("draws 10 coins" in line for line in mine)  # blue's business, not red's
    assert any(line.startswith("- Orders:") for line in mine)


def test_factions_in_contact_say_how_they_regard_you_and_no_other_does() -> None:
    g = game()
    state, lead, _ = setting(g)
    state["factions"]["blue"]["stances"] = {"default": "neutral", "red": "hostile"}
    state["factions"]["green"]["stances"] = {"default": "neutral", "red": "enemy"}
    lines = _faction(g, state, "red")
    assert "- Attitude of The Blue League [blue] to you is Hostile." in lines
    assert not [line for line in lines if "Green" in line]  # green stands far away
    assert "- Attitude of The Empire [red] to you is Neutral." in _faction(g, state, "blue")
    # Blue's hero hidden by its stealth: red sees nothing of it, so there is no contact either way.
    hidden = copy.deepcopy(state)
    hidden["units"][lead["blue"]]["skills"] = {"stea": 90}
    assert report.contacts(g.rules, hidden, "red") == [] == report.contacts(g.rules, hidden, "blue")
    assert _faction(g, hidden, "red")[-1] == (
        "- No other faction is in contact with you, so how others regard you is not known."
    )


def test_a_stance_declared_during_the_month_is_seen_by_the_faction_in_contact() -> None:
    """Through the turn: blue turns hostile toward red on day 5; red, beside it, reads it in its report."""
    g = game()
    state, lead, _ = setting(g)
    before = _faction(g, state, "red")
    assert "- Attitude of The Blue League [blue] to you is Neutral." in before
    result = month(
        g, state, {"blue": [{"action": "unit", "unit": lead["blue"], "orders": ["D5 STANCE red HOSTILE"]}]}
    )
    assert (
        "- Attitude of The Blue League [blue] to you is Hostile."
        in _sections(g, result, "red")["Your faction"]
    )


def test_a_unit_unpaid_once_too_often_deserts_and_is_reported_lost() -> None:
    g = game()
    state, lead, here = setting(g)
    company = next(uid for uid, u in sorted(state["units"].items()) if u.get("stack") == lead["red"])
    state["factions"]["red"]["fund"] = 0
    state["places"][here]["wages"] = 0  # the month's work earns nothing to pay the upkeep with
    for uid in (lead["red"], company):
        state["units"][uid]["items"]["coin"] = 0
    state["units"][company]["unpaid"] = int(g.rules["economy"]["desert_after"]) - 1
    result = run(g, state, {})
    assert company not in result.state["units"]
    block = _block(_sections(g, result, "red")["Units lost this month"], company)
    assert block[0].endswith("; deserted at the month's end"), block[0]
    # The whole report, as the engine writes it, tells the loss among what red alone saw.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)  # fmt: skip
    written = render_reports(env, g, result)["red"]
    name = state["units"][company]["name"]
    lost = f"- {name} of The Empire deserts at {g.world[here].label}; the report keeps its account"
    assert lost in written and "## Units lost this month" in written
    hero = state["units"][lead["red"]]["name"]
    assert f"- {state['units'][company]['figures']} followers, stacked under {hero} [{lead['red']}]." in block


def test_a_resigning_faction_s_report_lists_the_units_it_handed_on() -> None:
    g = game()
    state, _, _ = setting(g)
    mine = sorted(uid for uid, u in state["units"].items() if u["owner"] == "red")
    result = month(g, state, {"red": [{"action": "faction", "orders": ["RESIGN imperials"]}]})
    lost = _sections(g, result, "red")["Units lost this month"]
    for uid in mine:
        assert _block(lost, uid)[0].endswith(
            "; handed to The Imperials [imperials] when the faction resigned"
        )
    assert "Your units" not in _sections(g, result, "red")
