"""The record schema (docs/record.schema.json) as a validator the tests share."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"


@lru_cache(maxsize=1)
def validator():
    import jsonschema

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_valid(record: dict) -> None:
    """Fail naming every key of ``record`` that breaks the schema."""
    problems = [f"{'/'.join(map(str, e.absolute_path)) or '(record)'}: {e.message}" for e in validator().iter_errors(record)]
    assert not problems, f"record of {record.get('family')} {record.get('source')} breaks the schema: " + "; ".join(problems)
