"""Battles: a d10 per attack, hitting on 6+ adjusted by attack − defence.

House rules fill what the seed leaves open (all in rules data): at most
``max_rounds`` rounds; a natural 10 always hits and a 1 always misses; hits go
to the enemy's troops first and its leader last; no retreats, unless a nation's
standing policy makes its side break off (``policies.py``).

Each round is fought in volleys. Traits with ``strikes_first`` fire before the
rest, in the order of their ``volley`` number: stealthed units first (round one
only, with +2 attack), then other units that attack first, then everyone else.
Units of the same volley fire simultaneously.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.dice import RollLabel, roll_label
from ...core.phases import State
from . import model as m
from . import policies
from .fighters import Battle, Fighter
from .memory import NationsTurn

if TYPE_CHECKING:
    from ...engine.context import TurnContext

    Context = TurnContext[NationsTurn]  # a turn of this ruleset, with its typed memory


def hit_target(rules: Mapping[str, Any], attack: int, defence: int) -> int:
    """The d10 score needed: 6+ at even odds, one easier per point of attack over defence.

    The seed's examples: +1/0 against +1/0 hits on 5+; +1 against 0/+2 needs 7+.
    """
    c = rules["combat"]
    need = int(c["base_target"]) - attack + defence
    return max(int(c["always_misses"]) + 1, min(int(c["always_hits"]), need))


def _target(enemies: list[Fighter], pending: dict[int, int], order: list[str]) -> Fighter | None:
    rank = {cls: i for i, cls in enumerate(order)}
    alive = [f for f in enemies if f.hp - pending.get(id(f), 0) > 0]
    if not alive:
        return None
    return min(alive, key=lambda f: (rank.get(f.unit["class"], len(rank)), f.defence, f.unit["id"]))


def _volley(ctx: Context, battle: Battle, shooters: list[Fighter], round_no: int, tag: str) -> None:
    """Everyone in ``shooters`` fires at once; casualties fall after the volley."""
    rules = ctx.rules
    order = list(rules["combat"]["target_order"])
    pending: dict[int, int] = {}
    factions = sorted({f.army["owner"] for f in battle.fighters})
    for shooter in shooters:
        enemies = battle.side("defender" if shooter.side == "attacker" else "attacker")
        for k in range(int(shooter.unit["attacks"])):
            target = _target(enemies, pending, order)
            if target is None:
                break
            need = hit_target(rules, shooter.attack + _round_attack(rules, shooter, round_no), target.defence)
            roll = ctx.roll(
                roll_label(battle.label, f"r{round_no}{tag}", shooter.unit["id"], k + 1),
                f"1d{rules['combat']['die']}>={need}",
                factions=factions,
            )
            hit = roll.dice[0] >= need
            roll.success = hit
            roll.decided = f"{shooter.unit['id']} {'hits' if hit else 'misses'} {target.unit['id']}"
            battle.rolls.append(roll)
            if hit:
                pending[id(target)] = pending.get(id(target), 0) + 1
    for fighter in battle.fighters:
        fighter.hp -= pending.get(id(fighter), 0)


def fight(
    ctx: Context,
    state: State,
    attackers: list[dict],
    defenders: list[dict],
    place: str,
    defender_bonus: int,
    label: RollLabel,
) -> Battle:
    """Fight it out; the dead are removed from their armies. Returns the battle for the event."""
    rules = ctx.rules
    stance = int(rules["combat"]["defend_stance_bonus"])
    in_settlement = ctx.memory.settlement_at(state, place) is not None
    moved = ctx.memory.moved
    fighters: list[Fighter] = []
    for side, armies in (("attacker", attackers), ("defender", defenders)):
        for army in armies:
            nation = army["owner"]
            att = m.advancement_bonus(state, rules, nation, "attack") + _mod(state, army, "attack")
            dfc = m.advancement_bonus(state, rules, nation, "defence") + _mod(state, army, "defence")
            if side == "defender":
                dfc += defender_bonus
                if army.get("stance") == "defend" and army["id"] not in moved and not in_settlement:
                    dfc += stance
            for unit in army["units"]:
                fighters.append(
                    Fighter(side, army, unit, unit["attack"] + att, unit["defence"] + dfc, unit["hp"])
                )
    battle = Battle(label, place, fighters)
    brought = {side: len(battle.side(side)) for side in ("attacker", "defender")}
    for round_no in range(1, int(rules["combat"]["max_rounds"]) + 1):
        if not battle.side("attacker") or not battle.side("defender"):
            break
        battle.rounds = round_no
        volleys: dict[tuple[int, str], list[Fighter]] = {}
        for fighter in battle.fighters:
            if fighter.alive:
                volleys.setdefault(_volley_of(rules, fighter.unit, round_no), []).append(fighter)
        for (_, tag), shooters in sorted(volleys.items()):
            # A unit killed by an earlier volley of this round never fires.
            _volley(ctx, battle, [f for f in shooters if f.alive], round_no, tag)
        if policies.breaks_off(ctx, state, battle, brought):
            break
    for army in {id(f.army): f.army for f in fighters}.values():
        army["units"] = [f.unit for f in fighters if f.army is army and f.alive]
    return battle


LAST_VOLLEY = (1_000_000, "")  # units without a first-strike trait this round fire last, untagged


def _volley_of(rules: Mapping[str, Any], unit: dict[str, Any], round_no: int) -> tuple[int, str]:
    """The volley a unit fires in this round: the earliest its traits give it, else the last.

    The tag marks the volley in roll labels (``r1s`` for round one's stealth volley).
    """
    volleys = [LAST_VOLLEY]
    for trait in unit.get("traits", []):
        first = (rules["traits"].get(trait) or {}).get("strikes_first")
        if first and (round_no == 1 or not first.get("first_round_only")):
            volleys.append((int(first["volley"]), str(first["tag"])))
    return min(volleys)


def _round_attack(rules: Mapping[str, Any], fighter: Fighter, round_no: int) -> int:
    """Attack bonuses of traits for this round: stealth's +2 in the first round."""
    if round_no != 1:
        return 0
    return max(
        (
            int((rules["traits"].get(t) or {}).get("first_round_attack", 0))
            for t in fighter.unit.get("traits", [])
        ),
        default=0,
    )


def _mod(state: State, army: dict, key: str) -> int:
    return int(army.get("modifiers", {}).get(key, 0)) + int(
        state["factions"][army["owner"]].get("modifiers", {}).get(key, 0)
    )


def losses(battle: Battle) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in battle.fighters:
        if not f.alive:
            out[f.army["owner"]] = out.get(f.army["owner"], 0) + 1
    return out
