"""Every tuning constant of the Numberlink engine, one line of meaning each; the cases behind
them are in encodings/numberlink.md ("What each rule set runs", "Notes from solve.py", "Solver
options (loaded_solver)"). Strategies read them as ``tuning.NAME`` when they run, so a test can
change one for a run.

>>> WINDOWS[0], FRONTIER_MAX_SIDE
((8, 2000), 18)
"""

from __future__ import annotations

# -- the SAT solver (search.loaded_solver) ---------------------------------------------------------
CADICAL_OPTIONS = {"lucky": 0, "elim": 0}  # CaDiCaL without its lucky phases and elimination: faster first solves
BIG_FORMULA_CLAUSES = 2_000_000  # formulas of more clauses run without CaDiCaL's inprocessing (its bursts overrun limits)
CADICAL_BIG_FORMULA_OPTIONS = {"walk": 0, "probe": 0, "vivify": 0, "subsume": 0, "ternary": 0, "rephase": 0, "compact": 0}  # "no inprocessing"
STRICT_FORMULA_CLAUSES = 60_000  # one-layer cover-all no-self-touch formulas past this run without inprocessing too
CLEANUP_SECONDS_PER_CLAUSE = 1.5e-7  # time kept back before the deadline, per clause, to stop a step and free the formula

# -- the compiled search on small boards (small_board.py) ----------------------------------------------
SMALL_BOARD_CELLS = 800  # cover-all one-layer boards of at most this many cells (40x20) are searched by the compiled sweep first
SMALL_BOARD_NODES = 1_000_000  # no-self-touch count to two: its node budget before the SAT road takes over (chosen: encodings/numberlink.md, "After the compiled small-board search")
SMALL_BOARD_SOLVE_NODES = 300_000  # a first answer (solve, count to one, default rules without touching): its node budget

# -- the first answer (first.py) ---------------------------------------------------------------------
NO_TOUCH_FIRST_SECONDS = 10.0  # default rules: the no-self-touch formula's first answer gets at most this (and half the time)
NO_TOUCH_FIRST_SECONDS_PER_CELL = 2e-5  # ... plus this per cell (20 s per million cells)
COVER_FIRST_SECONDS = 3.0  # may-leave-empty: at most this long (and a sixth of the time) for a covering answer
FILL_MIN_CELLS = 40_000  # default rules on boards of more cells: answers are first drawn without a formula (fill.py)
WALK_MIN_CELLS = 40_000  # cover-all + no-self-touch on boards of more cells: answers are first drawn along the walls (hug.py)
FILL_SECONDS = 20.0  # the drawing (fill or walk; and the drawn window variant) get at most this, and a third of the time left
EMPTY_BOUNDS = (32, 128, 8)  # may-leave-empty: bounds on the empty cells tried beside none (answer_with_few_empty)
EMPTY_COUNTER_MAX_CLAUSES = 4_000_000  # bounds whose totalizer would pass this many clauses are dropped
EMPTY_FIRST_CONFLICTS = 2_000  # the first conflict budget of each try in answer_with_few_empty (doubles each round)

# -- windows (windows.py) ------------------------------------------------------------------------------
WINDOWS = ((8, 2_000), (12, 10_000))  # square windows for a second answer: (cells on a side, conflicts per window)
TOUCH_WINDOWS = ((8, 5_000), (16, 20_000))  # windows where paths may touch themselves, when no answer avoids touching
MAX_WINDOW_CELLS = 40_000  # boards with more cells get no window search (each call assumes every edge outside)
WINDOW_SHARE = 1 / 3  # the share of the time left that one window phase gets
STOP_STEP_CONFLICTS = 1_000  # a window call beside the frontier count asks it every this many conflicts (about 50 ms)
LABEL_WINDOW_LABELS = 3  # the most labels whose paths one label window frees
LABEL_WINDOW_CONFLICTS = 3_000  # conflict budget of one label-window call
LABEL_WINDOW_AFTER = 0.5  # seconds the global search has on its own before the label windows
WIDE_WINDOWS = ((16, 30_000), (20, 60_000), (24, 100_000))  # larger squares (sides below the board's), tried while a global search runs beside and this core would wait

# -- the complete deciders (frontier_race.py, global_sat.py) -------------------------------------------
ORIENT_MAX_CELLS = 40_000  # boards with more cells get no direction variables (they cost more than they save there)
FRESH_PROOF_MAX_CELLS = 4_096  # the global proof in turn after the windows gets a fresh solver on boards of at most this many cells
FRONTIER_MAX_SIDE = 18  # boards at most this many cells across get the exact frontier count
FRONTIER_DELAY = 0.05  # seconds SAT has alone after the first answer before the count starts
FRONTIER_REVERSE_AFTER = 1.0  # seconds of the forward count before the reverse one starts
FRONTIER_REVERSE_MAX_STATES = 4_000_000  # the reverse count gives up past this many children in a step
FRONTIER_SAT_FIRST = 1.0  # without fork: SAT's seconds (at most a quarter of the time left) before the count (encodings/numberlink.md, "Frontier count in turn")
FRONTIER_POLL_SECONDS = 0.1  # length of a global-search step beside the count
FRONTIER_SHARE = 0.9  # without fork: the count's share of the time left

# -- after an undecided default-rules count (without_touch.py) -----------------------------------------
WITHOUT_TOUCH_SECONDS = 0.5  # the no-self-touch uniqueness check may take at most this past the time limit (within N + 1 s in all)
WITHOUT_TOUCH_MAX_CELLS = 40_000  # and runs only on boards of at most this many cells (its formula is cheap there)

# -- the public verbs (solve.py) ------------------------------------------------------------------------
CHILD_PROCESS_CELLS = 250_000  # boards with more cells are solved in a child process under a time limit
