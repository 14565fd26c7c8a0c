"""Orders for a power nobody plays (the demo's seven powers, a campaign's absent player): the position read
from the state through ``model``, the orders chosen by ``strategy`` (pure), and written in the game's
notation (``notation.write_order``: ``A PAR - BUR``, ``F NTH C A LON - NWY``, ``BUILD F STP/NC``), the
form a player writes too, so the bot's file goes through the same reader and checker as a player's.

Ties between equal choices are broken by a hash of the campaign's seed with the year, the season and the
units' and places' ids: two campaigns need not play alike, and one position in one campaign always gives
the same orders.

A bot also writes for the newspaper, as the other rulesets' bots do: now and then a short article signed by
its power and an unsigned rumour about another. Both say only what the board shows everyone (who holds
which supply centre, whose unit stands where, a unit driven out and waiting to retreat), in words, so they
are true and leak nothing of a sealed campaign. The choice of story is drawn from the campaign seed with
the power and the phase, so the same campaign prints the same articles.
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...core.words import number_word
from ...engine.press import Story, bot_articles
from ...engine.ruleset import Game
from . import model as m
from .board import Board
from .notation import write_order
from .pieces import Unit
from .strategy import orders_for_power


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    board = m.board(game)
    movement = m.movement_outcome(state)  # None unless the phase is a retreat phase
    chosen = orders_for_power(
        board,
        movement.units if movement is not None else m.units(state),
        m.owners(state),
        faction,
        m.phase_kind(state),
        season=m.season(state),
        movement=movement,
        seed=f"{game.seed}/{m.year(state)}/{m.season(state)}",
    )
    press, rumors = _press(game, state, faction)
    return {"orders": [write_order(board, order) for order in chosen], "press": press, "rumors": rumors}


# --- press ----------------------------------------------------------------------------------------------

# The stories a power may tell, most pressing first; each a few wordings (a headline and a body) whose
# fields are facts of the public board.
LOST = (
    ("{name} wants {centre} back", "{name} tells {taker} that {centre} is {adjective} soil, held by {taker} "
     "only until the {adjective} army returns."),
    ("{centre} is not forgotten", "{name} has not forgiven {taker} for {centre}. Its {count} supply centres "
     "will be {more} again, it says."),
)  # fmt: skip
DRIVEN_OUT = (
    ("Setback for {name} in {province}", "{name} admits that its {kind} was driven out of {province} this "
     "{season}, and promises that {attacker} will not keep it for long."),
    ("{name} gives ground in {province}", "The {adjective} {kind} in {province} had to yield to "
     "{attacker}. {name} calls it a step back, not a defeat."),
)  # fmt: skip
TRESPASS = (
    ("{name} protests at {intruder} troops", "{name} asks why the {intruder} {kind} stands in {centre}, a "
     "supply centre of its own, and expects it to leave."),
    ("Unwelcome guests in {centre}", "The {intruder} {kind} in {centre} is there without {adjective} leave, "
     "{name} says, and will be treated as it deserves."),
)  # fmt: skip
GAINS = (
    ("{name} counts {count} supply centres", "In {season} {year} {name} holds {count} supply centres, "
     "{gains} among them. Its neighbours are assured it wants nothing more. For now."),
    ("{name} grows", "With {gains} now flying its flag, {name} holds {count} supply centres in {season} "
     "{year} and thanks its friends for their patience."),
)  # fmt: skip
STEADY = (
    ("{name} keeps its word", "{name}, with {count} supply centres and {units} on the board in {season} "
     "{year}, says it seeks no quarrel with any power that seeks none with it."),
    ("A message from {name}", "{name} reminds its neighbours of its {units} and its {count} supply centres "
     "this {season} {year}, and invites any power with an honest offer to write."),
)  # fmt: skip
# A rumour is unsigned and speaks of another power: its facts are that power's count of centres.
RUMORS = (
    "They say {rival}, with {count} supply centres, has made the same promise to two neighbours.",
    "Word in the cafés is that {rival} holds {count} supply centres and wants {more}.",
    "A courier swears {rival} wrote to every capital this {season}, and meant it to none.",
)
RUMOUR_ONE_TURN_IN = 4  # a power whispers one phase in four or so: the paper is not all gossip


def _press(game: Game, state: State, power: str) -> tuple[list[dict[str, str]], list[str]]:
    """At most one article signed by ``power`` and one rumour about a rival, from the public board."""
    board = m.board(game)
    label = f"diplomacy/bot/{power}/{m.year(state)}/{m.season(state)}/{m.phase_kind(state)}"
    held = sorted(centre for centre, owner in m.owners(state).items() if owner == power)
    mine = [unit for unit in m.units(state) if unit.power == power]
    facts = {
        "name": game.name_of(power),
        "adjective": board.power_adjective(power),
        "count": number_word(len(held)),
        "more": number_word(len(held) + 1),
        "season": m.season(state),
        "year": str(m.year(state)),
        "units": _units_in_words(mine),
    }
    stories = _stories(game, board, state, power, held, facts)
    press = bot_articles(stream(game.seed, f"{label}/press"), stories)
    rivals = sorted(
        other
        for other, record in state["factions"].items()
        if other != power and record.get("status", "active") == "active" and other in board.powers
    )
    rumors = []
    rng = stream(game.seed, f"{label}/rumor")
    if rivals and rng.below(RUMOUR_ONE_TURN_IN) == 0:
        rival = rng.choice(rivals)
        theirs = sum(1 for owner in m.owners(state).values() if owner == rival)
        wording = rng.choice(list(RUMORS))
        rumors.append(
            wording.format(
                rival=game.name_of(rival),
                count=number_word(theirs),
                more=number_word(theirs + 1),
                season=m.season(state),
            )
        )
    return press, rumors


def _stories(
    game: Game, board: Board, state: State, power: str, held: list[str], facts: dict[str, str]
) -> list[Story]:
    """What ``power`` could tell this phase, most pressing first: a home centre another power took, one of
    its units driven out and waiting to retreat, a foreign unit standing in one of its centres, the centres
    it won abroad, and else its count of centres and units."""
    owners = m.owners(state)
    stories = []
    for home in board.home_centres(power):
        taker = owners.get(home)
        if taker and taker != power:
            stories.append(Story(LOST, {**facts, "centre": board.name(home), "taker": game.name_of(taker)}))
            break
    for province, record in sorted((state.get("dislodged") or {}).items()):
        attacker = m.unit_id_at(state, province)
        if record["owner"] == power and attacker is not None:
            conqueror = str(m.unit_records(state)[attacker]["owner"])
            stories.append(
                Story(
                    DRIVEN_OUT,
                    {
                        **facts,
                        "province": board.name(province),
                        "kind": str(record["kind"]),
                        "attacker": game.name_of(conqueror),
                    },
                )
            )
            break
    for unit in m.units(state):
        centre = board.province(unit.location)
        if unit.power != power and owners.get(centre) == power:
            stories.append(
                Story(
                    TRESPASS,
                    {
                        **facts,
                        "centre": board.name(centre),
                        "intruder": board.power_adjective(unit.power),
                        "kind": unit.kind,
                    },
                )
            )
            break
    gains = [board.name(centre) for centre in held if centre not in board.home_centres(power)]
    if gains:
        stories.append(Story(GAINS, {**facts, "gains": _listed(gains)}))
    if held or facts["units"] != "no units":
        stories.append(Story(STEADY, facts))
    return stories


def _units_in_words(units: list[Unit]) -> str:
    """The units in words: "two armies and one fleet", "one fleet", "no units"."""
    armies = sum(1 for unit in units if unit.kind == "army")
    fleets = len(units) - armies
    parts = [
        f"{number_word(count)} {one if count == 1 else many}"
        for count, one, many in ((armies, "army", "armies"), (fleets, "fleet", "fleets"))
        if count
    ]
    return " and ".join(parts) if parts else "no units"


def _listed(names: list[str]) -> str:
    """Names in a list of words: "Belgium", "Belgium and Holland", "Belgium, Holland and Denmark"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
