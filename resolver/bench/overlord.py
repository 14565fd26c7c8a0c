"""``make bench``, the overlord row: one month of an overlord campaign at several sizes (by default 5, 10
and 20 factions, 25 units each: 125, 250 and 500 units), each month resolved as a user resolves it.

The start state is generated, not played into: a new campaign of the ruleset's own start (a hero and his
company per faction) is grown to 25 units a faction, leaders with companies stacked beneath them spread over
the territories around each faction's home city, every unit carrying a queue of the kind a player keeps
(work all month, draw coins and buy at the market, recruit into a new unit, set out on a day of the month,
wait and then move, study, change a stance, work while food lasts), and each faction sends an order file
that rewrites about half of its queues, as a player does between months (the NPC bands of the start come on
top; the table counts every unit of the state). Bots alone would take many months of recruiting to reach 500
units and would time the bots' choices as much as the month; a generated state gives the same load at each
size, so the cost can be seen to follow the work.

Two fresh processes are timed, in turn, the fastest of a few runs of each, so that both meet the same
load on a shared machine (as ``usurper.py`` does):

- ``campaign resolve`` (load, checks, the thirty days, archive, reports, templates), start-up included;
- the floor: a bare Python process that loads, with libyaml's safe loader, every file that resolve reads
  (the settings, the world, the state and the order files) and dumps the state that resolve wrote.

The issue's targets: at 20 factions and 500 units the resolve takes at most 3× its floor, and the month's
events file stays under 2 MB. Ratios within one run are what count: absolute times vary with the machine.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import canonical
from ..core.rng import Stream, stream
from ..core.world import World
from ..engine.ruleset import get_ruleset
from ..rulesets.overlord import model as m
from ..rulesets.overlord.setup import new_unit
from ..store.store import Store
from ..workflow import default_factions, new_campaign
from .process import time_resolve

TARGET = 3.0  # the bound on the month's resolve, as a multiple of its floor
EVENTS_LIMIT_KB = 2048  # the bound on the month's events file (2 MB)
REPEAT = 3  # runs of each process a size; the fastest counts, as the noise of a shared machine only adds
SIZES = (5, 10, 20)  # factions in the campaigns timed; the last is the one the targets are read at
UNITS_PER_FACTION = 25  # 20 factions make the 500 units
REACH = 3  # how far from its home territory a faction's units stand (hexes)
REWRITTEN = 0.5  # the share of a faction's queues its order file rewrites this month
SEED = 1
CITY = "city"  # the kind of the inner places that hold a market and the faction fund


@dataclass
class Size:
    factions: int
    units: int
    orders: int
    events: int
    state_kb: float
    events_kb: float
    resolve: float  # the whole `campaign resolve` process, in seconds
    floor: float  # the whole bare load-and-dump process

    @property
    def ratio(self) -> float:
        return self.resolve / self.floor


# --- the generated campaign ---------------------------------------------------------------------------


def build_campaign(root: Path, factions: int, seed: int = SEED) -> int:
    """A new overlord campaign of ``factions`` factions grown to ``UNITS_PER_FACTION`` units each, with
    every faction's order file for the first month in orders/; returns how many orders the files hold."""
    setups = default_factions(factions, seed, most=factions)
    new_campaign(root, "overlord", seed, setups, name="Bench")
    store = Store(root)
    state = store.state()
    world = store.world()
    rng = stream(seed, "bench/overlord")
    ids = [setup.id for setup in setups]
    written: dict[str, list[dict[str, Any]]] = {faction: [] for faction in ids}
    for faction in ids:
        _grow_faction(state, world, faction, ids, rng, written[faction])
    canonical.write_atomic(store.campaign_dir / "state.yaml", canonical.dump(state))
    store.orders_dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for faction in ids:
        body = _envelope(store, state, faction, written[faction], rng)
        canonical.write_atomic(store.orders_dir / f"{faction}.yaml", canonical.dump(body))
        count += len(body["orders"])
    return count


def _envelope(
    store: Store, state: dict[str, Any], faction: str, orders: list[dict[str, Any]], rng: Stream
) -> dict[str, Any]:
    config = store.config()
    press = []
    if rng.unit() < 0.5:
        press.append(
            {
                "headline": "Our banners move at last",
                "body": "The companies leave their winter quarters; the roads will be busy this month.",
            }
        )
    return {
        "campaign": config.get("campaign", ""),
        "turn": int(state["turn"]),
        "faction": faction,
        "orders": orders,
        "press": press,
        "rumors": [],
    }


def _territories_near(world: World, home: str) -> list[str]:
    """The settled territories within ``REACH`` of a home territory, nearest first, then by id."""
    near = [
        loc
        for loc in world.within(home, REACH)
        if world[loc].terrain not in ("water", "ocean", "lake", "mountains", CITY)
    ]
    return sorted(near, key=lambda loc: (world.distance(home, loc), int(loc[1:])))


def _grow_faction(
    state: dict[str, Any],
    world: World,
    faction: str,
    factions: list[str],
    rng: Stream,
    orders: list[dict[str, Any]],
) -> None:
    """The faction's hero and company keep their place; leaders with companies, and a few lone leaders,
    join them until the faction has its units, each unit with a stored queue, and about half of the
    queues rewritten in the order file."""
    units = state["units"]
    mine = [uid for uid, unit in sorted(units.items()) if unit["owner"] == faction]
    city = str(units[mine[0]]["location"])
    home = world[city].neighbours[0]
    near = _territories_near(world, home) or [home]
    rules = _rules()
    temporary = 0
    while len(mine) < UNITS_PER_FACTION:
        where = city if rng.unit() < 0.3 else rng.choice(near)
        leader_id = m.next_unit_id(state)
        leader = new_unit(rules, faction, f"Captain {leader_id[1:]}", "ldr", 1, where)
        leader["items"] = {"coin": rng.between(50, 600), "food": rng.between(0, 20)}
        leader["skills"] = {"cmbt": rng.between(0, 40)}
        leader["arrival"] = m.next_arrival(state, where)
        units[leader_id] = leader
        mine.append(leader_id)
        if len(mine) < UNITS_PER_FACTION and rng.unit() < 0.9:
            company_id = m.next_unit_id(state)
            company = new_unit(rules, faction, f"Company {company_id[1:]}", "man", rng.between(8, 40), where)
            company["stack"] = leader_id
            company["arrival"] = m.next_arrival(state, where)
            company["orders"] = ["@WORK"]
            units[company_id] = company
            mine.append(company_id)
    others = [other for other in factions if other != faction]
    for uid in mine:
        unit = units[uid]
        queue = _queue(world, uid, unit, faction, others, rng, temporary)
        if any(line.startswith("RECRUIT") for line in queue):
            temporary += 1
        if rng.unit() < REWRITTEN:
            orders.append({"action": "unit", "unit": uid, "orders": queue})
            if any(line.startswith("RECRUIT") for line in queue):
                new_id = f"{faction}nU{temporary - 1:02d}"
                orders.append({"action": "unit", "unit": new_id, "orders": ["@WORK"]})
        elif not any(line.startswith("RECRUIT") for line in queue):
            unit["orders"] = queue  # a queue kept from last month


def _queue(
    world: World,
    uid: str,
    unit: dict[str, Any],
    faction: str,
    others: list[str],
    rng: Stream,
    temporary: int,
) -> list[str]:
    """A queue of the kind a player keeps for a unit like this one, where it stands."""
    if unit["race"] == "man":
        return ["@WORK"] if rng.unit() < 0.85 else ["10 WORK", "WAIT 5", "@WORK"]
    where = str(unit["location"])
    roads = sorted(world.neighbours(where))
    in_city = world[where].terrain == CITY
    pick = rng.unit()
    if in_city and pick < 0.25:
        return ["WITHDRAW 200", f"BUY {rng.between(2, 10)} swrd {rng.between(140, 170)}", "@WORK"]
    if pick < 0.4:
        return [f"RECRUIT {faction}nU{temporary:02d} {rng.between(5, 15)} man 70", "@WORK"]
    if pick < 0.6 and roads:
        return [f"DAY {rng.between(3, 25)}", f"-MOVE {rng.choice(roads)}", "@WORK"]
    if pick < 0.7 and roads:
        return [f"WAIT {rng.between(2, 12)}", f"-MOVE {rng.choice(roads)}"]
    if pick < 0.8:
        return [f"STUDY cmbt {rng.between(1, 2)}", "@WORK"]
    if pick < 0.85 and others:
        return [f"STANCE {rng.choice(others)} {rng.choice(['FRIENDLY', 'HOSTILE', 'NEUTRAL'])}", "@WORK"]
    if pick < 0.9:
        return ["HAVE food 5", "-@WORK"]
    return ["@WORK"]


def _rules() -> dict[str, Any]:
    return dict(get_ruleset("overlord").default_rules())


# --- timing -------------------------------------------------------------------------------------------


def measure(root: Path, factions: int, seed: int = SEED, repeat: int = REPEAT) -> Size:
    """Build a campaign of ``factions`` factions at ``root`` and time its first month against its floor.
    The last resolve runs on the campaign itself, which is left resolved."""
    orders = build_campaign(root, factions, seed)
    store = Store(root)
    units = len(store.state()["units"])
    resolve, floor = time_resolve(root, repeat)
    assert floor is not None
    state = store.campaign_dir / "state.yaml"
    events_path = store.turns_dir / "0001" / "events.yaml"
    events = len((canonical.read_yaml(events_path) or {}).get("events", []))
    return Size(
        factions,
        units,
        orders,
        events,
        state.stat().st_size / 1024,
        events_path.stat().st_size / 1024,
        resolve,
        floor,
    )


def table(sizes: list[Size]) -> list[str]:
    lines = [
        "| factions | units | orders | events | state KB | events KB | resolve process s | floor process s "
        "| ratio |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        lines.append(
            f"| {s.factions} | {s.units} | {s.orders} | {s.events} | {s.state_kb:.0f} | {s.events_kb:.0f} "
            f"| {s.resolve:.3f} | {s.floor:.3f} | {s.ratio:.2f}× |"
        )
    return lines


def verdict(largest: Size) -> str:
    """Whether the largest size meets the issue's two targets."""
    fast = largest.ratio <= TARGET
    small = largest.events_kb < EVENTS_LIMIT_KB
    return (
        f"At {largest.factions} factions and {largest.units} units: resolve {largest.ratio:.2f}× its floor "
        f"(target ≤ {TARGET:g}×): {'met' if fast else 'NOT MET'}; events file {largest.events_kb:.0f} KB "
        f"(target < {EVENTS_LIMIT_KB // 1024} MB): {'met' if small else 'NOT MET'}."
    )


def run(sizes: tuple[int, ...], seed: int, repeat: int, base: Path | None = None) -> list[Size]:
    """Every size measured in a scratch directory of its own (under ``base`` when given), removed after."""
    measured = []
    for factions in sizes:
        root = Path(tempfile.mkdtemp(prefix=f"campaign-bench-overlord-{factions}-", dir=base))
        try:
            measured.append(measure(root, factions, seed, repeat))
        finally:
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(root.parent / f"{root.name}-copy", ignore_errors=True)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m resolver.bench.overlord",
        description="One overlord month at several sizes (25 units a faction, generated), each month's "
        "`campaign resolve` timed as a whole process against a bare process that loads and dumps the same "
        "files.",
    )
    parser.add_argument(
        "--factions",
        type=int,
        nargs="+",
        default=list(SIZES),
        help="the sizes, in factions (default: 5 10 20)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="the campaigns' seed (default: 1)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="runs of each process (default: 3)")
    args = parser.parse_args(argv)
    # The timed processes read compiled modules, as after any install or first run.
    compileall.compile_dir(Path(__file__).parents[1], quiet=1)
    print(f"Resolving an overlord month at {', '.join(map(str, args.factions))} factions …", file=sys.stderr)
    sizes = run(tuple(args.factions), args.seed, args.repeat)
    print(
        f"## Overlord: one month at {len(sizes)} sizes, {UNITS_PER_FACTION} units a faction "
        f"(seed {args.seed})"
    )
    print()
    print("\n".join(table(sizes)))
    print()
    print(verdict(sizes[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
