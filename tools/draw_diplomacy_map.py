"""Draws the standard Diplomacy map into resolver/rulesets/diplomacy/rules/geometry.yaml.

The drawing's input is ``tools/diplomacy_seeds.yaml``: for each province a few points laid out as on the
board (x east, y north, on a 100 x 84 sheet). Every cell of a fine grid goes to the province whose
nearest point is closest; the cells of each province are traced into one outline, and the borders are
smoothed the same way on both sides, so neighbours still share them exactly. The label point is the
cell deepest inside the province; a split coast's point is the deep cell nearest the seas it reaches.

Run: ``.venv/bin/python tools/draw_diplomacy_map.py`` (it prints every border the drawing gets wrong
against rules/map.yaml and writes nothing while one is wrong, unless given ``--force``).
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tools" / "diplomacy_seeds.yaml"
OUT = ROOT / "resolver" / "rulesets" / "diplomacy" / "rules" / "geometry.yaml"
sys.path.insert(0, str(ROOT))

from resolver.rulesets.diplomacy.board import standard_board  # noqa: E402

HEADER = """\
# The standard Diplomacy map drawn for the site (Europe, 1901), on a sheet 100 wide and 84 high:
# x grows east, y grows north. Drawn by this project (tools/draw_diplomacy_map.py from
# tools/diplomacy_seeds.yaml), schematic but with the board's borders: two provinces share a border
# in the drawing exactly when a unit can cross between them (rules/map.yaml), and Switzerland is left
# blank. Do not edit by hand: change the seeds and run the tool again.
#   outline  the province's polygon, counter-clockwise, first point not repeated
#   label    where its name is written (inside it)
#   coasts   for a province of two coasts, where a fleet on each coast is drawn (inside it)
"""


def main(force: bool) -> int:
    text, problems = draw()
    for problem in problems:
        print(problem)
    if problems and not force:
        return 1
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


def draw() -> tuple[str, list[str]]:
    """The drawing as the text of geometry.yaml, and every border it gets wrong against the board."""
    data = yaml.safe_load(SEEDS.read_text())
    step = float(data["cell"])
    width, height = int(data["width"] / step), int(data["height"] / step)
    seeds = []  # (x, y, weight, province)
    for province, points in data["seeds"].items():
        for point in points:
            x, y, *rest = point
            seeds.append((x / step, y / step, (rest[0] if rest else 0.0) / step, province))
    owner = [[None] * width for _ in range(height)]
    for row in range(height):
        for col in range(width):
            cx, cy = col + 0.5, row + 0.5
            best = min(seeds, key=lambda s: (((cx - s[0]) ** 2 + (cy - s[1]) ** 2) ** 0.5 - s[2], s[3]))
            owner[row][col] = best[3]
    _drop_fragments(owner, width, height)
    board = standard_board()
    problems = _check(owner, width, height, board)
    provinces = {}
    vertices = _smoothed_vertices(owner, width, height)
    for province in board.provinces:
        loop = _outline(owner, width, height, province)
        depth = _depths(owner, width, height, province)
        label = _deepest(depth, province, data.get("labels", {}).get(province), step)
        entry = {
            "outline": [
                [round(vertices[v][0] * step, 2), round(vertices[v][1] * step, 2)]
                for v in loop
                if vertices[v] is not None
            ],
            "label": [round((label[0] + 0.5) * step, 2), round((label[1] + 0.5) * step, 2)],
        }
        coasts = board.coasts(province)
        if coasts:
            entry["coasts"] = {}
            for coast in coasts:
                point = _coast_point(owner, width, height, board, province, coast, depth)
                entry["coasts"][coast.split("/")[1]] = [
                    round((point[0] + 0.5) * step, 2),
                    round((point[1] + 0.5) * step, 2),
                ]
        provinces[province] = entry
    out = {"sheet": {"width": data["width"], "height": data["height"]}, "provinces": provinces}
    text = yaml.safe_dump(out, sort_keys=False, default_flow_style=None, width=100000)
    return HEADER + text, problems


def _around(col: int, row: int):
    yield col + 1, row
    yield col, row + 1
    yield col - 1, row
    yield col, row - 1


def _drop_fragments(owner, width, height) -> None:
    """Each province keeps its largest edge-connected piece; the cells of smaller pieces go to the
    neighbour that surrounds them most, until nothing changes."""
    changed = True
    while changed:
        changed = False
        seen = set()
        pieces = {}
        for row in range(height):
            for col in range(width):
                if (col, row) in seen:
                    continue
                who = owner[row][col]
                piece = []
                queue = deque([(col, row)])
                seen.add((col, row))
                while queue:
                    c, r = queue.popleft()
                    piece.append((c, r))
                    for nc, nr in _around(c, r):
                        inside = 0 <= nc < width and 0 <= nr < height
                        if inside and (nc, nr) not in seen and owner[nr][nc] == who:
                            seen.add((nc, nr))
                            queue.append((nc, nr))
                pieces.setdefault(who, []).append(piece)
        for parts in pieces.values():
            parts.sort(key=len, reverse=True)
            for piece in parts[1:]:
                cells = set(piece)
                votes = {}
                for c, r in piece:
                    for nc, nr in _around(c, r):
                        if 0 <= nc < width and 0 <= nr < height and (nc, nr) not in cells:
                            votes[owner[nr][nc]] = votes.get(owner[nr][nc], 0) + 1
                if votes:
                    winner = max(sorted(votes, key=str), key=lambda k: votes[k])
                    for c, r in piece:
                        owner[r][c] = winner
                    changed = True


def _check(owner, width, height, board) -> list[str]:
    touching = set()
    for row in range(height):
        for col in range(width):
            for nc, nr in ((col + 1, row), (col, row + 1)):
                if nc < width and nr < height:
                    a, b = owner[row][col], owner[nr][nc]
                    if a != b:
                        touching.add(tuple(sorted((a, b))))
    wanted = {tuple(sorted((p, n))) for p in board.provinces for n in board.neighbours(p)}
    problems = []
    for a, b in sorted(wanted - touching):
        problems.append(f"missing border {a}-{b}")
    for a, b in sorted(touching - wanted):
        if "swi" not in (a, b):
            problems.append(f"extra border {a}-{b}")
    present = {who for row in owner for who in row}
    for province in board.provinces:
        if province not in present:
            problems.append(f"no cells for {province}")
    return problems


def _corner_owners(owner, width, height, x, y):
    """The owners of the up to four cells around grid vertex (x, y); None outside the sheet."""
    found = []
    for c, r in ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)):
        found.append(owner[r][c] if 0 <= c < width and 0 <= r < height else None)
    return found


def _smoothed_vertices(owner, width, height):
    """Every border vertex of the grid, moved a little toward its neighbours along the border (only where
    exactly two provinces meet, and never on the sheet's edge), so the staircases become slopes."""
    neighbours = {}

    def link(p, q):
        neighbours.setdefault(p, set()).add(q)
        neighbours.setdefault(q, set()).add(p)

    for row in range(height):
        for col in range(width):
            who = owner[row][col]
            if col + 1 == width or owner[row][col + 1] != who:
                link((col + 1, row), (col + 1, row + 1))
            if col == 0:
                link((0, row), (0, row + 1))
            if row + 1 == height or owner[row + 1][col] != who:
                link((col, row + 1), (col + 1, row + 1))
            if row == 0:
                link((col, 0), (col + 1, 0))
    position = {v: (float(v[0]), float(v[1])) for v in neighbours}
    free = [v for v, near in neighbours.items() if len(near) == 2 and 0 < v[0] < width and 0 < v[1] < height]
    for _ in range(4):
        moved = {}
        for v in free:
            a, b = sorted(neighbours[v])
            (x, y), (ax, ay), (bx, by) = position[v], position[a], position[b]
            moved[v] = (0.5 * x + 0.25 * (ax + bx), 0.5 * y + 0.25 * (ay + by))
        position.update(moved)
    # Two of every three smoothed vertices are left out, the same ones on both sides of a border (a choice
    # made per vertex), so neighbours still share their borders exactly and the file stays small.
    for v in free:
        if (v[0] + v[1]) % 3:
            position[v] = None
    return position


def _outline(owner, width, height, province):
    """The province's cells traced counter-clockwise into one loop of grid vertices (collinear runs kept:
    the smoothing moves them)."""
    nxt = {}
    for row in range(height):
        for col in range(width):
            if owner[row][col] != province:
                continue
            for (dc, dr), edge in (
                ((0, -1), ((col, row), (col + 1, row))),
                ((1, 0), ((col + 1, row), (col + 1, row + 1))),
                ((0, 1), ((col + 1, row + 1), (col, row + 1))),
                ((-1, 0), ((col, row + 1), (col, row))),
            ):
                nc, nr = col + dc, row + dr
                if not (0 <= nc < width and 0 <= nr < height) or owner[nr][nc] != province:
                    if edge[0] in nxt:
                        raise SystemExit(f"{province} pinches at {edge[0]}: move its seeds")
                    nxt[edge[0]] = edge[1]
    start = min(nxt)
    loop = [start]
    here = nxt[start]
    while here != start:
        loop.append(here)
        here = nxt[here]
    if len(loop) != len(nxt):
        raise SystemExit(f"{province} has a hole or two pieces: move its seeds")
    return loop


def _depths(owner, width, height, province):
    """Each cell of the province: how many steps from the nearest cell outside it."""
    depth = {}
    queue = deque()
    for row in range(height):
        for col in range(width):
            if owner[row][col] != province:
                continue
            around = _around(col, row)
            if any(not (0 <= c < width and 0 <= r < height) or owner[r][c] != province for c, r in around):
                depth[(col, row)] = 1
                queue.append((col, row))
            else:
                depth[(col, row)] = 0
    while queue:
        c, r = queue.popleft()
        for cell in _around(c, r):
            if depth.get(cell) == 0:
                depth[cell] = depth[(c, r)] + 1
                queue.append(cell)
    return depth


def _deepest(depth, province, wish, step):
    if wish:
        target = (wish[0] / step, wish[1] / step)
        inside = [cell for cell, d in depth.items() if d >= 3] or list(depth)
        return min(inside, key=lambda c: ((c[0] - target[0]) ** 2 + (c[1] - target[1]) ** 2, c))
    top = max(depth.values())
    return min((cell for cell, d in depth.items() if d == top))


def _coast_point(owner, width, height, board, province, coast, depth):
    other = [c for c in board.coasts(province) if c != coast]
    mine = {board.province(p) for p in board.locations_next_to("fleet", coast)}
    theirs = {board.province(p) for q in other for p in board.locations_next_to("fleet", q)}
    seas = (mine - theirs) or mine
    shore = [
        cell
        for cell in depth
        if any(0 <= c < width and 0 <= r < height and owner[r][c] in seas for c, r in _around(*cell))
    ]
    mx = sum(c for c, _ in shore) / len(shore)
    my = sum(r for _, r in shore) / len(shore)
    inside = [cell for cell, d in depth.items() if d >= 3] or list(depth)
    return min(inside, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c))


if __name__ == "__main__":
    raise SystemExit(main("--force" in sys.argv))
