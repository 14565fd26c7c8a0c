"""An attack on a sealed campaign of every ruleset, made as a player would make it who holds only their own
key and a full clone of the public repository: every file of every turn, every sealed file and its length,
every digest, and all that the resolves printed (the public Actions log).

The campaign key is used here only to learn the truth that the attack must fail to find or confirm."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from resolver import workflow
from resolver.core import canonical
from resolver.core import factions as faction_records
from resolver.engine import gm
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS, FactionSetup, get_ruleset
from resolver.store import sealing
from resolver.store.store import Store

from . import sealed_play

TURNS = 3
SEED = 11
GM_MARKER = "GMSECRET-4f1a"  # every text of the GM's secret orders carries it
RUMOUR = "Someone has bought every barrel of salt in the harbour"
PRIVATE_FOLDERS = ("player-keys", ".view")  # what a player keeps on their own machine, never pushed
# The GM's key of these campaigns, fixed so that what the set-up draws from it is the same in every run.
CAMPAIGN_KEY = "AGE-SECRET-KEY-1GQHYK89TXK7D0ERUGXJE9LCCHWKSUCDA5K34K4225LHY0AVW7A6SQ7TL8K"


@dataclass
class Played:
    ruleset: str
    root: Path
    key: str  # only to learn the truth the attack must not reach
    printed: str = ""  # everything the resolves printed: the public Actions log
    pushed_orders: dict[int, dict[str, bytes]] = field(default_factory=dict)  # sealed order files per turn
    rumour_author: str = ""  # the player faction whose orders carry a rumour


def run(*args: str | Path) -> str:
    code, out = sealed_play.run(*args)
    assert code == 0, out
    return out


def gm_orders(store: Store, turn: int) -> bytes:
    """The GM's secret interventions: every GM order the ruleset takes, each with the marker in its words,
    none marked public, a narration only for the campaign's first faction."""
    state = store.state()
    game = store.game(state)
    orders = []
    for example in gm.examples(game, state):
        if example["action"] in ("add_faction", "remove", "judge"):
            continue  # they change who plays, or need a ruling the ruleset understands: not secrets here
        for word in ("reason", "text", "headline"):
            if word in example:
                example[word] = f"{GM_MARKER} {example[word]}"
        if example["action"] == "narrate":
            example["to"] = [game.factions[0]]
        if example["action"] == "place":  # a piece of the GM's own: none of its parts keeps another's id
            example["data"] = {
                key: [{**part, "id": f"{part['id']}-gm"} if "id" in part else part for part in value]
                if isinstance(value, list) and all(isinstance(part, dict) for part in value)
                else value
                for key, value in example["data"].items()
            }
            example["data"]["concealed"] = True  # hidden from the public view, wherever it stands
        orders.append(example)
    return canonical.dump({"campaign": game.campaign, "turn": turn, "faction": "gm", "orders": orders})


def rumour_author(store: Store) -> str:
    """The faction that spreads the rumour: the third a person plays (one the GM's narration is not for)."""
    state = store.state()
    return faction_records.awaited(state, store.game(state).factions)[2]


def seal_turn_orders(store: Store, turn: int, author: str) -> dict[str, bytes]:
    """Every faction's orders as its player would push them, sealed; ``author``'s also spread a rumour."""
    state = store.state()
    game = store.game(state)
    pushed = {}
    for faction in faction_records.awaited(state, game.factions):
        data = canonical.load(bot_order_file(game, state, faction).raw)
        if faction == author:
            data["rumors"] = [f"{RUMOUR} (turn {turn})"]
        raw = canonical.dump(data)
        pushed[faction] = sealing.encrypt(raw, store.recipients([faction]), sealing.ORDER_FILE_SIZE)
    pushed["gm"] = sealing.encrypt(gm_orders(store, turn), store.recipients(), sealing.ORDER_FILE_SIZE)
    for name, sealed in pushed.items():
        (store.orders_dir / f"{name}.yaml{sealing.SUFFIX}").write_bytes(sealed)
    return pushed


@pytest.fixture(scope="module", params=RULESETS)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    root = tmp_path_factory.mktemp(f"attack-{request.param}") / "campaign"
    root.mkdir()
    key = CAMPAIGN_KEY
    factions = workflow.default_factions(4, SEED)
    players = workflow.demo_player_keys(root, [f.id for f in factions], SEED)
    workflow.new_campaign(
        root, request.param, SEED, factions, players=players, key=key, sealed=True, beacon_name="test"
    )
    (root.parent / "gm-key.txt").write_text(f"{key}\n", encoding="utf-8")
    game = Played(request.param, root, key)
    store = Store(root)
    sealing.use_key_file(root.parent / "gm-key.txt")
    try:
        game.rumour_author = rumour_author(store)
        for turn in range(1, TURNS + 1):
            game.pushed_orders[turn] = seal_turn_orders(store, turn, game.rumour_author)
            game.printed += run("resolve", "--root", root, "--key-file", root.parent / "gm-key.txt")
    finally:
        sealing.forget_key()
    game.printed += run("verify", "--root", root)  # what anyone may run and publish
    yield game


def public_texts(played: Played) -> dict[str, str]:
    """Every file of the public repository as text (ciphertexts included, though nothing is found in
    them), and the public log."""
    texts = {"(the resolve's output)": played.printed}
    for path in sorted(played.root.rglob("*")):
        relative = path.relative_to(played.root).as_posix()
        if path.is_file() and not relative.startswith(PRIVATE_FOLDERS):
            texts[relative] = path.read_bytes().decode("utf-8", "replace")
    return texts


def hex_words(texts: dict[str, str]) -> set[str]:
    """Every 64-digit hex string anywhere in public: all that could serve to confirm a guess."""
    return {word for text in texts.values() for word in re.findall(r"[0-9a-f]{64}", text)}


def truth(played: Played) -> dict[str, bytes]:
    """Every secret plain text of the campaign, opened with the key: the perfect guesses."""
    found = {}
    for path in sorted((played.root / "campaign").rglob(f"*{sealing.SUFFIX}")):
        found[path.relative_to(played.root).as_posix()] = sealing.decrypt_with_key(
            path.read_bytes(), played.key
        )
    store = Store(played.root)
    sealing.use_key_file(played.root.parent / "gm-key.txt")
    try:
        for turn in store.archived_turns():
            orders = canonical.load(store.read_secret(store.turns_dir / f"{turn:04d}" / "orders.yaml") or b"")
            for faction, entry in (orders.get("orders") or {}).items():
                found[f"turn {turn}: {faction}'s orders as archived"] = canonical.dump(entry)
    finally:
        sealing.forget_key()
    return found


def test_the_hidden_start_cannot_be_rebuilt_from_the_public_seed_or_confirmed(played: Played) -> None:
    """The attacker runs the ruleset's set-up with the public seed, world and players, in every order of
    the factions, and looks for any public value that would confirm one of the results."""
    campaign = played.root / "campaign"
    config = canonical.read_yaml(campaign / "campaign.yaml")
    roster = canonical.read_yaml(campaign / "players.yaml")["factions"]
    ruleset = get_ruleset(played.ruleset)
    rules = ruleset.default_rules()
    world = ruleset.generate_world(int(config["seed"]), rules, len(roster))
    setups = [FactionSetup(f, info["name"], info["color"]) for f, info in roster.items()]
    published = hex_words(public_texts(played))
    opening = sealing.decrypt_with_key((campaign / "turns/0000/state.yaml.age").read_bytes(), played.key)
    secret = set(_private_parts(played, canonical.load(opening)))
    seed = int(config["seed"])
    for order in itertools.permutations(setups):
        candidate = ruleset.initial_state(world, rules, list(order), seed)
        assert hashlib.sha256(canonical.dump(candidate)).hexdigest() not in published
    assert hashlib.sha256(opening).hexdigest() not in published  # not even the truth can be confirmed
    # What the set-up draws at random: what changes with the seed. Fixed numbers of the rules (a starting
    # stock) are no secret; whatever is drawn must not follow from the public seed and the players' file.
    rebuilt = set(_private_parts(played, ruleset.initial_state(world, rules, setups, seed)))
    elsewhere = set(_private_parts(played, ruleset.initial_state(world, rules, setups, seed + 1)))
    drawn = rebuilt ^ elsewhere
    if drawn:
        assert rebuilt & drawn != secret & drawn, "the hidden start follows from the public seed"


def _private_parts(played: Played, state: dict) -> list[str]:
    """What the opening state keeps from the public view: the lines of each faction's view that the public
    view does not hold."""
    if not state:
        return []
    store = Store(played.root)
    sealing.use_key_file(played.root.parent / "gm-key.txt")
    try:
        game = store.game(state)
    finally:
        sealing.forget_key()
    public = canonical.dump(game.ruleset.faction_view(game, state, None))
    hidden = []
    for faction in game.factions:
        own = canonical.dump(game.ruleset.faction_view(game, state, faction))
        hidden += sorted(set(own.decode().splitlines()) - set(public.decode().splitlines()))
    return hidden


def test_no_secret_text_can_be_confirmed_by_a_perfect_guess(played: Played) -> None:
    """Even guessing a view, a report, an order file, the events or the state exactly right, the attacker
    finds no published digest to confirm it: each secret text is committed to under a secret key."""
    published = hex_words(public_texts(played))
    for name, plain in truth(played).items():
        assert hashlib.sha256(plain).hexdigest() not in published, name


def test_sealed_files_of_one_kind_have_one_length_whatever_they_hold(played: Played) -> None:
    """Lengths are public forever: every faction's view, report, receipt and bot orders of a turn, and
    every order file pushed in a turn, have one length, though one faction holds more than another and
    one faction's orders carry a rumour."""
    for turn, pushed in played.pushed_orders.items():
        players = {name: len(sealed) for name, sealed in pushed.items() if name != "gm"}
        assert len(set(players.values())) == 1, (turn, players)
    turns = played.root / "campaign" / "turns"
    for folder in sorted(turns.glob("*/*")):
        if folder.is_dir():
            lengths = {p.name: p.stat().st_size for p in folder.glob(f"*{sealing.SUFFIX}")}
            assert len(set(lengths.values())) <= 1, (folder, lengths)
    plain = truth(played)
    views = {name: len(text) for name, text in plain.items() if "/views/" in name and "0001" in name}
    assert len(set(views.values())) > 1, "the test needs views of different lengths inside"


def test_a_rumour_names_no_author(played: Played) -> None:
    texts = public_texts(played)
    assert any(RUMOUR in text for text in texts.values()), "rumours are public by design"
    roster = canonical.read_yaml(played.root / "campaign" / "players.yaml")["factions"]
    author = {played.rumour_author, roster[played.rumour_author]["name"].lower()}
    for name, text in texts.items():
        for line in text.splitlines():
            if RUMOUR in line:
                assert not [word for word in author if word in line.lower()], (name, line)


def test_the_gms_secret_interventions_stay_secret(played: Played) -> None:
    for name, text in public_texts(played).items():
        assert GM_MARKER not in text, name
