"""Issue 25: what the README tells players and the GM to type about absences, replacements and orders
sent without git, run literally.

Every command and file line below is read from README.md (never copied into the test) and run as written,
through the installed ``campaign`` console script and the machine's git, in a campaign's folder, on a git
that nobody configured (an empty home; only the commit identity is given, as a clone's own settings
would). Each promise the README makes about the outcome is checked, and after each refusal it mentions,
the step it gives next.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.engine.bots import bot_order_file
from resolver.store.absences import is_away
from resolver.store.store import TEST_BEACON_VARIABLE, Store

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent  # where the campaign console script is installed
PLAYERS = {
    "gm": {"logins": ["dora"]},
    "factions": {
        "red": {"name": "House Alder", "logins": ["alice"]},
        "blue": {"name": "House Brook", "logins": ["bob"]},
        "green": {"name": "House Crane", "logins": ["carol"]},
    },
}


def section(heading: str) -> str:
    """The README's text under ``heading`` (a whole heading line), up to the next heading of its level
    or above."""
    level = heading.split(" ")[0]
    start = README.index(f"\n{heading}\n")
    rest = README[start + len(heading) + 2 :]
    end = re.search(rf"^#{{1,{len(level)}}} ", rest, re.MULTILINE)
    return rest[: end.start() if end else len(rest)]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def lines_of(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip()]


def line_starting(block: str, start: str) -> str:
    found = [line for line in lines_of(block) if line.startswith(start)]
    assert len(found) == 1, (start, block)
    return found[0]


def code_spans(text: str, start: str) -> list[str]:
    """The inline code spans of ``text`` that begin with ``start`` (a span may wrap onto the next line)."""
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # a fence's backticks pair with nothing
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose) if span.startswith(start)]


@pytest.fixture
def shell(tmp_path: Path):
    """Runs a line as a shell user types it (`&&` between commands, `# comments` ignored), in a folder,
    with the installed campaign command first on PATH and git reading no configuration of this machine."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
            TEST_BEACON_VARIABLE: "1",  # the sealed campaign's dice use the kit's recorded beacon
        }
    )

    def run(line: str, cwd: Path, *, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done: subprocess.CompletedProcess[str] | None = None
        for command in line.split(" && "):
            done = subprocess.run(
                shlex.split(command, comments=True),
                cwd=cwd,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            if done.returncode:
                break
        assert done is not None
        if ok:
            assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
        return done

    return run


def new_campaign(shell, base: Path, *options: str) -> Path:
    """A campaign of three players in its own git repository (git init as it comes: branch master)."""
    base.mkdir(parents=True, exist_ok=True)
    (base / "players.yaml").write_text(yaml.safe_dump(PLAYERS), encoding="utf-8")
    root = base / "camp"
    root.mkdir()
    shell(
        "campaign new --ruleset nations --seed 7 --players ../players.yaml --force " + " ".join(options), root
    )
    shell("git init --quiet", root)
    shell("git config user.name Dora && git config user.email dora@example.org", root)
    shell("git add --all && git commit --quiet -m Start", root)
    return root


def bot_orders(root: Path, faction: str) -> bytes:
    store = Store(root)
    state = store.state()
    return bot_order_file(store.game(state), state, faction).raw


def resolve(shell, root: Path, *, send: tuple[str, ...] = ("blue", "green")) -> None:
    """A turn: the factions in ``send`` have the bot's orders, then the turn is resolved and committed."""
    for faction in send:
        (root / "orders" / f"{faction}.yaml").write_bytes(bot_orders(root, faction))
    shell("campaign resolve --force", root)
    shell("git add --all && git commit --quiet -m Turn", root)


# -- Away for a while ----------------------------------------------------------------------------------


def test_a_player_declares_an_absence_in_their_order_file(shell, tmp_path: Path) -> None:
    away = section("### Away for a while")
    declared = line_starting(blocks(away, "yaml")[0], "absence:")
    span = yaml.safe_load(declared)["absence"]
    assert declared.split("#")[1].strip().startswith("away for turns 5, 6 and 7")
    root = new_campaign(shell, tmp_path)
    config = canonical.read_yaml(root / "campaign/campaign.yaml")
    # A campaign that eliminates a faction after one silent turn: the README promises an absence is none.
    config["absent_players"] = {"policy": "eliminate", "eliminate_after": 1}
    canonical.write_yaml(root / "campaign/campaign.yaml", config)

    # "Each template ends with such a line, commented out: remove the # and set the turns."
    shell("campaign template red -o orders/red.yaml", root)
    template = (root / "orders/red.yaml").read_text(encoding="utf-8")
    commented = [line for line in template.splitlines() if line.startswith("# absence:")]
    assert len(commented) == 1 and "absence: {from: 2, to: 3}" in commented[0]

    # Too long an absence first: refused where it stands, with what to write instead, and that works.
    too_long = f"absence: {{from: {span['from']}, to: {span['from'] + 20}}}\n"
    (root / "orders/red.yaml").write_text(template + too_long, encoding="utf-8")
    refused = shell("campaign check orders/red.yaml", root, ok=False)
    assert refused.returncode == 1
    last = len(template.splitlines()) + 1
    assert f"orders/red.yaml:{last}:" in refused.stdout and "at most 12 turns" in refused.stdout
    fix = re.search(r"fix: write '(to: \d+)' or earlier", refused.stdout)
    assert fix is not None
    (root / "orders/red.yaml").write_text(
        template + too_long.replace(f"to: {span['from'] + 20}", fix.group(1)), encoding="utf-8"
    )
    assert shell("campaign check orders/red.yaml", root).returncode == 0

    # The README's line, as written, beside orders: the check says what it does.
    (root / "orders/red.yaml").write_text(template + declared + "\n", encoding="utf-8")
    checked = shell("campaign check orders/red.yaml", root)
    assert "It declares your faction away for turns 5 to 7" in checked.stdout
    assert "No absence is declared." in shell("campaign absence", root).stdout  # not before the turn
    resolve(shell, root)  # turn 1

    # "public from the moment that turn is resolved": the list and the faction's page show it.
    listed = shell("campaign absence", root).stdout
    assert "red: turns 5 to 7, declared with the orders of turn 1" in listed
    shell("campaign site --no-build", root)
    page = (root / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert "- Away: turns 5 to 7, as its player declared." in page

    for _ in range(2, 5):  # turns 2 to 4: red sends its orders as usual
        resolve(shell, root, send=("red", "blue", "green"))
    resolve(shell, root)  # turn 5: red sends nothing
    # "the chronicle says it is away rather than silent", and it "counts as no missed turn".
    shell("campaign site --no-build", root)
    chronicle = (root / "site/chronicle/turn-5.md").read_text(encoding="utf-8")
    assert "House Alder is away, as declared beforehand; its forces hold" in chronicle
    assert "No orders arrived from House Alder" not in chronicle and "## Away, as declared" in chronicle
    inputs = canonical.read_yaml(root / "campaign/turns/0005/inputs.yaml")
    assert inputs["away"]["factions"] == ["red"] and "red" not in inputs["missing"]
    assert Store(root).state()["factions"]["red"].get("status", "active") == "active"
    page = (root / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert "- **Away now**: turns 5 to 7, as its player declared." in page

    # "Orders sent while away are used as any others"; "to come back early ... send absence: {}".
    orders = bot_orders(root, "red") + b"absence: {}\n"
    (root / "orders/red.yaml").write_bytes(orders)
    assert "It takes back your absence" in shell("campaign check orders/red.yaml", root).stdout
    assert "absence: {}" in away
    resolve(shell, root, send=("blue", "green"))  # turn 6, red's file written above
    inputs = canonical.read_yaml(root / "campaign/turns/0006/inputs.yaml")
    assert "away" not in inputs and "red" in inputs["posting_order"]
    assert not is_away(Store(root), "red", 7)
    assert "No absence is declared." in shell("campaign absence", root).stdout
    shell("campaign site --no-build", root)
    page = (root / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert "- Was away: turn 5, as declared; its forces held." in page
    assert "Away now" not in page


def test_the_gm_declares_lists_and_takes_back_an_absence(shell, tmp_path: Path) -> None:
    away = section("### Away for a while")
    gm_block = next(block for block in blocks(away, "sh") if "campaign absence" in block)
    declare, listing, cancel, commit = lines_of(gm_block)
    root = new_campaign(shell, tmp_path)

    # A wrong turn first: refused, nothing written, and the fix is a command that works.
    wrong = shell(declare.split("#")[0].replace("--from 5", "--from 0"), root, ok=False)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "an absence cannot begin at turn 0" in wrong.stderr
    assert not (root / "campaign/absences.yaml").exists()
    given = re.search(r"fix: give (--from \d+) or later", wrong.stderr)
    assert given is not None
    shell(declare.split("#")[0].replace("--from 5", given.group(1)), root)

    done = shell(declare, root)
    assert "red is away for turns 5 to 7. Commit campaign/absences.yaml." in done.stdout
    assert canonical.read_yaml(root / "campaign/absences.yaml") == {"red": {"from": 5, "to": 7}}
    assert "red: turns 5 to 7, declared by the GM" in shell(listing, root).stdout
    shell(commit, root)
    assert shell("git status --porcelain", root).stdout == ""
    assert "campaign/absences.yaml" in shell("git show --stat --format= HEAD", root).stdout
    assert is_away(Store(root), "red", 5) and not is_away(Store(root), "red", 4)

    # "A player's own stays until they send absence: {}": red's player declares turns 2 to 3 themselves.
    (root / "orders/red.yaml").write_bytes(bot_orders(root, "red") + b"absence: {from: 2, to: 3}\n")
    resolve(shell, root)
    taken = shell(cancel, root).stdout
    assert "The GM's declaration for red is taken back. Commit campaign/absences.yaml." in taken
    assert "red's player declared turns 2 to 3 in their orders; that stays" in taken
    assert "red: turns 2 to 3, declared with the orders of turn 1" in shell(listing, root).stdout
    assert not is_away(Store(root), "red", 5) and is_away(Store(root), "red", 2)

    # Wrong uses: exit 2, a fix, nothing changed.
    before = (root / "campaign/absences.yaml").read_bytes()
    for line in (
        "campaign absence purple --cancel",
        "campaign absence red",
        "campaign absence red --from 3 --to 2",
    ):
        refused = shell(line, root, ok=False)
        assert refused.returncode == 2 and "fix: " in refused.stderr and "Traceback" not in refused.stderr
        assert (root / "campaign/absences.yaml").read_bytes() == before


def test_the_settings_block_for_absences_is_what_the_kit_reads() -> None:
    from resolver.engine.absence import AwayPolicy

    settings = section("### Campaign settings")
    block = next(b for b in blocks(settings, "yaml") if "absences:" in b)
    written = yaml.safe_load(block)["absences"]
    block = block[block.index("absences:") :]
    policy = AwayPolicy.from_data(written)
    assert (policy.policy, policy.pause_at, policy.pause_hours) == ("hold", 2, 168)
    assert AwayPolicy.from_data(None) == policy  # "campaign new leaves it out: these are the defaults"
    choices = re.search(r"policy: hold\s+# (.+)", block)
    assert choices is not None
    for name in (c.strip() for c in choices.group(1).split("|")):
        assert AwayPolicy.from_data({"policy": name}).policy == name


# -- Replacing a player --------------------------------------------------------------------------------


def test_the_gm_hands_an_open_campaigns_faction_over(shell, tmp_path: Path) -> None:
    replacing = section("### Replacing a player")
    open_line = line_starting(blocks(replacing, "sh")[0], "campaign handover red --login erin  ")
    removal = code_spans(replacing, "git rm ")
    commit = code_spans(replacing, "git add campaign")
    assert len(removal) == 1 and len(commit) == 1
    root = new_campaign(shell, tmp_path)
    (root / "orders/red.yaml").write_bytes(bot_orders(root, "red"))
    resolve(shell, root)  # turn 1, played by alice
    (root / "orders/red.yaml").write_bytes(bot_orders(root, "red"))  # alice's orders for turn 2, merged
    shell("git add --all && git commit --quiet -m alice", root)

    done = shell(open_line, root)
    assert "red is played by erin from turn 2 on." in done.stdout
    assert "Recorded in campaign/players.yaml: alice: turn 1." in done.stdout
    assert "orders/red.yaml is on the branch already" in done.stdout  # "named in the output"
    red = canonical.read_yaml(root / "campaign/players.yaml")["factions"]["red"]
    assert red["logins"] == ["erin"] and red["since"] == 2
    assert red["played_by"] == [{"logins": ["alice"], "from": 1, "to": 1}]

    shell(removal[0], root)
    shell(commit[0], root)
    assert shell("git status --porcelain", root).stdout == ""
    changed = shell("git show --name-status --format= HEAD", root).stdout
    assert "D\torders/red.yaml" in changed and "M\tcampaign/players.yaml" in changed

    # The pull-request check follows players.yaml: alice is refused, erin accepted.
    shell("git checkout --quiet -b erin-orders", root)
    (root / "orders/red.yaml").write_bytes(bot_orders(root, "red"))
    shell("git add orders/red.yaml && git commit --quiet -m orders", root)
    head = shell("git rev-parse HEAD", root).stdout.strip()
    check = f"campaign check --pr --base master --head {head} --author"
    refused = shell(f"{check} alice", root, ok=False)
    assert (
        refused.returncode != 0
        and "alice is not a player of this campaign" in refused.stdout + refused.stderr
    )
    assert shell(f"{check} erin", root).returncode == 0

    # "The faction's page on the site lists who played which turns."
    shell("campaign site --no-build", root)
    page = (root / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert "- Played by alice: turn 1; erin: turn 2 on." in page


def test_the_gm_hands_a_sealed_campaigns_faction_over(shell, tmp_path: Path) -> None:
    replacing = section("### Replacing a player")
    sealed_line = line_starting(blocks(replacing, "sh")[0], "campaign handover red --login erin --recipient")
    base = tmp_path / "game"
    base.mkdir()
    keys = {}
    for login in ("alice", "bob", "erin"):
        made = shell(f"campaign keygen -o {login}-key.txt", base).stdout
        keys[login] = re.findall(r"age1[0-9a-z]+", made)[-1]
    roster = {
        "factions": {
            "red": {"name": "House Alder", "logins": ["alice"], "recipients": [keys["alice"]]},
            "blue": {"name": "House Brook", "logins": ["bob"], "recipients": [keys["bob"]]},
        }
    }
    (base / "players.yaml").write_text(yaml.safe_dump(roster), encoding="utf-8")
    root = base / "camp"
    root.mkdir()
    shell(
        "campaign new --sealed --key-file ../campaign-key.txt --beacon test --players ../players.yaml", root
    )
    shell("campaign resolve --force --key-file ../campaign-key.txt", root)  # turn 1, alice's

    # The README's placeholder age1… stands for the public key the new player's campaign keygen printed.
    assert "age1…" in sealed_line
    command = sealed_line.replace("age1…", keys["erin"])
    # Forgetting the key file is refused before anything is written.
    before = (root / "campaign/players.yaml").read_bytes()
    refused = shell(command.split("--key-file")[0], root, ok=False)
    assert refused.returncode != 0 and "--key-file" in refused.stderr and "Traceback" not in refused.stderr
    assert (root / "campaign/players.yaml").read_bytes() == before

    done = shell(command, root)
    assert "red is played by erin from turn 2 on." in done.stdout
    assert "none of the earlier reports" in done.stdout
    red = canonical.read_yaml(root / "campaign/players.yaml")["factions"]["red"]
    assert red["recipients"] == [keys["erin"]] and red["logins"] == ["erin"]
    # "the faction's newest view is sealed again to it, so the newcomer can play at once"
    viewed = shell("campaign view --identity ../erin-key.txt", root)
    assert "Your view as red of turn 2" in viewed.stdout
    assert "Opened 0 of 1 report" in viewed.stdout  # the old player's report stays theirs
    assert "AGE-SECRET-KEY" not in done.stdout + done.stderr

    # "The player who left can open nothing sealed after the handover": the next turn's view is erin's.
    shell("campaign resolve --force --key-file ../campaign-key.txt", root)
    assert "Your view as red of turn 3" in shell("campaign view --identity ../erin-key.txt", root).stdout
    old = shell("campaign view --identity ../alice-key.txt", root, ok=False)
    assert "turn 3" not in old.stdout


# -- The commands table ---------------------------------------------------------------------------------


ROWS = ("campaign absence", "campaign handover", "campaign orders-from-issue", "campaign notify")


@pytest.mark.parametrize("command", ROWS)
def test_each_row_of_the_commands_table_names_options_the_command_has(command: str, shell, tmp_path) -> None:
    table = section("## Running a campaign (GM)")
    rows = [line for line in table.splitlines() if re.match(rf"\| `{command}[ `]", line)]
    assert len(rows) == 1, command
    usage = rows[0].split(" | ")[0]
    names = [command.split()[1]] + (["remind"] if command.endswith("notify") else [])
    for name in names:
        helped = shell(f"campaign {name} --help", tmp_path).stdout
        assert helped.startswith(f"usage: campaign {name}")
        for option in set(re.findall(r"--[a-z-]+", usage)):
            assert option in helped, (name, option)
        # Every option the command requires is in the row.
        required = re.findall(r"(?<!\[)(--[a-z-]+) [A-Z]+(?![^\[]*\])", helped.split("\n\n")[0])
        for option in required:
            assert option in usage, (name, option)
        assert "examples" in helped or "example (" in helped  # each shows how it is typed


# -- For players who do not use git (open campaigns) ---------------------------------------------------


def issue_body(orders: str) -> str:
    """The body GitHub writes for the Orders issue form: the text area's label as a heading, then the
    answer in a fenced block (the form renders it as YAML)."""
    return f"### Orders\n\n```yaml\n{orders.rstrip()}\n```\n"


def test_an_issue_of_orders_becomes_a_branch_as_the_readme_says(shell, tmp_path: Path) -> None:
    without_git = section("## For players who do not use git")
    setting = code_spans(without_git, "repository:")
    assert setting == ["repository: https://github.com/OWNER/REPO"]
    table = section("## Running a campaign (GM)")
    row = next(line for line in table.splitlines() if line.startswith("| `campaign orders-from-issue "))
    command = re.sub(r" \[[^]]*\]", "", row.split("`")[1])  # the options in brackets are optional
    assert command == "campaign orders-from-issue --body FILE --issue N --author LOGIN"

    root = new_campaign(shell, tmp_path)
    with (root / "campaign/campaign.yaml").open("a", encoding="utf-8") as config:
        config.write(setting[0] + "\n")
    shell("git add --all && git commit --quiet -m 'Name the repository'", root)
    # "each player's faction page on the site ends with a Send orders form" that leads to GitHub.
    shell("campaign site --no-build", root)
    page = (root / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert 'data-new-file="https://github.com/OWNER/REPO/new/main"' in page
    assert 'data-issue="https://github.com/OWNER/REPO/issues/new?template=orders.yml"' in page
    assert (REPO / ".github/ISSUE_TEMPLATE/orders.yml").is_file()
    assert "**Send orders**" in without_git
    # "when the whole address fits in 8,000 characters": the form's own limit.
    limit = re.search(r"fits in ([\d,]+) characters", without_git)
    script = (REPO / "templates/site/assets/orders-form.js").read_text(encoding="utf-8")
    assert limit is not None and f"var URL_LIMIT = {limit.group(1).replace(',', '')};" in script

    # Bob pastes red's orders: "refuses (with a comment on the issue saying why) orders for a faction
    # the author does not play", and nothing is written.
    head = shell("git rev-parse HEAD", root).stdout.strip()
    (tmp_path / "issue.md").write_text(issue_body(bot_orders(root, "red").decode()), encoding="utf-8")
    placeholders = {"FILE": "../issue.md", "N": "7", "LOGIN": "bob"}
    typed = re.sub(r"\b(FILE|N|LOGIN)\b", lambda m: placeholders[m.group(1)], command)
    refused = shell(f"{typed} --comment ../refusal.md", root, ok=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    said = (tmp_path / "refusal.md").read_text(encoding="utf-8")
    assert "bob" in said and "red" in said
    assert shell("git branch --list orders-from-issue-7", root).stdout == ""
    assert shell("git rev-parse HEAD", root).stdout.strip() == head

    # "Editing the issue moves the branch": bob pastes his own faction's orders into the same issue.
    blue = bot_orders(root, "blue").decode()
    (tmp_path / "issue.md").write_text(issue_body(blue), encoding="utf-8")
    done = shell(typed, root)
    assert "orders-from-issue-7" in done.stdout
    branch = "orders-from-issue-7"
    assert shell(f"git show {branch}:orders/blue.yaml", root).stdout == blue
    assert shell(f"git log -1 --format=%an {branch}", root).stdout.strip() == "bob"
    assert shell(f"git rev-parse {branch}^", root).stdout.strip() == head
    assert shell("git status --porcelain", root).stdout == ""  # "the work tree untouched"
    assert not (root / "orders/blue.yaml").exists()
    # Then the same check as any pull request, as the workflow runs it.
    commit = shell(f"git rev-parse {branch}", root).stdout.strip()
    assert shell(f"campaign check --pr --base HEAD --head {commit} --author bob", root).returncode == 0

    # "An issue holds at most 65,536 characters; an order file, 64 KiB": a longer paste is refused.
    (tmp_path / "issue.md").write_text(issue_body(blue + "#" * 70_000), encoding="utf-8")
    too_long = shell(typed.replace("--issue 7", "--issue 8"), root, ok=False)
    assert too_long.returncode == 1 and "fix: " in too_long.stderr
    assert shell("git branch --list orders-from-issue-8", root).stdout == ""


# -- Typed wrong ----------------------------------------------------------------------------------------

TYPOS = {
    "campaign absence red --form 5 --to 7": "did you mean --from?",
    "campaign absence red --from five --to 7": "argument --from: invalid int value: 'five'",
    "campaign absence purple --from 5 --to 7": "unknown faction 'purple'",
    "campaign handover red": "the following arguments are required: --login",
    "campaign handover red --logins erin": "did you mean --login?",
    "campaign handover purple --login erin": "purple",
    "campaign handover red --login erin --reports all": "--reports",
    "campaign remind --now tomorrow": "'tomorrow' is not a date and time",
    "campaign notify --dry-run --now 2026-13-01": "is not a date and time",
    "campaign orders-from-issue --body nowhere.md --issue 3 --author alice": "nowhere.md",
}


def test_a_gm_who_types_a_command_wrong_is_told_how_and_nothing_changes(shell, tmp_path: Path) -> None:
    root = new_campaign(shell, tmp_path)
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}
    for line, said in TYPOS.items():
        done = shell(line, root, ok=False)
        assert done.returncode in (1, 2), line
        assert said in done.stderr, (line, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == "", line
        assert "fix: " in done.stderr or "usage: campaign" in done.stderr, line
    after = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}
    assert after == before
    assert shell("git status --porcelain", root).stdout == ""
