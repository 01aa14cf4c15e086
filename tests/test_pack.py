"""The one pack writer (:mod:`puzzlesat.pack`): writes, resumes after an interruption, refuses
other settings and damaged files naming why, retries repeats with further seeds, writes the same
bytes for the same request, and lays out a folder for a family whose puzzles go one per file.
Run over a toy family (``tests/packtoy.py``) and over every registered family that generates."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from puzzlesat import pack as packing
from puzzlesat.pack import PackError, PackRequest, PackWriter, RepeatedPuzzles
from puzzlesat.seeds import DUPLICATE_RETRIES, accepted_seeds, puzzle_seed

from .packtoy import TOY, ToyFailed


def run(out, count, *, size=(5,), seed=1, options=None, family=TOY):
    writer = PackWriter(PackRequest(family, size, count=count, seed=seed, options=options or {}, out=out))
    entries = list(writer)
    return writer, entries


# -- seeds ----------------------------------------------------------------------------------------
def test_puzzle_seeds_are_stable_distinct_and_a_resume_accepts_exactly_the_retries() -> None:
    assert puzzle_seed(0, 5) == 5 and puzzle_seed(3, 2) == 3 * 1_000_003 + 2
    retries = [puzzle_seed(7, 4, attempt) for attempt in range(DUPLICATE_RETRIES)]
    assert len(set(retries)) == DUPLICATE_RETRIES and set(retries) == accepted_seeds(7, 4)
    assert puzzle_seed(7, 4, DUPLICATE_RETRIES) not in accepted_seeds(7, 4)
    assert not accepted_seeds(7, 4) & accepted_seeds(8, 4) and not accepted_seeds(7, 4) & accepted_seeds(7, 5)


# -- one file ---------------------------------------------------------------------------------------
def test_writes_each_puzzle_in_its_block_and_yields_its_record(tmp_path) -> None:
    out = tmp_path / "pack.txt"
    writer, entries = run(out, 3)
    text = out.read_text()
    assert text.startswith("# puzzlesat generate toy --size 5 --seed 1\n# puzzle 0: seed 1000003, 2 tries, letters 5,")
    assert text.count("# puzzle ") == 3 and text.endswith("\n\n")
    assert "".join(entry.text for entry in entries) == text.split("\n", 1)[1]
    assert [e.record["index"] for e in entries] == [0, 1, 2]
    first = entries[0].record
    assert (first["family"], first["source"], first["status"], first["seed"], first["tries"]) == ("toy", str(out), "generated", 1000003, 2)
    assert first["puzzle"] == entries[0].generated.puzzle and "seconds" in first
    assert [word for word in TOY.load(text) if not isinstance(word, Exception)] == [e.generated.puzzle for e in entries]
    summary = writer.summary()
    assert summary.startswith(f"3 puzzle(s) written to {out}: toy 5, 6 tries,")
    assert "vowel first: 1, not vowel first: 2" in summary and "codes (each item):" in summary


def test_a_rerun_resumes_and_the_same_request_writes_the_same_bytes(tmp_path) -> None:
    out = tmp_path / "pack.txt"
    run(out, 2)
    first = out.read_text()
    writer, entries = run(out, 4)
    assert writer.resumed == 2 and [e.index for e in entries] == [2, 3]
    assert out.read_text().startswith(first) and "(2 already there)" in writer.summary()
    fresh = tmp_path / "fresh.txt"
    run(fresh, 4)
    assert fresh.read_bytes() == out.read_bytes()
    writer, entries = run(out, 4)  # all there: nothing to do
    assert writer.resumed == 4 and entries == [] and fresh.read_bytes() == out.read_bytes()


def test_without_out_nothing_is_written_and_the_entries_are_the_blocks(tmp_path) -> None:
    writer, entries = run(None, 2)
    out = tmp_path / "pack.txt"
    run(out, 2)
    assert writer.first_line + "\n" + "".join(entry.text for entry in entries) == out.read_text()
    assert entries[0].record["source"] is None


@pytest.mark.parametrize("change", [{"seed": 2}, {"size": (6,)}, {"options": {"upper": True}}, {"options": {"alphabet": "ab"}}])
def test_a_rerun_with_other_settings_is_refused_naming_both(tmp_path, change) -> None:
    out = tmp_path / "pack.txt"
    run(out, 2)
    before = out.read_bytes()
    with pytest.raises(PackError, match="not written by a run with these settings") as refused:
        run(out, 3, **change)
    message = str(refused.value)
    assert str(out) in message and "--seed 1" in message and "choose another out" in message
    assert out.read_bytes() == before


def test_options_at_their_default_do_not_change_the_first_line_and_values_sign_by_meaning() -> None:
    plain = PackRequest(TOY, (5,), count=1)
    assert packing.signature(plain) == packing.signature(PackRequest(TOY, (5,), count=1, options={"upper": False, "alphabet": "full"}))
    assert packing.signature(PackRequest(TOY, (5,), count=1, options={"certify_limit": "20"})) == \
        packing.signature(PackRequest(TOY, (5,), count=1, options={"certify_limit": 20.0})) == \
        "# puzzlesat generate toy --size 5 --seed 0 --certify-limit 20"
    with pytest.raises(ValueError, match="no option colour"):
        PackRequest(TOY, (5,), count=1, options={"colour": 1})
    with pytest.raises(ValueError):
        PackRequest(TOY, (5,), count=0)
    with pytest.raises(ValueError):
        PackRequest(TOY, (5,), count=1, seed=-1)


def test_a_file_cut_at_every_byte_of_its_last_puzzle_resumes_correctly_or_is_refused_by_name(tmp_path) -> None:
    """A run killed while it wrote puzzle 2: whatever the cut, a rerun continues to the same bytes
    as an uninterrupted run, or refuses naming the file and the problem; it never misreads."""
    whole = tmp_path / "whole.txt"
    run(whole, 4)
    data = whole.read_bytes()
    two = data.index(b"# puzzle 2:")
    three = data.index(b"# puzzle 3:")
    cut = tmp_path / "cut.txt"
    resumed = refused = 0
    for offset in range(two - 1, three + 1):
        cut.write_bytes(data[:offset])
        try:
            writer, _ = run(cut, 4)
        except PackError as error:
            assert str(cut) in str(error) and "ends in the middle of" in str(error) and "puzzle 2" in str(error), (offset, error)
            refused += 1
            continue
        assert cut.read_bytes() == data, offset
        assert writer.resumed in (2, 3)
        resumed += 1
    assert resumed >= 3 and refused > 10
    for offset in range(len(data) + 1):  # and a cut anywhere in the file
        cut.write_bytes(data[:offset])
        try:
            run(cut, 4)
        except PackError as error:
            assert "ends in the middle of" in str(error), (offset, error)
            continue
        assert cut.read_bytes() in (data, data[:-1]), offset  # (all there, its last blank line dropped: left so)


def test_a_cut_first_line_starts_again_and_a_whole_first_line_alone_is_continued(tmp_path) -> None:
    whole = tmp_path / "whole.txt"
    run(whole, 2)
    data = whole.read_bytes()
    cut = tmp_path / "cut.txt"
    first_line_end = data.index(b"\n") + 1
    for offset in range(0, first_line_end + 1):
        cut.write_bytes(data[:offset])
        writer, _ = run(cut, 2)
        assert writer.resumed == 0 and cut.read_bytes() == data, offset


def test_an_editor_dropping_the_last_blank_line_keeps_the_pack_resumable(tmp_path) -> None:
    whole = tmp_path / "whole.txt"
    run(whole, 3)
    edited = tmp_path / "edited.txt"
    run(edited, 2)
    edited.write_text(edited.read_text().rstrip("\n") + "\n")
    writer, entries = run(edited, 3)
    assert writer.resumed == 2 and len(entries) == 1 and edited.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("damage, words", [
    (lambda text: text.replace("# puzzle 1:", "# puzzle 7:"), "puzzle 7's, not puzzle 1's"),
    (lambda text: text.replace("seed 1000004", "seed 99"), "puzzle 1 has seed 99"),
    (lambda text: text + "my own word\n", "is not the line of puzzle 2"),
    (lambda text: text.replace("\n\n# puzzle 1", "\nextra\n# puzzle 1"), "blank line after puzzle 0"),
    (lambda text: text.replace("(3 lines)\nqvkqf", "(3 lines)\nqv1qf", 1), "puzzle 0 does not read back"),
    (lambda text: text.replace("(3 lines)\nqvkqf\n", "(3 lines)\n\n", 1), "puzzle 0 does not read back"),
])
def test_a_damaged_file_is_refused_naming_the_problem(tmp_path, damage, words) -> None:
    out = tmp_path / "pack.txt"
    run(out, 2)
    assert "qvkqf" in out.read_text()
    out.write_text(damage(out.read_text()))
    before = out.read_bytes()
    with pytest.raises(PackError, match="cannot resume") as refused:
        run(out, 3)
    assert words in str(refused.value) and str(out) in str(refused.value)
    assert out.read_bytes() == before


def test_a_file_that_is_not_text_or_an_out_that_cannot_be_written_is_refused_in_words(tmp_path) -> None:
    out = tmp_path / "pack.txt"
    out.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PackError, match="cannot resume"):
        run(out, 1)
    with pytest.raises(PackError, match="no folder"):
        run(tmp_path / "no" / "pack.txt", 1)
    with pytest.raises(PackError, match="it is a folder"):
        run(tmp_path, 1)


def test_a_repeat_is_drawn_again_with_the_next_seed_and_the_resume_accepts_it(tmp_path) -> None:
    """Two-letter words of 'a' and 'b' repeat at once: each puzzle is new, some from retried seeds."""
    out = tmp_path / "ab.txt"
    writer, entries = run(out, 4, size=(2,), options={"alphabet": "ab"})
    words = [entry.generated.puzzle for entry in entries]
    assert sorted(words) == ["aa", "ab", "ba", "bb"]
    assert any(entry.generated.seed != puzzle_seed(1, entry.index) for entry in entries), "no repeat was retried"
    assert all(entry.generated.seed in accepted_seeds(1, entry.index) for entry in entries)
    retried = sum(entry.generated.tries for entry in entries)
    assert writer.tally.tries > retried  # the repeats' tries are counted too
    # the retried seeds are this run's: a rerun resumes them, and a fifth word cannot be found
    with pytest.raises(RepeatedPuzzles, match=f"puzzle 4: only repeats .* after {DUPLICATE_RETRIES} seeds"):
        run(out, 5, size=(2,), options={"alphabet": "ab"})
    assert len([w for w in TOY.load(out.read_text()) if not isinstance(w, Exception)]) == 4


def test_a_puzzle_that_cannot_be_made_raises_and_the_finished_ones_stay(tmp_path) -> None:
    out = tmp_path / "pack.txt"
    real = TOY.make

    def failing(size, *, seed, **rest):
        if seed == puzzle_seed(1, 2):
            raise ToyFailed("no word today", tries=5)
        return real(size, seed=seed, **rest)

    family = _with(make=failing)
    writer = PackWriter(PackRequest(family, (5,), count=4, seed=1, out=out))
    made = []
    with pytest.raises(ToyFailed, match="no word today"):
        for entry in writer:
            made.append(entry.index)
    assert made == [0, 1] and writer.tally.tries == 2 + 3 + 5
    full = tmp_path / "full.txt"
    run(full, 2)
    assert out.read_bytes() == full.read_bytes()
    writer, entries = run(out, 4)  # (a rerun, with the family able again, continues)
    assert writer.resumed == 2 and len(entries) == 2


def test_ctrl_c_keeps_what_is_finished_and_the_draws_are_reported(tmp_path) -> None:
    out = tmp_path / "pack.txt"
    real = TOY.make

    def interrupted(size, *, seed, on_try=None, **rest):
        if seed == puzzle_seed(1, 1):
            on_try(1, {"drawn": 1})
            raise KeyboardInterrupt
        return real(size, seed=seed, on_try=on_try, **rest)

    events = []
    writer = PackWriter(PackRequest(_with(make=interrupted), (5,), count=3, seed=1, out=out),
                        on_event=lambda index, note: events.append((index, note, writer.drawing[2])))
    with pytest.raises(KeyboardInterrupt):
        list(writer)
    assert writer.tally.made == 1 and writer.drawing == (1, 1, (1, {"drawn": 1}))
    assert events == [(0, "#0: 1 draws", (1, {"drawn": 1})), (0, "#0: 2 draws", (2, {"drawn": 2})), (1, "#1: 1 draws", (1, {"drawn": 1}))]
    assert run(out, 3)[0].resumed == 1


def test_the_time_limit_is_one_deadline_per_puzzle_repeats_redrawn_included(tmp_path) -> None:
    limits = []
    real = TOY.make

    def watched(size, *, seed, time_limit, **rest):
        limits.append(time_limit)
        return real(size, seed=seed, time_limit=time_limit, **rest)

    writer = PackWriter(PackRequest(_with(make=watched), (2,), count=3, seed=1, options={"alphabet": "ab"}, time_limit=30))
    entries = list(writer)
    per_puzzle = {}
    for limit in limits:
        per_puzzle.setdefault(id(limit), limit)
    assert len(limits) > 3 and len(per_puzzle) == 3  # a repeat redrawn shares its puzzle's deadline
    assert all(25 < limit.remaining() <= 30 for limit in per_puzzle.values()) and len(entries) == 3


def _with(**changes):
    import dataclasses

    return dataclasses.replace(TOY, **changes)


# -- a folder of one file per puzzle --------------------------------------------------------------
def test_a_folder_pack_writes_the_files_then_its_line_and_resumes(tmp_path) -> None:
    out = tmp_path / "set"
    writer, entries = run(out, 2, size=(5, 2))
    assert sorted(os.listdir(out)) == ["answers", "pack.txt", "words"]
    assert sorted(os.listdir(out / "words")) == ["W0000.txt", "W0001.txt"]
    manifest = (out / "pack.txt").read_text().splitlines()
    assert manifest[0] == "# puzzlesat generate toy --size 5x2 --seed 1"
    assert manifest[1].startswith("# puzzle 0: words/W0000.txt, seed 1000003, 2 tries, letters 5")
    assert (out / "words" / "W0001.txt").read_text() == f"{manifest[0]}\n{entries[1].generated.puzzle}\n"
    assert entries[0].files == {"words/W0000.txt": f"{manifest[0]}\n{entries[0].generated.puzzle}\n",
                                "answers/A0000.txt": entries[0].generated.answer + "\n"}
    writer, more = run(out, 3, size=(5, 2))
    assert writer.resumed == 2 and [e.index for e in more] == [2]
    fresh = tmp_path / "fresh"
    run(fresh, 3, size=(5, 2))
    for name in ("pack.txt", "words/W0002.txt", "answers/A0002.txt"):
        assert (fresh / name).read_bytes() == (out / name).read_bytes()


def test_a_folder_pack_refuses_other_settings_damage_and_foreign_folders(tmp_path) -> None:
    out = tmp_path / "set"
    run(out, 2, size=(5, 2))
    with pytest.raises(PackError, match="the first line of pack.txt"):
        run(out, 3, size=(5, 2), seed=2)
    (out / "answers" / "A0001.txt").write_text("wrong\n")
    with pytest.raises(PackError, match=r"puzzle 1: the answer 'wrong' is not"):
        run(out, 3, size=(5, 2))
    os.remove(out / "answers" / "A0001.txt")
    with pytest.raises(PackError, match="puzzle 1: .*A0001.txt"):
        run(out, 3, size=(5, 2))
    manifest = out / "pack.txt"
    manifest.write_text(manifest.read_text()[:-5])
    with pytest.raises(PackError, match="ends in the middle of a line"):
        run(out, 3, size=(5, 2))
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(PackError, match="holds files but no pack.txt"):
        run(foreign, 1, size=(5, 2))
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(PackError, match="is a file"):
        run(afile, 1, size=(5, 2))
    with pytest.raises(PackError, match="no folder"):
        run(tmp_path / "no" / "set", 1, size=(5, 2))


def test_a_folder_whose_last_files_or_line_were_cut_resumes_or_refuses_by_name(tmp_path) -> None:
    """Files are written whole (a temporary name, then renamed) before the puzzle's line: a run
    killed between them leaves files without a line (written again) or a .part file (removed)."""
    whole = tmp_path / "whole"
    run(whole, 3, size=(5, 2))
    out = tmp_path / "set"
    run(out, 2, size=(5, 2))
    (out / "words" / "W0002.txt.part").write_text("half")
    (out / "answers" / "A0002.txt").write_text("stale\n")
    writer, _ = run(out, 3, size=(5, 2))
    assert writer.resumed == 2 and not (out / "words" / "W0002.txt.part").exists()
    for name in ("pack.txt", "words/W0002.txt", "answers/A0002.txt"):
        assert (out / name).read_bytes() == (whole / name).read_bytes()
    data = (whole / "pack.txt").read_bytes()
    start = data.index(b"# puzzle 2:")
    for offset in range(start, len(data) + 1):
        (out / "pack.txt").write_bytes(data[:offset])
        try:
            writer, _ = run(out, 3, size=(5, 2))
        except PackError as error:
            assert "ends in the middle of a line" in str(error) and str(out) in str(error)
            continue
        assert (out / "pack.txt").read_bytes() == data and writer.resumed in (2, 3)


def test_without_out_a_folder_family_yields_each_puzzle_with_its_line() -> None:
    writer, entries = run(None, 2, size=(5, 2))
    assert entries[0].text == "# puzzle 0: seed 1000003, 2 tries, letters 5, not vowel first, codes 1 6 2 1 4\nqvkqf\n\n"
    assert TOY.load(entries[0].text) == [entries[0].generated.puzzle] and set(entries[0].files) == {"words/W0000.txt", "answers/A0000.txt"}
    assert not any(writer.first_line in entry.text for entry in entries)  # (printed once, before the first puzzle)


# -- the command (TEMPORARY adapter of the current cli.py; the new cli/ package takes it over) ----
@pytest.fixture
def toy_registered():
    from puzzlesat import registry

    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.name)


def test_generate_command_writes_resumes_refuses_and_prints_json(tmp_path, capsys, toy_registered) -> None:
    import json

    from puzzlesat.cli import main

    out = tmp_path / "pack.txt"
    assert main(["generate", "toy", "--size", "5", "--count", "2", "--seed", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert printed.out == "" and "2 puzzle(s) written" in printed.err and out.read_text().count("# puzzle ") == 2
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--seed", "4", "--out", str(out), "--json"]) == 0
    printed = capsys.readouterr()
    (record,) = [json.loads(line) for line in printed.out.splitlines()]
    assert (record["index"], record["source"], record["status"]) == (2, str(out), "generated") and "2 already there" in printed.err
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--seed", "5", "--out", str(out)]) == 2
    refused = capsys.readouterr().err
    assert "not written by a run with these settings" in refused and "--seed 4" in refused and "--seed 5" in refused
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--seed", "4", "--upper", "--alphabet", "ab"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# puzzlesat generate toy --size 5 --seed 4 --alphabet ab --upper\n# puzzle 0:")
    assert main(["generate", "toy", "--size", "5", "--out", str(tmp_path / "no" / "p.txt")]) == 2
    assert "no folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["generate", "toy", "--count", "0"])
    with pytest.raises(SystemExit):
        main(["generate", "toy", "--alphabet", "xyz"])
    with pytest.raises(SystemExit):
        main(["generate", "toy", "--certify-limit", "soon"])


def test_generate_command_exits_1_when_a_puzzle_cannot_be_made_and_130_on_ctrl_c(tmp_path, capsys, monkeypatch, toy_registered) -> None:
    from puzzlesat import registry
    from puzzlesat.cli import main

    real = TOY.make

    def failing(size, *, seed, on_try=None, **rest):
        if seed == puzzle_seed(0, 1):
            raise ToyFailed("no word today", tries=4)
        if seed == puzzle_seed(0, 0) and rest["options"].get("upper"):
            on_try(1, {})
            raise KeyboardInterrupt
        return real(size, seed=seed, on_try=on_try, **rest)

    registry.register(_with(make=failing))
    out = tmp_path / "pack.txt"
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "error: puzzle 1: no word today" in err and "1 puzzle(s) written" in err and out.read_text().count("# puzzle ") == 1
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--upper"]) == 130
    assert "interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 1 draws" in capsys.readouterr().err
    registry.register(_with(make=failing, draw_note=lambda tries, info: f"{tries} tries, {len(info)} notes"))
    assert main(["generate", "toy", "--size", "5", "--count", "3", "--upper"]) == 130
    assert "interrupted: 0 puzzle(s) kept; puzzle 0 had drawn: 1 tries, 0 notes" in capsys.readouterr().err


# -- every family of the registry -----------------------------------------------------------------
def _small_requests():
    """A small, quick request of each family that generates (a family missing here fails)."""
    from puzzlesat.registry import families

    small = {"numberlink": [((5, 4), {}), ((4, 4, 2), {}), ((4, 4, 2), {"method": "routing", "allow_empty": True, "lines": 3})],
             "roller": [((6, 5), {"moves": "3-6"})], "swap": [(None, {"difficulty": "easy"})]}
    cases = []
    for family in families():
        if family.name == TOY.name:
            continue
        for size, options in small.get(family.name, [(None, {"<no small request>": True})]):
            cases.append(pytest.param(family, size, options, id=f"{family.name}-{'x'.join(map(str, size or ())) or 'default'}"
                                       + ("-" + "-".join(map(str, options.values())) if options else "")))
    return cases


def _request(family, size, options, count, out, seed=2):
    converted = {}
    for option in (*family.generate_options, *family.options):
        if option.name in options:
            value = options[option.name]
            converted[option.name] = option.convert(value) if isinstance(value, str) and option.convert else value
    assert set(converted) == set(options), f"add a small request for {family.name} to _small_requests"
    return PackRequest(family, size, count=count, seed=seed, options=converted, out=out)


def _pack_bytes(out):
    if os.path.isdir(out):
        return {os.path.relpath(os.path.join(root, name), out): open(os.path.join(root, name), "rb").read()
                for root, _, names in os.walk(out) for name in names}
    return open(out, "rb").read()


@pytest.mark.parametrize("family, size, options", _small_requests())
def test_every_family_writes_resumes_reads_back_and_repeats_its_bytes(tmp_path, family, size, options) -> None:
    import json

    jsonschema = pytest.importorskip("jsonschema")
    out = tmp_path / "pack"
    entries = list(PackWriter(_request(family, size, options, 2, out)))
    writer = PackWriter(_request(family, size, options, 3, out))
    assert writer.resumed == 2
    entries += list(writer)
    fresh = tmp_path / "fresh"
    list(PackWriter(_request(family, size, options, 3, fresh)))
    assert _pack_bytes(fresh) == _pack_bytes(out)
    schema = json.loads((Path(__file__).parent.parent / "docs" / "record.schema.json").read_text())
    for entry in entries:
        record = json.loads(json.dumps(entry.record))
        jsonschema.validate(record, schema)
        assert (record["family"], record["index"], record["status"], record["seed"]) == (family.name, entry.index, "generated", entry.generated.seed)
        assert entry.generated.seed in accepted_seeds(2, entry.index)
    if writer.folder is None:  # the pack reads back as the puzzles made, in order
        read = family.load(out.read_text(), source=str(out), fmt=None, options=dict(_request(family, size, options, 1, None).options))
        def text(puzzle):  # (a reader may name a puzzle after its file, and keep the pack's lines as its comments)
            return [line for line in family.format(puzzle, fmt=family.formats[0].name).splitlines()
                    if not line.startswith(("# name:", "# puzzlesat generate ", "# puzzle "))]

        chosen = dict(_request(family, size, options, 1, None).options)
        alone = [family.load(family.pack_entry(e.generated), source=str(out), fmt=None, options=chosen)[0] for e in entries]
        assert [text(p) for p in read] == [text(p) for p in alone]  # (each entry read alone: the same puzzle, stated answer)
        assert [family.size_text(p) for p in read] == [family.size_text(e.generated.puzzle) for e in entries]
    with pytest.raises(PackError, match="not written by a run with these settings"):
        PackWriter(_request(family, size, options, 4, out, seed=3))


@pytest.mark.parametrize("family, size, options", [case for case in _small_requests() if len(case.values[1] or ()) != 3])
def test_every_family_pack_cut_at_every_byte_of_its_last_puzzle_resumes_or_is_refused(tmp_path, family, size, options) -> None:
    whole = tmp_path / "whole"
    list(PackWriter(_request(family, size, options, 2, whole)))
    data = whole.read_bytes()
    cut = tmp_path / "cut"
    refused = 0
    for offset in range(data.index(b"# puzzle 1:"), len(data) + 1):
        cut.write_bytes(data[:offset])
        try:
            writer = PackWriter(_request(family, size, options, 2, cut))
        except PackError as error:
            assert "ends in the middle of" in str(error) and "puzzle 1" in str(error), (offset, error)
            refused += 1
            continue
        list(writer)
        assert cut.read_bytes() in (data, data[:-1]), offset
    assert refused > 10


def test_the_pack_modules_are_library_code() -> None:
    """No argparse, no printing, no command line: the CLI draws and prints what they return."""
    import ast
    import importlib

    for name in ("puzzlesat.pack", "puzzlesat.packfiles", "puzzlesat.numberlink.multilayer.packing", "puzzlesat.seeds"):
        tree = ast.parse(open(importlib.import_module(name).__file__).read())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        assert "print" not in calls and not any(module == "cli" or module.endswith(".cli") or "puzzlesat.cli" in module
                                                for module in imported), name
        if name != "puzzlesat.seeds":  # (seeds.seed_argument, the --seed converter, moves to cli/ with the new package)
            assert "argparse" not in imported, name


@pytest.mark.parametrize("family, size, options", [case for case in _small_requests() if len(case.values[1] or ()) != 3])
def test_every_family_pack_entry_is_the_same_for_the_same_puzzle_whatever_its_seed(family, size, options) -> None:
    """A pack sees a repeat by its text: an entry naming the seed would let one puzzle in twice."""
    seed = puzzle_seed(123, 4, 5)
    request = _request(family, size, options, 1, None)
    made = family.make(size, seed=seed, time_limit=None, options=dict(request.options))
    assert str(seed) not in family.pack_entry(made)
