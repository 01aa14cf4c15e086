"""SIGKILL at random moments (seeded): no process of a killed ``puzzlesat`` command outlives it,
and a ``generate --out`` pack killed and resumed holds the bytes of one never interrupted.

Each command runs in a process forked from this one (the command line's ``main``, with nothing
to import first, so a kill lands in the work rather than in start-up) that starts a session of
its own: every process it makes is in that session, even once the command is killed and they
are handed to another parent, so ``/proc`` tells which are left. Only the command's own process
is killed, as a user's ``kill -9`` would.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from benchmarks import _command_runs as command_runs
from puzzlesat.child import can_fork

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux") or not can_fork(),
                                                   reason="needs fork and /proc")]

KILLS = 20
AT_ONCE = 4  # commands running side by side
SETTLE_SECONDS = 10.0  # how long the processes of a killed command may take to end


def _inputs(folder: Path) -> dict[str, str]:
    """Input files whose commands make processes: boards past each family's child-process size,
    files of several puzzles for two workers."""
    texts = {"big.nl": command_runs.two_labels(502), "big.roller": command_runs.roller_level(150, seed=2),
             "big.swap": command_runs.swap_level(9, seed=2),
             "four.nl": "\n".join([command_runs.two_labels(200)] * 4),
             "four.roller": "\n".join(command_runs.roller_level(150, seed=seed) for seed in range(4)),
             "four.swap": "---\n".join(command_runs.swap_level(9, seed=seed) for seed in range(4))}
    for name, text in texts.items():
        (folder / name).write_text(text)
    return texts


COMMANDS = [  # for each family: a solve that forks its solver, a generate, a verify with two workers
    ["solve", "big.nl", "--time-limit", "60"],
    ["generate", "numberlink", "--size", "10x10", "--count", "200", "--seed", "1", "-j", "2"],
    ["verify", "-j", "2", "four.nl", "--time-limit", "60"],
    ["solve", "big.roller", "--time-limit", "60"],
    ["generate", "roller", "--size", "10x10", "--count", "200", "--seed", "1", "-j", "2"],
    ["verify", "-j", "2", "four.roller", "--time-limit", "60"],
    ["solve", "big.swap", "--time-limit", "60"],
    ["generate", "swap", "--count", "20", "--seed", "1"],
    ["verify", "-j", "2", "four.swap", "--time-limit", "60"],
]


@pytest.fixture(autouse=True)
def _solvers_imported() -> None:
    """The families' solvers imported here first, so that a forked command does not spend its
    first second importing OR-Tools."""
    import puzzlesat.numberlink.solve  # noqa: F401
    import puzzlesat.roller.flow  # noqa: F401
    import puzzlesat.swap.cpsat  # noqa: F401


def _start(arguments: list[str], folder: Path) -> int:
    """``puzzlesat ARGUMENTS`` in a forked process leading a new session (its pid: the
    session's id), in ``folder``, its output thrown away."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.setsid()
        os.chdir(folder)
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        sys.stdout = sys.stderr = open(os.devnull, "w")
        from puzzlesat.cli import main

        code = main(arguments) or 0
    finally:
        os._exit(code)


def _session(session: int) -> list[int]:
    """The live processes of a session (a zombie, dead but not yet reaped, is not one)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            found.append(int(name))
    return found


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_no_process_outlives_a_command_killed_at_a_random_moment(tmp_path) -> None:
    """20 SIGKILLs across the three families' solve, generate and verify -j 2, each at a random
    moment within a second after the command's first helper process started."""
    _inputs(tmp_path)
    rng = random.Random(45)
    plan = [(COMMANDS[k % len(COMMANDS)], rng.uniform(0.0, 1.0)) for k in range(KILLS)]
    running: dict[int, dict] = {}  # pid -> {"arguments", "delay", "started", "helpers_at"}
    killed: list[tuple[int, list[str], int]] = []  # (session, arguments, processes when killed)
    try:
        while plan or running:
            while plan and len(running) < AT_ONCE:
                arguments, delay = plan.pop(0)
                pid = _start(arguments, tmp_path)
                running[pid] = {"arguments": arguments, "delay": delay, "started": time.monotonic(), "helpers_at": None}
            for pid, run in list(running.items()):
                members = _session(pid)
                now = time.monotonic()
                if run["helpers_at"] is None and len(members) > 1:
                    run["helpers_at"] = now
                ended = os.waitpid(pid, os.WNOHANG)[0] == pid
                due = run["helpers_at"] is not None and now >= run["helpers_at"] + run["delay"]
                if ended or due or now - run["started"] > 60:
                    if not ended:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                    killed.append((pid, run["arguments"], 0 if ended else len(members)))
                    del running[pid]
            time.sleep(0.02)
        ends = time.monotonic() + SETTLE_SECONDS
        left = {session: _session(session) for session, _, _ in killed}
        while any(left.values()) and time.monotonic() < ends:
            time.sleep(0.1)
            left = {session: _session(session) for session in left}
        survivors = {" ".join(arguments): left[session] for session, arguments, _ in killed if left[session]}
        assert not survivors, f"processes outlived their killed command: {survivors}"
        with_helpers = sum(processes > 1 for _, _, processes in killed)
        assert with_helpers >= KILLS * 3 // 4, f"only {with_helpers} of {KILLS} kills found helper processes running"
    finally:
        _kill_all(list(running))
        for session, _, _ in killed:
            _kill_all(_session(session))
        for pid in running:
            os.waitpid(pid, 0)


PACKS = [  # (family, settings): small packs written while the kills land
    ("numberlink", ["--size", "8x8", "--count", "24", "--seed", "3"]),
    ("roller", ["--size", "7x7", "--count", "4", "--seed", "3"]),
    ("swap", ["--difficulty", "easy", "--count", "4", "--seed", "3"]),
    ("numberlink", ["--size", "8x8", "--count", "24", "--seed", "3", "-j", "2"]),
]


def _run_to_end(arguments: list[str], folder: Path, *, kill_after: float | None = None, out: Path | None = None) -> float:
    """Run a command to its end (or SIGKILL it ``kill_after`` seconds after ``out`` first holds
    a byte); its seconds from that first byte to its end (or kill)."""
    pid = _start(arguments, folder)
    written_at = None
    try:
        while os.waitpid(pid, os.WNOHANG)[0] != pid:
            if written_at is None and out is not None and out.exists() and out.stat().st_size:
                written_at = time.monotonic()
            if kill_after is not None and written_at is not None and time.monotonic() >= written_at + kill_after:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.01)
        else:
            pid = 0
    finally:
        if pid:
            _kill_all(_session(pid))
    return 0.0 if written_at is None else time.monotonic() - written_at


def test_a_pack_killed_at_a_random_moment_resumes_to_the_bytes_of_one_never_killed(tmp_path) -> None:
    rng = random.Random(4545)
    references: dict[str, tuple[bytes, float]] = {}
    cut_short = 0  # kills that left the pack unfinished (the others landed after its last byte)
    for family, settings in PACKS:
        key = " ".join([family, *[word for word in settings if word not in ("-j", "2")]])
        if key not in references:
            whole = tmp_path / f"whole-{len(references)}.txt"
            writing = _run_to_end(["generate", family, *settings, "--out", str(whole)], tmp_path, out=whole)
            references[key] = (whole.read_bytes(), writing)
        expected, writing = references[key]
        cut = tmp_path / f"cut-{family}.txt"
        cut.unlink(missing_ok=True)
        moment = rng.uniform(0.0, writing)
        _run_to_end(["generate", family, *settings, "--out", str(cut)], tmp_path, kill_after=moment, out=cut)
        cut_short += cut.read_bytes() != expected
        _run_to_end(["generate", family, *settings, "--out", str(cut)], tmp_path)
        assert cut.read_bytes() == expected, (family, settings, f"killed {moment:.2f} s into writing")
    assert cut_short >= 1, "no kill landed while a pack was being written"
