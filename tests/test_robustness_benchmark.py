"""benchmarks/robustness.py measures its cases and says whether each met its target."""

from __future__ import annotations

from benchmarks import ROW_KEYS
from benchmarks import robustness


def test_the_cheap_cases_are_measured_and_meet_their_targets() -> None:
    rows = [robustness.measure(case, time_limit=1.0) for case in ("read-dev-zero-swap", "checks-expired-deadline-40")]
    for row in rows:
        assert not [key for key in ROW_KEYS if key not in row]
        assert row["met"] is True, row
    assert rows[0]["status"] == "refused" and "device" in rows[0]["error"]
    assert rows[1]["status"] == "stopped" and rows[1]["cells"] == 1600
    assert "read-dev-zero-swap" in robustness.table(rows)


def test_every_reader_and_both_bombs_are_cases() -> None:
    names = robustness.cases(100)
    assert {"tmx-zlib-bomb", "tmx-gzip-bomb", "solve-deadline-100"} <= set(names)
    assert sum(name.startswith("read-dev-zero-") for name in names) == len(robustness.READERS) == 5




def test_a_bomb_is_one_valid_stream_of_zeros() -> None:
    """The bomb is built from a repeated compressed piece, its checksum computed apart: it must
    still be one whole, valid stream (the reader must refuse it for its size, not a broken end).
    Checked on a bomb of 8 MB, built as the 1 GB one is."""
    import base64
    import re
    import zlib

    size = 8 * robustness.BOMB_PIECE
    for compression, wbits in (("zlib", 15), ("gzip", 31)):
        data = base64.b64decode(re.search(r'compression="\w+">([^<]+)<', robustness._bomb(compression, size)).group(1))
        inflater = zlib.decompressobj(wbits)
        assert inflater.decompress(data) == bytes(size)  # (a wrong checksum raises zlib.error)
        assert inflater.eof and not inflater.unused_data
