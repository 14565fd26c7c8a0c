"""Randomness that nobody holds before a turn's deadline: rounds of a public beacon, checked offline.

Whoever holds the campaign key knows every salt derived from it alone, so the dice of a turn also mix in
a round of drand's *quicknet* beacon: a round that is published only after the turn's deadline and grace,
which the turn commits to when it opens. Nobody, the key holder included, can know that round's value
before its time; once published, anyone can check it offline against the network's public key.

The API:

- ``Network``: a beacon network (name, public key, genesis, period, relays). ``QUICKNET`` is drand's
  real one; ``TEST`` signs its rounds the same way with a key that is NOT SECRET (SHA-256 of a public
  sentence, see ``tools/make-test-beacon``), so that demos and tests use recorded rounds and never reach
  the network. ``network(name)`` finds one by name; ``campaign_network`` reads the ``beacon:`` of
  ``campaign/campaign.yaml`` and refuses the TEST network outside a demo or a test.
- ``round_at(network, moment)``: the first round whose time is at or after ``moment``;
  ``time_of(network, round)``: when a round is published. Both pure.
- ``BeaconRound(network, round, signature)``: a round as fetched or archived. ``verify()`` checks the
  signature offline (with the ``drand-verify`` package) and raises ``BadBeaconRound`` when it does not
  hold; ``randomness`` is the round's randomness (SHA-256 of the signature), available only once the
  signature verifies. ``to_data`` and ``from_data`` write and read it for an archive.
- ``fetch(network, round, now=..., timeout=...)``: the one function that touches the outside world. For
  quicknet it asks drand's HTTP relays in turn and returns the first answer that verifies; for TEST it
  reads the recorded rounds shipped in the package. A recorded-rounds file given as ``recorded=`` serves
  any network instead; the environment variable ``CAMPAIGN_BEACON_ROUNDS`` names one that replaces the
  relays of quicknet (tests of a whole campaign do this). When the
  round's time has not come it raises ``BeaconNotYet``; when no relay gives a round that verifies it
  raises ``BeaconUnavailable``. Both say what to do and when to try again. Nothing ever falls back to
  other randomness.

A recorded-rounds file is YAML: ``network`` (its name), optionally ``public_key``, ``genesis`` and
``period`` (which must then be the network's), and ``rounds``, a mapping of round numbers to signatures
in hex. Its rounds are verified like any other: the file cannot vouch for them.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..core.issues import CampaignError

ROUNDS_VARIABLE = "CAMPAIGN_BEACON_ROUNDS"  # a recorded-rounds file that replaces quicknet's relays (tests)
TEST_ROUNDS_FILE = Path(__file__).with_name("beacon-test.yaml")
TIMEOUT = 10.0  # seconds a relay may take to answer before the next one is asked
MAX_ANSWER_BYTES = 8 * 1024  # a round's JSON is about 300 bytes; anything far longer is not one
MAX_RECORDED_BYTES = 4 * 1024 * 1024  # the test beacon's 600 rounds take 64 KiB
HINT_INSTALL = (
    "pip install 'drand-verify>=0.2.1,<0.3' (prebuilt for Python 3.7 to 3.12; on newer Pythons it builds "
    "from source and needs Rust)"
)

_SIGNATURE = re.compile(r"[0-9a-f]{96}")  # 48 bytes: a compressed point of G1
_PUBLIC_KEY = re.compile(r"[0-9a-f]{192}")  # 96 bytes: a compressed point of G2
_LAST_ROUND = 2**64 - 1  # drand numbers rounds with unsigned 64-bit integers


# -- errors --------------------------------------------------------------------------------------------


class BeaconError(CampaignError):
    """Something about a beacon round that a person has to act on."""


class BadBeaconRound(BeaconError):
    """A round whose signature is malformed or does not verify: it is not the beacon's output."""


class BeaconUnavailable(BeaconError):
    """The round cannot be had now. ``retry_after`` is the earliest moment worth trying again."""

    def __init__(self, message: str, hint: str, *, round_number: int, retry_after: datetime) -> None:
        super().__init__(message, hint)
        self.round_number = round_number
        self.retry_after = retry_after


class BeaconNotYet(BeaconUnavailable):
    """The round's time has not come: nobody can have it yet, which is the whole point."""


# -- networks ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Network:
    name: str  # as campaign.yaml and the archive name it
    title: str  # as a sentence names it
    public_key: str  # hex, a compressed point of G2
    genesis: int  # unix time of round 1
    period: int  # seconds between two rounds
    chain_hash: str = ""  # drand's id of the chain, part of the relays' addresses
    # How the rounds are reached, not what they are: two networks that differ only there are the same one.
    relays: tuple[str, ...] = field(default=(), compare=False)  # base addresses of HTTP relays, in order
    recorded: Path | None = field(default=None, compare=False)  # a file of rounds that replaces relays
    anyone_can_sign: bool = False  # True when anyone can sign its rounds (the TEST network)


QUICKNET = Network(
    name="quicknet",
    title="drand's quicknet beacon",
    public_key=(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d"
        "1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
    ),
    genesis=1692803367,
    period=3,
    chain_hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    relays=(
        "https://api.drand.sh",
        "https://drand.cloudflare.com",
        "https://api2.drand.sh",
        "https://api3.drand.sh",
    ),
)

# Signed by tools/make-test-beacon with a key anyone can rebuild: for demos and tests only.
TEST = Network(
    name="test",
    title="the test beacon (not secret)",
    public_key=(
        "82e5721e888c0a16bdd20c109295f4d7fc0391ae773567fcf79ae24a11362ad5ac26737ab8e8b91481e1e9241d1d0b6c"
        "06582abb5af9f344a0c7755c4c414b1ca28b4a5d606cdc11a9555c0d58a90e47603324e58ce8dd1cda76b5027d386069"
    ),
    genesis=1704067200,  # 2024-01-01 00:00:00 UTC
    period=3,
    recorded=TEST_ROUNDS_FILE,
    anyone_can_sign=True,
)

NETWORKS = {net.name: net for net in (QUICKNET, TEST)}


def network(name: str) -> Network:
    """The network called ``name``."""
    try:
        return NETWORKS[name]
    except KeyError:
        raise CampaignError(
            f"there is no beacon network called '{name}'",
            f"name one of: {', '.join(sorted(NETWORKS))}",
            code=2,
        ) from None


def campaign_network(value: object, *, allow_test: bool, where: str = "campaign/campaign.yaml") -> Network:
    """The network a campaign's ``beacon:`` names (quicknet when it names none).

    The TEST network's key is public, so dice that depend on it can be foreseen by anyone: it is refused
    unless ``allow_test`` (a demo's scratch campaign, or a test)."""
    if value is None:
        return QUICKNET
    if not isinstance(value, str) or value not in NETWORKS:
        raise CampaignError(
            f"{where}: beacon: {value!r} is not a beacon network",
            f"write beacon: quicknet (drand's public beacon); known networks: {', '.join(sorted(NETWORKS))}",
        )
    chosen = NETWORKS[value]
    if chosen.anyone_can_sign and not allow_test:
        raise CampaignError(
            f"{where}: beacon: {value} names {chosen.title}, whose signing key anyone can rebuild, so "
            "anyone could foresee this campaign's dice",
            "write beacon: quicknet; the test beacon is for campaign demo and the tests only",
        )
    return chosen


# -- time ----------------------------------------------------------------------------------------------


def time_of(net: Network, round_number: int) -> datetime:
    """The moment ``round_number`` of ``net`` is published (round 1 at genesis)."""
    _check_round_number(round_number)
    return datetime.fromtimestamp(net.genesis, UTC) + timedelta(seconds=(round_number - 1) * net.period)


def round_at(net: Network, moment: datetime) -> int:
    """The first round of ``net`` whose time is at or after ``moment`` (an aware datetime)."""
    if moment.tzinfo is None:
        raise ValueError("round_at needs a moment with a time zone")
    since = moment - datetime.fromtimestamp(net.genesis, UTC)
    microseconds = (since.days * 86_400 + since.seconds) * 1_000_000 + since.microseconds
    if microseconds <= 0:
        return 1
    period = net.period * 1_000_000
    return -(-microseconds // period) + 1  # whole periods since genesis, rounded up, counted from 1


def stamp(moment: datetime) -> str:
    """A moment to the second (rounds come every few seconds), in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _wait(delta: timedelta) -> str:
    seconds = max(0, int(delta.total_seconds() + 0.999))
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    parts = [f"{days}d"] if days else []
    if days or hours:
        parts.append(f"{hours}h")
    if days or hours or minutes:
        parts.append(f"{minutes}m")
    parts.append(f"{seconds}s")
    return " ".join(parts)


def _check_round_number(round_number: int) -> None:
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise BadBeaconRound(f"a beacon round is a whole number, not {round_number!r}")
    if not 1 <= round_number <= _LAST_ROUND:
        raise BadBeaconRound(f"beacon rounds are numbered from 1 to 2^64 - 1, not {round_number}")


# -- rounds --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BeaconRound:
    network: Network
    round: int
    signature: str  # hex, lower case
    source: str = field(default="", compare=False)  # where it came from: a relay or a file, for messages

    def describe(self) -> str:
        return f"round {self.round} of {self.network.title}"

    def verify(self) -> BeaconRound:
        """Check the signature against the network's public key, offline; returns the round itself.

        Raises ``BadBeaconRound`` when the signature is malformed or does not verify, and a
        ``BeaconError`` saying what to install when drand-verify is missing."""
        _ = self.randomness
        return self

    @cached_property
    def randomness(self) -> str:
        """The round's randomness in hex (SHA-256 of the signature), once the signature verifies."""
        _check_round_number(self.round)
        if not isinstance(self.signature, str) or not _SIGNATURE.fullmatch(self.signature):
            # Checked first: on hex it cannot decode, drand-verify panics (a Rust backtrace on stderr and an
            # exception that is not an Exception) instead of raising ValueError.
            raise BadBeaconRound(
                f"{self.describe()}: the signature is not 96 lower-case hexadecimal digits",
                "take the round's signature as the beacon published it",
            )
        if not _PUBLIC_KEY.fullmatch(self.network.public_key):
            raise BadBeaconRound(f"{self.network.title}: the public key is not 192 hexadecimal digits")
        verifier = _verifier()
        try:
            randomness = verifier(self.round, self.signature, self.network.public_key)
        except (ValueError, OverflowError):
            raise BadBeaconRound(
                f"{self.describe()}: the signature does not verify against the network's public key, so "
                "it is not the beacon's output",
                "the round was altered on its way or in the file that holds it: fetch it again from a relay "
                "of the beacon, or restore the file from the repository's history",
            ) from None
        expected = hashlib.sha256(bytes.fromhex(self.signature)).hexdigest()
        if randomness != expected:  # the package disagrees with drand's definition: trust neither
            raise BeaconError(
                f"{self.describe()}: drand-verify returned a randomness other than SHA-256 of the signature",
                "reinstall drand-verify from PyPI (pip install --force-reinstall 'drand-verify>=0.2.1,<0.3')",
            )
        return expected

    def to_data(self) -> dict[str, Any]:
        """The round as an archive records it."""
        return {"network": self.network.name, "round": self.round, "signature": self.signature}

    @classmethod
    def from_data(cls, data: object, where: str) -> BeaconRound:
        """A round as ``to_data`` wrote it, not yet verified; ``where`` names the file for messages."""
        if not isinstance(data, Mapping) or set(data) != {"network", "round", "signature"}:
            raise BadBeaconRound(
                f"{where}: a beacon round is a mapping of network, round and signature",
                "restore the file from the repository's history",
            )
        name = data["network"]
        if not isinstance(name, str) or name not in NETWORKS:
            raise BadBeaconRound(
                f"{where}: {name!r} is not a beacon network", "restore the file from history"
            )
        return cls(NETWORKS[name], data["round"], data["signature"], source=where)


def _verifier() -> Any:
    """drand-verify's check of a quicknet-style round, or a clear error when it is not installed."""
    try:
        from drand_verify import verify_quicknet
    except ImportError:
        raise BeaconError(
            "install drand-verify to check beacon rounds: it is not installed in this Python", HINT_INSTALL
        ) from None
    return verify_quicknet


# -- recorded rounds -----------------------------------------------------------------------------------


def read_recorded(path: Path, net: Network) -> dict[int, str]:
    """The signatures a recorded-rounds file holds for ``net``, by round (not yet verified)."""
    where = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise BeaconError(
            f"{where}: the recorded beacon rounds cannot be read ({error.strerror or error})",
            f"point {ROUNDS_VARIABLE} at a recorded-rounds file, or unset it to fetch rounds from the beacon",
        ) from None
    if len(raw) > MAX_RECORDED_BYTES:
        raise BeaconError(f"{where}: a recorded-rounds file holds at most {MAX_RECORDED_BYTES} bytes")
    name, settings, rounds = _parse_recorded(raw, where)
    if name != net.name:
        raise BeaconError(
            f"{where} records rounds of the network {name!r}, not of {net.title}",
            f"point {ROUNDS_VARIABLE} at rounds of '{net.name}', or unset it",
        )
    expected = {"public_key": net.public_key, "genesis": net.genesis, "period": net.period}
    for key, value in settings:
        if value != expected[key]:
            raise BeaconError(
                f"{where}: its {key} is not that of {net.title}",
                f"record rounds of {net.name}",
            )
    return dict(rounds)


@lru_cache(maxsize=4)
def _parse_recorded(
    raw: bytes, where: str
) -> tuple[object, tuple[tuple[str, object], ...], tuple[tuple[int, str], ...]]:
    """A recorded-rounds file's network name, settings and rounds. Cached on its bytes: a demo of many
    turns reads the same file once a turn."""
    try:
        data = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        raise BeaconError(f"{where}: the recorded beacon rounds are not valid YAML") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("rounds"), Mapping):
        raise BeaconError(f"{where}: a recorded-rounds file is a mapping with network and rounds")
    rounds = []
    for number, signature in data["rounds"].items():
        if isinstance(number, bool) or not isinstance(number, int) or not isinstance(signature, str):
            raise BeaconError(f"{where}: rounds map round numbers to signatures in hex, not {number!r}")
        rounds.append((number, signature))
    settings = tuple((key, data[key]) for key in ("public_key", "genesis", "period") if key in data)
    return data.get("network"), settings, tuple(rounds)


def _recorded_file(net: Network, recorded: Path | None) -> Path | None:
    """The file that serves the round: the argument; else the network's own recorded rounds (TEST); else,
    for a network fetched from relays, the file the environment names (tests); else None: the relays."""
    if recorded is not None:
        return recorded
    if net.recorded is not None:
        return net.recorded
    if os.environ.get(ROUNDS_VARIABLE):
        return Path(os.environ[ROUNDS_VARIABLE])
    return None


def _from_recorded(net: Network, round_number: int, path: Path) -> BeaconRound:
    rounds = read_recorded(path, net)
    if round_number not in rounds:
        held = f"{len(rounds)} rounds, from {min(rounds)} to {max(rounds)}" if rounds else "no round"
        raise BeaconError(
            f"round {round_number} of {net.title} is not among the recorded rounds of {path} ({held})",
            f"record the round in that file, or unset {ROUNDS_VARIABLE} to fetch it from the beacon"
            if net.recorded is None
            else "a demo or test campaign must stay within the recorded rounds (tools/make-test-beacon "
            "records more)",
        )
    return BeaconRound(net, round_number, rounds[round_number], source=str(path)).verify()


# -- fetching ------------------------------------------------------------------------------------------


def fetch(
    net: Network,
    round_number: int,
    *,
    now: datetime,
    timeout: float = TIMEOUT,
    recorded: Path | None = None,
) -> BeaconRound:
    """Round ``round_number`` of ``net``, verified. ``now`` is the real time of the call.

    Raises ``BeaconNotYet`` before the round's time, ``BeaconUnavailable`` when no relay gives a round
    that verifies, and ``BadBeaconRound`` when a recorded round does not verify."""
    _check_round_number(round_number)
    due = time_of(net, round_number)
    if now < due:
        raise BeaconNotYet(
            f"round {round_number} of {net.title} is published at {stamp(due)}, in {_wait(due - now)}: "
            "nobody can know it before then, which is what keeps this turn's dice unforeseeable",
            f"run the resolve again after {stamp(due)}; the turn waits for that round and is not resolved "
            "without it",
            round_number=round_number,
            retry_after=due,
        )
    path = _recorded_file(net, recorded)
    if path is not None:
        return _from_recorded(net, round_number, path)
    failures = []
    for relay in net.relays:
        answer, failure = _ask_relay(net, relay, round_number, timeout)
        if answer is not None:
            return answer
        failures.append(f"{_host(relay)} {failure}")
    retry = max(now, due) + timedelta(minutes=1)
    raise BeaconUnavailable(
        f"round {round_number} of {net.title}, due at {stamp(due)}, could not be had from any relay: "
        + "; ".join(failures or ["no relay is configured"]),
        f"the turn waits for that round and its dice are not rolled without it: run the resolve again "
        f"after {stamp(retry)} (CI's next scheduled run does); if the relays stay unreachable, check this "
        "machine's access to the internet",
        round_number=round_number,
        retry_after=retry,
    )


def _host(relay: str) -> str:
    return urllib.parse.urlsplit(relay).netloc or relay


def _ask_relay(net: Network, relay: str, round_number: int, timeout: float) -> tuple[BeaconRound | None, str]:
    """The round as ``relay`` serves it, verified; or None and what went wrong, in words."""
    url = f"{relay.rstrip('/')}/{net.chain_hash}/public/{round_number}"
    request = urllib.request.Request(
        url, headers={"Accept": "application/json", "User-Agent": "campaign-kit"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as error:
        if error.code in (404, 425):  # drand's relays answer so for a round they do not have yet
            return None, "does not have the round yet"
        return None, f"answered HTTP {error.code}"
    except (OSError, http.client.HTTPException) as error:  # URLError, timeouts and TLS errors included
        return None, f"could not be reached ({_reason(error)})"
    signature, problem = _signature_in(body, round_number)
    if problem:
        return None, problem
    try:
        return BeaconRound(net, round_number, signature, source=url).verify(), ""
    except BadBeaconRound:
        return None, "served a signature that does not verify (refused)"


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError) or "timed out" in str(error):
        return "no answer in time"
    reason = getattr(error, "reason", error)
    return str(getattr(reason, "strerror", None) or reason)


def _signature_in(body: bytes, round_number: int) -> tuple[str, str]:
    """The signature in a relay's JSON answer, or what is wrong with the answer."""
    if len(body) > MAX_ANSWER_BYTES:
        return "", "answered with far more than a beacon round"
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return "", "answered something that is not a beacon round"
    if not isinstance(data, dict) or not isinstance(data.get("signature"), str):
        return "", "answered something that is not a beacon round"
    if data.get("round") != round_number or isinstance(data.get("round"), bool):
        return "", f"answered with round {data.get('round')!r} instead of {round_number}"
    # The relay's own "randomness" field is ignored: it is recomputed from the verified signature.
    return data["signature"].lower(), ""
