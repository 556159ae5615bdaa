"""Validating payloads against the protocol's JSON Schemas (server/lsp/schemas)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from annoscore.server.lsp import schemas


@lru_cache(maxsize=1)
def registry() -> Registry:
    """Every schema under its $id, so that the files' relative $refs (common.json#/…) resolve."""
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.schemas().values())


@lru_cache(maxsize=None)
def validator(method: str, part: str) -> Draft202012Validator:
    name = schemas.methods()[(method, part)]
    return Draft202012Validator(schemas.schemas()[name], registry=registry())


def problems(method: str, part: str, instance: Any) -> list[str]:
    """What the schema of a method's part finds wrong with the instance (JSON as sent)."""
    return [_said(error) for error in sorted(validator(method, part).iter_errors(instance),
                                             key=lambda e: list(map(str, e.path)))]


def _said(error: ValidationError) -> str:
    """The error in one line; for anyOf/oneOf, the deepest error of its branches (the branch
    that fits best), not the whole payload."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    where = "/".join(map(str, error.absolute_path)) or "(top)"
    message = error.message if len(error.message) <= 200 else error.message[:200] + " …"
    return f"{where}: {message}"


def check(method: str, part: str, instance: Any) -> None:
    found = problems(method, part, instance)
    assert not found, f"{method} {part} does not fit {schemas.file_of(method, part)}:\n  " + "\n  ".join(found[:10])
