"""A toy family for the pack writer's tests: a puzzle is a word of random letters, its answer
the word reversed. ``--size N`` is one word of N letters (a pack file, whose entries hold a
blank line inside them); ``--size NxF`` a pack folder (words/W0000.txt and answers/A0000.txt)."""

from __future__ import annotations

import random

from puzzlesat.errors import ParseError, PuzzlesatError
from puzzlesat.family import Family, Format, Generated, Method, Objective, Option, PackFolder


class ToyFailed(PuzzlesatError):
    def __init__(self, message: str, tries: int = 0) -> None:
        super().__init__(message)
        self.tries = tries


def make(size, *, seed, time_limit=None, options=None, on_try=None):
    options = options or {}
    rng = random.Random(seed)
    letters = "ab" if options.get("alphabet") == "ab" else "abcdefghijklmnopqrstuvwxyz"
    tries = 1 + seed % 3
    for n in range(1, tries + 1):
        if on_try is not None:
            on_try(n, {"drawn": n})
    word = "".join(rng.choice(letters) for _ in range(size[0]))
    if options.get("upper"):
        word = word.upper()
    facts = {"letters": len(word), "vowel_first": word[0].lower() in "aeiou", "codes": [ord(c) % 7 for c in word]}
    return Generated(word, word[::-1], seed, tries, facts, 0.001)


def load(text, *, source=None, fmt=None, options=None):
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        items.append(line if line.isalpha() else ParseError(f"line {number}: {line!r} is not a word", source=source))
    return items


def pack_entry(generated):
    return f"{generated.puzzle}\n\n# answer: {generated.answer}\n"


def check(texts, *, options, sources):
    source = sources[0]
    words = load(texts[0], source=source)
    if len(words) != 1 or isinstance(words[0], Exception):
        raise ParseError(f"{source} does not hold one word")
    if texts[1].strip() != words[0][::-1]:
        raise ValueError(f"the answer {texts[1].strip()!r} is not {words[0]!r} reversed")


FOLDER = PackFolder(
    applies=lambda size: size is not None and len(size) == 2,
    names=lambda index: (f"words/W{index:04d}.txt", f"answers/A{index:04d}.txt"),
    files=lambda generated, index, *, options, first_line: (f"{first_line}\n{generated.puzzle}\n", generated.answer + "\n"),
    check=check,
)

TOY = Family(
    name="toy", summary="a word of random letters; its answer is the word reversed", extensions=(".toy",),
    objective=Objective.UNIQUE, formats=(Format("native", "one word a line"),), methods=(Method("reverse", "exact", "reverse it"),),
    options=(Option("upper", "--upper", "capital letters"),),
    generate_options=(Option("alphabet", "--alphabet", "letters drawn from", kind="choice", default="full", choices=("full", "ab")),
                      Option("certify_limit", "--certify-limit", "seconds per check", kind="value", default=10.0, convert=float)),
    sniff=lambda text: False, load=load, format=lambda puzzle, *, fmt=None: puzzle + "\n", detect_format=lambda text: "native",
    solve_record=lambda puzzle, **_: {"status": "solved", "answer": puzzle[::-1]},
    verify_record=lambda puzzle, **_: {"status": "solved"}, passed=lambda record: True, answer_of=lambda puzzle, record: puzzle[::-1],
    show=lambda puzzle, record, **_: puzzle, render=lambda puzzle, answer=None, *, title="": None, size_text=lambda puzzle: str(len(puzzle)),
    make=make, pack_entry=pack_entry,
    generated_record=lambda generated: {"puzzle": generated.puzzle, "answer": generated.answer, "unique": True},
    pack_folder=FOLDER,
)
