"""Certificates of the claims that rest on unsatisfiability (see :mod:`.certificate`); the
checker that replays them is :mod:`puzzlesat.proofcheck`, which shares no code with this."""

from .certificate import certify, certify_record, export_formula, record_fields

__all__ = ["certify", "certify_record", "export_formula", "record_fields"]
