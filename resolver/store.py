"""The campaign on disk: ``campaign/`` and ``orders/`` in a repository folder.

This is the only module that reads or writes campaign files. Everything it writes
is canonical YAML through atomic renames; a resolve that fails writes nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from . import __version__
from .core import canonical
from .core.issues import CampaignError
from .core.orders import OrderFile, order_file_schema
from .core.phases import State
from .core.world import World
from .engine import TurnResult
from .gm import actions as gm_actions
from .ruleset import Game, get_ruleset, merge_rules
from .validate import check_order_file, refuse_twin_files

ENGINE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SCHEMA_FILE = "orders.schema.json"


_WORLDS: dict[tuple[str, int, int], World] = {}  # the last world read, by path, mtime and size


def turn_dir_name(turn: int) -> str:
    return f"{turn:04d}"


@dataclass
class Store:
    root: Path

    @property
    def campaign_dir(self) -> Path:
        return self.root / "campaign"

    @property
    def orders_dir(self) -> Path:
        return self.root / "orders"

    @property
    def turns_dir(self) -> Path:
        return self.campaign_dir / "turns"

    def exists(self) -> bool:
        return (self.campaign_dir / "campaign.yaml").exists()

    def require(self) -> None:
        if not self.exists():
            raise CampaignError(
                f"no campaign in {self.root.resolve()} (campaign/campaign.yaml is missing)",
                "run this inside a campaign repository, pass --root DIR, or create one with: campaign new",
                code=2,
            )

    # -- reading ------------------------------------------------------------------------------------

    def config(self) -> dict[str, Any]:
        self.require()
        return canonical.read_yaml(self.campaign_dir / "campaign.yaml")

    def players(self) -> dict[str, Any]:
        path = self.campaign_dir / "players.yaml"
        return canonical.read_yaml(path) if path.exists() else {"factions": {}, "gm": {"logins": []}}

    def house_rules(self) -> dict[str, Any]:
        path = self.campaign_dir / "rules.yaml"
        data = canonical.read_yaml(path) if path.exists() else None
        return data or {}

    def world(self) -> World:
        # Replaying an archive asks for the world once per turn; parsing it dominated a long replay.
        # Worlds are immutable, so one parsed copy is shared until the file changes.
        path = self.campaign_dir / "world.yaml"
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key not in _WORLDS:
            _WORLDS.clear()
            _WORLDS[key] = World.from_data(canonical.read_yaml(path))
        return _WORLDS[key]

    def state(self) -> State:
        return canonical.read_yaml(self.campaign_dir / "state.yaml")

    def game(self, state: State | None = None, house_rules: dict[str, Any] | None = None) -> Game:
        config = self.config()
        ruleset = get_ruleset(config["ruleset"])
        house = self.house_rules() if house_rules is None else house_rules
        players = self.players().get("factions", {})
        state_factions = (state or self.state())["factions"]
        return Game(
            campaign=config["campaign"],
            name=config.get("name", config["campaign"]),
            seed=int(config["seed"]),
            ruleset=ruleset,
            rules=merge_rules(ruleset.default_rules(), house),
            house_rules=house,
            world=self.world(),
            factions=tuple(state_factions),
            faction_names={
                f: (players.get(f) or {}).get("name") or d.get("name", f) for f, d in state_factions.items()
            },
        )

    def order_paths(self) -> list[Path]:
        if not self.orders_dir.exists():
            return []
        return sorted(
            p for p in self.orders_dir.glob("*.y*ml") if p.is_file() and p.suffix in (".yaml", ".yml")
        )

    def display(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def check(self, game: Game, state: State, paths: Iterable[Path] | None = None) -> list[OrderFile]:
        files = []
        for path in self.order_paths() if paths is None else paths:
            if not path.is_file():
                raise CampaignError(f"no such order file: {path}", "check the path", code=2)
            files.append(check_order_file(game, state, path.read_bytes(), self.display(path)))
        refuse_twin_files(files)
        return files

    # -- writing ------------------------------------------------------------------------------------

    def templates(self) -> jinja2.Environment:
        search = [str(p) for p in (self.root / "templates", ENGINE_TEMPLATES) if p.is_dir()]
        return jinja2.Environment(
            loader=jinja2.FileSystemLoader(search),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            autoescape=False,  # Markdown and YAML for players; HTML pages escape in their own templates
        )

    def write_schema(self, game: Game) -> Path:
        import json

        schema = order_file_schema(
            game.ruleset.title, game.campaign, game.factions, game.actions, gm_actions(game)
        )
        path = self.orders_dir / SCHEMA_FILE
        canonical.write_atomic(path, (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode())
        return path

    def render_template(self, game: Game, state: State, faction: str) -> str:
        from .views import order_template_context

        return (
            self.templates()
            .get_template("orders.yaml.j2")
            .render(order_template_context(game, state, faction))
        )

    def write_templates(self, game: Game, state: State) -> None:
        folder = self.orders_dir / "templates"
        for faction in game.factions:
            if state["factions"][faction].get("status", "active") == "active":
                canonical.write_atomic(
                    folder / f"{faction}.yaml", self.render_template(game, state, faction).encode()
                )
            elif (folder / f"{faction}.yaml").exists():
                (folder / f"{faction}.yaml").unlink()

    def write_player_aids(self, game: Game, state: State) -> None:
        """The schema and the templates, from the effective rules (the ruleset's with the house rules),
        so a house rule reaches players' editors and templates with the next turn."""
        self.write_schema(game)
        self.write_templates(game, state)

    def archive(
        self, game: Game, state_before: State, result: TurnResult, files: dict[str, OrderFile]
    ) -> Path:
        """Write the turn's archive, then the new state, then clear the orders. Nothing is half-written:
        the archive is assembled in a temporary folder and renamed into place."""
        from .views import render_reports

        final = self.turns_dir / turn_dir_name(result.turn)
        if final.exists():
            raise CampaignError(
                f"turn {result.turn} is already archived in {self.display(final)}",
                "the campaign state and its archive disagree; restore campaign/ from git",
            )
        tmp = self.turns_dir / f".{turn_dir_name(result.turn)}.partial"
        if tmp.exists():
            shutil.rmtree(tmp)
        before_raw = canonical.dump(state_before)
        previous = self.result_digest(result.turn - 1)
        for faction, of in files.items():
            canonical.write_atomic(tmp / "orders" / f"{faction}.yaml", of.raw)
        for faction, of in result.stand_ins.items():  # civil disorder: what the bot ordered, for readers
            canonical.write_atomic(tmp / "bot-orders" / f"{faction}.yaml", of.raw)
        if previous is not None and previous != canonical.digest(before_raw):
            canonical.write_atomic(tmp / "state-before.yaml", before_raw)  # the GM edited state between turns
        canonical.write_yaml(
            tmp / "inputs.yaml",
            {
                "turn": result.turn,
                "engine": __version__,
                "ruleset": game.ruleset.id,
                "campaign_seed": game.seed,
                "turn_seed": result.seed.hex,
                "order_digests": dict(result.seed.digests),
                "posting_order": result.posting_order,
                "missing": result.missing,
                "absent_players": result.absent.to_data(),
                "house_rules": game.house_rules,
                "world_digest": canonical.data_digest(game.world.to_data()),
                "state_before_digest": canonical.digest(before_raw),
            },
        )
        events_raw = canonical.write_yaml(tmp / "events.yaml", result.events_data())
        state_raw = canonical.dump(result.state)
        for faction, text in render_reports(self, game, result).items():
            canonical.write_atomic(tmp / "reports" / f"{faction}.md", text.encode())
        canonical.write_yaml(
            tmp / "digest.yaml",
            {
                "state": canonical.digest(state_raw),
                "events": canonical.digest(events_raw),
            },
        )
        tmp.rename(final)
        canonical.write_atomic(self.campaign_dir / "state.yaml", state_raw)
        for faction in files:
            path = self.orders_dir / f"{faction}.yaml"
            if path.exists():
                path.unlink()
        self.write_player_aids(game, result.state)
        return final

    # -- the archive ----------------------------------------------------------------------------------

    def archived_turns(self) -> list[int]:
        if not self.turns_dir.exists():
            return []
        return sorted(
            int(p.name)
            for p in self.turns_dir.iterdir()
            if p.is_dir() and p.name.isdigit() and int(p.name) > 0
        )

    def result_digest(self, turn: int) -> str | None:
        if turn == 0:
            path = self.turns_dir / turn_dir_name(0) / "state.yaml"
            return canonical.digest(path.read_bytes()) if path.exists() else None
        path = self.turns_dir / turn_dir_name(turn) / "digest.yaml"
        return canonical.read_yaml(path)["state"] if path.exists() else None

    def create(
        self,
        config: dict[str, Any],
        players: dict[str, Any],
        world: World,
        state: State,
        house_rules_text: str,
    ) -> None:
        canonical.write_yaml(self.campaign_dir / "campaign.yaml", config)
        canonical.write_yaml(self.campaign_dir / "players.yaml", players)
        canonical.write_atomic(self.campaign_dir / "rules.yaml", house_rules_text.encode())
        canonical.write_yaml(self.campaign_dir / "world.yaml", world.to_data())
        canonical.write_yaml(self.turns_dir / turn_dir_name(0) / "state.yaml", state)
        canonical.write_yaml(self.campaign_dir / "state.yaml", state)
        self.orders_dir.mkdir(parents=True, exist_ok=True)

    def reset(self) -> None:
        """Remove a campaign's files (``campaign new --force``); hand-written files elsewhere stay."""
        for name in ("campaign.yaml", "players.yaml", "rules.yaml", "world.yaml", "state.yaml"):
            (self.campaign_dir / name).unlink(missing_ok=True)
        if self.turns_dir.exists():
            shutil.rmtree(self.turns_dir)
        for path in self.order_paths():
            path.unlink()
        if (self.orders_dir / "templates").exists():
            shutil.rmtree(self.orders_dir / "templates")
