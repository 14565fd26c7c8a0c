"""Issue 19 point 6: the dice mix in a round of a public beacon, which nobody (the key holder included)
knows before its time, and which anyone checks offline afterwards.

Nothing here reaches the network: real quicknet rounds are recorded in beacon-quicknet.yaml, and the
relays are HTTP servers on 127.0.0.1 that answer as a relay would, or as a broken or lying one would.
"""

from __future__ import annotations

import hashlib
import json
import socket
import sys
import threading
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from resolver.core.issues import CampaignError
from resolver.store import beacon
from resolver.store.beacon import QUICKNET, TEST, BeaconRound

HERE = Path(__file__).parent
RECORDED_QUICKNET = HERE / "beacon-quicknet.yaml"
REAL = yaml.safe_load(RECORDED_QUICKNET.read_text(encoding="utf-8"))["rounds"]
LATER = datetime(2026, 1, 1, tzinfo=UTC)  # long after both recorded quicknet rounds were published
TEST_ROUNDS = yaml.safe_load(beacon.TEST_ROUNDS_FILE.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def no_recorded_rounds_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(beacon.ROUNDS_VARIABLE, raising=False)


# -- checking a round offline --------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", sorted(REAL))
def test_real_quicknet_rounds_verify_offline(round_number: int) -> None:
    checked = BeaconRound(QUICKNET, round_number, REAL[round_number]).verify()
    assert checked.randomness == hashlib.sha256(bytes.fromhex(REAL[round_number])).hexdigest()


def test_the_randomness_is_the_one_drand_published() -> None:
    published = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"  # drand's own JSON
    assert BeaconRound(QUICKNET, 657413, REAL[657413]).randomness == published


def test_a_signature_moved_to_another_round_is_refused() -> None:
    moved = BeaconRound(QUICKNET, 124, REAL[123])
    with pytest.raises(beacon.BadBeaconRound) as refused:
        moved.verify()
    assert isinstance(refused.value, CampaignError)
    assert "round 124 of drand's quicknet beacon" in refused.value.message
    assert "does not verify" in refused.value.message and "not the beacon's output" in refused.value.message


def test_a_round_signed_with_another_key_is_refused() -> None:
    """Whoever holds a key of their own can sign any round; only the network's key counts."""
    ours = TEST_ROUNDS["rounds"][123]
    assert BeaconRound(TEST, 123, ours).randomness  # a good signature, of the test network
    with pytest.raises(beacon.BadBeaconRound, match="does not verify"):
        _ = BeaconRound(QUICKNET, 123, ours).randomness


def test_randomness_is_only_given_once_the_signature_verifies() -> None:
    forged = BeaconRound(QUICKNET, 657413, REAL[123])
    for _attempt in range(2):  # a failed check is not remembered as a success
        with pytest.raises(beacon.BadBeaconRound):
            _ = forged.randomness


@pytest.mark.parametrize(
    "signature",
    [
        REAL[123][:-1],  # odd length: drand-verify itself would abort on it
        "zz" + REAL[123][2:],  # not hexadecimal: the same
        REAL[123].upper(),
        REAL[123] + "00",
        "",
        123,
    ],
)
def test_a_malformed_signature_gets_a_clear_error_not_a_crash(signature: object) -> None:
    with pytest.raises(beacon.BadBeaconRound, match="96 lower-case hexadecimal digits"):
        BeaconRound(QUICKNET, 123, signature).verify()  # type: ignore[arg-type]


@pytest.mark.parametrize("round_number", [0, -1, 2**64, True, "123"])
def test_round_numbers_outside_drands_range_are_refused(round_number: object) -> None:
    with pytest.raises(beacon.BadBeaconRound, match="round"):
        BeaconRound(QUICKNET, round_number, REAL[123]).verify()  # type: ignore[arg-type]


def test_without_drand_verify_the_check_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "drand_verify", None)  # importing it now fails, as if not installed
    with pytest.raises(beacon.BeaconError) as missing:
        BeaconRound(QUICKNET, 123, REAL[123]).verify()
    assert "install drand-verify to check beacon rounds" in missing.value.format()
    assert "pip install" in missing.value.hint


def test_the_runtime_depends_on_drand_verify_where_it_has_wheels() -> None:
    project = tomllib.loads((HERE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [dep for dep in project["dependencies"] if dep.startswith("drand-verify")]
    assert len(wanted) == 1
    assert "python_version < '3.13'" in wanted[0]


def test_an_archived_round_reads_back_as_written() -> None:
    written = BeaconRound(QUICKNET, 123, REAL[123])
    read = BeaconRound.from_data(yaml.safe_load(yaml.safe_dump(written.to_data())), "turns/0003/inputs.yaml")
    assert read == written and read.randomness == written.randomness


@pytest.mark.parametrize(
    "data",
    [
        {"network": "quicknet", "round": 123},
        {"network": "mainnet", "round": 123, "signature": REAL[123]},
        {"network": "quicknet", "round": 123, "signature": REAL[123], "randomness": "00"},
        [123, REAL[123]],
    ],
)
def test_a_damaged_archived_round_is_refused_with_its_file(data: object) -> None:
    with pytest.raises(beacon.BadBeaconRound, match=r"^turns/0003/inputs\.yaml: "):
        BeaconRound.from_data(data, "turns/0003/inputs.yaml")


# -- time ----------------------------------------------------------------------------------------------


def test_rounds_follow_genesis_and_period() -> None:
    assert beacon.time_of(QUICKNET, 1) == datetime.fromtimestamp(1692803367, UTC)
    assert beacon.time_of(QUICKNET, 657413) == datetime(2023, 9, 15, 11, 0, 3, tzinfo=UTC)
    assert beacon.time_of(QUICKNET, 11) - beacon.time_of(QUICKNET, 10) == timedelta(seconds=3)


def test_the_round_at_a_moment_is_the_first_at_or_after_it() -> None:
    deadline = datetime(2026, 3, 6, 18, 30, tzinfo=UTC)
    chosen = beacon.round_at(QUICKNET, deadline)
    assert beacon.time_of(QUICKNET, chosen) >= deadline
    assert beacon.time_of(QUICKNET, chosen - 1) < deadline
    for offset in (0, 1, 2999999):  # a round's own time, and every moment up to the next round
        moment = beacon.time_of(QUICKNET, 657413) + timedelta(microseconds=offset)
        assert beacon.round_at(QUICKNET, moment) == (657413 if offset == 0 else 657414)


def test_a_moment_in_another_time_zone_picks_the_same_round() -> None:
    utc = datetime(2026, 3, 6, 18, 30, tzinfo=UTC)
    elsewhere = utc.astimezone(timezone(timedelta(hours=-5)))
    assert beacon.round_at(QUICKNET, elsewhere) == beacon.round_at(QUICKNET, utc)


def test_before_genesis_the_first_round_is_round_one() -> None:
    assert beacon.round_at(QUICKNET, datetime(2020, 1, 1, tzinfo=UTC)) == 1


def test_a_moment_without_a_time_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="time zone"):
        beacon.round_at(QUICKNET, datetime(2026, 3, 6, 18, 30))


# -- networks and campaigns ----------------------------------------------------------------------------


def test_networks_are_found_by_name() -> None:
    assert beacon.network("quicknet") is QUICKNET and beacon.network("test") is TEST
    with pytest.raises(CampaignError, match="no beacon network called 'mainnet'"):
        beacon.network("mainnet")


def test_a_campaign_uses_quicknet_unless_it_names_another() -> None:
    assert beacon.campaign_network(None, allow_test=False) is QUICKNET
    assert beacon.campaign_network("quicknet", allow_test=False) is QUICKNET


def test_a_real_campaign_refuses_the_test_beacon() -> None:
    with pytest.raises(CampaignError) as refused:
        beacon.campaign_network("test", allow_test=False)
    assert refused.value.message.startswith("campaign/campaign.yaml: beacon: test")
    assert "anyone could foresee this campaign's dice" in refused.value.message
    assert "beacon: quicknet" in refused.value.hint


def test_a_demo_may_use_the_test_beacon() -> None:
    assert beacon.campaign_network("test", allow_test=True) is TEST


@pytest.mark.parametrize("value", ["drand", 7, ["quicknet"]])
def test_an_unknown_beacon_in_campaign_yaml_is_named(value: object) -> None:
    with pytest.raises(CampaignError, match="is not a beacon network"):
        beacon.campaign_network(value, allow_test=True)


# -- the test beacon's recorded rounds -----------------------------------------------------------------


def test_the_test_beacon_records_enough_rounds_for_a_500_turn_campaign() -> None:
    assert TEST_ROUNDS["network"] == "test" and TEST_ROUNDS["public_key"] == TEST.public_key
    assert (TEST_ROUNDS["genesis"], TEST_ROUNDS["period"]) == (TEST.genesis, TEST.period)
    assert sorted(TEST_ROUNDS["rounds"]) == list(range(1, len(TEST_ROUNDS["rounds"]) + 1))
    assert len(TEST_ROUNDS["rounds"]) > 500


def test_every_recorded_test_round_verifies_under_the_test_key() -> None:
    bad = [
        number
        for number, signature in TEST_ROUNDS["rounds"].items()
        if BeaconRound(TEST, number, signature).randomness
        != hashlib.sha256(bytes.fromhex(signature)).hexdigest()
    ]
    assert bad == []


def test_the_test_beacon_says_it_is_not_secret() -> None:
    text = beacon.TEST_ROUNDS_FILE.read_text(encoding="utf-8")
    assert "NOT SECRET" in text and "demos and tests" in text
    assert TEST_ROUNDS["secret_key_from"]  # the public sentence anyone can rebuild the key from
    assert TEST.anyone_can_sign and not QUICKNET.anyone_can_sign


def test_the_test_beacon_is_served_from_its_recorded_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the test beacon reached for the network")

    monkeypatch.setattr(beacon.urllib.request, "urlopen", no_network)
    fetched = beacon.fetch(TEST, 500, now=LATER)
    assert fetched.signature == TEST_ROUNDS["rounds"][500] and fetched.randomness


def test_a_round_past_the_recorded_ones_is_a_clear_error() -> None:
    last = max(TEST_ROUNDS["rounds"])
    with pytest.raises(beacon.BeaconError) as missing:
        beacon.fetch(TEST, last + 1, now=LATER)
    assert f"round {last + 1} of the test beacon (not secret) is not among the recorded rounds" in str(
        missing.value
    )
    assert f"({last} rounds, from 1 to {last})" in str(missing.value)


# -- relays on 127.0.0.1 -------------------------------------------------------------------------------

Answer = Callable[[int], tuple[int, bytes]]


def round_json(round_number: int, signature: str) -> bytes:
    randomness = hashlib.sha256(bytes.fromhex(signature)).hexdigest()
    return json.dumps({"round": round_number, "randomness": randomness, "signature": signature}).encode()


def honest(round_number: int) -> tuple[int, bytes]:
    return 200, round_json(round_number, REAL[round_number])


def forged(round_number: int) -> tuple[int, bytes]:
    """A well-formed answer whose signature was made with a key that is not quicknet's."""
    return 200, round_json(round_number, TEST_ROUNDS["rounds"][123])


def replayed(round_number: int) -> tuple[int, bytes]:
    """Another round's genuine signature, passed off as this one."""
    other = 123 if round_number != 123 else 657413
    return 200, round_json(round_number, REAL[other])


def too_early(_round_number: int) -> tuple[int, bytes]:
    return 425, b"Too Early"


def not_found(_round_number: int) -> tuple[int, bytes]:
    return 404, b"Not Found"


def broken(_round_number: int) -> tuple[int, bytes]:
    return 502, b"Bad Gateway"


def wrong_round(round_number: int) -> tuple[int, bytes]:
    return 200, round_json(round_number + 1, REAL[round_number])


def not_json(_round_number: int) -> tuple[int, bytes]:
    return 200, b"<html>maintenance</html>"


def endless(_round_number: int) -> tuple[int, bytes]:
    return 200, b" " * (beacon.MAX_ANSWER_BYTES * 4)


class Relays:
    """HTTP relays on one local server: the first part of the path names the relay and its behaviour."""

    def __init__(self, server: ThreadingHTTPServer) -> None:
        self.server = server
        self.answers: dict[str, Answer] = {}
        self.asked: list[str] = []

    def relay(self, name: str, answer: Answer) -> str:
        self.answers[name] = answer
        return f"http://127.0.0.1:{self.server.server_address[1]}/{name}"


@pytest.fixture
def relays() -> Iterator[Relays]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            _, name, chain, kind, number = self.path.split("/")
            local.asked.append(self.path)
            assert (chain, kind) == (QUICKNET.chain_hash, "public")
            status, body = local.answers[name](int(number))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    local = Relays(server)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield local
    server.shutdown()
    server.server_close()


@pytest.fixture
def down_relay() -> str:
    """The address of a relay that is down: nothing listens on its port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def silent_relay() -> Iterator[str]:
    """A relay that accepts the connection and never answers."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(4)
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"


def quicknet_via(*relays: str) -> beacon.Network:
    return replace(QUICKNET, relays=relays)


def test_a_round_is_fetched_from_a_relay_and_verified(relays: Relays) -> None:
    fetched = beacon.fetch(quicknet_via(relays.relay("honest", honest)), 657413, now=LATER)
    assert fetched.randomness == "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"
    assert relays.asked == [f"/honest/{QUICKNET.chain_hash}/public/657413"]
    # The round is quicknet's, whichever relay served it: the archive names the network, not the relay.
    assert (
        fetched == BeaconRound(QUICKNET, 657413, REAL[657413]) and fetched.to_data()["network"] == "quicknet"
    )


def test_a_relay_that_is_down_or_lies_is_passed_over_for_the_next(relays: Relays, down_relay: str) -> None:
    net = quicknet_via(down_relay, relays.relay("forged", forged), relays.relay("honest", honest))
    fetched = beacon.fetch(net, 123, now=LATER)
    assert fetched.signature == REAL[123] and fetched.source.startswith(net.relays[2])
    assert [path.split("/")[1] for path in relays.asked] == ["forged", "honest"]


def test_when_every_relay_fails_the_resolve_waits_and_says_why(relays: Relays, down_relay: str) -> None:
    net = quicknet_via(
        down_relay,
        relays.relay("forged", forged),
        relays.relay("replayed", replayed),
        relays.relay("broken", broken),
        relays.relay("wrong", wrong_round),
        relays.relay("html", not_json),
        relays.relay("endless", endless),
    )
    with pytest.raises(beacon.BeaconUnavailable) as waiting:
        beacon.fetch(net, 657413, now=LATER)
    message = waiting.value.message
    assert message.startswith(
        "round 657413 of drand's quicknet beacon, due at 2023-09-15 11:00:03 UTC, "
        "could not be had from any relay"
    )
    assert message.count("served a signature that does not verify (refused)") == 2
    for said in (
        "could not be reached",
        "answered HTTP 502",
        "answered with round 657414 instead of 657413",
        "answered something that is not a beacon round",
        "answered with far more than a beacon round",
    ):
        assert said in message
    assert "its dice are not rolled without it" in waiting.value.hint
    assert "run the resolve again after 2026-01-01 00:01:00 UTC" in waiting.value.hint
    assert waiting.value.retry_after == LATER + timedelta(minutes=1)


def test_a_relay_that_never_answers_is_given_up_on(relays: Relays, silent_relay: str) -> None:
    net = quicknet_via(silent_relay, relays.relay("honest", honest))
    assert beacon.fetch(net, 123, now=LATER, timeout=0.3).signature == REAL[123]
    with pytest.raises(beacon.BeaconUnavailable, match=r"could not be reached \(no answer in time\)"):
        beacon.fetch(quicknet_via(silent_relay), 123, now=LATER, timeout=0.3)


def test_a_round_the_relays_do_not_have_yet_is_waited_for(relays: Relays) -> None:
    net = quicknet_via(relays.relay("early", too_early), relays.relay("missing", not_found))
    due = beacon.time_of(QUICKNET, 657413)
    with pytest.raises(beacon.BeaconUnavailable) as waiting:
        beacon.fetch(net, 657413, now=due + timedelta(seconds=1))
    assert waiting.value.message.count("does not have the round yet") == 2
    assert waiting.value.retry_after == due + timedelta(seconds=61)
    assert "run the resolve again after 2023-09-15 11:01:04 UTC" in waiting.value.hint


def test_before_its_time_a_round_is_not_even_asked_for(relays: Relays) -> None:
    net = quicknet_via(relays.relay("honest", honest))
    due = beacon.time_of(QUICKNET, 657413)
    with pytest.raises(beacon.BeaconNotYet) as waiting:
        beacon.fetch(net, 657413, now=due - timedelta(hours=2, seconds=5))
    assert relays.asked == []
    assert waiting.value.message.startswith(
        "round 657413 of drand's quicknet beacon is published at 2023-09-15 11:00:03 UTC, in 2h 0m 5s"
    )
    assert "run the resolve again after 2023-09-15 11:00:03 UTC" in waiting.value.hint
    assert waiting.value.retry_after == due
    assert isinstance(waiting.value, CampaignError)  # the CLI prints it without a traceback


# -- recorded rounds in place of the relays ------------------------------------------------------------


def test_recorded_rounds_named_in_the_environment_replace_the_relays(
    relays: Relays, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(beacon.ROUNDS_VARIABLE, str(RECORDED_QUICKNET))
    fetched = beacon.fetch(quicknet_via(relays.relay("honest", honest)), 123, now=LATER)
    assert fetched.signature == REAL[123] and relays.asked == []
    with pytest.raises(beacon.BeaconError) as missing:
        beacon.fetch(quicknet_via(relays.relay("honest", honest)), 124, now=LATER)
    assert "is not among the recorded rounds" in missing.value.message
    assert "(2 rounds, from 123 to 657413)" in missing.value.message
    assert f"unset {beacon.ROUNDS_VARIABLE} to fetch it" in missing.value.hint
    assert relays.asked == []  # a round missing from the file is not fetched behind the tester's back


def test_a_recorded_file_cannot_vouch_for_a_forged_round(tmp_path: Path) -> None:
    recorded = tmp_path / "rounds.yaml"
    recorded.write_text(yaml.safe_dump({"network": "quicknet", "rounds": {124: REAL[123]}}))
    with pytest.raises(beacon.BadBeaconRound, match="does not verify"):
        beacon.fetch(QUICKNET, 124, now=LATER, recorded=recorded)


@pytest.mark.parametrize(
    ("recorded", "problem"),
    [
        ({"network": "test", "rounds": {123: REAL[123]}}, "records rounds of the network 'test'"),
        (
            {"network": "quicknet", "public_key": TEST.public_key, "rounds": {123: REAL[123]}},
            "its public_key is not that of drand's quicknet beacon",
        ),
        ({"network": "quicknet", "period": 30, "rounds": {123: REAL[123]}}, "its period is not that of"),
        ({"network": "quicknet", "rounds": [REAL[123]]}, "a mapping with network and rounds"),
        ({"network": "quicknet", "rounds": {"first": REAL[123]}}, "rounds map round numbers to signatures"),
    ],
)
def test_a_recorded_file_for_something_else_is_refused(
    tmp_path: Path, recorded: dict[str, object], problem: str
) -> None:
    path = tmp_path / "rounds.yaml"
    path.write_text(yaml.safe_dump(recorded))
    with pytest.raises(beacon.BeaconError, match=problem):
        beacon.fetch(QUICKNET, 123, now=LATER, recorded=path)


def test_a_missing_recorded_file_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(beacon.ROUNDS_VARIABLE, str(tmp_path / "nowhere.yaml"))
    with pytest.raises(beacon.BeaconError, match=r"nowhere\.yaml: the recorded beacon rounds cannot be read"):
        beacon.fetch(QUICKNET, 123, now=LATER)
