"""Shared fixtures and the hooks that give each test its kind.

The helpers live in the ``tests.support`` package (``tests.support.data``:
the shared treebanks, ``write``, ``conllu``, ``official_counts``, ``mkpred``).
Tests that need the material in ``../shared`` (real treebanks, system
outputs, litsea files, mkpred.py) use the ``shared`` fixture, which skips
them with a clear reason when that folder is absent (a user's fresh clone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.data import ROOT, shared_path
from tests.support.tiers import MARKERS, SLOW_KINDS, kinds_of

# The cache of large documents' validation is off in the tests: a test of the helpers or of
# the validator must validate, not find last run's result.  The cache's own
# tests (tests/server/engine/test_validation_cache.py) turn it on in a folder of theirs.
os.environ["ANNOSCORE_NO_CACHE"] = "1"


def pytest_configure(config):
    for name, doc in MARKERS.items():  # registered here, from the one table (--strict-markers)
        config.addinivalue_line("markers", f"{name}: {doc}")
    # The official tools' results, shared by the workers and kept between
    # runs, in the user's cache folder (tests/support/oracle_cache.py:
    # keyed by every byte they depend on; ANNOSCORE_ORACLE_CACHE=off: per process).
    from tests.support import oracle_cache

    oracle_cache.configure(oracle_cache.default_folder())


def pytest_collection_modifyitems(config, items):
    for item in items:
        kinds = kinds_of(Path(str(item.path)).relative_to(ROOT))
        kinds |= {mark.name for mark in item.iter_markers() if mark.name in SLOW_KINDS}
        for kind in sorted(kinds):
            item.add_marker(kind)
        if kinds or item.get_closest_marker("slow"):
            item.add_marker("slow")
        else:
            item.add_marker("unit")


@pytest.fixture
def shared():
    return shared_path
