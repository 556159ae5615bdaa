"""Paired tests with sentences as the unit (scorer/significance.py), held to
slow references written here, on pairs made from a seed (no ../shared)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from annoscore.scorer.conllu.counts import Counts, metric_columns
from annoscore.scorer.conllu.evaluate import ConlluOptions, Unit, evaluate_files
from annoscore.scorer.significance import (
    PairedUnits, approximate_randomization, pair_units, paired_bootstrap,
)
from tests.support.treebank_maker import make_gold, make_prediction


def _units(pred, gold, bulk=True):
    return evaluate_files(pred, gold, ConlluOptions(units=True), bulk=bulk)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sig")
    gold = make_gold(d / "gold.conllu", 11, 50)
    a = make_prediction(gold, d / "a.conllu", 1, noise=0.2, merge=0.1, drop=0.04)
    b = make_prediction(gold, d / "b.conllu", 2, noise=0.1, cycle=True)
    return gold, a, b


def test_units_add_up_to_the_counts_in_both_lanes(files):
    gold, a, _ = files
    fast, slow = _units(a, gold), _units(a, gold, bulk=False)
    for result in (fast, slow):
        total = Counts()
        for unit in result.units:
            total += unit.counts
        assert total == result.counts
    assert fast.counts == slow.counts == evaluate_files(a, gold).counts
    assert {u.gold: u.counts for u in fast.units} == {u.gold: u.counts for u in slow.units}
    # The merged sentences make units of two gold sentences; dropped ones are units of their own.
    assert any(len(u.gold) == 2 for u in fast.units)
    from annoscore.scorer.conllu.counts import WORDS_SYSTEM
    alone = [u for u in fast.units if len(u.gold) == 1 and u.counts.values[WORDS_SYSTEM] == 0]
    assert fast.missing.count and len(alone) == fast.missing.count


def test_pair_units_lines_up_both_systems_on_gold(files):
    gold, a, b = files
    ua, ub = _units(a, gold).units, _units(b, gold).units
    paired = pair_units(ua, ub, "t")
    assert paired.a.sum(axis=0).tolist() == sum((u.counts for u in ua), Counts()).values
    assert paired.b.sum(axis=0).tolist() == sum((u.counts for u in ub), Counts()).values
    joined = {u.gold for u in ua if len(u.gold) > 1} | {u.gold for u in ub if len(u.gold) > 1}
    sentences = evaluate_files(a, gold).gold_sentences
    assert paired.size == sentences - sum(len(g) - 1 for g in joined)


def test_a_unit_without_gold_goes_with_the_one_before():
    def counts(k):
        return Counts([k] * 29)
    a = [Unit((), counts(1)), Unit((0,), counts(2)), Unit((), counts(4)), Unit((1, 2), counts(8))]
    b = [Unit((0,), counts(16)), Unit((1,), counts(32)), Unit((2,), counts(64))]
    paired = pair_units(a, b)
    assert paired.a[:, 0].tolist() == [1 + 2 + 4, 8]
    assert paired.b[:, 0].tolist() == [16, 32 + 64]


# --- slow references -----------------------------------------------------------


def _f1(c, g, s):
    return 2 * c / (g + s) if g + s else 0.0


def _sums(rows, picks, columns):
    return [sum(rows[i][c] for i in picks) for c in columns]


def _percentile(values, q):
    ordered = sorted(values)
    position = q / 100 * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def reference_bootstrap(tables, metric, samples, seed):
    columns = metric_columns(metric)
    differences = [0.0] * samples
    observed = 0.0
    for t, (a, b) in enumerate(tables):
        a, b = a.tolist(), b.tolist()
        n = len(a)
        observed += (_f1(*_sums(a, range(n), columns)) - _f1(*_sums(b, range(n), columns))) / len(tables)
        rng = np.random.default_rng([seed, t])
        for s in range(samples):
            picks = rng.integers(0, n, size=n).tolist()
            differences[s] += (_f1(*_sums(a, picks, columns)) - _f1(*_sums(b, picks, columns))) / len(tables)
    mean = sum(differences) / samples
    p = (1 + sum(abs(d - mean) >= abs(observed) - 1e-12 for d in differences)) / (1 + samples)
    return observed, p, (_percentile(differences, 2.5), _percentile(differences, 97.5))


def reference_permutation(tables, metric, samples, seed):
    columns = metric_columns(metric)
    differences = [0.0] * samples
    observed = 0.0
    for t, (a, b) in enumerate(tables):
        a, b = a.tolist(), b.tolist()
        n = len(a)
        observed += (_f1(*_sums(a, range(n), columns)) - _f1(*_sums(b, range(n), columns))) / len(tables)
        rng = np.random.default_rng([seed, t])
        for s in range(samples):
            swap = (rng.random(n) < 0.5).tolist()
            left = [b[i] if swap[i] else a[i] for i in range(n)]
            right = [a[i] if swap[i] else b[i] for i in range(n)]
            differences[s] += (_f1(*_sums(left, range(n), columns))
                               - _f1(*_sums(right, range(n), columns))) / len(tables)
    p = (1 + sum(abs(d) >= abs(observed) - 1e-12 for d in differences)) / (1 + samples)
    return observed, p


@pytest.fixture(scope="module")
def two_treebanks(tmp_path_factory):
    d = tmp_path_factory.mktemp("sig2")
    out = []
    for k, n in enumerate((30, 45)):
        gold = make_gold(d / f"g{k}.conllu", 20 + k, n)
        a = make_prediction(gold, d / f"a{k}.conllu", 30 + k, noise=0.2, merge=0.1)
        b = make_prediction(gold, d / f"b{k}.conllu", 40 + k, noise=0.25)
        out.append(pair_units(_units(a, gold).units, _units(b, gold).units, f"t{k}"))
    return out


@pytest.mark.parametrize("metric", ["LAS", "MLAS", "UPOS"])
def test_bootstrap_equals_the_slow_reference(two_treebanks, metric):
    for tables in ([two_treebanks[0]], two_treebanks):
        result = paired_bootstrap(tables, [metric], samples=300, seed=7)[metric]
        observed, p, (low, high) = reference_bootstrap([(t.a, t.b) for t in tables], metric, 300, 7)
        assert result.difference == pytest.approx(observed, abs=1e-15)
        assert result.p_value == p
        assert result.ci95 == pytest.approx((low, high), abs=1e-12)
        assert result.samples == 300 and result.seed == 7


@pytest.mark.parametrize("metric", ["LAS", "BLEX"])
def test_permutation_equals_the_slow_reference(two_treebanks, metric):
    for tables in ([two_treebanks[1]], two_treebanks):
        result = approximate_randomization(tables, [metric], samples=300, seed=3)[metric]
        observed, p = reference_permutation([(t.a, t.b) for t in tables], metric, 300, 3)
        assert result.difference == pytest.approx(observed, abs=1e-15)
        assert result.p_value == p


def test_same_seed_same_numbers_other_seed_other_draws(two_treebanks):
    one = paired_bootstrap(two_treebanks, ["LAS", "MLAS"], samples=500, seed=5)
    again = paired_bootstrap(two_treebanks, ["LAS", "MLAS"], samples=500, seed=5)
    other = paired_bootstrap(two_treebanks, ["LAS", "MLAS"], samples=500, seed=6)
    assert [(r.p_value, r.ci95) for r in one.values()] == [(r.p_value, r.ci95) for r in again.values()]
    assert [r.ci95 for r in one.values()] != [r.ci95 for r in other.values()]
    # Testing metrics together draws the same samples as testing each alone.
    alone = paired_bootstrap(two_treebanks, ["MLAS"], samples=500, seed=5)["MLAS"]
    assert (alone.p_value, alone.ci95) == (one["MLAS"].p_value, one["MLAS"].ci95)


def test_blocks_of_samples_do_not_change_the_draws(two_treebanks, monkeypatch):
    import annoscore.scorer.significance as significance
    whole = paired_bootstrap(two_treebanks, ["LAS"], samples=400, seed=9)["LAS"]
    monkeypatch.setattr(significance, "BLOCK_DRAWS", 37)  # a few samples per block
    blocked = paired_bootstrap(two_treebanks, ["LAS"], samples=400, seed=9)["LAS"]
    assert (whole.p_value, whole.ci95) == (blocked.p_value, blocked.ci95)


def test_exact_permutation_on_a_tiny_case_matches_the_approximate_one(tmp_path):
    gold = make_gold(tmp_path / "g.conllu", 4, 12)
    a = make_prediction(gold, tmp_path / "a.conllu", 5, noise=0.15)
    b = make_prediction(gold, tmp_path / "b.conllu", 6, noise=0.3)
    table = pair_units(_units(a, gold).units, _units(b, gold).units)
    n = table.size
    assert n == 12
    c, g, s = metric_columns("LAS")
    ta, tb = table.a.tolist(), table.b.tolist()

    def difference(swap):
        left = [tb[i] if swap[i] else ta[i] for i in range(n)]
        right = [ta[i] if swap[i] else tb[i] for i in range(n)]
        return _f1(*_sums(left, range(n), (c, g, s))) - _f1(*_sums(right, range(n), (c, g, s)))

    observed = difference([False] * n)
    assert observed != 0
    patterns = list(itertools.product([False, True], repeat=n))
    exact = sum(abs(difference(p)) >= abs(observed) - 1e-12 for p in patterns) / len(patterns)
    samples = 20_000
    approximate = approximate_randomization([table], ["LAS"], samples=samples, seed=1)["LAS"].p_value
    error = math.sqrt(exact * (1 - exact) / samples)
    assert abs(approximate - exact) <= 4 * error + 1 / samples, (approximate, exact)
    assert 0.0 < exact < 1.0


def test_no_difference_gives_p_one(two_treebanks):
    same = PairedUnits("x", two_treebanks[0].a, two_treebanks[0].a.copy())
    for run in (paired_bootstrap, approximate_randomization):
        result = run([same], ["LAS"], samples=200, seed=1)["LAS"]
        assert result.difference == 0 and result.p_value == 1.0


def test_bad_arguments_are_refused(two_treebanks):
    with pytest.raises(ValueError):
        paired_bootstrap([], ["LAS"])
    with pytest.raises(ValueError):
        approximate_randomization(two_treebanks, ["LAS"], samples=0)


def test_units_of_a_file_scored_in_parts_number_gold_as_one_process_does(tmp_path):
    from annoscore.server.parallel import evaluate_in_parallel

    gold = make_gold(tmp_path / "g.conllu", 31, 400)
    pred = make_prediction(gold, tmp_path / "p.conllu", 32, noise=0.2)
    whole = _units(pred, gold)
    parts = evaluate_in_parallel(str(pred), str(gold), ConlluOptions(units=True), 2, min_bytes=0, min_part_bytes=0)
    assert parts is not None
    assert [(u.gold, u.counts) for u in parts.units] == [(u.gold, u.counts) for u in whole.units]
