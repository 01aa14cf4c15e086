"""One small puzzle per built-in family, in its native text, for the generic tests, with the
length of its answer where the family minimises moves (a unique-answer family: None). A new
family adds its sample here (the contract test says so when it is missing)."""

SAMPLES = {
    "numberlink": ("...B\n.A..\n..BA", None),
    "roller": ("#####\n#o..#\n#.#.#\n#...#\n#####", 4),
    "swap": ("start\nT1R T1G\nT1G T1R\ngoal\nR G\nR G", 1),
}

# A small, quick ``generate FAMILY`` run per family (the size and settings it needs).
GENERATE = {
    "numberlink": ["--size", "5x5"],
    "roller": ["--size", "5x5"],
    "swap": ["--size", "3x3"],
}
