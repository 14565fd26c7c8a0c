"""The diplomacy bot: every order it gives is legal over two years of seven bots playing each other through
the pure adjudicators, it takes neutral centres in 1901, never bounces its own units, gives the same orders
for the same position, and does what a sensible power does in small positions made for it (convoy an army
where only a convoy reaches a centre, support a contested move, cover a threatened home, retreat toward a
centre, build fleets for England); and its order files pass the players' checker and resolve through the
engine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.turn import resolve_turn
from resolver.rulesets.diplomacy import bot
from resolver.rulesets.diplomacy import model as m
from resolver.rulesets.diplomacy.adjudication import adjudicate
from resolver.rulesets.diplomacy.adjustments import adjudicate_adjustments, balance
from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.legality import problems
from resolver.rulesets.diplomacy.notation import read_order, read_unit, write_order
from resolver.rulesets.diplomacy.pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOutcome,
    Order,
    PhaseKind,
    Retreat,
    Support,
    Unit,
)
from resolver.rulesets.diplomacy.retreats import adjudicate_retreats
from resolver.rulesets.diplomacy.strategy import orders_for_power

BOARD = standard_board()
POWERS = BOARD.powers
SEEDS = ("", "campaign-1", "campaign-2")  # no seed (ties by ids), and two campaigns' seeds


@dataclass
class Phase:
    """One phase the driver played: the position it was played in and every power's orders."""

    year: int
    season: str
    kind: PhaseKind
    units: tuple[Unit, ...]
    owners: dict[str, str]
    orders: dict[str, tuple[Order, ...]]
    movement: MovementOutcome | None = None


def home_owners() -> dict[str, str]:
    return {centre: power for power in POWERS for centre in BOARD.home_centres(power)}


def all_orders(units, owners, kind, season, movement=None, seed="") -> dict[str, tuple[Order, ...]]:
    return {
        power: orders_for_power(
            BOARD, units, owners, power, kind, season=season, movement=movement, seed=seed
        )
        for power in POWERS
    }


def self_play(years: int, seed: str = "") -> Iterator[Phase]:
    """Seven bots from the 1901 position: movement, retreats (when a unit was dislodged), movement,
    retreats, centres taken, winter; each phase yielded before it is adjudicated."""
    units, owners = tuple(BOARD.starting_units()), home_owners()
    for year in range(1901, 1901 + years):
        for season in ("spring", "autumn"):
            given = all_orders(units, owners, "movement", season, seed=seed)
            yield Phase(year, season, "movement", units, dict(owners), given)
            movement = adjudicate(BOARD, units, [order for power in POWERS for order in given[power]])
            units = movement.units
            if movement.dislodged:
                given = all_orders(units, owners, "retreat", season, movement, seed)
                yield Phase(year, season, "retreat", units, dict(owners), given, movement)
                flat = [order for power in POWERS for order in given[power]]
                units = adjudicate_retreats(BOARD, movement, flat).units
            if season == "autumn":
                for unit in units:
                    if BOARD.province(unit.location) in BOARD.supply_centres:
                        owners[BOARD.province(unit.location)] = unit.power
        given = all_orders(units, owners, "adjustment", "winter")
        yield Phase(year, "winter", "adjustment", units, dict(owners), given)
        units = adjudicate_adjustments(BOARD, units, owners, [o for p in POWERS for o in given[p]]).units


PLAYED = [phase for seed in SEEDS for phase in self_play(2, seed)]


def context(phase: Phase) -> dict[str, object]:
    if phase.kind == "retreat":
        return {"movement": phase.movement}
    if phase.kind == "adjustment":
        return {"owners": phase.owners}
    return {}


def test_the_driver_plays_every_kind_of_phase():
    kinds = {(phase.season, phase.kind) for phase in PLAYED}
    assert {("spring", "movement"), ("autumn", "movement"), ("winter", "adjustment")} <= kinds
    assert any(phase.kind == "retreat" for phase in PLAYED), "no unit was dislodged in six games-years"
    assert any(
        isinstance(order, Build) for phase in PLAYED for orders in phase.orders.values() for order in orders
    )


def test_every_order_of_two_years_of_self_play_is_legal():
    checked = 0
    for phase in PLAYED:
        orders = [order for power in POWERS for order in phase.orders[power]]
        found = problems(BOARD, phase.units, orders, phase.kind, **context(phase))
        refused = [(write_order(BOARD, o), p.message) for o, p in zip(orders, found, strict=True) if p]
        assert refused == [], f"{phase.season} {phase.year} {phase.kind}: {refused}"
        checked += len(orders)
    assert checked > 300


def test_every_unit_gets_an_order_and_only_its_own_power_orders_it():
    for phase in PLAYED:
        if phase.kind != "movement":
            continue
        for power in POWERS:
            ordered = sorted(order.unit for order in phase.orders[power])
            own = sorted(BOARD.province(unit.location) for unit in phase.units if unit.power == power)
            assert ordered == own


def test_the_orders_read_back_from_the_notation_the_bot_writes():
    for phase in PLAYED[:12]:
        for power in POWERS:
            for order in phase.orders[power]:
                assert read_order(BOARD, power, write_order(BOARD, order), phase.kind) == order


def test_the_bots_take_neutral_centres_in_1901():
    winter = next(phase for phase in self_play(1) if phase.kind == "adjustment")
    grown = [
        power
        for power in POWERS
        if sum(1 for owner in winter.owners.values() if owner == power) > len(BOARD.home_centres(power))
    ]
    assert len(grown) >= 5, grown
    assert sum(1 for owner in winter.owners.values() if owner) >= 22 + 7


def test_no_power_orders_two_units_into_one_province_nor_into_its_own_standing_unit():
    for phase in PLAYED:
        if phase.kind == "movement":
            for power in POWERS:
                moves = [o for o in phase.orders[power] if isinstance(o, Move)]
                into = [BOARD.province(move.destination) for move in moves]
                assert len(into) == len(set(into)), (power, into)
                leaving = {move.unit for move in moves}
                for move in moves:
                    destination = BOARD.province(move.destination)
                    standing = next(
                        (u for u in phase.units if BOARD.province(u.location) == destination), None
                    )
                    if standing is not None and standing.power == power:
                        assert destination in leaving  # it follows its own unit out, never into it
                        ahead = next(o for o in moves if o.unit == destination)
                        assert BOARD.province(ahead.destination) != move.unit  # and never swaps with it
        if phase.kind == "retreat":
            for power in POWERS:
                into = [o.destination for o in phase.orders[power] if isinstance(o, Retreat)]
                assert len(into) == len(set(into))


def test_no_power_bounces_its_own_units_in_self_play():
    for phase in PLAYED:
        if phase.kind != "movement":
            continue
        orders = [order for power in POWERS for order in phase.orders[power]]
        outcome = adjudicate(BOARD, phase.units, orders)
        for resolution in outcome.resolutions:
            move = resolution.order
            if not isinstance(move, Move) or resolution.reason != "bounced":
                continue
            rivals = [
                other
                for other in orders
                if isinstance(other, Move)
                and other is not move
                and BOARD.province(other.destination) == BOARD.province(move.destination)
            ]
            assert all(other.power != move.power for other in rivals), (move, rivals)


def test_the_same_position_gives_the_same_orders():
    phase = PLAYED[len(PLAYED) // 3]
    again = all_orders(
        tuple(reversed(phase.units)),
        dict(reversed(list(phase.owners.items()))),
        phase.kind,
        phase.season,
        phase.movement,
    )

    def text(given):
        return "\n".join(write_order(BOARD, order) for power in POWERS for order in given[power]).encode()

    first = all_orders(phase.units, phase.owners, phase.kind, phase.season, phase.movement)
    assert (
        text(first)
        == text(again)
        == text(all_orders(phase.units, phase.owners, phase.kind, phase.season, phase.movement))
    )


def test_each_seed_gives_the_same_orders_again_and_campaigns_differ():
    spring = [phase for phase in PLAYED if phase.year == 1901 and phase.season == "spring"]
    assert len(spring) == len(SEEDS)
    for phase, seed in zip(spring, SEEDS, strict=True):
        assert all_orders(phase.units, phase.owners, "movement", "spring", seed=seed) == phase.orders
    assert len({repr(phase.orders) for phase in spring}) > 1  # a seed breaks ties another way


def test_a_unit_added_in_a_far_corner_does_not_change_a_power_s_orders():
    start, owners = tuple(BOARD.starting_units()), home_owners()
    before = all_orders(start, owners, "movement", "spring")
    added = (*start, Unit("england", "fleet", "nao"), Unit("france", "army", "wal"))
    after = all_orders(added, owners, "movement", "spring")
    for power in ("turkey", "austria", "italy", "russia"):
        assert after[power] == before[power], power


# --- small positions ------------------------------------------------------------------------------------


def position(units: dict[str, list[str]]) -> tuple[Unit, ...]:
    return tuple(read_unit(BOARD, power, text) for power, texts in units.items() for text in texts)


def test_an_army_that_only_a_convoy_brings_to_a_centre_is_convoyed():
    units = position({"england": ["A York", "F North Sea"]})
    owners = {**home_owners(), "bel": "england", "hol": "england", "den": "england"}
    orders = orders_for_power(BOARD, units, owners, "england", "movement", season="autumn")
    assert Move("england", "yor", "nwy", "army") in orders
    assert Convoy("england", "nth", "yor", "nwy", "fleet") in orders
    outcome = adjudicate(BOARD, units, orders)
    assert Unit("england", "army", "nwy") in outcome.units


def test_a_move_into_a_contested_centre_is_supported_not_doubled():
    units = position({"germany": ["A Ruhr", "A Holland"], "france": ["A Picardy"]})
    owners = {**home_owners(), "hol": "germany"}
    orders = orders_for_power(BOARD, units, owners, "germany", "movement", season="autumn")
    moves = [order for order in orders if isinstance(order, Move)]
    assert [BOARD.province(move.destination) for move in moves] == ["bel"]
    mover = moves[0].unit
    assert any(isinstance(o, Support) and o.supported == mover and o.destination == "bel" for o in orders)
    outcome = adjudicate(BOARD, units, [*orders, Move("france", "pic", "bel", "army")])
    assert Unit("germany", "army", "bel") in outcome.units


def test_an_enemy_unit_on_a_centre_it_outnumbers_is_attacked_with_support():
    units = position({"germany": ["A Kiel", "A Munich"], "russia": ["A Berlin"]})
    owners = {**home_owners(), "ber": "russia", "hol": "germany", "den": "germany", "bel": "germany"}
    orders = orders_for_power(BOARD, units, owners, "germany", "movement", season="spring")
    moves = [order for order in orders if isinstance(order, Move)]
    assert [move.destination for move in moves] == ["ber"]
    assert any(
        isinstance(o, Support) and o.supported == moves[0].unit and o.destination == "ber" for o in orders
    )
    outcome = adjudicate(BOARD, units, [*orders, Hold("russia", "ber", "army")])
    assert "ber" in outcome.dislodged


def test_a_threatened_home_centre_is_kept_and_an_empty_one_covered():
    units = position(
        {"germany": ["A Munich", "A Ruhr"], "austria": ["A Tyrolia"], "england": ["F Baltic Sea"]}
    )
    owners = {**home_owners(), "bel": "germany", "hol": "germany"}
    orders = orders_for_power(BOARD, units, owners, "germany", "movement", season="autumn")
    assert not any(isinstance(order, Move) and order.unit == "mun" for order in orders)
    assert Move("germany", "ruh", "kie", "army") in orders


def test_a_dislodged_unit_retreats_toward_a_centre_and_one_with_nowhere_to_go_disbands():
    austrian = Unit("austria", "army", "ser")
    movement = MovementOutcome(
        (), position({"turkey": ["A Bulgaria"]}), {"ser": (austrian, "bul")}, frozenset()
    )
    orders = orders_for_power(
        BOARD, movement.units, home_owners(), "austria", "retreat", season="autumn", movement=movement
    )
    assert len(orders) == 1 and isinstance(orders[0], Retreat)
    assert orders[0].destination in ("gre", "rum")  # neutral centres, which an autumn retreat takes
    boxed = Unit("italy", "fleet", "ion")
    around = position(
        {
            "turkey": ["F Aegean Sea", "F Eastern Mediterranean", "F Greece", "F Tunis"],
            "austria": ["F Adriatic Sea", "F Albania", "F Apulia", "F Naples", "F Tyrrhenian Sea"],
        }
    )
    trapped = MovementOutcome((), around, {"ion": (boxed, "aeg")}, frozenset())
    assert orders_for_power(BOARD, around, home_owners(), "italy", "retreat", movement=trapped) == (
        Disband("italy", "ion", "fleet"),
    )


def test_two_dislodged_units_never_retreat_to_one_place():
    first, second = Unit("austria", "army", "boh"), Unit("austria", "army", "gal")
    movement = MovementOutcome((), (), {"boh": (first, "mun"), "gal": (second, "war")}, frozenset())
    orders = orders_for_power(BOARD, (), home_owners(), "austria", "retreat", movement=movement)
    destinations = [order.destination for order in orders if isinstance(order, Retreat)]
    assert len(destinations) == 2 and len(set(destinations)) == 2


def test_england_builds_mostly_fleets_and_a_power_with_too_many_units_removes_the_farthest():
    units = position({"england": ["F Norway", "F Belgium"]})
    owners = {**home_owners(), "nwy": "england", "bel": "england"}
    built = orders_for_power(BOARD, units, owners, "england", "adjustment", season="winter")
    assert len(built) == 3 and all(isinstance(order, Build) for order in built)
    assert sorted(order.kind for order in built) == ["army", "fleet", "fleet"]
    far = position({"russia": ["A Moscow", "A Warsaw", "F Sevastopol", "F Portugal"]})
    owners = {"mos": "russia", "war": "russia", "sev": "russia"}
    assert orders_for_power(BOARD, far, owners, "russia", "adjustment") == (
        Disband("russia", "por", "fleet"),
    )


def test_a_power_with_builds_and_no_free_home_waives_them():
    units = position({"italy": ["A Rome", "A Naples", "A Venice"]})
    owners = {**home_owners(), "tun": "italy"}
    assert balance(units, owners, "italy") == 1
    orders = orders_for_power(BOARD, units, owners, "italy", "adjustment")
    assert [type(order).__name__ for order in orders] == ["Waive"]


def test_a_fleet_built_in_st_petersburg_names_a_coast():
    units = position({"russia": ["A Moscow", "A Warsaw", "A Sevastopol"]})
    owners = {**home_owners(), "swe": "russia", "nwy": "russia"}
    orders = orders_for_power(BOARD, units, owners, "russia", "adjustment")
    builds = [order for order in orders if isinstance(order, Build)]
    assert builds and all(problems(BOARD, units, [b], "adjustment", owners=owners) == (None,) for b in builds)
    assert all(BOARD.coast(b.location) for b in builds if b.kind == "fleet" and b.location.startswith("stp"))


def test_a_power_with_no_units_gives_no_movement_orders_and_a_lone_unit_gets_one():
    units = position({"france": ["A Paris"]})
    assert orders_for_power(BOARD, units, home_owners(), "italy", "movement") == ()
    orders = orders_for_power(BOARD, units, home_owners(), "france", "movement")
    assert [order.unit for order in orders if isinstance(order, (Hold, Move))] == ["par"]


# --- through the engine ---------------------------------------------------------------------------------


def test_the_bots_order_files_pass_the_players_checker_and_resolve_through_the_engine():
    ruleset = get_ruleset("diplomacy")
    rules = ruleset.default_rules()
    setups = list(ruleset.fixed_factions(rules))
    world = ruleset.generate_world(7, rules, len(setups))
    game = Game("diplomacy-bot", "Bots", 7, ruleset, rules, {}, world, tuple(s.id for s in setups))
    state = ruleset.initial_state(world, rules, setups, 7)
    kinds = set()
    for _ in range(5):
        kinds.add(m.phase_kind(state))
        files = {power: bot_order_file(game, state, power) for power in game.factions}
        for power, of in files.items():
            assert of.ok, (power, [issue.format() for issue in of.errors])
            written = [o for o in bot.orders_for(game, state, power)["orders"]]
            assert all(isinstance(text, str) for text in written)  # the notation, as a player writes it
        state = resolve_turn(game, state, files).state
    assert kinds == {"movement", "retreat", "adjustment"}
    grown = [
        power for power in game.factions if m.centre_count(state, power) > len(BOARD.home_centres(power))
    ]
    assert len(grown) >= 5
