"""Segmentation and label files in the engine (filled in with issue 3's scorers)."""

from __future__ import annotations

from typing import Any


def rescore(engine, document) -> list[str]:
    return [document.key]


def diagnostics(engine, document) -> list:
    return []


def score(engine, document) -> dict[str, Any] | None:
    return None


def report(engine, document) -> str | None:
    return None
