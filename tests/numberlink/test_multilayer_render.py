"""Pictures of multi-layer (3-D) Numberlink puzzles: the layers side by side, each captioned,
and the steps between layers marked on both cells. Checked by parsing the SVG and counting the
elements that stand for layers, paths, endpoints, blocked cells and vias, against numbers worked
out from the puzzle and answer themselves."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from puzzlesat.cli import main
from puzzlesat.numberlink import multilayer
from puzzlesat.numberlink.model import Rules
from puzzlesat.numberlink.multilayer import Pair, Puzzle, Solution
from puzzlesat.numberlink.multilayer.render import render
from puzzlesat.results import CountResult
from tests.support import shared_path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "numberlink" / "two_layers_4x4x2.nl"
ADC2018 = ("numberlink", "dasadc-github-io-ADC2017-2018", "adc2018")

# A 3x3x3 stack drawn by hand. A climbs from layer 1 to layer 3 through (0,0) of layer 2; B goes
# straight up from layer 1 to layer 3 through (0,2) of layer 2; C steps up once. Five steps
# between layers, two cells passed straight through; (1,1) is blocked on layers 1 and 2.
STACK = Puzzle.from_layers([
    ["A.B", ".#.", "C.."],
    ["...", ".#.", ".C."],
    ["..B", "..A", "..."],
])
STACK_ANSWER = Solution.from_mapping({
    "A": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 1, 1), (2, 1, 2)],
    "B": [(0, 0, 2), (1, 0, 2), (2, 0, 2)],
    "C": [(0, 2, 0), (0, 2, 1), (1, 2, 1)],
})


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def layer_groups(root: ET.Element) -> dict[str, ET.Element]:
    return {group.get("id"): group for group in with_class(root, "layer")}


def layer_changes(solution: Solution) -> int:
    """Steps between layers, counted on the answer's paths."""
    return sum(a[0] != b[0] for _, cells in solution.paths for a, b in zip(cells, cells[1:]))


def layers_visited(solution: Solution) -> int:
    """(path, layer) pairs: how many path groups the picture should hold."""
    return len({(label, cell[0]) for label, cells in solution.paths for cell in cells})


def test_the_hand_made_stack_is_a_valid_answer_with_five_layer_changes():
    assert multilayer.verify(STACK, STACK_ANSWER, Rules(cover_all=False)) == []
    assert layer_changes(STACK_ANSWER) == 5 and layers_visited(STACK_ANSWER) == 8


def test_multilayer_picture_counts_layers_paths_endpoints_blocked_cells_and_vias():
    root = ET.fromstring(render(STACK, STACK_ANSWER, title="stack").to_svg())
    layers = layer_groups(root)
    assert list(layers) == ["layer-1", "layer-2", "layer-3"]
    assert [t.text for t in with_class(root, "layer-caption")] == ["layer 1", "layer 2", "layer 3"]
    assert with_class(root, "caption")[0].text == "stack"
    assert sorted(g.get("id") for g in with_class(root, "path")) == sorted(
        ["path-A-layer-1", "path-A-layer-2", "path-A-layer-3", "path-B-layer-1", "path-B-layer-2", "path-B-layer-3",
         "path-C-layer-1", "path-C-layer-2"])
    assert len(with_class(root, "endpoint")) == 6 and len(with_class(root, "blocked")) == 2
    assert len(with_class(root, "via-up")) == len(with_class(root, "via-down")) == 5
    assert len(with_class(root, "via")) == 10
    assert len(with_class(root, "path-dot")) == 2  # the two cells passed straight through, both on layer 2
    # per layer: an up mark where a path goes on on the next layer, a down mark where it came from the previous one
    per_layer = {name: (len(with_class(g, "via-up")), len(with_class(g, "via-down")), len(with_class(g, "endpoint")),
                        len(with_class(g, "blocked"))) for name, g in layers.items()}
    assert per_layer == {"layer-1": (3, 0, 3, 1), "layer-2": (2, 3, 1, 1), "layer-3": (0, 2, 2, 0)}


def test_a_label_has_one_colour_on_every_layer():
    root = ET.fromstring(render(STACK, STACK_ANSWER).to_svg())
    for label in ("A", "B", "C"):
        colours = set()
        for group in with_class(root, "path"):
            if group.get("id").startswith(f"path-{label}-"):
                colours |= {e.get("stroke") for e in with_class(group, "path-line")}
                colours |= {e.get("fill") for e in with_class(group, "path-dot")}
        colours |= {g.find("{http://www.w3.org/2000/svg}circle").get("fill") for g in with_class(root, "endpoint")
                    if g.find("{http://www.w3.org/2000/svg}title").text == label}
        assert len(colours) == 1, (label, colours)


def test_the_puzzle_alone_has_no_paths_and_no_vias():
    scene = render(STACK)
    assert scene.count("path") == scene.count("via") == 0
    assert scene.count("endpoint") == 6 and scene.count("blocked") == 2 and scene.count("layer") == 3


def test_many_layers_wrap_into_rows_of_a_reasonable_shape_without_overlapping():
    stack = Puzzle(72, 72, 8, (Pair("1", (0, 0, 0), (7, 71, 71)),))
    scene = render(stack)
    assert 1.2 <= scene.width / scene.height <= 2.5  # 8 layers in one row would be about 8:1
    borders = [shape for shape in scene.walk() if shape.cls == "border"]
    assert len(borders) == 8
    for i, a in enumerate(borders):
        assert 0 <= a.x and a.x + a.width <= scene.width and 0 <= a.y and a.y + a.height <= scene.height
        for b in borders[i + 1:]:
            assert a.x + a.width < b.x or b.x + b.width < a.x or a.y + a.height < b.y or b.y + b.height < a.y
    two = render(multilayer.parse(EXAMPLE.read_text()))
    assert two.width > two.height  # two square layers side by side


def test_render_refuses_other_things_plainly():
    from puzzlesat.numberlink.model import Puzzle as FlatPuzzle

    with pytest.raises(TypeError, match="multi-layer puzzle"):
        render(FlatPuzzle.from_rows(["A.A"]))
    with pytest.raises(ValueError, match="off the 3x3x3 board"):
        render(STACK, Solution.from_mapping({"A": [(0, 0, 0), (3, 0, 0)], "B": [], "C": []}))
    with pytest.raises(ValueError, match="cell_size"):
        render(STACK, cell_size=0)


# -- the command line -----------------------------------------------------------------------------
def test_puzzlesat_render_draws_the_bundled_example_with_its_answer(tmp_path, capsys):
    out = tmp_path / "layers.svg"
    assert main(["render", str(EXAMPLE), "--solution", "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    root = ET.parse(out).getroot()
    answer = multilayer.solve(multilayer.parse(EXAMPLE.read_text())).solution
    assert with_class(root, "caption")[0].text == "two_layers_4x4x2.nl  (4x4x2), solved, unique"
    assert len(layer_groups(root)) == 2 and len(with_class(root, "endpoint")) == 12
    assert len(with_class(root, "path")) == layers_visited(answer)
    assert len(with_class(root, "via-up")) == len(with_class(root, "via-down")) == layer_changes(answer) > 0

    puzzle_only = tmp_path / "puzzle.svg"
    assert main(["render", str(EXAMPLE), "-o", str(puzzle_only)]) == 0
    root = ET.parse(puzzle_only).getroot()
    assert with_class(root, "path") == [] and len(with_class(root, "endpoint")) == 12
    assert with_class(root, "caption")[0].text == "two_layers_4x4x2.nl  (4x4x2)"


def test_puzzlesat_render_writes_a_multilayer_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "layers.png"
    assert main(["render", str(EXAMPLE), "--solution", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > height  # two layers side by side


def test_puzzlesat_render_captions_and_exit_codes_follow_the_one_layer_ones(tmp_path, capsys, monkeypatch):
    # A at opposite corners of a 2x2 layer over an empty one: no answer covers every cell, and
    # several when cells may stay empty
    source = tmp_path / "stack.txt"
    source.write_text("layer 1\nA.\n.A\n\nlayer 2\n..\n..\n")
    out = tmp_path / "stack.svg"

    def caption() -> str:
        return with_class(ET.parse(out).getroot(), "caption")[0].text

    assert main(["render", str(source), "--solution", "-o", str(out)]) == 1
    assert "no answer drawn: unsolvable under cover-all rules" in capsys.readouterr().err
    assert caption() == "stack.txt  (2x2x2)" and with_class(ET.parse(out).getroot(), "path") == []

    assert main(["render", str(source), "--solution", "--allow-empty", "-o", str(out)]) == 0
    assert caption().endswith(", solved, multiple answers")

    real_count = multilayer.count
    monkeypatch.setattr(multilayer, "count", lambda puzzle, **options: real_count(puzzle, **{**options, "limit": 1}))
    assert main(["render", str(source), "--solution", "--allow-empty", "-o", str(out)]) == 0
    assert caption().endswith(", solved, uniqueness unknown")  # (a count stopped at one answer)

    monkeypatch.setattr(multilayer, "count", lambda puzzle, **options: CountResult(0, False, 2))  # the time limit ran out
    capsys.readouterr()
    assert main(["render", str(source), "--solution", "--allow-empty", "-o", str(out)]) == 1
    assert "no answer drawn: unknown (time limit) under may-leave-empty rules" in capsys.readouterr().err


# -- a contest problem with its published answer --------------------------------------------------
@pytest.mark.parametrize("number", [7, 5, 6])  # 5x5x3, 16x16x8, 72x72x8 (375 lines)
def test_adc2018_published_answer_is_drawn_with_a_via_for_every_layer_change(number):
    question = shared_path(*ADC2018, "Questions", f"Q{number}.txt")
    answer_file = shared_path(*ADC2018, "Answers", f"A{number}.txt")
    puzzle = multilayer.parse(question.read_text(), source=str(question))
    answer = multilayer.formats.parse_solution(answer_file.read_text(), puzzle, source=str(answer_file))
    root = ET.fromstring(render(puzzle, answer, title=f"ADC 2018 Q{number}").to_svg())
    changes = layer_changes(answer)
    assert changes > 0
    assert len(with_class(root, "via-up")) == len(with_class(root, "via-down")) == changes
    assert len(layer_groups(root)) == puzzle.layers
    assert len(with_class(root, "path")) == layers_visited(answer)
    assert len(with_class(root, "endpoint")) == 2 * len(puzzle.pairs)
    assert len(with_class(root, "blocked")) == len(puzzle.blocked)
