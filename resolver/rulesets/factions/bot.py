"""A bot that runs a faction: a steward minds the money and the projects, an enforcer takes the fight to
the nearest rival, an envoy works the city's NPC factions.

Each lieutenant tries its role's actions in an order that turns with the turn, so over a few turns every
action comes up, and takes the first one the rules allow and the purse pays for. Orders are read by the
same ``Reader`` the checker and the resolver use, then handed to the validator, so what the bot submits is
legal by construction. Choices that could go either way come from a stream seeded by the campaign, the
turn and the faction: the bot is deterministic like everything else.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from ...core.phases import State
from ...core.rng import Stream, stream
from ...engine.press import Story, bot_articles
from ...engine.ruleset import Game
from . import model as m
from .plans import Position, Reject

Order = dict[str, Any]

RIVALS = (
    (
        "Strangers at {place}",
        "{rival} has been seen at {place}, where {name} keeps its home. {name} asks its "
        "neighbours to mind whose door they knock on.",
    ),
    (
        "{name} will not be crowded out",
        "Whatever {rival} wants at {place}, {name} was there first and means to stay.",
    ),
)
ABROAD = (
    (
        "{lieutenant} speaks for {name}",
        "Anyone with business to settle with {name} will find {lieutenant} "
        "at {abroad} this week, and in a listening mood.",
    ),
    ("{name} at {abroad}", "{lieutenant} has taken rooms at {abroad}. {name} says it is a social call."),
)
HOME = (
    (
        "{name} thanks its friends at {place}",
        "The {archetype} is grateful to the people of {place}, who know that {name} looks after its own.",
    ),
    (
        "A word from {name}: business as usual",
        "Whatever you heard, {name} is open for business at {place}, as it has always been.",
    ),
    (
        "{name} denies every rumour",
        "The {archetype} of {place} has read what is said about it in the "
        "taverns. None of it is true, says {name}, and nobody should repeat it.",
    ),
)
RUMORS = (
    "Someone has been buying every lantern oil barrel in the lower city.",
    "A watchman swears the bridges were counted twice last night.",
    "The fishmongers say a guild is about to change hands.",
)


class Draft(Position):
    """The faction's orders as they are written, played forward like the checker does."""

    def __init__(self, game: Game, state: State, faction: str) -> None:
        super().__init__(game, state, faction, gained=lambda n: None)
        self.orders: list[Order] = []
        self.hoped: dict[str, int] = {}  # what earlier orders may gain, if they succeed

    @property
    def capital(self) -> int:
        return int(self.state["factions"][self.faction]["stock"].get("capital", 0))

    def influence(self, npc: str) -> int:
        return m.influence_with(self.state, self.faction, npc)

    def add(self, order: Order, *, keep: int = 0) -> bool:
        """Add the order if it is legal now and leaves at least ``keep`` capital for upkeep.

        An order with a ``backup`` may count on what earlier orders hope to gain: then the backup must be
        payable without it, as the checker demands.
        """
        number = len(self.orders) + 1
        try:
            plan = self.reader.plan(number, order)
        except Reject:
            return False
        spent = plan.costs.get("capital", 0)
        if not m.can_pay(self.state, self.faction, plan.costs) and self.capital - spent >= keep:
            order = {k: v for k, v in order.items() if k != "backup"}
        elif order.get("backup") and spent <= self.capital + self.hoped.get("capital", 0) - keep:
            try:
                plan = self.reader.plan(number, {**order["backup"], "lieutenant": order["lieutenant"]})
            except Reject:
                return False
            if (
                m.can_pay(self.state, self.faction, plan.costs)
                or self.capital - plan.costs.get("capital", 0) < keep
            ):
                return False
            self.hoped.clear()  # spent, if it comes
        else:
            return False
        self.take(plan)
        if plan.action.id in ("raid", "steal"):
            self.hoped["capital"] = self.hoped.get("capital", 0) + int(plan.action.by_band("take", "success"))
        self.orders.append(order)
        return True


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    # Factions start their rotation at different actions, so they do not all act alike.
    turn = int(state["turn"]) + sorted(state["factions"]).index(faction)
    rng = stream(game.seed, f"factions/bot/{faction}/turn{state['turn']}")
    draft = Draft(game, state, faction)
    keep = _upkeep_reserve(draft, rng)
    lieutenants = m.assets_of(state, game.rules, faction, "lieutenant")
    roles: list[Callable[[Draft, m.Asset, int, Stream, int], Iterator[Order]]] = [_steward, _enforcer, _envoy]
    # The steward acts last, so that it can spend what the enforcer's raids and thefts bring in.
    acting = sorted(enumerate(lieutenants), key=lambda pair: (pair[0] % len(roles) == 0, pair[0]))
    for index, lieutenant in acting:
        role = roles[index % len(roles)]
        for order in role(draft, lieutenant, turn, rng, keep):
            if draft.add(order, keep=keep):
                break
    rumors = []
    press = _press(game, state, faction)
    if rng.below(4) == 0:
        rumors.append(rng.choice(RUMORS))
    return {"orders": draft.orders, "press": press, "rumors": rumors}


def _press(game: Game, state: State, faction: str) -> list[dict[str, str]]:
    """Now and then an article signed by the faction: a rival seen at its home, a lieutenant of its seen
    abroad, or a word from home. Only what anyone may see (its name, archetype and home, assets that are
    not concealed, where they stand), never its capital, reach or influence."""
    record = state["factions"][faction]
    home = record.get("home")
    if not home:
        return []
    facts = {"name": record["name"], "archetype": record["archetype"], "place": m.location_label(state, home)}
    stories = []
    rivals = sorted({a["owner"] for a in m.assets_at(state, home) if a["owner"] not in (faction, None)})
    for rival in rivals:
        if m.known_at(state, home, rival) and rival in state["factions"]:
            stories.append(Story(RIVALS, {**facts, "rival": state["factions"][rival]["name"]}))
            break
    for lieutenant in m.assets_of(state, game.rules, faction, "lieutenant"):
        if lieutenant["location"] != home and not lieutenant.get("concealed"):
            abroad = m.location_label(state, lieutenant["location"])
            stories.append(Story(ABROAD, {**facts, "lieutenant": lieutenant["name"], "abroad": abroad}))
            break
    stories.append(Story(HOME, facts))
    return bot_articles(stream(game.seed, f"factions/bot/{faction}/turn{state['turn']}/press"), stories)


def _upkeep_reserve(draft: Draft, rng: Stream) -> int:
    """Capital kept back for the end of turn's upkeep; a bold faction (one turn in six) keeps nothing back."""
    upkeep = m.upkeep_total(draft.rules, draft.state, draft.faction)["capital"]
    return 0 if rng.below(6) == 0 else upkeep + 1  # one to spare, against thieves


def _turned(options: list[Callable[[], Iterator[Order]]], turn: int) -> Iterator[Order]:
    """The role's options starting at a different one each turn, so every action has its day."""
    start = turn % len(options)
    for option in options[start:] + options[:start]:
        yield from option()


def _order(lieutenant: str, action: str, **fields: Any) -> Order:
    """An order as a player writes one: the action and the lieutenant who acts, then its fields."""
    return {"action": action, "lieutenant": lieutenant, **fields}


# -- the steward: money, projects, people -------------------------------------------------------------------


def _steward(draft: Draft, lt: m.Asset, turn: int, rng: Stream, keep: int) -> Iterator[Order]:
    rules, state, faction = draft.rules, draft.state, draft.faction
    me = lt["id"]
    home = state["factions"][faction]["home"]
    here = m.locale_of(state, lt["location"])
    units_here = [
        u for u in m.assets_of(state, rules, faction, "unit") if m.locale_of(state, u["location"]) == here
    ]
    projects = m.projects_of(state, faction)
    # Training must run in one stretch: it comes first once begun.
    for p in projects:
        if p["action"] == "train" and p["asset"] in state["assets"]:
            yield _order(me, "train", unit=p["asset"], units=_aiders(draft, here, "wits"))
    if m.locale_of(state, home) != here:
        yield _step_towards(draft, lt, m.locale_of(state, home), units=[])

    def build() -> Iterator[Order]:
        if not any(p["action"] == "build" for p in projects):
            public = [
                lid for lid in m.locations_in(state, here) if m.holder_of(state, lid) in (None, faction)
            ]
            for lid in public[:1]:
                yield _order(me, "build", asset_type="guildhall", location=lid)

    def train() -> Iterator[Order]:
        for u in sorted(units_here, key=lambda u: (m.level_of(rules, u), u["id"]))[:1]:
            yield _order(me, "train", unit=u["id"], units=_aiders(draft, here, "wits", but=u["id"]))

    def purchase() -> Iterator[Order]:
        kind = "sellswords" if rng.below(2) else "informants"
        order: Order = _order(me, "purchase_units", unit_type=kind, pay_extra=True)
        # Should the coin the enforcer hopes to bring home not come, the steward drills a unit instead.
        trainee = sorted(units_here, key=lambda u: (m.level_of(rules, u), u["id"]))[:1]
        if trainee:
            order["backup"] = {"action": "train", "unit": trainee[0]["id"]}
        yield order

    def sell() -> Iterator[Order]:
        if draft.capital < keep + 2:  # short of money: sell the costliest unit to keep the rest
            costly = sorted(units_here, key=lambda u: (-m.price_of(rules, u["type"]), u["id"]))
            for u in costly[:1]:
                yield _order(me, "sell", asset=u["id"])

    def conceal() -> Iterator[Order]:
        for a in m.known_at(state, lt["location"], faction)[:1]:
            yield _order(me, "conceal", asset=a["id"])

    def investigate() -> Iterator[Order]:
        rival = _nearest_rival(draft, here)
        if rival:
            yield _order(me, "investigate", target=rival, units=_aiders(draft, here, "wits"))

    yield from sell()
    for p in projects:  # a building project is pursued to the end, though it could pause
        if p["action"] == "build":
            yield _order(me, "build", project=p["id"], units=_aiders(draft, here, "wits"))
    yield from _turned([build, train, purchase, conceal, investigate], turn)


# -- the enforcer: the rival next door ----------------------------------------------------------------------


def _enforcer(draft: Draft, lt: m.Asset, turn: int, rng: Stream, keep: int) -> Iterator[Order]:
    rules, state, faction = draft.rules, draft.state, draft.faction
    me = lt["id"]
    here = m.locale_of(state, lt["location"])
    rival = _nearest_rival(draft, here)
    if rival is None:
        return
    target = state["factions"][rival]["home"]
    if m.holder_of(state, target) != rival:
        held = m.holdings_of(state, rival)
        target = held[0] if held else target
    goal = m.locale_of(state, target)
    if goal != here:
        training = {p.get("asset") for p in state["projects"].values()}
        crew = [
            u["id"]
            for u in m.assets_at(state, lt["location"])
            if u["owner"] == faction
            and m.kind_of(rules, u) == "unit"
            and {"fight", "sneak"} & set(m.competencies(rules, u))
            and u["id"] not in training | draft.assigned
        ]
        yield _step_towards(draft, lt, goal, units=crew[:1])  # the rest stay to guard home
        return
    sneaky = rng.below(2) == 0

    def surveil() -> Iterator[Order]:
        yield _order(me, "surveil", location=target, stealthy=sneaky, units=_aiders(draft, here, "sneak"))

    def steal() -> Iterator[Order]:
        yield _order(me, "steal", location=target, stealthy=True, units=_aiders(draft, here, "sneak"))

    def raid() -> Iterator[Order]:
        yield _order(me, "raid", location=target, stealthy=sneaky, units=_aiders(draft, here, "fight"))

    def attack() -> Iterator[Order]:
        yield _order(
            me, "attack", target=rival, location=target, pay_extra=True, units=_aiders(draft, here, "fight")
        )

    def recruit() -> Iterator[Order]:
        spots = [lid for lid in m.locations_in(state, here) if m.admits(state, rules, lid, faction)]
        kind = _affordable_recruit(draft)
        for lid in spots[:1] if kind else []:
            yield _order(me, "recruit", unit_type=kind, location=lid, stealthy=sneaky)

    yield from _turned([surveil, steal, raid, attack, recruit], turn)


# -- the envoy: the city's powers ---------------------------------------------------------------------------


def _envoy(draft: Draft, lt: m.Asset, turn: int, rng: Stream, keep: int) -> Iterator[Order]:
    rules, state, faction = draft.rules, draft.state, draft.faction
    me = lt["id"]
    here = m.locale_of(state, lt["location"])
    npcs_here = sorted(
        {h for lid in m.locations_in(state, here) if m.is_npc(rules, h := m.holder_of(state, lid))}
    )
    courted = sorted(npcs_here, key=lambda n: (-draft.influence(n), n))
    if not courted:
        patron_locales = sorted(
            {
                m.locale_of(state, lid)
                for n in state["factions"][faction]["influence"]
                for lid in m.holdings_of(state, n)
            }
        )
        if patron_locales:
            nearest = min(patron_locales, key=lambda loc: (draft.game.world.distance(here, loc), loc))
            yield _step_towards(draft, lt, nearest, units=[])
        return
    npc = courted[0]
    charm = _aiders(draft, here, "charm")
    have = draft.influence(npc)
    reach = int(state["factions"][faction]["stock"].get("reach", 0))
    reach_upkeep = m.upkeep_total(rules, state, faction)["reach"]
    recruit = _affordable_recruit(draft)
    if turn % 4 == 3 and recruit:
        yield _order(me, "recruit", unit_type=recruit)
    if have >= 2:
        held = [lid for lid in m.locations_in(state, here) if m.holder_of(state, lid) == npc]
        deals: list[Order] = [_order(me, "claim", location=lid, units=charm) for lid in held[:1]]
        if not m.allied(state, faction, npc):  # an alliance first every other turn, a holding first otherwise
            deals.insert(turn % 2, _order(me, "ally", npc=npc, units=charm))
        for deal in deals:
            if have >= 3:
                deal["spend_influence"] = 1
            yield deal
    if have >= 1 and reach <= reach_upkeep + 1:
        yield _order(me, "rally", npc=npc, units=charm)
    if rng.below(3) == 0:
        yield _order(me, "influence", npc=npc, stealthy=True, units=charm)
    yield _order(me, "influence", npc=npc, discreet=have >= 2, units=charm)
    yield _order(me, "rally", npc=npc, units=charm)


# -- helpers ------------------------------------------------------------------------------------------------


def _affordable_recruit(draft: Draft) -> str | None:
    """A recruitable unit whose upkeep the faction's income can carry, or None."""
    rules, state, faction = draft.rules, draft.state, draft.faction
    income = m.income_of(rules, state, faction)
    upkeep = m.upkeep_total(rules, state, faction)
    slack = {k: income[k] - upkeep[k] for k in upkeep}
    kinds = sorted(
        (t for t, d in rules["asset_types"].items() if d.get("recruitable")),
        key=lambda t: (-slack[next(iter(rules["asset_types"][t]["upkeep"]))], t),
    )
    best = kinds[0] if kinds else None
    return best if best and slack[next(iter(rules["asset_types"][best]["upkeep"]))] > 0 else None


def _aiders(draft: Draft, locale: str, competency: str, but: str = "") -> list[str]:
    """Free units of the faction in the locale that can aid a task, best first, up to Cohesion."""
    rules, state = draft.rules, draft.state
    units = [
        u
        for u in m.assets_of(state, rules, draft.faction, "unit")
        if m.locale_of(state, u["location"]) == locale
        and competency in m.competencies(rules, u)
        and u["id"] not in draft.assigned
        and u["id"] != but
        and not u["id"].startswith("gained:")
    ]
    units.sort(key=lambda u: (-m.level_of(rules, u), u["id"]))
    return [u["id"] for u in units[: m.cohesion(state, draft.faction)]]


def _nearest_rival(draft: Draft, locale: str) -> str | None:
    """The closest rival; between equals, one fixed per faction, so that not everyone picks the same."""
    state = draft.state
    rivals = sorted(
        f for f in m.active_factions(state) if f != draft.faction and state["factions"][f].get("home")
    )
    tie = stream(draft.game.seed, f"factions/bot/{draft.faction}/rival")
    shuffled = list(rivals)
    tie.shuffle(shuffled)
    return min(
        rivals,
        key=lambda f: (
            draft.game.world.distance(locale, m.locale_of(state, state["factions"][f]["home"])),
            shuffled.index(f),
        ),
        default=None,
    )


def _step_towards(draft: Draft, lt: m.Asset, goal: str, units: list[str]) -> Order:
    """A Move Minion order one locale along a shortest path to `goal`, to a location that lets it in."""
    world, state = draft.game.world, draft.state
    here = m.locale_of(state, lt["location"])
    prev: dict[str, str] = {}
    queue, seen = deque([here]), {here}
    while queue:
        at = queue.popleft()
        for nxt in world.neighbours(at):
            if nxt not in seen:
                seen.add(nxt)
                prev[nxt] = at
                queue.append(nxt)
    step = goal
    while prev.get(step, here) != here:
        step = prev[step]
    spots = [lid for lid in m.locations_in(state, step) if m.admits(state, draft.rules, lid, draft.faction)]
    return _order(lt["id"], "move_minion", to=spots[0] if spots else f"{step}/?", units=units)
