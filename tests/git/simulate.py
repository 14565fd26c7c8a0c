"""Three players and a GM play three turns through the git flow; the record goes to a text file.

    .venv/bin/python -m tests.git.simulate /tmp/gitflow-demo.txt

Each pull request is checked as the "Orders check" workflow would check it, and its comment is kept;
accepted ones are merged, and ``campaign resolve --if-due --commit`` runs as the "Resolve turn"
workflow would, with the moment given explicitly. The file ends with ``git log --oneline --decorate``
of the resulting ``main``. Commit dates come from a fake clock, not from the time it runs.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from .gitsim import START, Campaign, PullRequest, cli


class Record:
    def __init__(self, world: Campaign) -> None:
        self.world = world
        self.parts: list[str] = []

    def say(self, text: str) -> None:
        self.parts.append(text.rstrip() + "\n")

    def check(self, pr: PullRequest, what: str) -> bool:
        done = self.world.check(pr)
        verdict = "accepted" if done.code == 0 else "refused"
        self.say(f"--- pull request '{pr.branch}' by {pr.author}: {what} → {verdict} (exit {done.code})")
        self.say(done.comment or done.err)
        return done.code == 0

    def submit(self, login: str, branch: str, files: dict[str, bytes | str | None], what: str) -> PullRequest:
        pr = self.world.pull_request(login, branch, files)
        if self.check(pr, what):
            self.world.merge(pr)
        return pr

    def resolve(self, label: str, *args: str, now: object = None) -> None:
        done = self.world.resolve("--if-due", "--commit", *args, now=now)  # type: ignore[arg-type]
        self.say(f"--- campaign resolve --if-due --commit ({label}) → exit {done.code}")
        self.say(done.out + done.err)


def play(base: Path) -> str:
    world = Campaign.create(base, seed=7, name="The Salt Marches")
    rec = Record(world)
    friday = START + timedelta(days=4, hours=9)  # the first deadline, Fri 18:00 UTC
    rec.say("# A three-player, three-turn campaign through the git flow\n")

    rec.say("## Turn 1\n")
    rec.submit("alice", "alice/turn-1", {"orders/red.yaml": world.bot_orders("red")}, "red's orders")
    rec.submit(
        "bob", "bob/oops", {"orders/red.yaml": world.bot_orders("blue")}, "blue's orders saved as red.yaml"
    )
    rec.submit("bob", "bob/turn-1", {"orders/blue.yaml": world.bot_orders("blue")}, "blue's orders")
    typo = world.template("green").replace(
        b"orders: []",
        b"orders:\n  - action: recruit\n    settlement: Atlantis\n    class: troops\n    name: Pikes",
    )
    rec.submit("carol", "carol/turn-1", {"orders/green.yaml": typo}, "green's orders with a mistake")
    rec.submit(
        "carol", "carol/turn-1", {"orders/green.yaml": world.bot_orders("green")}, "green's orders, fixed"
    )
    rec.resolve("Monday, every faction in")

    rec.say("## Turn 2\n")
    config = (
        (world.ci / "campaign/campaign.yaml").read_text().replace("policy: hold", "policy: civil_disorder")
    )
    gm_orders = (
        "campaign: the-salt-marches\nturn: 2\nfaction: gm\norders:\n  - action: narrate\n"
        "    headline: Salt storms\n    text: Grey squalls roll in from the marshes.\n"
    )
    rec.submit(
        "dora",
        "gm/turn-2",
        {"orders/gm.yaml": gm_orders, "campaign/campaign.yaml": config},
        "the GM's orders, and civil disorder for absent players",
    )
    state = (world.ci / "campaign/state.yaml").read_text()
    rec.submit(
        "alice",
        "alice/gold",
        {"orders/red.yaml": world.bot_orders("red"), "campaign/state.yaml": state + "# more gold\n"},
        "red's orders plus an edit of the state",
    )
    rec.submit("alice", "alice/turn-2", {"orders/red.yaml": world.bot_orders("red")}, "red's orders")
    stale_base = world.pull_request("bob", "bob/turn-3-early", {"orders/blue.yaml": world.bot_orders("blue")})
    rec.submit("carol", "carol/turn-2", {"orders/green.yaml": world.bot_orders("green")}, "green's orders")
    rec.resolve("Wednesday, blue is silent", now=friday - timedelta(days=2))
    rec.resolve("Friday after the deadline and grace", now=friday + timedelta(hours=1, minutes=17))

    rec.say("## Turn 3\n")
    # Bob finishes the branch he started during turn 2 and writes 'turn: 3' into it.
    clone = world.clone("bob")
    world.git(clone, "checkout", "--quiet", stale_base.branch)
    path = clone / "orders/blue.yaml"
    path.write_bytes(path.read_bytes().replace(b"turn: 2", b"turn: 3"))
    stale_base.head = world.commit(clone, "bob", "blue: orders for turn 3")
    world.git(clone, "push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{stale_base.branch}")
    rec.check(stale_base, "blue's orders on a branch made during turn 2")
    rec.submit("bob", "bob/turn-3", {"orders/blue.yaml": world.bot_orders("blue")}, "blue's orders, rebased")
    rec.submit("alice", "alice/turn-3", {"orders/red.yaml": world.bot_orders("red")}, "red's orders")
    rec.submit("carol", "carol/turn-3", {"orders/green.yaml": world.bot_orders("green")}, "green's orders")
    rec.resolve("Tuesday, every faction in", now=friday + timedelta(days=4))

    verified = cli("verify", "--root", world.ci, "--all")
    rec.say(f"--- campaign verify --all → exit {verified.code}")
    rec.say(verified.out)
    rec.say("## git log --oneline --decorate\n")
    world.git(world.ci, "remote", "prune", "origin")
    rec.say(world.git(world.ci, "log", "--oneline", "--decorate", "main"))
    return "\n".join(rec.parts)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.git.simulate OUT", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="gitflow-demo-") as tmp:
        empty = Path(tmp) / "gitconfig"
        empty.touch()
        os.environ["GIT_CONFIG_GLOBAL"] = str(empty)  # the machine's git settings play no part
        os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
        text = play(Path(tmp) / "campaign")
    Path(argv[0]).write_text(text, encoding="utf-8")
    print(f"Wrote {argv[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
