"""The newspaper's rewards: $50 signed, $30 a rumour, the best single one a turn and never above $50;
none for a bot's file; a rumour's reward told only where its faction alone can read it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from resolver.rulesets.overlord import press

from .titles_support import Ctx, rules, state


def order_file(signed: int = 0, rumors: int = 0) -> SimpleNamespace:
    return SimpleNamespace(press=[object()] * signed, rumors=["a rumour"] * rumors)


@pytest.mark.parametrize(
    ("signed", "rumors", "coins"),
    [(0, 0, 0), (1, 0, 50), (0, 1, 30), (0, 2, 30), (1, 1, 50), (3, 2, 50)],
)
def test_rewards_do_not_stack_and_are_capped(signed: int, rumors: int, coins: int) -> None:
    assert press.reward(rules(), signed, rumors) == coins


def test_when_the_rules_let_rewards_add_up_the_cap_still_holds() -> None:
    r = rules()
    r["press_rewards"]["stack"] = True
    assert press.reward(r, 0, 1) == 30
    assert press.reward(r, 0, 2) == 50
    assert press.reward(r, 2, 1) == 50


def test_rewards_reach_the_funds_before_the_month() -> None:
    r, st = rules(), state()
    ctx = Ctx(orders={"red": order_file(signed=2), "blue": order_file(rumors=1), "green": order_file()})
    assert press.credit_rewards(ctx, st, r) == {"blue": 30, "red": 50}
    assert st["factions"]["red"]["fund"] == 5050 and st["factions"]["blue"]["fund"] == 5030
    assert st["factions"]["green"]["fund"] == 5000
    # Told to each faction alone.
    assert sorted((d["actors"], d["visible_to"], d["amount"]) for _, d in ctx.events) == [
        (["blue"], ["blue"], 30),
        (["red"], ["red"], 50),
    ]


def test_an_open_campaign_names_no_rewards_in_its_public_events() -> None:
    r, st = rules(), state()
    ctx = Ctx(orders={"blue": order_file(rumors=1)}, sealed=False)
    assert press.credit_rewards(ctx, st, r) == {"blue": 30}
    assert ctx.events == []


def test_bots_and_absent_players_earn_nothing() -> None:
    r, st = rules(), state()
    st["factions"]["blue"]["missed_turns"] = 1  # the bot stood in for blue this turn
    ctx = Ctx(orders={"red": order_file(signed=1), "blue": order_file(signed=1), "outlaws": order_file(1)})
    assert press.credit_rewards(ctx, st, r, bots=["red"]) == {}
    assert st["factions"]["outlaws"]["fund"] == 0
