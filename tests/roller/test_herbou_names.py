"""herbou ``levels-data.js``: a level's default name is its position in the file from 0, as
for every multi-level file (``--index``, JSON ``index``); it was counted from 1, so the human
line read 'levels-data.js#0 [levels-data.js#1]' and '#30' named the level at --index 29."""

from __future__ import annotations

import json

from puzzlesat import roller
from puzzlesat.cli import main

LEVELS = "const levels = [\n  [[1,1,1,1],[1,0,0,1],[1,1,1,1]],\n  [[1,1,1],[1,0,1],[1,0,1],[1,1,1]]\n];\n"


def test_herbou_levels_are_named_by_their_position_from_0(tmp_path, capsys):
    assert [level.name for level in roller.parse_all(LEVELS, source="levels-data.js")] == ["levels-data.js#0", "levels-data.js#1"]
    path = tmp_path / "levels-data.js"
    path.write_text(LEVELS)
    assert main(["verify", str(path), "--index", "1", "--json"]) == 0
    [record] = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert (record["index"], record["name"], record["size"]["height"]) == (1, "levels-data.js#1", 4)
    main(["verify", str(path)])
    out = capsys.readouterr().out
    assert "levels-data.js#0 (4x3)" in out and "[" not in out
