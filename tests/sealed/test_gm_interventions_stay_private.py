"""In a sealed campaign the GM's orders are told only to the factions they concern, unless the GM writes
``public: true``; a concealed piece's place is never public. Checked as an attacker would: from the
public files and the resolve's output (CI's public log), never with the key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical, relations
from resolver.core.fog import CONCEALED
from resolver.engine import gm
from resolver.engine.ruleset import RULESETS, Game
from resolver.store.views import turn_lines

from .sealed_play import (
    full_state,
    holding_key,
    key_file,
    printed_events,
    public_events,
    public_text,
    report,
    resolve,
    run,
    sealed_demo,
    send_gm_orders,
)

# What the GM tells one faction in secret: none of it may reach a public file or the log.
SECRETS = {
    "grant": "MARKER-subsidy-from-the-duke-5e1",
    "take": "MARKER-fine-for-smuggling-77c",
    "give_item": "MARKER-item-ducal-seal-0b4",
    "take_item": "MARKER-item-taken-back-a90",
    "modifier": "MARKER-modifier-blessing-3d2",
    "relation": "MARKER-secret-pact-8f1",
    "judge": "MARKER-ruling-in-private-c6e",
    "narrate": "MARKER-letter-to-one-2aa",
}
HIDDEN_PIECE = "marker-hidden-piece-91d"  # placed concealed: neither it nor its place may be public
ALSO_HIDDEN = "marker-hidden-too-c20"  # placed concealed, with public: true: still unnamed, still nowhere
SEEN_PIECE = "marker-seen-piece-4b7"  # placed in view: on the map, but the GM's order is not news
PUBLIC_GRANT = "MARKER-announced-grant-e03"  # public: true
PUBLIC_NEWS = "MARKER-announced-news-51f"  # a narration without 'to'


def placing(
    root: Path, owner: str, piece: str, beside: tuple[dict[str, Any], ...] = (), **data: Any
) -> dict[str, Any]:
    """The GM's order placing a piece of ``owner``'s, shaped as the ruleset's own pieces are, where the
    template would put one once the pieces the GM places ``beside`` it in the same file stand (a ruleset
    that allows one unit a province, diplomacy, puts the next in another)."""
    game, state = full_state(root)
    for earlier in beside:  # set down as the GM phase sets it down
        collection = state.setdefault(game.ruleset.entity_kinds[earlier["kind"]], {})
        collection[earlier["id"]] = {**earlier["data"], "id": earlier["id"]}
    example = next(o for o in gm.examples(game, state) if o["action"] == "place")
    # Each piece's parts (an army's units) get ids of their own: the check refuses ids another part has.
    shaped = gm.placeable_copy(game, example["data"], piece)
    shaped.pop(CONCEALED, None)  # whether it is hidden is the caller's to say, never the example's
    return {**example, "id": piece, "data": {**shaped, "owner": owner, **data}}


def first_stock(game: Game) -> str | None:
    """The first stock the GM may grant or take, where the ruleset keeps stocks at all (diplomacy keeps
    none: a power has only its units and centres, and the GM offers no grant or take there)."""
    return next(iter(game.ruleset.stock_names(game)), None) if "grant" in gm.actions(game) else None


def announced(game: Game, one: str) -> dict[str, Any]:
    """A gift to ``one`` the GM makes public, with its reason: a grant of stock, or where the ruleset has
    no stock an item."""
    stock = first_stock(game)
    gift = {"action": "give_item", "item": "a banner"} if stock is None else {
        "action": "grant", "resource": stock, "amount": 2}  # fmt: skip
    return {**gift, "faction": one, "reason": PUBLIC_GRANT, "public": True}


def owned_pieces(root: Path) -> bool:
    """Whether the GM's ``place`` order gives a faction a piece of its own, which it may conceal. A ruleset
    whose factions keep everything inside their own records (usurper) places only the world's pieces,
    cities and landmarks, which are everyone's; a faction's secrets there are its whole record, which the
    fog of war hides, and the GM's gifts to it are its own orders, told to it alone."""
    game, state = full_state(root)
    example = next((o for o in gm.examples(game, state) if o["action"] == "place"), None)
    return example is not None and "owner" in gm.placeable_copy(game, example["data"], "probe")


def stock_orders(game: Game, one: str) -> list[dict[str, Any]]:
    """A secret grant to ``one`` and a take from it, where the ruleset keeps stocks."""
    stock = first_stock(game)
    if stock is None:
        return []
    return [
        {"action": "grant", "faction": one, "resource": stock, "amount": 7, "reason": SECRETS["grant"]},
        {"action": "take", "faction": one, "resource": stock, "amount": 1, "reason": SECRETS["take"]},
    ]


def placed_in_secret_and_in_view(root: Path, one: str) -> list[dict[str, Any]]:
    """A piece of ``one``'s placed concealed, and one placed in view beside it (elsewhere where the
    ruleset allows one piece a place)."""
    hidden = placing(root, one, HIDDEN_PIECE, concealed=True)
    return [hidden, placing(root, one, SEEN_PIECE, beside=(hidden,))]


def secret_orders(root: Path) -> list[dict[str, Any]]:
    """Every kind of GM order the campaign's ruleset takes, each about the first faction, none public
    (but a narration without 'to', which is told to everyone)."""
    game, state = full_state(root)
    one, other = game.factions[0], game.factions[1]
    orders: list[dict[str, Any]] = [
        *stock_orders(game, one),
        {"action": "give_item", "faction": one, "item": SECRETS["give_item"], "reason": SECRETS["grant"]},
        {"action": "take_item", "faction": one, "item": SECRETS["take_item"], "reason": SECRETS["take"]},
        {"action": "modifier", "target": one, "name": SECRETS["modifier"], "value": 3, "turns": 2},
        *(placed_in_secret_and_in_view(root, one) if owned_pieces(root) else []),
        {"action": "narrate", "headline": SECRETS["narrate"], "to": [one]},
        {"action": "narrate", "headline": PUBLIC_NEWS},
    ]
    if relations.kinds(game.rules):
        kind = relations.kinds(game.rules)[-1]
        orders.append(
            {
                "action": "relation",
                "faction": one,
                "other": other,
                "kind": kind,
                "reason": SECRETS["relation"],
            }
        )
    rulings = [
        (subject, grants)
        for subject in game.ruleset.judgement_subjects(game, state, one)
        for grants in ({}, {"leave_first": []}, {"bonus": 1})
        if not game.ruleset.judgement_problems(game, subject, grants)
    ]
    for subject, grants in rulings[:1]:
        orders.append(
            {
                "action": "judge",
                "faction": one,
                "subject": subject,
                "ruling": SECRETS["judge"],
                "grants": grants,
            }
        )
    if game.ruleset.can_add_factions:
        orders.append({"action": "add_faction", "id": "latecomer", "name": "The Latecomers"})
    return orders


@pytest.fixture(scope="module", params=RULESETS)
def gm_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A sealed campaign of each ruleset whose turn 2 the GM filled with secret interventions."""
    root = sealed_demo(tmp_path_factory.mktemp("gm"), request.param)
    orders = secret_orders(root)
    send_gm_orders(root, orders)
    printed = resolve(root)
    game, _ = full_state(root)
    return {"root": root, "printed": printed, "one": game.factions[0], "orders": orders}


def test_no_secret_of_the_gm_reaches_a_public_file_or_the_log(gm_turn: dict[str, Any]) -> None:
    seen = public_text(gm_turn["root"], gm_turn["printed"])
    told = {o["action"] for o in gm_turn["orders"]}
    for action, marker in SECRETS.items():
        if action in told:
            assert marker not in seen, f"the GM's secret {action} is public"
    assert HIDDEN_PIECE not in seen
    # A piece placed in view is on the public map, but the GM's order that placed it is not news.
    kinds = {e["kind"] for e in public_events(gm_turn["root"], 2) if e["phase"] == "gm"}
    assert kinds == {"gm_narrate", "orders_missing"}


def test_the_faction_concerned_hears_of_it_and_no_other(gm_turn: dict[str, Any]) -> None:
    root, one = gm_turn["root"], gm_turn["one"]
    game, _ = full_state(root)
    mine = report(root, 2, one)
    told = {o["action"] for o in gm_turn["orders"]}
    for action in ("grant", "take", "give_item", "modifier", "narrate"):
        if action in told:
            assert SECRETS[action] in mine, action
    if owned_pieces(root):
        assert HIDDEN_PIECE in mine  # its owner is told where it was placed
    bystander = next(f for f in game.factions[2:] if f != "latecomer")
    assert not any(marker in report(root, 2, bystander) for marker in SECRETS.values())


def test_the_resolve_prints_the_public_record_and_nothing_else(gm_turn: dict[str, Any]) -> None:
    root, printed = gm_turn["root"], gm_turn["printed"]
    game, _ = full_state(root)
    expected = [line.text for line in turn_lines(game, public_events(root, 2))]
    assert printed_events(printed) == [line.replace("\n", "\\n") for line in expected]
    assert PUBLIC_NEWS in printed
    assert not [marker for marker in (*SECRETS.values(), HIDDEN_PIECE) if marker in printed]


def test_verify_catches_a_public_record_that_tells_more_than_the_turn_did(gm_turn: dict[str, Any]) -> None:
    """A resolver that published a secret event (and a digest to match) is caught by the replay."""
    root = gm_turn["root"]
    folder = root / "campaign" / "turns" / "0002"
    record, digests = folder / "public-events.yaml", folder / "digest.yaml"
    originals = {path: path.read_bytes() for path in (record, digests)}
    with holding_key(root) as store:
        secret = [e for e in canonical.load(store.read_secret(folder / "events.yaml") or b"")["events"]
                  if e["kind"] == "gm_give_item"]  # fmt: skip
    published = canonical.load(originals[record])
    leaked = canonical.dump({**published, "events": [*secret, *published["events"]]})
    bound = canonical.load(originals[digests])
    bound["public"]["events"] = canonical.digest(leaked)
    try:
        record.write_bytes(leaked)
        digests.write_bytes(canonical.dump(bound))
        code, out = run("verify", "--turn", "2", "--root", root, "--key-file", key_file(root))
        assert code == 1 and "differs from the public record of the replayed events" in out, out
    finally:
        for path, raw in originals.items():
            path.write_bytes(raw)


def test_what_the_gm_makes_public_is_public_but_a_concealed_piece_stays_unnamed(
    gm_turn: dict[str, Any],
) -> None:
    """The turn after: a public grant; the public placing of another concealed piece; a public modifier
    that runs out at once, then a public removal, of the first one. The public hears that the GM did so
    to a hidden piece, never which one nor where; the campaign still replays byte for byte."""
    root, one = gm_turn["root"], gm_turn["one"]
    game, _ = full_state(root)
    grant = announced(game, one)
    if not owned_pieces(root):
        # No piece to hide (see owned_pieces): what the GM makes public is public, and the rest replays.
        send_gm_orders(root, [grant])
        printed = resolve(root)
        assert PUBLIC_GRANT in printed and PUBLIC_GRANT in public_text(root, printed)
        told = {e["kind"]: e for e in public_events(root, 3) if e["phase"] == "gm"}
        assert told[f"gm_{grant['action']}"]["data"]["reason"] == PUBLIC_GRANT
        code, out = run("verify", "--root", root, "--key-file", key_file(root))
        assert code == 0 and "turn(s) replay byte-identically" in out, out
        return
    hiding = placing(root, one, ALSO_HIDDEN, concealed=True)
    send_gm_orders(
        root,
        [
            grant,
            {**hiding, "public": True},
            {"action": "modifier", "target": HIDDEN_PIECE, "name": "attack", "value": 1, "turns": 1,
             "public": True},
            {"action": "remove", "kind": hiding["kind"], "id": HIDDEN_PIECE, "public": True},
        ],
    )  # fmt: skip
    printed = resolve(root)
    seen = public_text(root, printed)
    assert PUBLIC_GRANT in printed and PUBLIC_GRANT in seen
    assert HIDDEN_PIECE not in seen and ALSO_HIDDEN not in seen
    told = {e["kind"]: e for e in public_events(root, 3) if e["phase"] == "gm"}
    assert told[f"gm_{grant['action']}"]["data"]["reason"] == PUBLIC_GRANT
    assert told["gm_place"]["data"] == {"what": hiding["kind"], "concealed": True}
    assert "place" not in told["gm_place"]
    assert told["gm_modifier"]["data"] == {"name": "attack", "value": 1, "until": 3, "concealed": True}
    assert "place" not in told["gm_remove"] and "id" not in told["gm_remove"]["data"]
    assert f"The GM places a hidden {hiding['kind']} of {game.name_of(one)}." in printed
    # Its owner is told the whole of it.
    mine = report(root, 3, one)
    assert HIDDEN_PIECE in mine and ALSO_HIDDEN in mine
    code, out = run("verify", "--root", root, "--key-file", key_file(root))
    assert code == 0 and "3 of 3 turn(s) replay byte-identically" in out, out
    code, out = run("verify", "--root", root)
    assert code == 0 and "public parts match" in out, out


def test_public_is_offered_to_editors_and_checked(tmp_path: Path) -> None:
    root = sealed_demo(tmp_path, "factions")
    schema = json.loads((root / "orders" / "orders.schema.json").read_text(encoding="utf-8"))
    gm_orders = schema["then"]["properties"]["orders"]["items"]["oneOf"]
    assert gm_orders and all(o["properties"]["public"]["type"] == "boolean" for o in gm_orders)
    game, _ = full_state(root)
    draft = root / "orders" / "gm.yaml"
    draft.write_text(
        f"campaign: {game.campaign}\nturn: 2\nfaction: gm\norders:\n"
        f"  - action: grant\n    faction: {game.factions[0]}\n    resource: capital\n    amount: 1\n"
        "    public: sometimes\n",
        encoding="utf-8",
    )
    code, out = run("check", "--root", root, "--key-file", key_file(root), draft)
    assert code == 1
    assert "orders/gm.yaml:9:" in out and "'public' must be true or false" in out, out
    draft.write_text(draft.read_text(encoding="utf-8").replace("sometimes", "true"), encoding="utf-8")
    code, out = run("check", "--root", root, "--key-file", key_file(root), draft)
    assert code == 0 and "told to everyone" in out, out
