"""Pictures: the scene writers (SVG always, PNG when matplotlib is installed) and each family's
``render``, checked by parsing the SVG and counting the elements that stand for paths, moves and
squares."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from puzzlesat.numberlink.model import Puzzle, Solution
from puzzlesat.numberlink.render import render as render_numberlink
from puzzlesat.scene import Arrow, Circle, Group, Line, Polygon, Polyline, Rect, Scene, Text

SVG = "{http://www.w3.org/2000/svg}"


def parse_svg(text: str) -> ET.Element:
    return ET.fromstring(text)


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def every_shape_scene() -> Scene:
    scene = Scene(120, 80, title='all shapes <"&">')
    scene.add(Rect(1, 1, 10, 10, fill="#ff0000", stroke="black", rounded=2, cls="r"))
    scene.add(Line(0, 0, 50, 50, dashed=True, cls="l"))
    scene.add(Polyline([(0, 0), (10, 0), (10, 10)], stroke="blue", stroke_width=3, cls="p"))
    scene.add(Polygon([(20, 20), (30, 20), (25, 30)], fill="green", stroke="black", cls="g"))
    scene.add(Circle(60, 40, 5, fill="yellow", stroke="black", opacity=0.5, cls="c"))
    scene.add(Text(80, 40, "x < y & \"z\" \x01", size=12, bold=True, anchor="start", cls="t"))
    scene.add(Arrow(10, 70, 100, 70, stroke="purple", stroke_width=2, cls="move", id="move-1"))
    group = Group(cls="grp", id="g<1>", title="a & b")
    group.add(Circle(5, 5, 1))
    scene.add(group)
    return scene


def test_svg_of_every_shape_parses_and_keeps_classes_and_escapes_text() -> None:
    scene = every_shape_scene()
    root = parse_svg(scene.to_svg())
    assert root.tag == SVG + "svg"
    for cls in ("r", "l", "p", "g", "c", "t", "move", "grp"):
        assert len(with_class(root, cls)) == 1, cls
    arrow = with_class(root, "move")[0]
    assert arrow.get("id") == "move-1" and "arrow" in arrow.get("class").split()
    assert [child.tag for child in arrow] == [SVG + "line", SVG + "polygon"]
    text = with_class(root, "t")[0].text
    assert text.startswith('x < y & "z"') and "\x01" not in text
    assert with_class(root, "grp")[0].get("id") == "g<1>"
    assert scene.count("move") == 1 and scene.count("missing") == 0


def test_save_refuses_unknown_endings(tmp_path) -> None:
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        every_shape_scene().save(tmp_path / "picture.jpg")


def test_png_of_every_shape(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    path = every_shape_scene().save(tmp_path / "shapes.png", scale=2)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (240, 160)


# -- numberlink ---------------------------------------------------------------------------------
NL_PUZZLE = ["A...B", "..#..", "C.#.C", ".....", "A.D.B"]
NL_ANSWER = ["AAABB", "CA#BB", "CA#BC", "CADBC", "AADBB"]


def test_numberlink_picture_has_one_group_per_path_endpoint_and_blocked_cell() -> None:
    puzzle = Puzzle.from_rows(["A.B", "..#", "A.B"])
    answer = Solution.from_rows(puzzle, ["ABB", "AB#", "ABB"])
    root = parse_svg(render_numberlink(puzzle, answer, title="tiny").to_svg())
    paths = with_class(root, "path")
    assert sorted(p.get("id") for p in paths) == ["path-A", "path-B"]
    # each path's polyline visits its cells' centres in order
    polyline = with_class(root, "path-line")
    assert len(polyline) == 2 and all(len(p.get("points").split()) == n for p, n in zip(polyline, (3, 5)))
    assert len(with_class(root, "endpoint")) == 4
    assert len(with_class(root, "blocked")) == 1
    assert with_class(root, "caption")[0].text == "tiny"


def test_numberlink_puzzle_without_answer_draws_no_paths() -> None:
    puzzle = Puzzle.from_rows(["A.B", "..#", "A.B"])
    root = parse_svg(render_numberlink(puzzle).to_svg())
    assert with_class(root, "path") == [] and len(with_class(root, "endpoint")) == 4


def test_numberlink_many_labels_touching_paths_get_different_colours() -> None:
    # 30 vertical paths side by side: more labels than the palette has colours
    labels = [f"L{i}" for i in range(30)]
    puzzle = Puzzle.from_rows([labels, ["."] * 30, labels])
    answer = Solution.from_mapping({label: [(0, i), (1, i), (2, i)] for i, label in enumerate(labels)})
    root = parse_svg(render_numberlink(puzzle, answer).to_svg())
    strokes = [p.get("stroke") for p in with_class(root, "path-line")]
    assert len(strokes) == 30
    assert all(a != b for a, b in zip(strokes, strokes[1:]))


# -- roller -------------------------------------------------------------------------------------
ROLLER_LEVEL = ["#######", "#o....#", "#.###.#", "#.#...#", "#...#.#", "#######"]


def test_roller_picture_has_one_arrow_per_move_and_one_square_per_painted_cell() -> None:
    from puzzlesat.roller.model import Level, replay
    from puzzlesat.roller.render import render as render_roller
    from puzzlesat.roller.verify import verify

    level = Level.from_rows(ROLLER_LEVEL)
    answer = _roller_answer(level)
    assert verify(level, answer) == []
    root = parse_svg(render_roller(level, answer, title="known").to_svg())
    moves = with_class(root, "move")
    assert [m.get("id") for m in moves] == [f"move-{i}" for i in range(1, len(answer) + 1)]
    assert all(len(with_class(m, "arrow")) == 1 for m in moves)
    assert [t.text for m in moves for t in m.iter(SVG + "text")] == [str(i) for i in range(1, len(answer) + 1)]
    _, painted = replay(level, answer)
    assert len(with_class(root, "painted")) == len(painted) == level.floor_count
    assert len(with_class(root, "wall")) == sum(row.count("#") for row in ROLLER_LEVEL)
    assert len(with_class(root, "start")) == 1 and len(with_class(root, "unpainted")) == 0


def test_roller_partial_answer_marks_unpainted_floor() -> None:
    from puzzlesat.roller.model import Level, replay
    from puzzlesat.roller.render import render as render_roller

    level = Level.from_rows(ROLLER_LEVEL)
    _, painted = replay(level, "R")
    root = parse_svg(render_roller(level, "R").to_svg())
    assert len(with_class(root, "move")) == 1
    assert len(with_class(root, "unpainted")) == level.floor_count - len(painted) > 0
    assert with_class(render_roller_svg_root(level), "move") == []


def test_roller_arrows_are_numbered_by_their_place_in_the_moves_as_verify_counts() -> None:
    """A move against a wall draws nothing; the arrows after it kept counting from 1, so the
    picture of "LRD" said 1 and 2 where verify's messages say move 2 and move 3."""
    from puzzlesat.roller.model import Level
    from puzzlesat.roller.render import render as render_roller
    from puzzlesat.roller.verify import verify

    level = Level.from_rows(["o..", "##."])
    assert [v.step for v in verify(level, "LRD")] == [1]  # L: a wall (the edge) beside the start
    moves = with_class(parse_svg(render_roller(level, "LRD").to_svg()), "move")
    assert [m.get("id") for m in moves] == ["move-2", "move-3"]
    assert [t.text for m in moves for t in m.iter(SVG + "text")] == ["2", "3"]


def test_roller_picture_takes_moves_as_a_list_of_letters_as_verify_does() -> None:
    """``verify(level, ["R", "D"])`` held, ``render(level, ["R", "D"])`` was a TypeError."""
    from puzzlesat.roller.model import Level
    from puzzlesat.roller.render import render as render_roller
    from puzzlesat.roller.verify import verify

    level = Level.from_rows(["o..", "##."])
    assert verify(level, ["R", "D"]) == []
    assert render_roller(level, ["R", "D"]).to_svg() == render_roller(level, "RD").to_svg()
    with pytest.raises(TypeError, match="moves"):
        render_roller(level, ["R", 2])


def test_roller_caption_of_a_one_move_answer_says_move(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    path = tmp_path / "one.roller"
    path.write_text("###\n#o.\n###\n")  # a wall border, the start and one floor cell to its right
    assert main(["render", str(path), "--solution", "-o", str(tmp_path / "one.svg")]) == 0
    svg = (tmp_path / "one.svg").read_text()
    assert "1 move (proven minimum)" in svg and "1 moves" not in svg
    capsys.readouterr()


def render_roller_svg_root(level) -> ET.Element:
    from puzzlesat.roller.render import render as render_roller

    return parse_svg(render_roller(level).to_svg())


def _roller_answer(level) -> str:
    """A shortest answer by breadth-first search over (stop, painted) states: small and exact,
    independent of the library's solvers."""
    from collections import deque

    from puzzlesat.roller.model import MOVES, slide

    goal = frozenset(level.floor_cells)
    first = (level.start, frozenset([level.start]))
    seen = {first: ""}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        position, painted = state
        if painted == goal:
            return seen[state]
        for direction in MOVES:
            stop, cells = slide(level, position, direction)
            if cells:
                nxt = (stop, painted | frozenset(cells))
                if nxt not in seen:
                    seen[nxt] = seen[state] + direction
                    queue.append(nxt)
    raise AssertionError("test level has no answer")


# -- swap ---------------------------------------------------------------------------------------
SWAP_START = ["T1R B1G T1Y", "Q1G ### B1R", "T1Y T1G Q1B"]
SWAP_GOAL = ["R Y G", "G # G", "Y B R"]


def _swap_answer(level) -> list:
    """A shortest answer by breadth-first search over boards (independent of the solvers)."""
    from collections import deque

    from puzzlesat.swap.model import apply_swap, is_goal
    from puzzlesat.swap.moves import legal_moves

    seen = {level.start: []}
    queue = deque([level.start])
    while queue:
        board = queue.popleft()
        if is_goal(level, board):
            return seen[board]
        for move in legal_moves(board):
            nxt = apply_swap(board, move.source, move.target)
            if nxt not in seen:
                seen[nxt] = seen[board] + [move]
                queue.append(nxt)
    raise AssertionError("test level has no answer")


def test_swap_picture_has_start_goal_one_frame_and_arrow_per_move() -> None:
    from puzzlesat.swap.model import Level
    from puzzlesat.swap.render import render as render_swap
    from puzzlesat.swap.verify import verify

    level = Level.from_rows(SWAP_START, goal=SWAP_GOAL)
    answer = _swap_answer(level)
    assert len(answer) == 3 and verify(level, answer) == []
    root = parse_svg(render_swap(level, answer, title="known").to_svg())
    boards = {b.get("id"): b for b in with_class(root, "board")}
    assert set(boards) == {"start", "goal", "frame-1", "frame-2", "frame-3", "final"}
    squares = sum(tok != "###" for row in SWAP_START for tok in row.split())
    assert len(with_class(boards["start"], "square")) == squares == 8
    assert len(with_class(boards["start"], "wall")) == 1
    assert len(with_class(boards["goal"], "goal-cell")) == squares
    # mismatch badges: exactly the squares whose colour differs from the goal
    differ = sum(tok[2] != want for srow, grow in zip(SWAP_START, SWAP_GOAL) for tok, want in zip(srow.split(), grow.split()) if tok != "###")
    assert len(with_class(boards["start"], "mismatch")) == differ
    moves = with_class(root, "move")
    assert [m.get("id") for m in moves] == ["move-1", "move-2", "move-3"]
    assert all("illegal" not in m.get("class") for m in moves)
    assert all(len(with_class(boards[f"frame-{k}"], "swapped")) == 2 for k in (1, 2, 3))
    assert with_class(root, "moves-summary")[0].text == "3 moves: goal reached"


def test_swap_illegal_move_is_drawn_as_such() -> None:
    from puzzlesat.swap.model import Level
    from puzzlesat.swap.render import render as render_swap

    level = Level.from_rows(SWAP_START, goal="cluster")
    root = parse_svg(render_swap(level, ["0,0>2,2"]).to_svg())  # a tower of scope 1 cannot reach a far corner
    (move,) = with_class(root, "move")
    assert "illegal" in move.get("class").split()
    assert "goal-rule" in {c for e in root.iter() for c in (e.get("class") or "").split()}


def test_swap_frame_captions_of_a_narrow_board_do_not_run_into_each_other() -> None:
    from puzzlesat.scene import text_width
    from puzzlesat.swap.model import Level
    from puzzlesat.swap.render import render as render_swap

    # one column: a frame is one square wide, its caption "1: 0,0>1,0" about three
    level = Level.from_rows(["T1R", "T1G", "T1R", "T1G"], goal=["G", "R", "G", "R"])
    scene = render_swap(level, ["0,0>1,0", "2,0>3,0"])
    captions = [s for s in scene.walk() if "frame-caption" in s.cls.split()]
    assert [c.text for c in captions] == ["1: 0,0>1,0", "2: 2,0>3,0", "end"]
    for a, b in zip(captions, captions[1:]):
        if a.y == b.y:  # side by side in one row of frames
            assert a.x + text_width(a.text, a.size) <= b.x, (a.text, b.text)
    assert all(c.x + text_width(c.text, c.size) <= scene.width for c in captions)


# -- puzzlesat render ---------------------------------------------------------------------------
CLI_SAMPLES = {
    "numberlink": ("puzzle.txt", "5 5\n1 . . . .\n2 . . 3 .\n. . . . .\n. 1 . . 2\n. . . . 3\n", "path", 3),
    "roller": ("level.roller", "\n".join(ROLLER_LEVEL) + "\n", "move", None),
    "swap": ("level.swap", "start\n" + "\n".join(SWAP_START) + "\ngoal\n" + "\n".join(SWAP_GOAL) + "\n", "move", 3),
}


@pytest.mark.parametrize("family", sorted(CLI_SAMPLES))
def test_puzzlesat_render_with_solution_draws_the_verified_answer(family, tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    name, text, cls, expected = CLI_SAMPLES[family]
    source = tmp_path / name
    source.write_text(text)
    out = tmp_path / "answer.svg"
    assert main(["render", str(source), "--solution", "--time-limit", "30", "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    root = ET.parse(out).getroot()
    drawn = len(with_class(root, cls))
    if expected is None:  # roller: one arrow per move of the proven-minimum answer
        expected = len(_roller_answer(Level_from(ROLLER_LEVEL)))
    assert drawn == expected
    # without --solution: the puzzle alone
    plain = tmp_path / "puzzle.svg"
    assert main(["render", str(source), "-o", str(plain)]) == 0
    assert with_class(ET.parse(plain).getroot(), cls) == []


def test_puzzlesat_render_captions_say_whether_the_answer_drawn_is_unique(tmp_path, monkeypatch) -> None:
    from puzzlesat.cli import main
    from puzzlesat.numberlink import records as numberlink_records

    def caption(text: str) -> str:
        source = tmp_path / "puzzle.txt"
        source.write_text(text)
        out = tmp_path / "answer.svg"
        assert main(["render", str(source), "--solution", "--time-limit", "30", "-o", str(out)]) == 0
        return with_class(ET.parse(out).getroot(), "caption")[0].text

    assert caption("...B\n.A..\n..BA\n").endswith(", solved, unique")
    assert caption("A..\n...\n..A\n").endswith(", solved, multiple answers")  # the words of verify's lines
    real_count = numberlink_records.sat_count
    monkeypatch.setattr(numberlink_records, "sat_count", lambda puzzle, **options: real_count(puzzle, **{**options, "limit": 1}))
    assert caption("A..\n...\n..A\n").endswith(", solved, uniqueness unknown")  # (a count stopped at one answer)


def test_puzzlesat_render_without_index_does_not_repeat_the_file_name_in_the_caption(tmp_path) -> None:
    """A Swap pack's levels are named after the file ("pack.swap#0"); drawn without --index
    (the first level), the caption said "pack.swap [pack.swap#0]", as it does not with --index 0."""
    from puzzlesat.cli import main

    level = "start\n" + "\n".join(SWAP_START) + "\ngoal\n" + "\n".join(SWAP_GOAL) + "\n"
    source = tmp_path / "pack.swap"
    source.write_text(level + "---\n" + level)
    captions = []
    for index in ([], ["--index", "0"]):
        out = tmp_path / "level.svg"
        assert main(["render", str(source), *index, "-o", str(out)]) == 0
        captions.append(with_class(ET.parse(out).getroot(), "caption")[0].text)
    assert captions[0] == captions[1] and captions[0].startswith("pack.swap  (")


def Level_from(rows):
    from puzzlesat.roller.model import Level

    return Level.from_rows(rows)


def test_puzzlesat_render_errors_are_one_line(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    source = tmp_path / "level.roller"
    source.write_text("\n".join(ROLLER_LEVEL) + "\n")
    assert main(["render", str(source), "-o", str(tmp_path / "x.gif")]) == 2
    assert "error:" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "x.svg")]) == 2


@pytest.mark.parametrize("name, text, why, drawn", [
    ("crossing.txt", "AB\nBA\n",  # the pairs alternate along the border
     "pairs 'A' and 'B' alternate along the border", "unsolvable under cover-all rules"),
    ("walled.swap", "start\nT1R ### T1G\ngoal\nG ### R\n",  # the wall parts the two squares
     "cells (0, 0) cannot exchange squares with the rest of the board", "unsolvable"),
])
def test_puzzlesat_render_says_why_there_is_no_answer_as_solve_does(tmp_path, capsys, name, text, why, drawn) -> None:
    from puzzlesat.cli import main

    source = tmp_path / name
    source.write_text(text)
    assert main(["solve", str(source)]) == 1
    assert why in capsys.readouterr().out
    assert main(["render", str(source), "--solution", "-o", str(tmp_path / "x.svg")]) == 1
    assert f"no answer drawn: {drawn}: {why}" in capsys.readouterr().err


def test_puzzlesat_render_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from puzzlesat.cli import main

    source = tmp_path / "level.roller"
    source.write_text("\n".join(ROLLER_LEVEL) + "\n")
    out = tmp_path / "answer.png"
    assert main(["render", str(source), "--solution", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and int.from_bytes(data[16:20], "big") >= 800  # small boards are drawn crisp


def test_a_picture_too_thin_for_a_png_is_a_clear_error(tmp_path, capsys) -> None:
    """A 20000x1 Numberlink board shrunk to 4000 pixels across would be under a pixel high."""
    pytest.importorskip("matplotlib")
    from puzzlesat.cli.output import save_picture as save_for_cli
    from puzzlesat.scene import Rect, Scene

    thin = Scene(20000 * 40, 40)
    thin.add(Rect(0, 0, 20000 * 40, 40, fill="#cccccc"))
    assert save_for_cli(thin, str(tmp_path / "thin.png")) == 2
    assert "would be 4000x0 pixels as PNG, too thin to draw: write .svg" in capsys.readouterr().err
    assert not (tmp_path / "thin.png").exists()


def test_png_without_matplotlib_is_a_clear_error(tmp_path, monkeypatch, capsys) -> None:
    import sys

    from puzzlesat.png import MissingMatplotlib
    from puzzlesat.cli.output import save_picture as save_for_cli

    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(MissingMatplotlib, match=r"puzzlesat\[plot\]"):
        every_shape_scene().save(tmp_path / "x.png")
    assert save_for_cli(every_shape_scene(), str(tmp_path / "x.png")) == 2
    assert "needs matplotlib" in capsys.readouterr().err
    every_shape_scene().save(tmp_path / "x.svg")  # SVG needs nothing
