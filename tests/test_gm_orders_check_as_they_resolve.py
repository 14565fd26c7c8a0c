"""GM orders are checked as strictly as players': what ``campaign check`` accepts, ``campaign resolve``
carries out, in every ruleset, open or sealed.

The GM phase carries out the file's orders one after the other, so each is checked against what the
orders above it leave; a placed piece is checked field by field, since the state stores it as written.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.store.store import Store

from .conftest import tree_bytes
from .gm_orders import new, write_gm


def a_piece(ruleset: str, state: dict) -> tuple[str, str, dict]:
    """The first piece of the ruleset's first kind that the GM places and removes: kind, id, record."""
    kind, collection = next(iter(get_ruleset(ruleset).entity_kinds.items()))
    piece_id = sorted(state[collection])[0]
    return kind, piece_id, state[collection][piece_id]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_modifier_on_a_piece_removed_above_it_is_refused_then_fixed(
    run, tmp_path: Path, ruleset: str
) -> None:
    root = new(run, tmp_path / "c", ruleset)
    kind, piece, _ = a_piece(ruleset, Store(root).state())
    remove = {"action": "remove", "kind": kind, "id": piece}
    modifier = {"action": "modifier", "target": piece, "name": "defence", "value": 1}
    gm_file = write_gm(root, [remove, modifier])
    before = tree_bytes(root)

    code, out, err = run("check", "--root", root, gm_file)
    assert code == 1, err
    assert f"orders/gm.yaml:9:11: error: order 1 removes '{piece}' before this one" in out
    code, _, err = run("resolve", "--root", root)
    assert code == 1 and "internal error" not in err
    assert tree_bytes(root) == before

    write_gm(root, [modifier, remove])  # the GM's fix: the modifier first (or none at all)
    code, out, err = run("check", "--root", root, gm_file)
    assert code == 0, out + err
    code, _, err = run("resolve", "--root", root)
    assert code == 0, err
    assert piece not in Store(root).state()[get_ruleset(ruleset).entity_kinds[kind]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_piece_removed_twice_or_placed_twice_is_refused(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path / "c", ruleset)
    kind, piece, _ = a_piece(ruleset, Store(root).state())
    gm_file = write_gm(root, [{"action": "remove", "kind": kind, "id": piece} for _ in range(2)])
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 1 and f"order 1 removes {kind} '{piece}' already" in out

    code, template, _ = run("template", "gm", "--root", root)
    place = next(
        o for o in yaml.safe_load(gm_template_as_written(template))["orders"] if o["action"] == "place"
    )
    gm_file = write_gm(root, [place, copy.deepcopy(place)])
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 1 and f"order 1 places a {place['kind']} '{place['id']}' already" in out


def bad_placements(kind: str, record: dict, other: dict) -> dict[str, dict]:
    """Data a GM might send for a new piece that the state could not play with, from a real record's
    shape: nothing, no such owner, no such place, and for each list (an army's units) text, an empty list
    and another piece's list, ids and all."""
    shaped = {key: value for key, value in record.items() if key != "id"}
    bad: dict[str, dict] = {"nothing": {}}
    if "owner" in shaped:
        bad["no such owner"] = {**shaped, "owner": "nobody"}
    if "location" in shaped:
        bad["no such place"] = {**shaped, "location": "nowhere"}
    for key, value in shaped.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            bad[f"{key} as text"] = {**shaped, key: "many"}
            bad[f"no {key}"] = {**shaped, key: []}
            bad[f"{key} of another piece"] = {**shaped, key: copy.deepcopy(other[key])}
    return bad


@pytest.mark.parametrize("ruleset", RULESETS)
def test_placed_data_the_state_could_not_play_with_is_refused(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path / "c", ruleset)
    state = Store(root).state()
    kind, piece, record = a_piece(ruleset, state)
    collection = get_ruleset(ruleset).entity_kinds[kind]
    other = state[collection][sorted(state[collection])[1]]
    for what, data in bad_placements(kind, record, other).items():
        gm_file = write_gm(root, [{"action": "place", "kind": kind, "id": "gm-new", "data": data}])
        code, out, err = run("check", "--root", root, gm_file)
        assert code == 1, f"{what}: {out}{err}"
        assert "orders/gm.yaml:" in out and "error:" in out, what
        code, _, err = run("resolve", "--root", root)
        assert code == 1 and "internal error" not in err, what
        assert piece in Store(root).state()[collection]


def gm_template_as_written(template: str) -> str:
    """The GM's template with its example taken as it stands: the commented orders become the orders."""
    lines, out, in_example = template.splitlines(), [], False
    for line in lines:
        if line == "orders: []":
            continue
        if line == "# Example:":
            in_example = True
            continue
        if in_example and line == "# orders:":
            out.append("orders:")
            continue
        if in_example and line.startswith("#   "):
            out.append(line[2:])
            continue
        in_example = False
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_gm_templates_example_checks_clean_and_resolves(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path / "c", ruleset)
    code, template, err = run("template", "gm", "--root", root)
    assert code == 0, err
    assert "# Open to a ruling (judge: faction, then subject):" in template
    gm_file = root / "orders/gm.yaml"
    gm_file.write_text(gm_template_as_written(template))
    judged = any(o["action"] == "judge" for o in yaml.safe_load(gm_file.read_text())["orders"])
    assert judged != ("nothing awaits a ruling this turn" in template)  # an example only of what awaits one
    code, out, err = run("check", "--root", root, gm_file)
    assert code == 0, out + err
    code, out, err = run("resolve", "--root", root)
    assert code == 0, out + err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sealed_gm_template_seals_and_resolves(run, tmp_path: Path, ruleset: str) -> None:
    key = tmp_path / "campaign.key"
    root = new(run, tmp_path / "c", ruleset, "--sealed", "--beacon", "test", "--key-file", key)
    code, _, err = run("template", "gm", "--root", root)
    assert code != 0 and "--key-file" in err  # the GM's template shows the whole state: it needs the key
    gm_file = root / "orders/gm.yaml"
    code, _, err = run("template", "gm", "--root", root, "--key-file", key, "-o", gm_file)
    assert code == 0, err
    gm_file.write_text(gm_template_as_written(gm_file.read_text()))
    code, out, err = run("seal", "--root", root, "--key-file", key, gm_file)
    assert code == 0, out + err
    assert (root / "orders/gm.yaml.age").is_file()
    gm_file.unlink()  # the plain draft never leaves the GM's machine
    code, out, err = run("resolve", "--root", root, "--key-file", key)
    assert code == 0, out + err


def readme_sealed_gm_steps() -> list[list[str]]:
    """The campaign commands of the README's block on the GM's orders in a sealed campaign, as words."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("**The GM's orders in a sealed campaign**") :]
    block = part[part.index("```sh") + 5 : part.index("```", part.index("```sh") + 5)]
    lines = [line.split("#", 1)[0].split() for line in block.strip().splitlines()]
    return [words[1:] for words in lines if words and words[0] == "campaign"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_readmes_sealed_gm_steps_work_as_written(run, tmp_path: Path, ruleset: str) -> None:
    key = tmp_path / "campaign-key.txt"
    root = new(run, tmp_path / "c", ruleset, "--sealed", "--beacon", "test", "--key-file", key)
    steps = readme_sealed_gm_steps()
    assert [step[0] for step in steps] == ["template", "check", "seal"]
    for step in steps:
        words = [str(key) if word == "../campaign-key.txt" else word for word in step]
        words = [str(root / word) if word.startswith("orders/") else word for word in words]
        code, out, err = run(*words, "--root", root)
        assert code == 0, f"{step}: {out}{err}"
        if step[0] == "template":  # the GM's edit: the template's example, as it stands
            gm_file = root / "orders/gm.yaml"
            assert "Open to a ruling" in gm_file.read_text()
            gm_file.write_text(gm_template_as_written(gm_file.read_text()))
    assert (root / "orders/gm.yaml.age").is_file()
    (root / "orders/gm.yaml").unlink()
    code, out, err = run("resolve", "--root", root, "--key-file", key)
    assert code == 0, out + err
