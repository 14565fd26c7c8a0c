"""The ``campaign`` command line.

Every subcommand takes ``--help``, and all but ``keygen`` (which needs no campaign) take ``--root DIR``.
Without ``--root`` a command finds its campaign as git finds its repository: in the current folder or
the nearest folder above it that holds ``campaign/campaign.yaml`` (``new`` and ``demo`` work in the
current folder). Exit codes: 0 success, 1 rejected input, 2 misuse of the command.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

import yaml

from . import __version__
from .core.collector import cycles_paused
from .core.events import public_record
from .core.houserules import RULES_FILE
from .core.issues import CampaignError, Issue
from .core.orders import GM, OrderFile
from .core.text import hide_secrets, visible
from .core.words import plural
from .core.yamlsafe import yaml_error_text
from .engine.ruleset import RULESETS, get_ruleset
from .store import sealing
from .store.store import RESEALED_DIR, Store, environment_error

if TYPE_CHECKING:
    from .store.views import TurnLine


class _OnFirstUse:
    """A module of this package imported when a command first uses it, not when the command line starts:
    ``campaign check`` needs none of the resolver's, the replay's, the bots' or the beacon's modules, and
    importing them all made a player's check start several times slower than Python itself."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        module: ModuleType = importlib.import_module(self._name, __package__)
        return getattr(module, attribute)


workflow: Any = _OnFirstUse(".workflow")
replay: Any = _OnFirstUse(".store.replay")
resolution: Any = _OnFirstUse(".store.resolution")
views: Any = _OnFirstUse(".store.views")
DEMO_KEY = sealing.DEMO_KEY  # not workflow.DEMO_KEY: parsing the command line imports no workflow

EPILOG = """\
A campaign lives in a repository folder: campaign/ holds the state and the turn archive,
orders/ holds this turn's order files (orders/<faction>.yaml). Typical use:

  campaign new --ruleset nations --seed 7 --factions 4   start a campaign here
  campaign template red -o orders/red.yaml               a pre-filled orders file
  campaign check                                         check every order file
  campaign resolve                                       resolve the turn
  campaign verify --all                                  replay the archive
  campaign demo                                          watch bots play a few turns

A sealed campaign (campaign new --sealed --key-file FILE) keeps orders, reports and the state
encrypted; players run campaign view, then campaign seal orders/<faction>.yaml.

  campaign keygen -o ~/age-key.txt                       a player's age key; prints the age1… line
  campaign doctor --key-file FILE                        the GM checks the set-up, says what to fix
  campaign reseal --faction red --key-file FILE          seal red's view and reports to its new player
"""


# The commands that make a campaign where they are told to, instead of looking for one.
MAKERS = ("new", "demo")
# The commands that need no campaign at all.
CAMPAIGNLESS = ("keygen",)
# The commands that read their --key-file themselves rather than having main load it first.
OWN_KEY_FILE = (*MAKERS, "seal-campaign", "add-key", "doctor")


class Parser(argparse.ArgumentParser):
    """argparse, naming an unknown option as unknown and suggesting the nearest known one."""

    def commands(self) -> dict[str, Parser]:
        """The subcommands' parsers by name (none for a subcommand's own parser)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.words = [str(word) for word in (sys.argv[1:] if args is None else args)]
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """A required option missing because its name was mistyped (--logins for --login) is named as the
        typo it is, with the nearest known option, rather than as missing."""
        if message.startswith("the following arguments are required"):
            known = [option for action in self._actions for option in action.option_strings]
            for word in getattr(self, "words", []):
                name = word.partition("=")[0]
                if name.startswith("--") and not any(option.startswith(name) for option in known):
                    self.unknown([word])
        super().error(message)

    def unknown(self, words: Sequence[str]) -> NoReturn:
        word = words[0]
        known = [option for action in self._actions for option in action.option_strings]
        known += list(self.commands())
        import difflib  # only a mistyped word needs it

        close = difflib.get_close_matches(word.partition("=")[0], known, n=1)
        kind = "option" if word.startswith("-") else "argument"
        self.error(f"unknown {kind} '{word}'" + (f" (did you mean {close[0]}?)" if close else ""))


class ExamplesFormatter(argparse.HelpFormatter):
    """Wraps a command's description to the terminal, and prints a text written with line breaks (the
    examples after the options) as it is written, so that the commands in it line up."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


ABSENCE_EXAMPLES = """\
examples, in the campaign's folder:
  campaign absence                        list every absence, declared by players or by the GM
  campaign absence red --from 5 --to 7    red is away for turns 5, 6 and 7
  campaign absence red --cancel           take the GM's declaration for red back
then commit the ledger: git add campaign/absences.yaml && git commit -m "red is away for turns 5 to 7"

A player declares their own absence in their order file instead, beside that turn's orders:
  absence: {from: 5, to: 7}
"""

HANDOVER_EXAMPLES = """\
examples, in the campaign's folder:
  campaign handover red --login erin                  an open campaign
  campaign handover red --login erin --id 583231      ... and erin's GitHub account id, for the check
  campaign handover red --login erin --recipient age1… --key-file ../campaign-key.txt
                                                      a sealed campaign: erin's public key, the GM's key
  campaign handover red --login erin --recipient age1… --reports all --key-file ../campaign-key.txt
                                                      ... and every earlier report of red's for erin too
then commit: git add campaign && git commit -m "erin plays red"
"""

ISSUE_EXAMPLES = """\
example (the workflow "Orders from an issue" runs it; you need not):
  campaign orders-from-issue --body issue.md --issue 12 --author alice --author-id 583231 \\
      --output "$GITHUB_OUTPUT" --comment refusal.md
"""


def notices_examples(name: str) -> str:
    """The examples of ``campaign notify`` or ``campaign remind``."""
    return f"""\
examples, in the campaign's folder:
  campaign {name} --dry-run                            what a run now would send; sends nothing
  campaign {name} --dry-run --now 2026-03-26T15:00Z    ... judged at that moment (UTC)
  GITHUB_TOKEN=… GITHUB_REPOSITORY=OWNER/REPO campaign {name}    what the workflow runs
then commit what was sent: git add campaign/notifications.yaml && git commit -m "Notifications"
"""


def _root_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--root",
        type=Path,
        default=None,
        metavar="DIR",
        help="the campaign repository (default: the current folder or the nearest one above it that "
        "holds campaign/campaign.yaml)",
    )
    return parent


def find_root(start: Path) -> Path:
    """The campaign around ``start``: the folder itself or its nearest parent holding campaign/campaign.yaml,
    as git finds a repository from any of its subfolders."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "campaign" / "campaign.yaml").is_file():
            return folder
    raise CampaignError(
        f"no campaign in {start} or any folder above it (none holds campaign/campaign.yaml)",
        "run this inside a campaign repository, pass --root DIR, or create one with: campaign new",
        code=2,
    )


class _Unbuilt:
    """A command's parser that is not built: every call made to build it is taken and dropped."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


class _OnlyCommand:
    """The subcommands, building the parser of one command alone: a command line that names its command
    is parsed by that command's parser only, and building the thirty others was a tenth of starting a
    check. ``campaign --help``, an unknown command and a mistyped one still get every parser."""

    def __init__(self, sub: Any, command: str) -> None:
        self.sub, self.command = sub, command

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        return self.sub.add_parser(name, **kwargs) if name == self.command else _Unbuilt()


def build_parser(command: str | None = None) -> Parser:
    """The command line's parser; with ``command``, the parser of that subcommand alone is built."""
    parser = Parser(
        prog="campaign",
        description="Run a play-by-post strategy campaign: check order files, resolve turns "
        "deterministically, "
        "replay the archive.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"campaign-kit {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback of an internal error")
    sub: Any = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    if command is not None:
        sub = _OnlyCommand(sub, command)
    root = _root_parent()

    p = sub.add_parser(
        "new",
        parents=[root],
        help="create a fresh campaign",
        description="Create a campaign: world, factions, starting state, order templates. "
        "Refuses to overwrite a campaign unless --force is given. A usurper, overlord or diplomacy campaign "
        "is sealed by default: give it --key-file FILE (or --show-key), or --open for an open one.",
    )
    p.add_argument(
        "--ruleset", default="nations", choices=RULESETS, help="the game to play (default: nations)"
    )
    p.add_argument(
        "--seed", type=int, default=1, help="campaign seed: world, names and every roll derive from it"
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--factions", type=int, metavar="K", help="number of factions (default: 4; diplomacy: its 7 powers)"
    )
    who.add_argument(
        "--players",
        type=Path,
        metavar="FILE",
        help="a players file (factions with name, colour and logins; GM logins)",
    )
    p.add_argument("--name", default="", help="the campaign's title")
    p.add_argument("--force", action="store_true", help="erase an existing campaign in this folder")
    keys = p.add_argument_group(
        "the campaign key",
        "With a campaign key, every turn's dice gain a secret salt that CI holds, so nobody can foresee "
        "a roll; --sealed also encrypts orders, reports, views and the full state. The GM stores the "
        f"key as the repository secret {sealing.KEY_VARIABLE}.",
    )
    openness = keys.add_mutually_exclusive_group()
    openness.add_argument(
        "--sealed",
        action="store_true",
        help="a sealed campaign (needs --key-file or --show-key); usurper's, overlord's and diplomacy's "
        "campaigns are sealed by default",
    )
    openness.add_argument(
        "--open",
        action="store_true",
        help="an open campaign, for a ruleset whose campaigns are sealed by default (usurper, overlord, "
        "diplomacy)",
    )
    keys.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help="make a campaign key and write it to FILE (outside campaign/)",
    )
    keys.add_argument(
        "--show-key", action="store_true", help="make a campaign key and print it once (only on a terminal)"
    )
    keys.add_argument(
        "--beacon",
        choices=("quicknet", "test", "none"),
        help="the public randomness beacon whose round, drawn after each deadline, completes the dice "
        "salt, so that not even the key's holder can foresee a roll (default: quicknet, drand's beacon, "
        "in a sealed campaign; none in an open one). 'test' is the kit's own test beacon, for demos and "
        "tests: anyone can sign its rounds",
    )

    p = sub.add_parser(
        "check",
        parents=[root],
        help="validate order files",
        description="Check order files against the current state and print every order as the "
        "engine understood it. Exit 1 if any file has an error.",
    )
    p.add_argument("files", nargs="*", type=Path, metavar="FILE", help="order files (default: orders/*.yaml)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    key_option(p)
    pr = p.add_argument_group(
        "pull requests",
        "With --pr, check a pull request from git objects: may its author change these files, do its "
        "orders validate against the base branch's state, are they stale? Prints GitHub annotations.",
    )
    pr.add_argument("--pr", action="store_true", help="check a pull request instead of files")
    pr.add_argument("--base", metavar="REV", help="the base branch's commit (with --pr)")
    pr.add_argument("--head", metavar="REV", help="the pull request's head commit (with --pr)")
    pr.add_argument("--author", metavar="LOGIN", help="the pull request author's GitHub login (with --pr)")
    pr.add_argument(
        "--author-id",
        type=int,
        metavar="ID",
        help="the author's numeric GitHub account id (with --pr): matched against 'ids' in players.yaml",
    )
    pr.add_argument(
        "--comment", type=Path, metavar="FILE", help="write the Markdown comment here (default: print it)"
    )

    p = sub.add_parser(
        "resolve",
        parents=[root],
        help="resolve the current turn",
        description="Resolve the current turn from the order files present (factions without "
        "orders follow the campaign's absent-player policy: hold, unless campaign/campaign.yaml says "
        "otherwise), archive it under campaign/turns/ and write the new state. "
        "Refuses, and writes nothing, if any order file has errors, or if no order file has come for a "
        "turn after the first (run right after another resolve, it would resolve the turn that has only "
        "begun; --force resolves it anyway).",
    )
    p.add_argument(
        "--posting-order",
        metavar="F1,F2,…",
        help="the order in which factions posted (default: a seeded order; from git with "
        "--if-due or --commit)",
    )
    p.add_argument(
        "--if-due",
        action="store_true",
        help="resolve only if the deadline and grace in campaign/campaign.yaml have passed or every "
        "active faction has sent orders; otherwise say why and exit 0",
    )
    p.add_argument(
        "--commit",
        action="store_true",
        help="commit the turn as the bot ('Turn N resolved') and tag it turn-N; refuses on a dirty tree, "
        "and, without --if-due, when the previous turn was already resolved for the same deadline; "
        "finishes or undoes an interrupted resolution first",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="with --if-due or --commit: resolve even if the circuit breaker trips, or if the previous "
        "turn was already resolved for the same deadline; alone: resolve a turn that no order file has "
        "reached",
    )
    key_option(p)
    p.add_argument(
        "--now",
        metavar="WHEN",
        help="the moment to judge the deadline by, ISO 8601, no later than the clock (default: the "
        "clock; for tests and rehearsals). The commit is always dated by the clock",
    )

    p = sub.add_parser(
        "verify",
        parents=[root],
        help="replay archived turns",
        description="Replay archived turns from the initial state and confirm that state, events "
        "and rolls come out byte-identical.",
    )
    g = p.add_mutually_exclusive_group()
    g.add_argument("--turn", type=int, metavar="N", help="verify one turn (replaying the ones before it)")
    g.add_argument("--all", action="store_true", help="verify every archived turn (the default)")
    key_option(p)
    p.add_argument(
        "--identity",
        type=Path,
        metavar="PATH",
        help="a sealed campaign, without the campaign key: also check that your faction's orders, view and "
        "reports are the ones each turn committed to, with your age key file or SSH private key",
    )

    p = sub.add_parser(
        "view",
        parents=[root],
        help="decrypt your faction's view of a sealed campaign",
        description=f"Decrypt what your faction knows of a sealed campaign (its view of the state and its "
        f"reports) with your identity into {sealing.VIEW_DIR}/, which git ignores. campaign template and "
        "campaign check then work against that view.",
    )
    p.add_argument(
        "--identity",
        type=Path,
        metavar="PATH",
        help="your age key file or SSH private key (default: ~/.ssh/id_ed25519)",
    )

    p = sub.add_parser(
        "seal",
        parents=[root],
        help="check an order file and encrypt it for a sealed campaign",
        description="Check an order file against your view, then write FILE.age encrypted to the campaign's "
        "key and to your faction's own recipients. Commit only the .age file.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the order file, e.g. orders/red.yaml")
    key_option(p)

    p = sub.add_parser(
        "seal-campaign",
        parents=[root],
        help="seal an open campaign from the current turn on",
        description="Turn an open campaign into a sealed one: the turns already resolved stay public; the "
        "state, and every turn from now on, are sealed. Makes the campaign key (--key-file FILE writes it "
        "there, --show-key prints it once on a terminal), or, when the campaign has one already, takes "
        "it from --key-file.",
    )
    p.add_argument("--key-file", type=Path, metavar="FILE", help="where the key is written (or read from)")
    p.add_argument("--show-key", action="store_true", help="print the new key once (only on a terminal)")

    p = sub.add_parser(
        "add-key",
        parents=[root],
        help="give an open campaign made without a key its campaign key",
        description="Make the campaign key of an open campaign that has none, and put its public half in "
        "campaign/campaign.yaml: the campaign goes on as it is. From the next turn on, each turn's dice salt "
        "is committed as the turn opens, so nobody can foresee a roll. The turn being played now opened "
        "without such a commitment, and none can be made after the fact: its dice stay unsalted. Store the "
        f"key as the repository secret {sealing.KEY_VARIABLE}: every resolve needs it from now on.",
    )
    p.add_argument(
        "--key-file", type=Path, metavar="FILE", help="write the new key to FILE (outside campaign/)"
    )
    p.add_argument("--show-key", action="store_true", help="print the new key once (only on a terminal)")
    p.add_argument(
        "--beacon",
        choices=("quicknet", "test", "none"),
        default="none",
        help="the public randomness beacon whose round completes each turn's salt, so that not even the "
        "key's holder can foresee a roll (default: none; quicknet is drand's beacon)",
    )

    p = sub.add_parser(
        "unseal",
        parents=[root],
        help="publish the campaign key after the game",
        description=f"Write the campaign key into campaign/{sealing.PUBLISHED_KEY}, so that anyone can read "
        "every sealed file and run campaign verify --all. Do it only when the game is over.",
    )
    key_option(p)

    p = sub.add_parser(
        "rekey",
        parents=[root],
        help="seal a sealed campaign to a new key from the current turn on",
        description="For a campaign key that leaked or that the GM lost hold of: make a new key, write it to "
        "--new-key-file, and seal the campaign to it from the current turn on (the live state, the turn's "
        "dice commitment, and every later file). The earlier keys are kept sealed to the new one, so the new "
        f"key alone opens and verifies the whole archive. Store it as the secret {sealing.KEY_VARIABLE} in "
        "place of the old one.",
    )
    key_option(p)
    p.add_argument(
        "--new-key-file",
        type=Path,
        required=True,
        metavar="FILE",
        help="where to write the new key (outside campaign/)",
    )

    p = sub.add_parser(
        "reseal",
        parents=[root],
        help="seal a faction's view and reports again, to its current recipients",
        description="After the GM replaces a faction's recipients in campaign/players.yaml, seal the "
        "faction's newest view and its reports again, for the campaign key and the recipients listed now, "
        f"into campaign/{RESEALED_DIR}/<faction>/. The new player's campaign view finds them there; the "
        "turn archive is never changed, and the player who left can open none of the copies. Needs the "
        "campaign key.",
    )
    p.add_argument("--faction", required=True, metavar="ID", help="the faction whose files are resealed")
    p.add_argument(
        "--turns",
        metavar="LIST",
        help="the turns whose reports are resealed, e.g. 3,5-7 (default: every turn with a report)",
    )
    key_option(p)

    p = sub.add_parser(
        "keygen",
        help="make an age key for a sealed campaign",
        description="Make an age X25519 key: write the secret to FILE, readable by you alone (it never "
        "overwrites a file), and print the public key, the age1… line the GM puts in your faction's "
        "recipients in campaign/players.yaml. Keep FILE outside the campaign repository.",
    )
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="where to write the secret key")
    p.add_argument(
        "--show-key",
        action="store_true",
        help="print the secret key once instead of writing a file (only on a terminal, never into a log)",
    )

    p = sub.add_parser(
        "doctor",
        parents=[root],
        help="check a campaign's set-up and say what to fix",
        description="Check what can be checked locally, without network: every recipient in "
        "campaign/players.yaml, the committed ignore files of a sealed campaign, the key file's "
        "permissions, that the key is the campaign's and made its dice commitment, that "
        ".github/workflows holds the kit's workflows, and the notification settings (with "
        "CAMPAIGN_WEBHOOKS in the environment, that it names every webhook used). One line per check; "
        "exit 1 if any check finds a problem (warnings do not count).",
    )
    p.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help=f"the campaign key to check (default: the environment variable {sealing.KEY_VARIABLE})",
    )

    p = sub.add_parser(
        "template",
        parents=[root],
        help="write a faction's pre-filled orders file",
        description="Write the orders file for the current turn, pre-filled with the faction's "
        "units, places, action points and unfinished work as comments.",
    )
    p.add_argument("faction", help="the faction id")
    key_option(p)
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE instead of standard output"
    )

    p = sub.add_parser(
        "schema",
        parents=[root],
        help="write the JSON Schema of order files",
        description="Write the JSON Schema of this campaign's order files, for editors "
        "(yaml-language-server) and check-jsonschema.",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="where to write it (default: orders/orders.schema.json; '-' for standard output)",
    )

    p = sub.add_parser(
        "orders-from-issue",
        parents=[root],
        help="turn an Orders issue into a branch with the order file (CI)",
        epilog=ISSUE_EXAMPLES,
        formatter_class=ExamplesFormatter,
        description="Read the body of an issue made with the campaign's Orders issue form, and write "
        "its orders as orders/<faction>.yaml in one commit on the branch orders-from-issue-N, on top of "
        "the current commit and authored by the issue's author; the work tree is left as it is. Refuses "
        "orders for a faction the author does not play. The orders-from-issue workflow runs it, then "
        "checks the branch as any pull request (campaign check --pr).",
    )
    p.add_argument("--body", type=Path, metavar="FILE", required=True, help="the issue's body, as a file")
    p.add_argument("--issue", type=int, metavar="N", required=True, help="the issue's number")
    p.add_argument("--author", metavar="LOGIN", required=True, help="the issue author's GitHub login")
    p.add_argument(
        "--author-id", type=int, metavar="ID", help="the author's numeric GitHub account id (see check --pr)"
    )
    p.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="append branch=, faction= and commit= lines here (the workflow passes $GITHUB_OUTPUT)",
    )
    p.add_argument(
        "--comment", type=Path, metavar="FILE", help="on a refusal, write the issue's comment here"
    )

    p = sub.add_parser(
        "demo",
        parents=[root],
        help="watch bots play a campaign",
        description="Create a campaign in a scratch folder (default: .demo/RULESET, or --root), let "
        "bots write legal orders for every faction, resolve the turns and print what "
        "happened.",
    )
    p.add_argument("--ruleset", default="nations", choices=RULESETS, help="the game (default: nations)")
    p.add_argument(
        "--turns",
        type=int,
        help="turns to play (default: the ruleset's, 8; usurper's is 12: three months and a count of "
        "Victory Points; diplomacy plays two years, spring 1901 to winter 1902)",
    )
    p.add_argument("--seed", type=int, default=1, help="campaign seed (default: 1)")
    p.add_argument(
        "--factions", type=int, metavar="K", help="number of factions (default: 4; diplomacy: its 7 powers)"
    )
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument(
        "--sealed",
        action="store_true",
        help=f"a sealed campaign: its key is kept in the demo folder ({DEMO_KEY}), outside campaign/",
    )

    p = sub.add_parser(
        "site",
        parents=[root],
        help="build the campaign website",
        description="Write the site's generated pages into site/ (chronicle, newspaper, map, factions, "
        "rules, how to play) from the state and the replayed turn archive, then build them with MkDocs "
        "into public/. Hand-written pages in site/ (welcome.md, notes) are kept.",
    )
    p.add_argument(
        "--out", type=Path, metavar="DIR", help="where to build the site (default: public/ in the campaign)"
    )
    p.add_argument("--no-build", action="store_true", help="write the pages and settings, skip mkdocs build")
    add_player_commands(sub, root)
    notify_parsers(sub, root)
    return parser


def add_player_commands(sub: Any, root: argparse.ArgumentParser) -> None:
    """The GM's commands for the people behind the factions: absences and handovers."""
    p = sub.add_parser(
        "absence",
        parents=[root],
        help="list absences, or declare one for a faction (GM)",
        epilog=ABSENCE_EXAMPLES,
        formatter_class=ExamplesFormatter,
        description="Without FACTION: list every absence declared, by players in their order files "
        "(absence: {from: N, to: M}) and by the GM. With FACTION and --from/--to: the GM declares the "
        "faction away for those turns in campaign/absences.yaml (commit it); --cancel takes the GM's "
        "declaration back. A faction away misses no turn; campaign/campaign.yaml's 'absences' setting "
        "says what its forces do (hold, a stand-in bot, or a paused deadline when several are away).",
    )
    p.add_argument("faction", nargs="?", help="the faction concerned (leave out to list the absences)")
    p.add_argument("--from", dest="first", type=int, metavar="TURN", help="the first turn away")
    p.add_argument("--to", dest="last", type=int, metavar="TURN", help="the last turn away (included)")
    p.add_argument("--cancel", action="store_true", help="take back the GM's declaration for FACTION")

    p = sub.add_parser(
        "handover",
        parents=[root],
        help="give a faction to a new player (GM)",
        epilog=HANDOVER_EXAMPLES,
        formatter_class=ExamplesFormatter,
        description="Replace a faction's player in campaign/players.yaml from the current turn on: the new "
        "logins replace the old (and the old account ids are dropped), and the old player is recorded as "
        "having played the turns before, for the faction's page. In a sealed campaign, give the new "
        "player's public keys: they replace the faction's recipients, and the faction's newest view is "
        "sealed again to them (needs the campaign key). The old player's earlier reports stay closed to "
        "the new player unless you pass --reports. Commit campaign/ afterwards.",
    )
    p.add_argument("faction", help="the faction handed over")
    p.add_argument("--login", action="append", required=True, metavar="LOGIN", help="the new player's login")
    p.add_argument(
        "--id", action="append", type=int, default=[], metavar="ID", help="their GitHub account id"
    )
    p.add_argument(
        "--recipient",
        action="append",
        default=[],
        metavar="KEY",
        help="sealed campaigns: the new player's public key (the age1… line of campaign keygen)",
    )
    p.add_argument(
        "--reports",
        metavar="LIST",
        help="sealed campaigns: the earlier reports the new player may read, e.g. 3,5-7 or 'all' "
        "(default: none; they are the old player's private papers)",
    )
    key_option(p)


# The moment ``notify`` and ``remind`` judge by when --now is not given: a rehearsal runs the workflow
# file as written (no --now in it) and sets this through act's --env. Nothing in the kit sets it.
NOTIFY_NOW_VARIABLE = "CAMPAIGN_NOTIFY_NOW"


def notify_parsers(sub: Any, root: argparse.ArgumentParser) -> None:
    """``notify`` and ``remind``: turn news and reminders (resolver/notify; README "Notifications")."""
    said = (
        "Channels: an @mention on the turn's GitHub issue (with GITHUB_TOKEN and GITHUB_REPOSITORY, as in "
        "a workflow) and the webhooks named in campaign/players.yaml and campaign/campaign.yaml, whose URLs "
        "come from the CAMPAIGN_WEBHOOKS secret. What is sent is written in campaign/notifications.yaml, "
        "and never sent twice; commit that file. A failed delivery is reported and the command still "
        "exits 0."
    )
    for name, helps, description in (
        (
            "notify",
            "announce the turn being played",
            "Announce the current turn: open its GitHub tracking issue and tell the webhooks where to read "
            "the chronicle, the deadline (each reader's own time where the channel allows) and who owes "
            "orders. The resolve workflow runs it once a turn is pushed. ",
        ),
        (
            "remind",
            "remind the factions whose orders are not in",
            "Remind each faction whose order file is not in the checkout (the main branch, in the workflow) "
            "and that is not away by declaration (campaign absence), "
            "when a reminder's hour before the deadline has come (notifications.reminders in "
            "campaign/campaign.yaml: 24 and 3 by default), once per reminder hour, never in a player's "
            "quiet hours; between reminders, send what the announcement could not. A scheduled workflow "
            "runs it every hour. ",
        ),
    ):
        p = sub.add_parser(
            name,
            parents=[root],
            help=helps,
            description=description + said,
            epilog=notices_examples(name),
            formatter_class=ExamplesFormatter,
        )
        p.add_argument(
            "--now",
            metavar="WHEN",
            help="the moment to judge by, ISO 8601 (default: the environment variable "
            f"{NOTIFY_NOW_VARIABLE} when set, which is how the rehearsals of the workflows fix the time "
            "through act; else the clock)",
        )
        p.add_argument(
            "--dry-run", action="store_true", help="say what would be sent; send nothing, write nothing"
        )


# -- commands ------------------------------------------------------------------------------------------


def key_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key-file",
        type=Path,
        metavar="FILE",
        help=f"the campaign key (default: the environment variable {sealing.KEY_VARIABLE}, as CI holds it)",
    )


def make_key(args: argparse.Namespace) -> str | None:
    """A new campaign key for ``campaign new``, written to --key-file or printed once on a terminal:
    never into a log that CI keeps."""
    if not (args.key_file or args.show_key):
        if getattr(args, "sealed_by_default", False):
            raise CampaignError(
                f"a {get_ruleset(args.ruleset).title} campaign is sealed by default, and a sealed campaign "
                "needs its key kept somewhere",
                "pass --key-file FILE (outside campaign/) or --show-key, or --open for an open campaign",
                code=2,
            )
        if args.sealed:
            raise CampaignError(
                "a sealed campaign needs its key kept somewhere: pass --key-file FILE or --show-key", code=2
            )
        return None
    if args.key_file and args.show_key:
        raise CampaignError("--key-file and --show-key: choose one", code=2)
    if args.show_key and not sys.stdout.isatty():
        raise CampaignError(
            "--show-key prints the secret key only on a terminal, never into a log",
            "run it in a terminal, or pass --key-file FILE",
            code=2,
        )
    if args.key_file:
        return write_new_key(args.key_file, args.root)
    return sealing.new_key()[0]


def write_new_key(path: Path, root: Path | None) -> str:
    """A new campaign key, written to ``path`` (readable by its owner only, never inside campaign/)."""
    from .store.keys import write_key_file

    if path.resolve().is_relative_to((root or Path(".")).resolve() / "campaign"):
        raise CampaignError(f"{path} is inside campaign/, which is committed", "keep the key outside", code=2)
    secret, _ = write_key_file(path, "campaign key")
    return secret


def cmd_new(args: argparse.Namespace) -> int:
    args.root = args.root or Path(".")
    if args.players:
        factions, players = workflow.factions_from_players(args.players)
    else:
        factions, players = workflow.ruleset_factions(args.ruleset, args.factions, args.seed), None
    if workflow.Store(args.root).exists() and not args.force:
        workflow.new_campaign(args.root, args.ruleset, args.seed, factions)  # refuses, naming the campaign
    # A ruleset whose game kept its secrets (usurper's hidden lairs) makes a sealed campaign unless the GM
    # asks for an open one: its rules data says so (``sealed_by_default``).
    by_default = get_ruleset(args.ruleset).default_rules().get("sealed_by_default")
    args.sealed_by_default = bool(by_default) and not args.open and not args.sealed
    args.sealed = args.sealed or args.sealed_by_default
    key = make_key(args)
    if args.beacon not in (None, "none") and key is None:
        raise CampaignError(
            "a beacon completes the dice salt, which needs a campaign key", "add --key-file FILE", code=2
        )
    game = workflow.new_campaign(
        args.root, args.ruleset, args.seed, factions, name=args.name, players=players, force=args.force,
        key=key, sealed=args.sealed, beacon_name=args.beacon,
    )  # fmt: skip
    print(f"Created '{game.name}' ({game.ruleset.title}, seed {game.seed}) in {args.root.resolve()}")
    print(f"  {len(game.factions)} factions: {', '.join(f'{f} ({game.name_of(f)})' for f in game.factions)}")
    # A map of provinces is drawn on a canvas whose size says nothing of the game: count its places.
    world = game.world
    shape = (
        f"{len(world)} places"
        if world.kind == "province"
        else f"{world.kind} grid {world.width}×{world.height}"
    )
    print(f"  world: {shape}; turn 1 is {game.calendar.date(1).label}")
    if args.sealed_by_default:
        print(f"  sealed, as every {game.ruleset.title} campaign is unless made with --open")
    if args.sealed:
        print("  sealed: players run campaign view, then campaign seal orders/<faction>.yaml")
    else:
        print("  order templates: orders/templates/; schema: orders/orders.schema.json")
    if key is not None:
        public = sealing.public_of(key)
        print(f"  campaign key: public half {public} (in campaign/campaign.yaml)")
        if args.key_file:
            print(f"  the secret key is in {args.key_file}: store it as the repository secret "
                  f"{sealing.KEY_VARIABLE}, keep a copy offline, and never commit it")  # fmt: skip
        else:
            print(
                f"  store this secret key as the repository secret {sealing.KEY_VARIABLE}; it is shown once:"
            )
            print(f"  {key}")
    return 0


def format_file(of: OrderFile) -> list[str]:
    """The check's report of one file, for a terminal: player text is shown with its control
    characters escaped, so an order file cannot send escape sequences to the GM's terminal."""
    lines = [of.path, *("  " + line for line in of.echo_lines()), of.summary()]
    return [visible(line) for line in lines]


def file_json(of: OrderFile) -> dict[str, Any]:
    return {
        "file": of.path,
        "faction": of.faction,
        "turn": of.turn,
        "ok": of.ok,
        "summary": of.summary(),
        "orders": [
            {
                "number": o.number,
                "action": o.action,
                "args": dict(o.args),
                "understood": of.understood(o),
                "ok": not any(i.is_error and i.order == o.number for i in of.issues),
            }
            for o in of.written
        ],
        "errors": [i.to_data() for i in of.errors],
        "warnings": [i.to_data() for i in of.warnings],
    }


def cmd_check(args: argparse.Namespace) -> int:
    if args.pr:
        return check_pr(args)
    with cycles_paused():
        return check_files(args)


def check_files(args: argparse.Namespace) -> int:
    if args.base or args.head or args.author or args.author_id is not None or args.comment:
        raise CampaignError("--base, --head, --author, --author-id and --comment go with --pr", code=2)
    # The house rules first: orders cannot be checked against rules that do not hold together.
    # Through the store alone: the workflow's modules (resolver, bots, site) are not needed to check.
    store = Store(args.root)
    store.require()
    rules_issues = store.house_rule_issues()
    others = [path for path in args.files if not store.is_house_rule_file(path)]
    if any(issue.is_error for issue in rules_issues) or (args.files and not others):
        return print_house_rule_check(rules_issues, args.format)
    files = store.check_as_read_in_part(others or None)
    if args.format == "json":
        report = {"files": [file_json(f) for f in files], "ok": all(f.ok for f in files)}
        print(hide_secrets(json.dumps(report, indent=2)))
    elif not files:
        print(
            "No order files in orders/ (each faction writes orders/<faction>.yaml; templates are in "
            "orders/templates/)."
        )
    else:
        for of in files:
            print("\n".join(format_file(of)))
    return 0 if all(f.ok for f in files) else 1


def print_house_rule_check(issues: list[Issue], form: str) -> int:
    """The check's report of campaign/rules.yaml, as of an order file: each problem, then a summary."""
    errors = sum(issue.is_error for issue in issues)
    if form == "json":
        report = {
            "house_rules": {"file": RULES_FILE, "ok": not errors, "errors": [i.to_data() for i in issues]}
        }
        print(hide_secrets(json.dumps({**report, "files": [], "ok": not errors}, indent=2)))
    else:
        lines = [RULES_FILE, *("  " + line for issue in issues for line in issue.format().splitlines())]
        lines.append(
            f"{RULES_FILE}: {errors} error{'' if errors == 1 else 's'}; no turn resolves, and no order file "
            "is checked, until they are fixed"
            if errors
            else f"{RULES_FILE}: the house rules check clean"
        )
        print("\n".join(visible(line) for line in lines))
    return 1 if errors else 0


def check_pr(args: argparse.Namespace) -> int:
    from .git.prcheck import check_pull_request

    if args.files or not (args.base and args.head and args.author):
        raise CampaignError(
            "--pr needs --base REV, --head REV and --author LOGIN, and no file names",
            "for example: campaign check --pr --base origin/main --head HEAD --author alice",
            code=2,
        )
    report = check_pull_request(args.root, args.base, args.head, args.author, args.author_id)
    for line in report.annotations():
        print(visible(line))
    comment = report.markdown()
    if args.comment:
        args.comment.parent.mkdir(parents=True, exist_ok=True)
        args.comment.write_text(comment, encoding="utf-8")
        print(f"{'accepted' if report.ok else 'refused'}; the comment is in {args.comment}")
    else:
        print(visible(comment), end="")
    return 0 if report.ok else 1


def cmd_resolve_git(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from .git.flow import run_resolution
    from .store.schedule import parse_moment

    if args.posting_order:
        raise CampaignError(
            "--posting-order does not go with --if-due or --commit: git history gives the posting order",
            code=2,
        )
    now = datetime.now(UTC)
    if args.now:
        moment = parse_moment(args.now)
        if args.commit and moment > now:
            raise CampaignError(
                f"--now {args.now} is later than the clock ({now:%Y-%m-%d %H:%M} UTC)",
                "--now only asks whether a turn would be due at a moment already past; to resolve "
                "before the deadline, run campaign resolve --commit (add --force if it is refused)",
                code=2,
            )
        now = moment
    try:
        outcome = run_resolution(args.root, now, if_due=args.if_due, commit=args.commit, force=args.force)
    except resolution.Rejected as rejected:
        for of in rejected.files:
            if not of.ok:
                print("\n".join(format_file(of)), file=sys.stderr)
        raise
    for note in outcome.notes:
        print(visible(note))
    if outcome.resolved and outcome.game and outcome.result:
        game, result = outcome.game, outcome.result
        print_turn(game, result.turn, printed_events(args.root, result))
        warn_predictable(args.root, result.turn, result.seed.salt)
    print(visible(outcome.message))
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    if args.if_due or args.commit:
        return cmd_resolve_git(args)
    if args.now:
        raise CampaignError("--now goes with --if-due or --commit", code=2)
    order = [s.strip() for s in args.posting_order.split(",")] if args.posting_order else None
    store = Store(args.root)
    store.require()
    # The turn this run sets out to resolve, read before it waits for a lock: a run that held the lock
    # first may resolve it, and this one must then not go on to the next turn, which nobody ordered.
    archived = store.archived_turns()
    meant = (archived[-1] if archived else 0) + 1
    try:
        with _clone_lock(args.root) as locked:
            if not locked:
                print("Another resolution holds the lock on this clone; nothing done.")
                return 0
            game, result = resolution.resolve(
                args.root, posting_order=order, turn=meant, need_orders=not args.force
            )
    except resolution.FinishedInterrupted as finished:
        print(finished.message)
        return 0
    except resolution.TurnMovedOn as moved:
        print(f"{moved.message[0].upper()}{moved.message[1:]}. {moved.hint[0].upper()}{moved.hint[1:]}.")
        return 0
    except resolution.Rejected as rejected:
        for of in rejected.files:
            if not of.ok:
                print("\n".join(format_file(of)), file=sys.stderr)
        raise
    print_turn(game, result.turn, printed_events(args.root, result))
    warn_predictable(args.root, result.turn, result.seed.salt)
    print(
        f"Turn {result.turn} resolved; archived in campaign/turns/{result.turn:04d}/. "
        f"Next: turn {result.turn + 1}"
        f" ({game.date_in(result.state, result.turn + 1).label})."
    )
    return 0


def _clone_lock(root: Path) -> contextlib.AbstractContextManager[bool]:
    """The resolution lock of the clone whose top folder is ``root`` (``git.flow.clone_lock``). A folder
    that is no clone's top has no lock, and needs no git: GitPython takes a tenth of a second to import."""
    if not (root / ".git").exists():
        return contextlib.nullcontext(True)
    from .git.flow import clone_lock

    return clone_lock(root)


def warn_predictable(root: Path, turn: int, salt: str) -> None:
    """Say when a turn's dice had no secret salt, and what to do about it: a campaign without a key gets
    one with campaign add-key, which keeps the campaign; one whose key came during this turn is told that
    the next turn is salted."""
    if salt:
        return
    if Store(root).config().get("recipient"):
        print(
            f"note: turn {turn}'s dice had no secret salt: the campaign key was added while the turn was "
            f"open, and no salt can be committed after the fact; turn {turn + 1}'s salt is committed now, so "
            "its dice cannot be foreseen",
            file=sys.stderr,
        )
        return
    print(
        "warning: this campaign has no campaign key, so its dice are predictable: a player can compute "
        "their rolls before sending orders\n"
        "    fix: give it a key, keeping the campaign as it is: campaign add-key --key-file FILE (outside "
        f"the repository), then store the key as the secret {sealing.KEY_VARIABLE}",
        file=sys.stderr,
    )


def printed_events(root: Path, result: Any) -> list[dict[str, Any]]:
    """The events a resolution prints from (``print_turn`` shows the public ones). A sealed campaign's
    output is read by everyone (CI's log), so it is its public record and nothing else: the same
    events, in the same order, as public-events.yaml."""
    if Store(root).sealed:
        return public_record(result.events)
    return [e.to_data() for e in result.events]


def print_turn(game: Any, turn: int, events: list[dict[str, Any]], out: Any = None) -> list[TurnLine]:
    """The turn's log, one line a deed; returns the lines, whose events the demo's summary counts."""
    write = out or print
    write(f"== Turn {turn}: {game.calendar.date(turn).label} ==")
    lines = views.turn_lines(game, events)
    for line in lines:
        write(visible(f"  - {line.text}").replace("\n", "\\n"))
    return lines


def _bar(items: Iterable[Any], desc: str, total: int | None = None) -> Iterable[Any]:
    """A progress bar on standard error when it is a terminal; silent in CI and pipes."""
    from tqdm import tqdm  # imported here: `campaign check` shows no bar and starts faster

    return tqdm(items, desc=desc, total=total, unit="turn", file=sys.stderr, disable=None, leave=False)


def _bar_write(line: str) -> None:
    """Print a line above a running progress bar."""
    from tqdm import tqdm

    tqdm.write(line)


def cmd_verify(args: argparse.Namespace) -> int:
    turns = [args.turn] if args.turn is not None else None
    total = args.turn if args.turn is not None else len(Store(args.root).archived_turns())
    if args.identity is not None:
        checks = replay.verify_identity(args.root, args.identity, turns)
    else:
        checks = replay.verify(args.root, turns, progress=lambda xs: _bar(xs, "replaying", total))
    if not checks:
        print("No archived turns to verify yet.")
        return 0
    for c in checks:
        verdict = "MISMATCH" if not c.ok else ("identical, with GM edits" if c.notes else "identical")
        if c.partial:
            verdict = "MISMATCH" if not c.ok else "public parts match"
        if c.where:
            verdict = "MISMATCH" if not c.ok else ("edited by the GM" if c.notes else "matches the archive")
        if not c.replayed:
            verdict = "MISMATCH, not replayed" if not c.ok else "not replayed"
        print(f"{c.name}: {verdict}")
        for problem in c.problems:
            print(visible(f"  - {problem}"))
        for note in c.notes:
            print(visible(f"  - note: {note}"))
    turn_checks = [c for c in checks if not c.where]
    bad = [c for c in checks if not c.ok]
    if any(c.partial for c in turn_checks):
        print(
            f"{sum(c.ok for c in turn_checks)} of {len(turn_checks)} sealed turn(s) match "
            "in their public parts."
        )
    else:
        identical = sum(c.ok and c.replayed for c in turn_checks)
        print(f"{identical} of {len(turn_checks)} turn(s) replay byte-identically.")
    unreplayed = [c.turn for c in turn_checks if not c.replayed]
    if unreplayed:
        print(
            f"{len(unreplayed)} turn(s) after the first mismatch could not be replayed, since each starts "
            "from the state the turn before it left; what their archives say of themselves was checked. "
            "Once the first mismatch is dealt with (git log campaign/turns shows who changed what), verify "
            "again."
        )
    return 1 if bad else 0


def cmd_template(args: argparse.Namespace) -> int:
    store = Store(args.root)
    store.require()
    state = store.state()
    game = store.game(state)
    if args.faction not in (*game.factions, GM):
        raise CampaignError(
            f"unknown faction '{args.faction}'",
            f"factions: {', '.join(game.factions)}, or gm for the GM",
            code=2,
        )
    text = store.render_template(game, state, args.faction, args.output)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"Wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_orders_from_issue(args: argparse.Namespace) -> int:
    from .git.fromissue import make_branch, refusal_comment

    try:
        body = args.body.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else "it is not UTF-8 text"
        raise CampaignError(
            f"cannot read the issue's body from {args.body}: {why}",
            "write the body into that file first (the workflow does it from the event's issue.body)",
            code=2,
        ) from None
    try:
        made = make_branch(args.root, body, args.issue, args.author, args.author_id)
    except CampaignError as error:
        if args.comment:
            args.comment.parent.mkdir(parents=True, exist_ok=True)
            args.comment.write_text(refusal_comment(error, args.issue), encoding="utf-8")
        raise
    if args.output:
        with args.output.open("a", encoding="utf-8") as out:
            out.write(f"branch={made.branch}\nfaction={made.faction}\ncommit={made.commit}\n")
    print(f"Wrote orders/{made.faction}.yaml on the branch {made.branch} ({made.commit[:12]})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    store = Store(args.root)
    store.require()
    state = store.state()
    path = store.write_schema(store.game(state), state)
    if args.output and str(args.output) == "-":
        sys.stdout.write(path.read_text(encoding="utf-8"))
    elif args.output:
        args.output.write_bytes(path.read_bytes())
        print(f"Wrote {args.output}")
    else:
        print(f"Wrote {store.display(path)}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    root = args.root or workflow.demo_root(Path("."), args.ruleset)
    if args.turns is not None and args.turns < 1:
        raise CampaignError("--turns must be at least 1", code=2)
    ruleset = get_ruleset(args.ruleset)
    workflow.prepare_demo_folder(root)
    factions = workflow.ruleset_factions(args.ruleset, args.factions, args.seed)
    key, players = None, None
    if args.sealed:  # the demo's keys follow from its seed: a sealed demo plays the same game each time
        key = workflow.write_demo_key(root / DEMO_KEY, args.seed, "campaign")
        sealing.use_key_file(root / DEMO_KEY)
        players = workflow.demo_player_keys(root, [f.id for f in factions], args.seed)
    game = workflow.new_campaign(
        root, args.ruleset, args.seed, factions, name=f"Demo of {args.ruleset}", key=key, sealed=args.sealed,
        players=players, beacon_name="test" if args.sealed else None,
    )  # fmt: skip
    length = plural(args.turns, "turn") if args.turns is not None else ruleset.demo_length()
    print(f"Demo: {len(factions)} bot factions play {length} of {game.ruleset.title} (seed {args.seed}) "
          f"in {root}")  # fmt: skip
    kinds: dict[str, int] = {}  # the events the turns' lines told, of each kind: the summary counts no other
    played = 0
    for _ in _bar(itertools.count(), "resolving", args.turns):
        told = args.turns is not None
        if played == args.turns or (not told and ruleset.demo_over(game, Store(root).state(), played)):
            break
        game, result = workflow.play_bot_turn(root)
        played += 1
        events = printed_events(root, result)
        if args.quiet:
            lines = views.turn_lines(game, events)
        else:
            lines = print_turn(game, result.turn, events, _bar_write)
        for e in (told for line in lines for told in line.told):
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    store = Store(root)
    print("Standings:")
    for row in game.ruleset.standings(game, store.state()):
        # Column names read as the site's standings table shows them: "static_assets" is "static assets".
        numbers = ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in row.items() if k not in ("faction", "name", "status")
        )
        print(visible(f"  {row['name']} ({row['faction']}, {row['status']}): {numbers}"))
    # The most frequent first; ties in the order of their words.
    tallies = sorted(kinds.items(), key=lambda item: (-item[1], game.ruleset.tally(item[0], item[1])))
    print(f"In {plural(played, 'turn')}: " + ", ".join(game.ruleset.tally(k, n) for k, n in tallies) + ".")
    if args.sealed:
        print(f"The sealed campaign is in {root}, its key in {root / DEMO_KEY}; replay it with: "
              f"campaign verify --root {root} --key-file {root / DEMO_KEY}")  # fmt: skip
        keys = root / workflow.DEMO_PLAYER_KEYS
        first = factions[0].id  # a faction of this campaign: red, or a power in Diplomacy
        print(f"Each faction's player key is in {keys}/; read {first}'s view with: "
              f"campaign view --root {root} --identity {keys / f'{first}.txt'}")  # fmt: skip
    else:
        print(f"The campaign is in {root}; replay it with: campaign verify --root {root}")
    return 0


# The packages of the `site` extra (and what they bring): a player's install has none of them.
SITE_MODULES = ("folium", "branca", "mkdocs", "material", "xstatic")


def on_time_record_or_none(read: Any, root: Path) -> Any:
    """The factions' on-time record from git, or None where the campaign is no git repository (the site
    then leaves the record out rather than show everyone as never having sent orders)."""
    import git

    try:
        return read(root)
    except (git.GitError, ValueError):
        return None


def cmd_site(args: argparse.Namespace) -> int:
    total = len(Store(args.root).archived_turns())
    try:
        from .git.flow import opening_moments
        from .git.reliability import on_time_record
        from .publish.site import build_site

        report = build_site(
            args.root,
            args.out,
            run_mkdocs=not args.no_build,
            progress=lambda xs: _bar(xs, "replaying", total),
            opened_at=opening_moments(args.root),
            on_time=on_time_record_or_none(on_time_record, args.root),
        )
    except ModuleNotFoundError as missing:
        if (missing.name or "").partition(".")[0] not in SITE_MODULES:
            raise
        raise CampaignError(
            f"building the site needs the site tools, and {missing.name} is not installed",
            "install them with: pip install '.[site]' in the campaign repository (make install does it too)",
            code=2,
        ) from None
    took = ", ".join(f"{k} {v:.1f} s" for k, v in report.seconds.items())
    print(
        f"Wrote {report.pages} pages for {report.turns} resolved turn(s) into {report.docs_dir} "
        f"({report.changed} file(s) changed, {report.removed} removed); {took}."
    )
    if report.ignores:
        named = " and ".join(report.ignores)
        print(f"Added what the site build generates to {named}, so that git ignores it: commit {named}.")
    if report.out is not None:
        print(f"Built the site into {report.out}; to read it, serve that folder, for example:")
        print(f"  python3 -m http.server --bind 127.0.0.1 --directory {report.out} 8000")
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from .store.keys import write_view

    identity = args.identity or Path("~/.ssh/id_ed25519").expanduser()
    written = write_view(Store(args.root), identity)
    print(
        f"Your view as {written.faction} of turn {written.turn} is in {written.folder}/ (git ignores it): "
        f"state.yaml and {plural(written.reports, 'report')}. campaign template {written.faction} and "
        "campaign check now use it."
    )
    if written.unopened:
        total = written.reports + written.unopened
        were = "was" if written.unopened == 1 else "were"
        print(
            f"Opened {written.reports} of {plural(total, 'report')}; {written.unopened} {were} sealed before "
            f"your key was added: ask the GM to reseal them (campaign reseal --faction {written.faction})."
        )
    return 0


def cmd_reseal(args: argparse.Namespace) -> int:
    from .store.keys import reseal_faction

    turns = parse_turns(args.turns) if args.turns is not None else None
    done = reseal_faction(Store(args.root), args.faction, turns)
    reports = f"{plural(len(done.reports), 'report')} ({format_turns(done.reports)})" if done.reports else ""
    print(
        f"Resealed the view of turn {done.view + 1}" + (f" and {reports}" if reports else "")
        + f" of {done.faction} for its {plural(done.recipients, 'current recipient')} and the campaign key:"
    )  # fmt: skip
    for path in done.files:
        print(f"  {path}")
    print(f"Commit them (git add campaign/{RESEALED_DIR}); the new player then runs campaign view.")
    return 0


def cmd_absence(args: argparse.Namespace) -> int:
    from .store import absences

    store = Store(args.root)
    store.require()
    declaring = args.first is not None or args.last is not None
    if args.faction is None:
        if declaring or args.cancel:
            raise CampaignError(
                "name the faction concerned", "for example: campaign absence red --from 5 --to 6", code=2
            )
        listed = absences.declared(store)
        turn = int(store.public_state()["turn"])
        for entry in listed:
            who = "by the GM" if entry.by == "gm" else f"with the orders of turn {entry.turn}"
            now = " (away now)" if entry.absence.covers(turn) else ""
            print(f"{entry.faction}: {entry.absence.describe()}, declared {who}{now}")
        if not listed:
            print("No absence is declared.")
        return 0
    state = store.public_state()
    turn = int(state["turn"])
    if args.faction not in state["factions"]:
        known = ", ".join(sorted(state["factions"]))
        raise CampaignError(f"unknown faction '{args.faction}'", f"factions: {known}", code=2)
    example = f"campaign absence {args.faction} --from {turn + 1} --to {turn + 2}"
    if args.cancel:
        if declaring:
            raise CampaignError(
                "--cancel takes no --from or --to",
                f"to take the absence back: campaign absence {args.faction} --cancel; to change its turns, "
                f"declare it again: {example}",
                code=2,
            )
        ledger = f"campaign/{absences.LEDGER}"
        if absences.withdraw(store, args.faction):
            print(f"The GM's declaration for {args.faction} is taken back. Commit {ledger}.")
        else:
            print(f"The GM had declared no absence for {args.faction}; nothing changed.")
        # The player's own declaration is theirs: only their orders take it back.
        for entry in absences.player_declarations(store).values():
            if entry.faction == args.faction and entry.absence.last >= turn:
                print(
                    f"{args.faction}'s player declared {entry.absence.describe()} in their orders; that "
                    "stays until they send absence: {} with their orders."
                )
        return 0
    if args.first is None or args.last is None:
        raise CampaignError(
            "an absence needs --from and --to",
            f"for example: {example} (or --cancel to take the GM's declaration back)",
            code=2,
        )
    absence = absences.declare(store, args.faction, args.first, args.last)
    print(f"{args.faction} is away for {absence.describe()}. Commit campaign/{absences.LEDGER}.")
    return 0


def cmd_handover(args: argparse.Namespace) -> int:
    from .store.handover import hand_over

    reports: list[int] | None = []
    if args.reports is not None:
        reports = None if args.reports.strip().lower() == "all" else parse_turns(args.reports)
    done = hand_over(Store(args.root), args.faction, args.login, args.recipient, args.id, reports)
    print(f"{args.faction} is played by {', '.join(args.login)} from turn {done.turn} on.")
    if done.before is not None:
        print(f"Recorded in campaign/players.yaml: {done.before.describe()}.")
    if done.resealed is not None:
        earlier = done.resealed.reports
        handed = f"the reports of {format_turns(earlier)}" if earlier else "none of the earlier reports"
        print(f"Sealed again to the new keys: the view of turn {done.resealed.view + 1}, and {handed}.")
    for path in done.pending:
        print(f"Note: {path} is on the branch already, written by the previous player; delete it if the new "
              "player is to write this turn's orders.")  # fmt: skip
    print("Commit campaign/ (players.yaml" + (f", {RESEALED_DIR}/" if done.resealed else "") + ").")
    return 0


def parse_turns(text: str) -> list[int]:
    """Turn numbers written as a list of numbers and ranges: ``3,5-7``."""
    turns: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not (first.isdigit() and (not dash or last.isdigit())):
            raise CampaignError(
                f"--turns {text}: '{part.strip()}' is not a turn or a range of turns",
                "write turn numbers and ranges separated by commas, for example --turns 3,5-7",
                code=2,
            )
        turns += range(int(first), int(last or first) + 1)
    return turns


def format_turns(turns: list[int]) -> str:
    return "turn " + str(turns[0]) if len(turns) == 1 else "turns " + ", ".join(map(str, turns))


def cmd_keygen(args: argparse.Namespace) -> int:
    from .store.keys import write_key_file

    if args.output and args.show_key:
        raise CampaignError("-o FILE and --show-key: choose one", code=2)
    if not args.output and not args.show_key:
        raise CampaignError(
            "campaign keygen writes the secret key to a file and prints only the public key",
            "pass -o FILE (outside the campaign repository), or --show-key to print the secret once on a "
            "terminal",
            code=2,
        )
    if args.show_key:
        if not sys.stdout.isatty():
            raise CampaignError(
                "--show-key prints the secret key only on a terminal, never into a log or a pipe",
                "run it in a terminal, or pass -o FILE",
                code=2,
            )
        secret, public = sealing.new_key()
        print("Your secret key, shown once: save it in a file only you can read, and never commit it:")
        print(f"  {secret}")
    else:
        refuse_inside_a_campaign(args.output)
        _, public = write_key_file(args.output)
        print(f"Wrote your secret key to {args.output}, readable by you alone: never commit or share it.")
    print("Your public key, which is not secret: send it to the GM for your faction's recipients")
    print(f"  {public}")
    return 0


def refuse_inside_a_campaign(path: Path) -> None:
    """A key file inside a campaign repository is one `git add -A` away from being published."""
    try:
        campaign = find_root(path.expanduser().absolute().parent)
    except CampaignError:
        return
    raise CampaignError(
        f"{path} is inside the campaign repository {campaign}, where one git add -A would publish it",
        "write it outside the repository, for example -o ~/age-key.txt",
        code=2,
    )


def cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import examine

    findings = examine(Store(args.root), args.key_file)
    print(f"Checking the campaign in {args.root.resolve()}:")
    for finding in findings:
        print(visible(f"  {finding.status:<7}  {finding.check}: {finding.message}"))
        if finding.fix:
            print(visible(f"  {'':<7}    fix: {finding.fix}"))
    problems = sum(f.status == "problem" for f in findings)
    warnings = sum(f.status == "warning" for f in findings)
    if problems:
        print(f"{plural(problems, 'problem')} to fix, {plural(warnings, 'warning')}: see the fixes above.")
        return 1
    print("Every check passes" + (f" ({plural(warnings, 'warning')} to consider)." if warnings else "."))
    return 0


def cmd_rekey(args: argparse.Namespace) -> int:
    from .store.keys import rekey

    store = Store(args.root)
    store.require()
    turn, new_key = rekey(store, lambda: write_new_key(args.new_key_file, args.root))
    print(
        f"From turn {turn} on the campaign is sealed to the new key {sealing.public_of(new_key)}, written "
        f"to {args.new_key_file}. Replace the repository secret {sealing.KEY_VARIABLE} with it, commit "
        "campaign/ and push. Players' keys are unchanged; orders they sealed before the rekey still open."
    )
    return 0


def cmd_seal(args: argparse.Namespace) -> int:
    from .store.keys import seal_order_file

    store = Store(args.root)
    of, sealed = seal_order_file(store, args.file)
    print("\n".join(format_file(of)))  # what campaign check prints, and its exit status
    if sealed is None:
        before = store.orders_dir / f"{args.file.name}{sealing.SUFFIX}"
        kept = f"; {store.display(before)} still holds what you sealed before" if before.is_file() else ""
        refused = CampaignError(
            f"{store.display(args.file)} has errors, so nothing was sealed{kept}",
            f"fix them (the lines above say how), then run campaign seal {store.display(args.file)} again",
        )
        print(visible(refused.format()), file=sys.stderr)
        return 1
    print(f"Sealed into {sealed}: commit only that file (git add {sealed}).")
    return 0


def cmd_seal_campaign(args: argparse.Namespace) -> int:
    from .store.keys import seal_campaign

    if args.key_file is not None and args.key_file.is_file():
        sealing.use_key_file(args.key_file)
    args.sealed = True
    made = seal_campaign(Store(args.root), lambda: make_key(args))
    print("The campaign is sealed from this turn on; players read their position with campaign view.")
    if made is not None:  # the same as campaign add-key: no salt can be committed for a turn already open
        print(
            "This turn's dice stay unsalted: it opened before the key existed. Its resolution commits the "
            "next turn's salt."
        )
    if made is not None and args.show_key:
        print(f"Store this secret key as the repository secret {sealing.KEY_VARIABLE}; it is shown once:")
        print(f"  {made}")
    elif made is not None:
        print(f"The new key is in {args.key_file}: store it as the repository secret {sealing.KEY_VARIABLE}.")
    return 0


def cmd_add_key(args: argparse.Namespace) -> int:
    from .store.keys import add_key

    args.sealed = False
    added = add_key(Store(args.root), lambda: make_key(args), args.beacon)
    public = sealing.public_of(added.key)
    print(f"Added the campaign key: its public half {public} is in campaign/campaign.yaml.")
    if args.show_key:
        print(f"Store this secret key as the repository secret {sealing.KEY_VARIABLE}; it is shown once:")
        print(f"  {added.key}")
    else:
        print(
            f"The secret key is in {args.key_file}: store it as the repository secret {sealing.KEY_VARIABLE} "
            "(Settings → Secrets and variables → Actions), keep a copy offline, and never commit it."
        )
    print(
        f"Turn {added.turn} keeps unsalted dice: it opened before the key existed, and a salt chosen now "
        f"could be chosen for its rolls. Resolving it commits turn {added.turn + 1}'s salt as that turn "
        "opens; from then on nobody can foresee a roll."
    )
    print(
        "Next: commit and push campaign/campaign.yaml (git add campaign/campaign.yaml && git commit -m "
        "'Add the campaign key' && git push). Every resolve needs the key from now on: CI reads the secret, "
        "local commands take --key-file."
    )
    return 0


def cmd_unseal(args: argparse.Namespace) -> int:
    from .store.keys import publish_key

    path = publish_key(Store(args.root))
    print(f"Published the campaign key in {path}: commit it, and anyone can run campaign verify --all.")
    return 0


def cmd_notify(args: argparse.Namespace) -> int:
    """``campaign notify`` and ``campaign remind``: the clock is read here, the turn's opening from git."""
    from datetime import UTC, datetime

    from .git.flow import open_repo, turn_opened_at
    from .notify.run import run
    from .store.schedule import parse_moment

    told = os.environ.get(NOTIFY_NOW_VARIABLE, "")
    if args.now or not told:
        now = parse_moment(args.now) if args.now else datetime.now(UTC)
    else:
        try:
            now = parse_moment(told)
        except CampaignError as error:
            raise CampaignError(
                f"{NOTIFY_NOW_VARIABLE}: {error.message}", f"{error.hint}, or unset it to use the clock", 2
            ) from None
    turn = int(Store(args.root).public_state()["turn"])
    opened_at = turn_opened_at(open_repo(args.root), turn)
    report = run(args.root, now, opened_at, remind=args.command == "remind", dry_run=args.dry_run)
    for line in report.lines:
        print(visible(line))
    print(
        f"{plural(report.sent, 'message')} sent, {report.failed} failed, {report.held} held for quiet hours"
        + (" (dry run: nothing was sent or written)" if args.dry_run else "")
        + "."
    )
    return 0


COMMANDS = {
    "new": cmd_new,
    "check": cmd_check,
    "absence": cmd_absence,
    "handover": cmd_handover,
    "resolve": cmd_resolve,
    "verify": cmd_verify,
    "template": cmd_template,
    "schema": cmd_schema,
    "orders-from-issue": cmd_orders_from_issue,
    "demo": cmd_demo,
    "site": cmd_site,
    "view": cmd_view,
    "seal": cmd_seal,
    "seal-campaign": cmd_seal_campaign,
    "add-key": cmd_add_key,
    "unseal": cmd_unseal,
    "rekey": cmd_rekey,
    "reseal": cmd_reseal,
    "keygen": cmd_keygen,
    "doctor": cmd_doctor,
    "notify": cmd_notify,
    "remind": cmd_notify,
}


def named_command(argv: Sequence[str]) -> str | None:
    """The command a command line names, when nothing before it asks for the whole parser (``--help``,
    ``--version``): its parser alone then parses the line."""
    for word in argv:
        if word != "--debug":
            return word if word in COMMANDS else None
    return None


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = build_parser(named_command([str(word) for word in (sys.argv[1:] if argv is None else argv)]))
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Name the unknown word where it was given: after the command, that command's options count.
        command = parser if args.command is None else parser.commands()[args.command]
        command.unknown(unknown)
    if args.command is None:
        parser.error(f"a command is needed: one of {', '.join(COMMANDS)} (campaign --help explains them)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    sealing.forget_key()  # a key given to an earlier call in this process is not this call's
    with sealing.key_kept_from_children():  # no git process this command starts sees the key
        return run_command(args)


def run_command(args: argparse.Namespace) -> int:
    try:
        if args.command not in (*MAKERS, *CAMPAIGNLESS) and args.root is None:
            args.root = find_root(Path.cwd())
        if getattr(args, "key_file", None) is not None and args.command not in OWN_KEY_FILE:
            sealing.use_key_file(args.key_file)
        status = COMMANDS[args.command](args)
        sys.stdout.flush()  # inside the try: a reader that went away is noticed here, not at exit
        return status
    except BrokenPipeError:
        # The reader closed the pipe (`campaign resolve | head`): nobody is left to tell, so stop quietly.
        # Python's documented way: point standard output at devnull so the flush at exit cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except CampaignError as error:
        print(visible(error.format()), file=sys.stderr)
        return error.code
    except Exception as error:
        problem = environment_error(error)
        if problem is None:
            return internal_error(args, error)
        print(visible(problem.format()), file=sys.stderr)
        return problem.code
    except KeyboardInterrupt:
        print("interrupted; nothing was written by the step in progress", file=sys.stderr)
        return 130


def internal_error(args: argparse.Namespace, error: Exception) -> int:
    """The last line of defence: no traceback reaches a player."""
    if args.debug or os.environ.get("CAMPAIGN_DEBUG"):
        import traceback

        traceback.print_exc()
    said = yaml_error_text(error) if isinstance(error, yaml.YAMLError) else str(error)
    print(
        f"internal error: {type(error).__name__}: {visible(said)}\n"
        "    This is a bug in the engine, not in your orders. Run again with --debug and report it.",
        file=sys.stderr,
    )
    return 3


if __name__ == "__main__":
    raise SystemExit(main())
