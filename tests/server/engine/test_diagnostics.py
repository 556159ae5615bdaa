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

from annoscore.scorer.problems import Problem, Severity
from annoscore.server.config import Settings
from annoscore.server.engine.diagnostics import DiagnosticCap

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
@pytest.mark.parametrize("per_document", [False, True])
def test_a_listing_not_counted_past_the_cap_is_adding_while_there_is_room(seed, per_document):
    """``count_past_cap=False`` (the low-confidence diagnostics, summed up
    by their own summary): what adding until the cap is reached shows,
    also with a limit per document that cuts them."""
    rng = random.Random(seed)
    settings = Settings(max_diagnostics=rng.randint(1, 7), severities=SETTINGS,
                        max_diagnostics_per_document=rng.randint(1, 12) if per_document else 1000)
    one_by_one, listed = DiagnosticCap(settings), DiagnosticCap(settings)
    for line, problems in random_runs(rng):
        for p in problems:
            if one_by_one.wants(p.code):
                one_by_one.add(p, line)
        listed.add_listing(listed.listing(problems, line), count_past_cap=False)
    assert shown(listed) == shown(one_by_one)


# --- the limit per document ---------------------------------------------------------

def limited(rng: random.Random) -> Settings:
    return Settings(max_diagnostics=rng.randint(1, 7), max_diagnostics_per_document=rng.randint(1, 30),
                    severities=SETTINGS)


def reference(settings: Settings, runs) -> tuple[Counter, Counter]:
    """What the two bounds mean, the slow way: the candidates (the first
    `cap` of each code), ranked by severity, line, column, arrival; as many
    shown as leave room for a summary of each code with some not shown.
    Returns the problems shown and, per code, how many are not."""
    from annoscore.server.config import severity_for
    candidates, counts = [], Counter()
    for line, problems in runs:
        for p in problems:
            s = severity_for(settings, p.code, p.severity)
            if s is None:
                continue
            counts[p.code] += 1
            if counts[p.code] <= settings.max_diagnostics:
                candidates.append(p.moved(line, s))
    ranked = [p for _, p in sorted(enumerate(candidates), key=lambda kp: (
        kp[1].severity, kp[1].line, kp[1].start, kp[0]))]
    for room in range(len(ranked), -1, -1):
        shown = Counter(p.code for p in ranked[:room])
        hidden = Counter({code: n - shown[code] for code, n in counts.items() if n > shown[code]})
        if room + len(hidden) <= settings.max_diagnostics_per_document:
            break
    return Counter(ranked[:room]), hidden


def split(finished: list[Problem]) -> tuple[Counter, Counter]:
    """The problems shown, and the numbers the summaries give per code."""
    summaries = [p for p in finished if " more " in p.message]
    assert len({p.code for p in summaries}) == len(summaries)  # one per code
    return (Counter(p for p in finished if " more " not in p.message),
            Counter({p.code: int(p.message.split()[0]) for p in summaries}))


@pytest.mark.parametrize("seed", range(60))
def test_the_limit_shows_the_best_ranked_candidates_and_sums_up_the_rest(seed):
    """One by one, as listings, and counted past the cap and the limit
    (`saturated`, as the pair problems are added): what the two bounds mean."""
    rng = random.Random(seed)
    settings = limited(rng)
    runs = random_runs(rng) + random_runs(rng)  # (the second runs go back to the top)
    one_by_one, listed, counted = DiagnosticCap(settings), DiagnosticCap(settings), DiagnosticCap(settings)
    for line, problems in runs:
        for p in problems:
            one_by_one.add(p, line)
        listed.add_listing(listed.listing(problems, line))
        if not counted.saturated(problems, line):
            for p in problems:
                counted.add(p, line)
    expected = reference(settings, runs)
    for cap in (one_by_one, listed, counted):
        finished = cap.finish()
        assert split(finished) == expected
        assert len(finished) <= settings.max_diagnostics_per_document or not expected[0]
        kept = [p for p in finished if " more " not in p.message]
        assert kept == sorted(kept, key=lambda p: (p.line, p.start))
        unordered = cap.finish(ordered=False)
        assert Counter(unordered) == Counter(finished)


def test_the_limit_keeps_errors_before_warnings_and_the_top_of_the_document_first():
    settings = Settings(max_diagnostics=100, max_diagnostics_per_document=6)
    cap = DiagnosticCap(settings)
    for line in range(20):  # hints on every line, then warnings, then errors from the bottom up
        cap.add(Problem("a-hint", "h", line, 0, 1, Severity.HINT))
    cap.add_listing(cap.listing([Problem("b-warning", "w", line, 0, 1, Severity.WARNING) for line in range(10)]))
    for line in reversed(range(30)):
        cap.add(Problem("c-error", "e", line, 0, 1, Severity.ERROR))
    finished = cap.finish()
    # Three summaries (every code has some not shown) leave room for the three first errors.
    assert [(p.code, p.line) for p in finished[:3]] == [("c-error", 0), ("c-error", 1), ("c-error", 2)]
    assert {p.code: p.message.split()[0] for p in finished[3:]} == {"a-hint": "20", "b-warning": "10",
                                                                    "c-error": "27"}
    assert all("per document" in p.message for p in finished[3:])
    # Each summary sits at the first of its code.
    assert {p.code: p.line for p in finished[3:]} == {"a-hint": 0, "b-warning": 0, "c-error": 29}


def test_within_the_limit_nothing_changes():
    """Up to the limit, what the cap per code alone shows (and says)."""
    rng = random.Random(7)
    runs = random_runs(rng) + random_runs(rng)
    for cap in (1, 3):
        wide = DiagnosticCap(Settings(max_diagnostics=cap, max_diagnostics_per_document=10_000,
                                      severities=SETTINGS))
        for line, problems in runs:
            wide.add_listing(wide.listing(problems, line))
        finished = wide.finish()
        exact = DiagnosticCap(Settings(max_diagnostics=cap, max_diagnostics_per_document=len(finished),
                                       severities=SETTINGS))
        for line, problems in runs:
            exact.add_listing(exact.listing(problems, line))
        assert exact.finish() == finished
        assert not any("per document" in p.message for p in finished)


@pytest.mark.parametrize("limit", [40, 300])
def test_a_document_shows_its_best_ranked_diagnostics_within_the_limit(tmp_path, limit):
    """A generated noisy pair (gold disagreements, low confidence, refused
    trees, the UD validator's findings): within the limit, the diagnostics
    that rank first of everything the document has, and for each code as
    many summed up as are left out (low-confidence cells as cells)."""
    from tests.server.engine.test_seek import with_confidences
    from tests.support.treebank_maker import make_gold, make_prediction

    from annoscore.server.engine import Engine

    gold = make_gold(tmp_path / "x.gold.conllu", seed=11, sentences=80)
    pred = make_prediction(gold, tmp_path / "x.conllu", seed=12, merge=0.1, cycle=True)
    text = with_confidences(pred.read_text(encoding="utf-8"), seed=13)
    path = str(pred)

    def shown(settings: Settings, ordered: bool = True) -> list[Problem]:
        engine = Engine(str(tmp_path), settings)
        engine.open(path, path, text, 1)
        engine.rescore(path)
        return engine.diagnostics(path, ordered)

    everything = shown(Settings(max_diagnostics=10**9, max_diagnostics_per_document=10**9, gold_diff=True))
    assert len(everything) > 3 * limit and len({p.severity for p in everything}) >= 3
    settings = Settings(max_diagnostics=10**9, max_diagnostics_per_document=limit, gold_diff=True)
    finished = shown(settings)
    kept, summed_up = split(finished)
    assert len(finished) == limit
    assert not kept - Counter(everything)  # each one shown is one of the document's
    def rank(p: Problem) -> tuple:
        return (p.severity, p.line, p.start)

    left_out = Counter(everything) - kept
    assert min(map(rank, left_out)) >= max(map(rank, kept))
    # (low confidence is summed up in cells: a diagnostic per word names its cells)
    expected = Counter(p.code for p in left_out.elements() if p.code != "low-confidence")
    expected["low-confidence"] = sum(p.datum("cells", 1) for p in left_out.elements() if p.code == "low-confidence")
    assert summed_up == +expected and expected["low-confidence"] > 0
    assert Counter(shown(settings, ordered=False)) == Counter(finished)


@pytest.mark.parametrize("seed", range(40))
def test_a_tally_counts_what_adding_its_listings_one_by_one_counts(seed):
    """`DiagnosticCap.tally` and `count_tally` (the validator's pages past
    the limit, counted a run at a time): when the run's best is outranked
    they count exactly what `add_listing` of each listing counts (counts,
    first problems, what is finished); otherwise they do nothing."""
    rng = random.Random(seed)
    settings = Settings(max_diagnostics=rng.randint(1, 7), max_diagnostics_per_document=rng.randint(1, 6),
                        severities=SETTINGS)
    before, runs = random_runs(rng), random_runs(rng)
    one_by_one, tallied = DiagnosticCap(settings), DiagnosticCap(settings)
    for line, problems in before:
        for cap in (one_by_one, tallied):
            cap.add_listing(cap.listing(problems, line))
    listings = [tallied.listing(problems, line + 200) for line, problems in runs]
    state = shown(tallied)
    best = min((ls.best for ls in listings if ls.best is not None), default=None)
    outranked = best is not None and tallied.heap is not None and tallied._outranked(*best)
    counted = tallied.count_tally(DiagnosticCap.tally(listings))
    if not counted:
        assert shown(tallied) == state
        for listing in listings:
            tallied.add_listing(listing)
    for listing in listings:
        one_by_one.add_listing(listing)
    assert shown(tallied) == shown(one_by_one)
    assert counted == outranked
