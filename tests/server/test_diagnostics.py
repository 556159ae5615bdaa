"""What a document shows under the cap: a `Listing` shows what adding its
problems one by one shows (server.engine.diagnostics).

The engine adds the findings that stay from one rescore to the next as
listings; the racing property tests compare an engine with a fresh one,
which both list the same way, so the listings are held here to `add`, the
one-by-one way they replace.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorer.problems import Problem, Severity
from server.config import Settings
from server.engine.diagnostics import DiagnosticCap

CODES = ("a-one", "b-off", "c-hint", "d-four")
SETTINGS = {"b-off": None, "c-hint": Severity.HINT}


def random_runs(rng: random.Random) -> list[tuple[int, list[Problem]]]:
    """Runs of problems, each with the line its lines count from."""
    runs, line = [], 0
    for _ in range(rng.randint(1, 12)):
        problems = [Problem(rng.choice(CODES), f"m{k}", k, rng.randrange(3), 9, rng.choice(list(Severity)))
                    for k in range(rng.randint(0, 8))]
        runs.append((line, problems))
        line += 10
    return runs


def shown(cap: DiagnosticCap) -> tuple:
    finished = cap.finish()
    return (Counter(finished), dict(cap.counts), {code: (p.line, p.start) for code, p in cap.first.items()})


@pytest.mark.parametrize("seed", range(40))
def test_listings_show_what_adding_one_by_one_shows(seed):
    rng = random.Random(seed)
    settings = Settings(max_diagnostics=rng.randint(1, 7), severities=SETTINGS)
    runs = random_runs(rng)
    one_by_one, listed = DiagnosticCap(settings), DiagnosticCap(settings)
    for line, problems in runs:
        for p in problems:
            one_by_one.add(p, line)
        listed.add_listing(listed.listing(problems, line))
    assert shown(listed) == shown(one_by_one)
    assert all(p.severity == Severity.HINT for p in listed.problems if p.code == "c-hint")
    assert not any(p.code == "b-off" for p in listed.problems)


@pytest.mark.parametrize("seed", range(40))
def test_a_listing_not_counted_past_the_cap_is_adding_while_there_is_room(seed):
    """``count_past_cap=False`` (the low-confidence diagnostics, summed up
    by their own summary): what adding until the cap is reached shows."""
    rng = random.Random(seed)
    settings = Settings(max_diagnostics=rng.randint(1, 7), severities=SETTINGS)
    one_by_one, listed = DiagnosticCap(settings), DiagnosticCap(settings)
    for line, problems in random_runs(rng):
        for p in problems:
            if one_by_one.wants(p.code):
                one_by_one.add(p, line)
        listed.add_listing(listed.listing(problems, line), count_past_cap=False)
    assert shown(listed) == shown(one_by_one)
