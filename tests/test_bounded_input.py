"""Bounded input (#45): every reader of the API caps what it reads and what it decompresses, and
says which limit it hit. A decompression bomb built here (50 MB of zeros in a TMX layer) is
refused without its output ever being held in memory."""

from __future__ import annotations

import base64
import gzip
import os
import tracemalloc
import zlib

import pytest

from puzzlesat import numberlink, roller, swap
from puzzlesat.errors import ParseError
from puzzlesat.numberlink import multilayer
from puzzlesat.roller.answers import read_answers
from puzzlesat.textio import MAX_INPUT_BYTES, bounded_decompress, read_bytes

READERS = {
    "numberlink.read": numberlink.read,
    "multilayer.read": multilayer.read,
    "roller.read": roller.read,
    "roller.read_answers": read_answers,
    "swap.read": swap.read,
}
BOMB_BYTES = 50 * 1024 * 1024


def _tmx(width: int, height: int, payload: bytes, compression: str) -> str:
    body = base64.b64encode(payload).decode()
    return (f'<map width="{width}" height="{height}"><layer><data encoding="base64" '
            f'compression="{compression}">{body}</data></layer></map>')


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_refuses_a_device(name) -> None:
    with pytest.raises(ParseError) as caught:
        READERS[name]("/dev/zero")
    assert caught.value.source == "/dev/zero"
    assert "device" in caught.value.message


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_caps_the_bytes_it_reads_and_names_the_limit(name, tmp_path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"A.A\n" * 100)
    with pytest.raises(ParseError) as caught:
        READERS[name](path, max_bytes=399)
    assert caught.value.source == str(path)
    assert "399 bytes" in caught.value.message and "max_bytes" in caught.value.message


def test_a_pipe_is_read_but_capped(tmp_path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import threading

    def feed() -> None:
        with open(fifo, "wb") as handle:
            try:
                handle.write(b"x" * 5000)
            except BrokenPipeError:
                pass

    feeder = threading.Thread(target=feed)
    feeder.start()
    with pytest.raises(ParseError, match="larger than the 1000 bytes"):
        read_bytes(fifo, max_bytes=1000)
    feeder.join()


def test_the_default_cap_is_raisable_and_checked() -> None:
    assert MAX_INPUT_BYTES == 64 * 1024 * 1024
    with pytest.raises(TypeError, match="max_bytes"):
        read_bytes("/dev/null", max_bytes="1")
    with pytest.raises(ValueError, match="max_bytes"):
        read_bytes("/dev/null", max_bytes=-1)


def test_a_file_at_the_cap_is_read(tmp_path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("A.A\nB.B\n")
    assert [p.size for p in numberlink.read(path, max_bytes=8)] == [(3, 2)]


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_tmx_decompression_bomb_is_refused_without_building_it(compression) -> None:
    packed = zlib.compress(bytes(BOMB_BYTES), 9) if compression == "zlib" else gzip.compress(bytes(BOMB_BYTES), 9)
    text = _tmx(10, 10, packed, compression)
    assert len(text) < 200_000
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as caught:
            roller.parse(text, fmt="tmx")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "decompresses to more than 400 bytes" in caught.value.message
    assert "decompression limit" in caught.value.message
    assert peak < 5 * 1024 * 1024  # the 50 MB of zeros never exist


def test_a_tmx_layer_that_decompresses_to_its_declared_size_is_read() -> None:
    raw = b"".join((1 if cell == "." else 0).to_bytes(4, "little") for cell in "#####" "#...#" "#####")
    for compression, packed in (("zlib", zlib.compress(raw)), ("gzip", gzip.compress(raw))):
        level = roller.parse(_tmx(5, 3, packed, compression), fmt="tmx", start="row-major")
        assert level.rows == ("#####", "#...#", "#####")


def test_a_truncated_compressed_layer_is_a_parse_error() -> None:
    raw = bytes(4 * 15)
    with pytest.raises(ParseError, match="cannot decode the base64 tile data"):
        roller.parse(_tmx(5, 3, zlib.compress(raw)[:-6], "zlib"), fmt="tmx")


def test_bounded_decompress_allows_exactly_the_limit() -> None:
    assert bounded_decompress(zlib.compress(bytes(1000)), wbits=15, limit=1000) == bytes(1000)
    with pytest.raises(ParseError, match="more than 999 bytes"):
        bounded_decompress(zlib.compress(bytes(1000)), wbits=15, limit=999)


# -- the command line: --max-input-bytes raises (or lowers) the cap of every input it reads --
def test_the_command_line_names_the_limit_and_the_flag(tmp_path, capsys) -> None:
    from puzzlesat.cli import main

    puzzle = tmp_path / "p.txt"
    puzzle.write_text("A.A\nB.B\n")  # 8 bytes
    for verb in (["solve"], ["verify"], ["render", "-o", str(tmp_path / "p.svg")], ["convert", "-o", "-", "--to", "native"]):
        code = main([*verb, str(puzzle), "--max-input-bytes", "7"])
        said = "".join(capsys.readouterr())  # (solve and verify: an error line; render and convert: on standard error)
        assert code != 0, verb
        assert f"{puzzle}: file is larger than the 7 bytes accepted (the input limit: raise it with --max-input-bytes)" in said, verb
        assert main([*verb, str(puzzle), "--max-input-bytes", "8"]) == 0, verb  # (at the cap: read)
        capsys.readouterr()


def test_the_command_line_caps_standard_input_and_answer_files(tmp_path, capsys, monkeypatch) -> None:
    import io
    import sys

    from puzzlesat.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"A.A\nB.B\n")))
    assert main(["solve", "-", "--family", "numberlink", "--max-input-bytes", "4", "--json"]) == 1
    assert "input larger than the 4 bytes accepted (the input limit: raise it with --max-input-bytes)" in capsys.readouterr().out
    (tmp_path / "p.txt").write_text("A.A\nB.B\n")
    (tmp_path / "p.answer").write_text("AAA\nBBB\n" + "\n" * 100)
    assert main(["verify", str(tmp_path / "p.txt"), "--answers", str(tmp_path / "p.answer"), "--max-input-bytes", "20"]) != 0
    assert "p.answer: file is larger than the 20 bytes accepted" in "".join(capsys.readouterr())


def test_a_size_the_flag_cannot_read_is_refused(capsys) -> None:
    from puzzlesat.cli import main

    with pytest.raises(SystemExit):
        main(["solve", "x.txt", "--max-input-bytes", "lots"])
    assert "input size 'lots' is not a number of bytes" in capsys.readouterr().err
