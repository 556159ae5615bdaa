"""A pytest plugin for tests/project/test_tiers.py: after collection, one
line per test with the kinds it was given (``-p tests.support.kinds_report``),
so one collection of the suite tells every marker's selection."""

from __future__ import annotations

from tests.support.tiers import MARKERS


def pytest_collection_finish(session) -> None:
    for item in session.items:
        kinds = sorted({mark.name for mark in item.iter_markers() if mark.name in MARKERS})
        print(f"KINDS {item.nodeid} {','.join(kinds)}")
