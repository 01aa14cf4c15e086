"""The certificate commands (issue #44): ``puzzlesat export FILE --cnf OUT.cnf`` (a puzzle as
one DIMACS formula, ``puzzlesat.certify.export_formula``), ``--proof DIR`` on solve and verify
(:func:`proof_of`: one certificate folder per puzzle, carried by its batch job and written by
``puzzlesat.certify.certify_record`` where the puzzle is solved)
and ``puzzlesat check-proof DIR`` (``puzzlesat.proofcheck``, the independent checker). Nothing
here names a family: what a family certifies is its record's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Callable

from ..certify import export_formula
from ..certify.tools import MANIFEST
from ..errors import PuzzlesatError
from ..proofcheck import check_tree
from .arguments import seconds_argument
from .inputs import family_options, one_puzzle

EXAMPLES = {
    "export": "example: puzzlesat export puzzle.txt --cnf puzzle.cnf --exclude-answer",
    "check-proof": "example: puzzlesat solve puzzle.txt --proof certs/ && puzzlesat check-proof certs/",
}


def moves_argument(text: str) -> int:
    """``--moves``: a whole number of 0 or more."""
    stripped = text.strip()
    if not (stripped.isdigit() and stripped.isascii() and len(stripped) <= 9):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 0 or more")
    return int(stripped)


def add_parsers(sub: argparse._SubParsersAction, add_common_options: Callable[..., None]) -> None:
    """The ``export`` and ``check-proof`` commands (``add_common_options``: the main parser's)."""
    p = sub.add_parser("export", help="write a puzzle as one DIMACS CNF formula whose comment lines name every variable",
                       epilog=EXAMPLES["export"])
    p.add_argument("input", metavar="FILE_OR_URL")
    p.add_argument("--cnf", required=True, metavar="OUT.cnf", help="the DIMACS file to write ('-': standard output)")
    p.add_argument("--exclude-answer", action="store_true",
                   help="unique-answer families: block the first answer, so the formula is unsatisfiable exactly when it is unique")
    p.add_argument("--moves", type=moves_argument, default=None, metavar="K",
                   help="fewest-moves families: the formula says 'at most K moves' (default: the proven minimum)")
    add_common_options(p, json_lines=False)
    p.set_defaults(run=command_export)

    p = sub.add_parser("check-proof", help="check the certificates below a folder with the independent checker",
                       epilog=EXAMPLES["check-proof"])
    p.add_argument("folder", metavar="DIR", help="a certificate folder, or a folder holding several (solve --proof DIR)")
    p.add_argument("--json", action="store_true", help="print one JSON object per certificate")
    p.add_argument("--time-limit", type=seconds_argument, default=None, metavar="S", help="seconds allowed per proof's replay")
    p.set_defaults(run=command_check_proof)


def add_proof_flag(p: argparse.ArgumentParser) -> None:
    """``--proof DIR`` on solve and verify."""
    p.add_argument("--proof", metavar="DIR", default=None,
                   help="write a checkable certificate of each claim (unique, minimum, unsolvable) into DIR, one folder "
                        "per puzzle; the record says which claim is certified or why not (check: puzzlesat check-proof DIR)")


def proof_folder(root: str, source: str, index: int) -> str:
    """The certificate folder of puzzle ``index`` of ``source`` below ``root``.

    >>> proof_folder("certs", "examples/numberlink/first 5x5.nl", 0)
    'certs/examples_numberlink_first_5x5.nl-0'
    """
    if "://" not in source and os.path.isabs(source) and not os.path.relpath(source).startswith(".."):
        source = os.path.relpath(source)  # (a file below the working folder: the folder's name as given relative)
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", source.replace("\\", "/").strip("/")).strip("._") or "puzzle"
    return os.path.join(root, f"{name[-120:]}-{index}")


def proof_of(args: argparse.Namespace, source: str, index: int | None) -> str | None:
    """With ``--proof DIR``: the certificate folder of puzzle ``index`` of ``source``, which its
    job carries, so that the certificate is made where the puzzle is solved (the batch engine's
    worker under ``-j``); else None."""
    root = getattr(args, "proof", None)
    return None if root is None else proof_folder(root, source, index or 0)


def certificate_line(record: dict[str, Any]) -> str:
    """The line a person reads under a record of ``--proof``.

    >>> certificate_line({"certificate": "certs/a.nl-0", "certificate_claim": "unique", "certificate_reason": None})
    '  certificate of unique: certs/a.nl-0 (check: puzzlesat check-proof certs/a.nl-0)'
    >>> certificate_line({"certificate": None, "certificate_claim": "minimum", "certificate_reason": "out of time"})
    '  no certificate of minimum: out of time'
    """
    claim = record.get("certificate_claim") or "a claim"
    if record.get("certificate"):
        return f"  certificate of {claim}: {record['certificate']} (check: puzzlesat check-proof {record['certificate']})"
    return f"  no certificate of {claim}: {record.get('certificate_reason')}"


def command_export(args: argparse.Namespace) -> int:
    chosen = one_puzzle(args, verb="export")
    if chosen is None:
        return 2
    family, _, puzzle = chosen
    try:
        cnf = export_formula(puzzle, family=family.name, options=family_options(family, args), moves=args.moves,
                             exclude_answer=args.exclude_answer, time_limit=args.time_limit)
    except (PuzzlesatError, ValueError) as exc:
        print(f"error: cannot export {args.input}: {exc}", file=sys.stderr)
        return 2
    if args.cnf == "-":
        cnf.to_fp(sys.stdout)
        return 0
    try:
        cnf.to_file(args.cnf)
    except OSError as exc:
        print(f"error: cannot write {args.cnf}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.cnf} ({cnf.nv} variables, {len(cnf.clauses)} clauses; {cnf.comments[0][2:]})", file=sys.stderr)
    return 0


def command_check_proof(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.folder):
        print(f"error: {args.folder} is not a folder", file=sys.stderr)
        return 2
    checks = check_tree(args.folder, time_limit=args.time_limit)
    for check in checks:
        if args.json:
            print(json.dumps(check.as_record()), flush=True)
        else:
            verdict = "confirmed" if check.confirmed else "NOT confirmed"
            print(f"{check.directory}: {check.family or '?'} {check.claim or '?'}: {verdict}: {check.reason}", flush=True)
    confirmed = sum(check.confirmed for check in checks)
    if not checks:
        print(f"no certificate ({MANIFEST}) found in {args.folder}", file=sys.stderr)
    else:
        print(f"{len(checks)} certificate(s): {confirmed} confirmed, {len(checks) - confirmed} not confirmed",
              file=sys.stderr if args.json else sys.stdout)
    return 0 if checks and confirmed == len(checks) else 1
