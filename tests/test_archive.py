"""The turn archive: rumours kept apart from their authors (issue 8, point 8) and ``verify`` checking
everything the archive commits to, naming GM edits as such (issue 8, point 10)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from resolver.core import canonical

RUMORS = {
    "red": "Zebras were seen grazing by the northern ford.",
    "blue": "Apples from the orchard are poisoned, they say.",
}


def orders_with_rumor(faction: str, rumor: str, turn: int = 1) -> str:
    orders = "\n  - action: explore\n    army: '1'" if turn == 1 else " []"  # army 1 explores once
    return f"campaign: test-run\nturn: {turn}\nfaction: {faction}\norders:{orders}\nrumors:\n  - {rumor}\n"


def archived_files(root: Path) -> dict[str, str]:
    folder = root / "campaign/turns/0001"
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("posting_order", ["red,blue,green", "blue,red,green"])
def test_no_archived_file_links_a_rumour_to_its_author(campaign: Path, run, posting_order: str) -> None:
    for faction, rumor in RUMORS.items():
        (campaign / f"orders/{faction}.yaml").write_text(orders_with_rumor(faction, rumor))
    code, _, err = run("resolve", "--root", campaign, "--posting-order", posting_order)
    assert code == 0, err
    files = archived_files(campaign)
    # The sealed orders keep every order but no rumour, and no digest of one either.
    sealed = canonical.load(files["orders.yaml"])
    assert sorted(sealed["orders"]) == ["blue", "red"]
    for faction, entry in sealed["orders"].items():
        assert "rumors" not in entry and entry["orders"] == [{"action": "explore", "army": "1"}], faction
    # The rumours are archived once, sorted, whatever the posting order.
    assert sealed["rumors"] == sorted(RUMORS.values())
    events = canonical.load(files["events.yaml"])["events"]
    printed = [e for e in events if e["kind"] == "rumor"]
    assert [e["data"]["text"] for e in printed] == sorted(RUMORS.values())
    assert all(not e.get("actors") for e in printed)
    # Rumours are public: no report copies them (the chronicle prints them), so no report can tell
    # its author's apart; and nothing holds a rumour's own digest.
    assert files["reports/red.md"].count(RUMORS["red"]) == files["reports/blue.md"].count(RUMORS["red"]) == 0
    for rumor in RUMORS.values():
        single = hashlib.sha256(rumor.encode()).hexdigest()
        assert not [name for name, text in files.items() if single in text]
        holders = {name for name, text in files.items() if rumor in text}
        assert holders <= {"orders.yaml", "events.yaml"} | {
            f"reports/{f}.md" for f in ("red", "blue", "green")
        }
    code, out, _ = run("verify", "--root", campaign, "--all")
    assert code == 0 and "1 of 1 turn(s) replay byte-identically" in out


def test_the_turn_seed_still_binds_the_rumours(campaign: Path, run, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(campaign, other)
    (campaign / "orders/red.yaml").write_text(orders_with_rumor("red", RUMORS["red"]))
    (other / "orders/red.yaml").write_text(orders_with_rumor("red", "Something else entirely."))
    assert run("resolve", "--root", campaign)[0] == 0
    assert run("resolve", "--root", other)[0] == 0
    seeds = [
        canonical.read_yaml(root / "campaign/turns/0001/inputs.yaml")["turn_seed"]
        for root in (campaign, other)
    ]
    assert seeds[0] != seeds[1]
    # Swapping the archived rumour for another breaks verify, even with orders.yaml's digest updated.
    orders = campaign / "campaign/turns/0001/orders.yaml"
    data = canonical.read_yaml(orders)
    data["rumors"] = ["Something else entirely."]
    raw = canonical.write_yaml(orders, data)
    digest_file = campaign / "campaign/turns/0001/digest.yaml"
    digests = canonical.read_yaml(digest_file)
    digests["orders"] = canonical.digest(raw)
    canonical.write_yaml(digest_file, digests)
    code, out, _ = run("verify", "--root", campaign)
    assert code == 1 and "order digests differ from the archived orders and rumours" in out


# -- verify --all: every blind spot of issue 8, point 10 --------------------------------------------------


@pytest.fixture
def two_turns(campaign: Path, run) -> Path:
    (campaign / "orders/red.yaml").write_text(orders_with_rumor("red", RUMORS["red"]))
    assert run("resolve", "--root", campaign)[0] == 0
    (campaign / "orders/red.yaml").write_text(orders_with_rumor("red", RUMORS["blue"], turn=2))
    assert run("resolve", "--root", campaign)[0] == 0
    code, out, _ = run("verify", "--root", campaign, "--all")
    assert code == 0 and "2 of 2 turn(s) replay byte-identically" in out, out
    return campaign


def edit_yaml(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = canonical.read_yaml(path)
    change(data)
    canonical.write_yaml(path, data)


def verify_fails(run, root: Path, *expected: str) -> str:  # type: ignore[no-untyped-def]
    code, out, err = run("verify", "--root", root, "--all")
    assert code == 1, out + err
    for words in expected:
        assert words in out, out
    return out


def test_verify_names_a_hand_edited_turn_in_the_live_state(two_turns: Path, run) -> None:
    edit_yaml(two_turns / "campaign/state.yaml", lambda state: state.update(turn=7))
    verify_fails(
        run, two_turns, "campaign/state.yaml: MISMATCH", "says turn 7, but the archive ends with turn 2"
    )
    # Resolving refuses it clearly, and writes nothing.
    before = sorted(p.name for p in (two_turns / "campaign/turns").iterdir())
    code, _, err = run("resolve", "--root", two_turns)
    assert code == 1 and "campaign/state.yaml says turn 7, but the archive ends with turn 2" in err
    assert "fix: put 'turn: 3' back" in err
    assert sorted(p.name for p in (two_turns / "campaign/turns").iterdir()) == before


def test_verify_names_a_gm_edit_of_the_live_state(two_turns: Path, run) -> None:
    path = two_turns / "campaign/state.yaml"
    old = canonical.read_yaml(path)["factions"]["red"]["stock"]["resources"]
    edit_yaml(path, lambda state: state["factions"]["red"]["stock"].update(resources=old + 50))
    code, out, _ = run("verify", "--root", two_turns, "--all")
    assert code == 0
    assert "campaign/state.yaml: edited by the GM" in out
    assert f"the GM edited the state after turn 2: factions.red.stock.resources: {old} → {old + 50}" in out


def test_verify_names_a_gm_edit_before_a_turn_instead_of_calling_it_identical(campaign: Path, run) -> None:
    assert run("resolve", "--root", campaign)[0] == 0
    path = campaign / "campaign/state.yaml"
    old = canonical.read_yaml(path)["factions"]["blue"]["stock"]["resources"]
    edit_yaml(path, lambda state: state["factions"]["blue"]["stock"].update(resources=old + 9))
    assert run("resolve", "--root", campaign, "--force")[0] == 0  # turn 2 with nobody's orders, on purpose
    code, out, _ = run("verify", "--root", campaign, "--all")
    assert code == 0
    assert "turn 2: identical, with GM edits" in out
    assert (
        f"the GM edited the state before resolving: factions.blue.stock.resources: {old} → {old + 9}" in out
    )


def test_verify_notices_a_deleted_newest_turn(two_turns: Path, run) -> None:
    shutil.rmtree(two_turns / "campaign/turns/0002")
    verify_fails(run, two_turns, "says turn 3, but the archive ends with turn 1: a turn was deleted")


def test_verify_notices_a_turn_missing_in_the_middle(two_turns: Path, run) -> None:
    (two_turns / "campaign/turns/0001").rename(two_turns / "campaign/turns/old-0001")
    verify_fails(run, two_turns, "turn 1 is missing from the archive")


def test_verify_checks_the_events_digest(two_turns: Path, run) -> None:
    edit_yaml(two_turns / "campaign/turns/0001/digest.yaml", lambda d: d.update(events="0" * 64))
    verify_fails(run, two_turns, "turn 1: MISMATCH", "turns/0001/digest.yaml: the events digest differs")


def test_verify_checks_the_reports(two_turns: Path, run) -> None:
    report = two_turns / "campaign/turns/0002/reports/blue.md"
    report.write_text(report.read_text() + "\nThe GM likes blue best.\n")
    verify_fails(
        run, two_turns, "turn 2: MISMATCH", "turns/0002/reports/ was edited after the turn was resolved"
    )


def test_verify_checks_the_archived_orders(two_turns: Path, run) -> None:
    def other_army(data: dict) -> None:
        data["orders"]["red"]["orders"][0]["army"] = "2"

    edit_yaml(two_turns / "campaign/turns/0001/orders.yaml", other_army)
    verify_fails(
        run,
        two_turns,
        "turns/0001/orders.yaml was edited after the turn was resolved",
        "the orders of red differ from their digest in inputs.yaml",
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("engine", "0.0.1"),
        ("house_rules", {"actions": {"per_turn": 9}}),
        ("order_digests", {"red": "0" * 64}),
    ],
)
def test_verify_checks_every_input(two_turns: Path, run, key: str, value: object) -> None:
    edit_yaml(two_turns / "campaign/turns/0001/inputs.yaml", lambda inputs: inputs.update({key: value}))
    verify_fails(run, two_turns, f"turns/0001/inputs.yaml was edited after the turn was resolved: {key}")


def test_verify_checks_the_chain_between_turns(two_turns: Path, run) -> None:
    # Turn 1 rewritten consistently within itself (a GM "fixing" a report) still breaks turn 2's chain.
    report = two_turns / "campaign/turns/0001/reports/red.md"
    report.write_text(report.read_text() + "\nAn afterthought.\n")
    edit_yaml(
        two_turns / "campaign/turns/0001/digest.yaml",
        lambda d: d["reports"].update(red=canonical.digest(report.read_bytes())),
    )
    code, out, _ = run("verify", "--root", two_turns, "--turn", "2")
    assert code == 1 and "turn 1's archive differs from the one turn 2 was resolved after" in out
