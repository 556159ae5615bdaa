"""Agreement coefficients: equal to reference implementations and to published
worked examples; undefined where they must be; symmetric; the bootstrap's
resampled sums equal to a naive recomputation.

The oracles (krippendorff, statsmodels, scikit-learn) are test extras only.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from annoscore.scorer.agreement.annotation import read_annotation
from annoscore.scorer.agreement.bootstrap import intervals, resampled, weights_of
from annoscore.scorer.agreement.coefficients import coefficients_of
from annoscore.scorer.agreement.compare import compare
from annoscore.scorer.agreement.tally import tally

from tests.support.pair_maker import make_gold_sentences, make_prediction, write

TOLERANCE = 1e-9


def _through_tally(codes: np.ndarray, units: np.ndarray) -> dict:
    """The coefficients of reliability data the way `compare` computes them
    (per-unit tallies summed), not `coefficients_of`'s direct way."""
    n_units = int(units.max()) + 1 if len(units) else 1
    return tally(codes, units, n_units, int(codes.max()) + 1 if codes.size else 1).coefficients()


def _random_data(rng, coders, items, categories, missing):
    codes = rng.integers(0, categories, (coders, items))
    agree = rng.random((coders - 1, items)) < 0.6
    codes[1:] = np.where(agree, codes[0], codes[1:])
    if missing:
        codes[rng.random((coders, items)) < missing] = -1
    return codes


@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_coefficients_equal_the_oracles(missing):
    krippendorff = pytest.importorskip("krippendorff")
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(7)
    checked = {"alpha": 0, "fleiss": 0, "cohen": 0}
    for _ in range(200):
        coders, items, categories = int(rng.integers(2, 5)), int(rng.integers(2, 80)), int(rng.integers(2, 7))
        codes = _random_data(rng, coders, items, categories, missing)
        units = np.sort(rng.integers(0, max(1, items // 5), items))
        ours = _through_tally(codes, units)
        assert ours == pytest.approx(coefficients_of(codes), abs=1e-12, nan_ok=True)
        reliability = np.where(codes < 0, np.nan, codes).astype(float)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                alpha = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
        except ValueError:  # the package refuses data with one value only: ours is undefined then
            assert ours["krippendorff_alpha"] is None
        else:
            if np.isnan(alpha):  # nothing pairable
                assert ours["krippendorff_alpha"] is None
                continue
            assert abs(ours["krippendorff_alpha"] - alpha) < TOLERANCE
            checked["alpha"] += 1
        complete = (codes >= 0).all(axis=0)
        if complete.any():
            table, _ = inter_rater.aggregate_raters(codes[:, complete].T, n_cat=categories)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fleiss = inter_rater.fleiss_kappa(table)
            if np.isnan(fleiss):
                assert ours["fleiss_kappa"] is None
            else:
                assert abs(ours["fleiss_kappa"] - fleiss) < TOLERANCE
                checked["fleiss"] += 1
        if coders == 2:
            both = (codes[0] >= 0) & (codes[1] >= 0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cohen = metrics.cohen_kappa_score(codes[0][both], codes[1][both]) if both.any() else np.nan
            if np.isnan(cohen):
                assert ours["cohen_kappa"] is None
            else:
                assert abs(ours["cohen_kappa"] - cohen) < TOLERANCE
                checked["cohen"] += 1
            observed = (codes[0][both] == codes[1][both]).mean() if both.any() else None
            assert ours["observed"] == pytest.approx(observed, abs=1e-12)
    assert min(checked.values()) > 20, checked


def test_krippendorff_2011_nominal_example():
    """Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, C: four
    observers, twelve units, values missing: alpha (nominal) = .743."""
    x = -1
    codes = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, x, x, x],
                      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, x, 3],
                      [x, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, x],
                      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, x]])
    alpha = _through_tally(codes, np.arange(12))["krippendorff_alpha"]
    assert round(alpha, 3) == 0.743
    # The paper's own arithmetic: alpha = 1 - (n - 1) * sum(o_ck, c != k) / sum(n_c n_k, c != k)
    # with n = 40 pairable values, 10 disagreeing coincidences, sum n_c n_k = 1208 - ... = 1 - 39 * 10 / 1520.
    assert abs(alpha - (1 - 39 * 10 / 1520)) < 1e-12


def test_krippendorff_package_example():
    """The krippendorff package's documented data (three coders, fifteen units): nominal alpha 0.691."""
    rows = ["* * * * * 3 4 1 2 1 1 3 3 * 3", "1 * 2 1 3 3 4 3 * * * * * * *", "* * 2 1 3 4 4 * 2 1 1 3 3 * 4"]
    codes = np.array([[-1 if v == "*" else int(v) for v in row.split()] for row in rows])
    assert round(_through_tally(codes, np.arange(15))["krippendorff_alpha"], 6) == 0.691358


# Fleiss (1971), Table 1: 30 patients, each diagnosed by 6 psychiatrists
# (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other).
FLEISS_1971 = [[4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
               [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
               [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
               [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
               [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
               [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5]]


def test_fleiss_1971_example():
    """Fleiss's kappa over the whole table is .430 (Fleiss 1971, p. 381)."""
    codes = np.array(FLEISS_1971).T - 1
    kappa = _through_tally(codes, np.arange(30))["fleiss_kappa"]
    assert round(kappa, 3) == 0.430
    assert abs(kappa - 0.4302445) < 1e-7  # statsmodels' test of the same table


def test_one_category_is_undefined_and_two_identical_are_one():
    """Identical annotations using one category: kappa and alpha undefined
    (chance agreement is 1: nothing beyond chance can be shown), observed 1.
    Identical annotations with two categories or more: exactly 1."""
    one = np.zeros((2, 50), dtype=int)
    c = _through_tally(one, np.arange(50) // 5)
    assert c["observed"] == 1.0
    assert c["cohen_kappa"] is None and c["fleiss_kappa"] is None and c["krippendorff_alpha"] is None
    two = np.tile(np.arange(50) % 3, (3, 1))
    c = _through_tally(two, np.arange(50) // 5)
    assert c == {"observed": 1.0, "cohen_kappa": None, "fleiss_kappa": 1.0, "krippendorff_alpha": 1.0}
    pair = two[:2]
    assert _through_tally(pair, np.arange(50) // 5) == {"observed": 1.0, "cohen_kappa": 1.0, "fleiss_kappa": 1.0,
                                                         "krippendorff_alpha": 1.0}


def test_missing_values():
    """Cohen's kappa and observed agreement over the items both annotated;
    Fleiss over complete items; alpha over every pairable value."""
    a = np.array([0, 1, 0, 1, 2, -1, 2, 0])
    b = np.array([0, 1, 1, 1, -1, 2, 2, 0])
    c = _through_tally(np.stack([a, b]), np.zeros(8, dtype=int))
    both = (a >= 0) & (b >= 0)
    assert c == pytest.approx(coefficients_of(np.stack([a[both], b[both]])))
    # Nothing pairable: everything undefined.
    lone = np.array([[0, -1, 1], [-1, 2, -1]])
    assert all(v is None for v in _through_tally(lone, np.zeros(3, dtype=int)).values())


# --------------------------------------------------------------------------
# The bootstrap
# --------------------------------------------------------------------------


def _naive(codes: np.ndarray, units: np.ndarray, weights: np.ndarray) -> dict:
    """A resample built by hand: each unit's items repeated as often as drawn."""
    chosen = np.concatenate([np.repeat(np.nonzero(units == u)[0][None, :], int(w), axis=0).ravel()
                             for u, w in enumerate(weights) if w]) if weights.any() else np.zeros(0, int)
    return coefficients_of(codes[:, chosen])


@pytest.mark.parametrize("coders", [2, 3])
def test_bootstrap_resamples_equal_a_naive_resample(coders):
    rng = np.random.default_rng(3)
    n_units = 40
    units = np.sort(rng.integers(0, n_units, 600))
    # Many categories, some in one unit only, some in many: every branch of the split.
    codes = _random_data(rng, coders, 600, 60, 0.1)
    codes[:, :100] = rng.integers(0, 3, (coders, 100))
    t = tally(codes, units, n_units, int(codes.max()) + 1)
    samples, seed = 25, 11
    for dense_units in (2, 5, 1000):
        values = resampled([t], n_units, samples, seed, dense_units=dense_units)[0]
        weights = weights_of(np.random.default_rng([seed, 0]), samples, n_units)  # (one block of 100)
        for s in range(samples):
            naive = _naive(codes, units, weights[s])
            for name, value in naive.items():
                got = values[name][s]
                assert (value is None and np.isnan(got)) or abs(got - value) < 1e-12, (dense_units, s, name)


def _squares_lanes(monkeypatch, lane_name):
    from annoscore.scorer.conllu import lane

    if lane_name == "compiled":
        if lane._plain is None or not hasattr(lane._plain, "resampled_squares"):
            pytest.skip(f"the plain lane is {lane.active_lane()}")
    else:
        monkeypatch.setattr(lane, "_plain", None)


@pytest.mark.parametrize("lane_name", ["compiled", "numpy"])
@pytest.mark.parametrize("exact_float32", [True, False])
def test_resampled_squares_equal_the_naive_product_exactly(monkeypatch, exact_float32, lane_name):
    """sum_c (sum_u w_u x_uc)^2 of vectors with negative counts too (as the
    two coders' difference has), whichever way each category is taken
    (compiled: one unit, or the int32 totals of `_plain.resampled_squares`;
    numpy: one unit, dense, sparse in chunks of a few entries, in float32 or
    float64): exactly the numbers of the product with the whole matrix."""
    from annoscore.scorer.agreement import squares
    from annoscore.scorer.agreement.tally import Entries

    _squares_lanes(monkeypatch, lane_name)
    rng = np.random.default_rng(7)
    n_units, n_categories = 50, 40
    vectors, matrices = [], []
    for _ in range(3):
        x = np.zeros((n_units, n_categories), dtype=np.int64)
        for c in range(n_categories):
            spread = int(rng.choice([1, 2, 4, 12, 50]))
            x[rng.choice(n_units, spread, replace=False), c] = rng.integers(-3, 6, spread)
        x[:, 5] = 0  # a category nobody gave
        category, unit = np.nonzero(x.T)
        vectors.append(Entries(unit, category, x[unit, category]))
        matrices.append(x)
    vectors.append(Entries(*(np.zeros(0, dtype=np.int64),) * 3))
    matrices.append(np.zeros((n_units, n_categories), dtype=np.int64))
    weights = weights_of(np.random.default_rng([3, 0]), 30, n_units)
    naive = np.stack([((weights @ x) ** 2).sum(axis=1) for x in matrices], axis=1)
    monkeypatch.setattr(squares, "CHUNK_ENTRIES", 7)
    if not exact_float32:
        monkeypatch.setattr(squares, "EXACT_FLOAT32", 0)
    for dense_units in (2, 5, 13, 1000):
        plan = squares.Squares(vectors, n_units, dense_units)
        assert (plan.compiled is not None) == (lane_name == "compiled")
        if lane_name == "numpy":
            assert plan.gather_type == (np.float32 if exact_float32 else np.float64)
        assert np.array_equal(plan.of(weights), naive), dense_units


def test_resampled_squares_past_int32_take_the_numpy_way(monkeypatch):
    """A count so large that an int32 total could overflow: the numpy way, the same numbers."""
    from annoscore.scorer.agreement import squares
    from annoscore.scorer.agreement.tally import Entries

    _squares_lanes(monkeypatch, "compiled")
    monkeypatch.setattr(squares, "EXACT_INT32", 10 * 4)   # largest 10 x 4 units: not below
    vectors = [Entries(np.array([0, 1, 2, 3]), np.array([0, 0, 1, 1]), np.array([10, -3, 2, 7]))]
    weights = weights_of(np.random.default_rng([1, 0]), 5, 4)
    plan = squares.Squares(vectors, 4, 2)
    assert plan.compiled is None
    x = np.zeros((4, 2), dtype=np.int64)
    x[[0, 1, 2, 3], [0, 0, 1, 1]] = [10, -3, 2, 7]
    assert np.array_equal(plan.of(weights), ((weights @ x) ** 2).sum(axis=1)[:, None])


def test_compiled_resampled_squares_checks_its_arguments():
    from annoscore.scorer.conllu import lane

    plain = lane._plain
    if plain is None or not hasattr(plain, "resampled_squares"):
        pytest.skip(f"the plain lane is {lane.active_lane()}")
    i32 = lambda *v: np.array(v, dtype=np.int32)
    starts = np.array([0, 2], dtype=np.int64)
    out = np.zeros((1, 1))
    plain.resampled_squares(np.array([[1.0, 2.0]]), 1, 2, i32(0, 1), i32(1, 3), starts, i32(0), 1, out)
    assert out[0, 0] == (1 * 1 + 2 * 3) ** 2
    with pytest.raises(ValueError, match="whole number"):
        plain.resampled_squares(np.array([[1.5, 2.0]]), 1, 2, i32(0, 1), i32(1, 3), starts, i32(0), 1, out)
    with pytest.raises(ValueError, match="unit out of range"):
        plain.resampled_squares(np.array([[1.0, 2.0]]), 1, 2, i32(0, 2), i32(1, 3), starts, i32(0), 1, out)
    with pytest.raises(ValueError, match="out of range"):
        plain.resampled_squares(np.array([[1.0, 2.0]]), 1, 2, i32(0, 1), i32(1, 3), starts, i32(1), 1, out)
    with pytest.raises(ValueError, match="sizes"):
        plain.resampled_squares(np.array([[1.0, 2.0]]), 1, 3, i32(0, 1), i32(1, 3), starts, i32(0), 1, out)


@pytest.mark.parametrize("coders", [2, 3])
def test_bootstrap_intervals_equal_in_both_lanes_exactly(monkeypatch, coders):
    """The same seed, the same resampled values and intervals, bit for bit,
    whether the squares are summed compiled or with numpy (the way before
    the compiled one): generated data with categories in one unit, in a
    few and in most, missing values, several blocks of resamples."""
    from annoscore.scorer.conllu import lane

    if lane._plain is None or not hasattr(lane._plain, "resampled_squares"):
        pytest.skip(f"the plain lane is {lane.active_lane()}")
    rng = np.random.default_rng(21 + coders)
    n_units = 300
    tallies = []
    for categories, missing in ((3, 0.0), (40, 0.1), (900, 0.05)):
        units = np.sort(rng.integers(0, n_units, 5000))
        codes = _random_data(rng, coders, 5000, categories, missing)
        tallies.append(tally(codes, units, n_units, categories))
    compiled = resampled(tallies, n_units, 250, 17)
    compiled_intervals = intervals(tallies, n_units, 250, 17)
    monkeypatch.setattr(lane, "_plain", None)
    numpy_way = resampled(tallies, n_units, 250, 17)
    for a, b in zip(compiled, numpy_way):
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)
    assert intervals(tallies, n_units, 250, 17) == compiled_intervals


def test_two_coders_resample_their_distinct_sums_with_the_same_numbers(monkeypatch):
    """Two coders: only n and the agreeing items' column are resampled, each
    distinct column once; the sums made from them are those of all four."""
    from annoscore.scorer.agreement import bootstrap

    rng = np.random.default_rng(4)
    units = np.sort(rng.integers(0, 200, 3000))
    codes = _random_data(rng, 2, 3000, 30, 0.1)
    # Variables with the same items (their n columns are one), and one with others.
    tallies = [tally(codes, units, 200, 30), tally(np.where(codes >= 0, codes % 7, codes), units, 200, 30),
               tally(np.where(codes > 20, -1, codes), units, 200, 30)]
    columns, picks = bootstrap._scalar_columns(tallies)
    assert picks is not None and columns.shape[1] < 6
    fewer = resampled(tallies, 200, 300, 8)
    monkeypatch.setattr(bootstrap, "_scalar_columns", lambda ts: (np.hstack([t.scalars for t in ts]), None))
    every = resampled(tallies, 200, 300, 8)
    for a, b in zip(fewer, every):
        assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)


def test_sum_and_difference_of_two_coders():
    from annoscore.scorer.agreement.squares import sum_and_difference

    codes = np.array([[0, 1, 1, 2, 0, 3], [0, 2, 1, 1, 0, 3]])
    units = np.array([0, 0, 0, 0, 1, 1])
    t = tally(codes, units, 2, 4)
    s, d = sum_and_difference(t.first, t.second, 2)
    as_dict = lambda e: {(int(u), int(c)): int(n) for u, c, n in zip(e.unit, e.category, e.count)}
    assert as_dict(s) == {(0, 0): 2, (0, 1): 4, (0, 2): 2, (1, 0): 2, (1, 3): 2}
    assert as_dict(d) == {}  # unit 0: A gives 1 twice and 2 once, as B does
    t = tally(np.array([[0, 1], [1, 1]]), np.array([0, 0]), 1, 2)
    s, d = sum_and_difference(t.first, t.second, 1)
    assert as_dict(s) == {(0, 0): 1, (0, 1): 3} and as_dict(d) == {(0, 0): 1, (0, 1): -1}


def test_bootstrap_same_seed_same_interval_however_the_work_is_cut(monkeypatch):
    from annoscore.scorer.agreement import bootstrap

    rng = np.random.default_rng(5)
    units = np.sort(rng.integers(0, 30, 400))
    t = tally(_random_data(rng, 2, 400, 5, 0.05), units, 30, 5)
    first = intervals([t], 30, 250, 9)
    monkeypatch.setattr(bootstrap, "BLOCK_WEIGHTS", 30 * 7)  # 7 resamples at a time
    assert intervals([t], 30, 250, 9) == first
    # Blocks computed apart (as processes do) and joined: the same values.
    whole = resampled([t], 30, 250, 9)
    parts = bootstrap.joined([resampled([t], 30, 250, 9, blocks=(0, 1)), resampled([t], 30, 250, 9, blocks=(1, 3))])
    assert all(np.array_equal(whole[0][k], parts[0][k], equal_nan=True) for k in whole[0])
    assert intervals([t], 30, 250, 10) != first


# --------------------------------------------------------------------------
# Whole annotations
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def annotations(tmp_path_factory):
    """Two annotations of one text (two noisy copies of one treebank, some
    sentences tokenized otherwise, some merged or left out) and a third."""
    folder = tmp_path_factory.mktemp("agree")
    gold = make_gold_sentences(41, 120)
    paths = []
    for k, seed in enumerate((1, 2, 3)):
        paths.append(write(folder / f"ann{k}.conllu", make_prediction(gold, seed, noise=0.1, tokenization=0.15,
                                                                     merge=0.03, drop=0.03, conf=False)))
    return paths


def _figures(result):
    return [(row.name, row.items, row.pairable, row.coefficients,
             {k: (i.low, i.high, i.undefined) for k, i in row.intervals.items()}) for row in result.rows]


def test_agreement_is_symmetric(annotations):
    a, b, c = annotations
    for unit in ("cell", "word", "sentence"):
        ab = compare([read_annotation(a, "A"), read_annotation(b, "B")], unit, samples=100)
        ba = compare([read_annotation(b, "A"), read_annotation(a, "B")], unit, samples=100)
        assert _figures(ab) == _figures(ba)
        assert [(p["Words"], p["UAS"]["f1"], p["LAS"]["f1"]) for p in ab.attachment] == \
            [({**p["Words"], "words": p["Words"]["words"][::-1]}, p["UAS"]["f1"], p["LAS"]["f1"]) for p in ba.attachment]
        assert {k: len(v) for k, v in ab.differing.items()} == {k: len(v) for k, v in ba.differing.items()}
    abc = compare([read_annotation(p, n) for p, n in zip((a, b, c), "ABC")], samples=50)
    cab = compare([read_annotation(p, n) for p, n in zip((c, a, b), "ABC")], samples=50)
    assert _figures(abc) == _figures(cab)


def test_an_annotation_agrees_with_itself(annotations):
    a = annotations[0]
    result = compare([read_annotation(a, "A"), read_annotation(a, "B")], samples=20)
    for row in result.rows:
        for name, value in row.coefficients.items():
            assert value in (1.0, None), (row.name, name, value)
            if name != "observed" and value is None:  # undefined only where one category is all there is
                assert row.categories <= 1, row.name
    assert not any(len(v) for v in result.differing.values())
    assert all(result.attachment[0][m]["f1"] == 1.0 for m in ("Words", "UAS", "LAS", "CLAS"))


def test_attachment_equals_evaluate(tmp_path):
    """UAS, LAS, CLAS and Words: the counts `evaluate` makes of one scored
    against the other (whichever is taken as gold), tokenized otherwise
    here and there.  (Sentences split otherwise are not aligned by agree:
    their text differs under one sent_id; evaluate aligns them as one
    running text.  So no merges here.)"""
    from annoscore.scorer.conllu.evaluate import evaluate_files

    gold = make_gold_sentences(43, 150)
    a, b = (write(tmp_path / f"{k}.conllu", make_prediction(gold, k, noise=0.1, tokenization=0.2, merge=0.0,
                                                            drop=0.05, conf=False)) for k in (1, 2))
    result = compare([read_annotation(a, "A"), read_annotation(b, "B")], samples=0)
    pair = result.attachment[0]
    for gold, system in ((a, b), (b, a)):
        counts = evaluate_files(system, gold).counts
        for name in ("Words", "UAS", "LAS", "CLAS"):
            score = counts.score(name)
            assert pair[name]["agree"] == score.correct, name
            assert sorted(pair[name]["words"]) == sorted([score.gold_total, score.system_total]), name
            assert abs(pair[name]["f1"] - score.f1) < 1e-12, name


def test_agreement_on_mkpred_runs_equals_evaluate(shared, tmp_path):
    """Two mkpred.py runs with different seeds (tokenization changes too) as
    stand-in annotators: the attachment counts equal evaluate's, both ways."""
    import subprocess
    import sys

    from annoscore.scorer.conllu.evaluate import evaluate_files

    gold = shared("data", "ud", "UD_English-EWT", "en_ewt-ud-dev.conllu")
    mkpred = shared("tools", "mkpred.py")
    runs = []
    for seed in (1, 2):
        out = tmp_path / f"run{seed}.conllu"
        subprocess.run([sys.executable, str(mkpred), str(gold), str(out), "--seed", str(seed),
                        "--label-noise", "0.05", "--tok-noise", "0.05"], check=True)
        runs.append(out)
    result = compare([read_annotation(runs[0], "A"), read_annotation(runs[1], "B")], samples=0)
    assert result.matching.units and any(u.tokens == "aligned" for u in result.matching.units)
    pair = result.attachment[0]
    for gold_run, system_run in ((runs[0], runs[1]), (runs[1], runs[0])):
        counts = evaluate_files(system_run, gold_run).counts
        for name in ("Words", "UAS", "LAS", "CLAS"):
            assert pair[name]["agree"] == counts.score(name).correct, name
