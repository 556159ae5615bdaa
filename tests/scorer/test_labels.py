"""Label scoring: reading, pairing, accuracy, macro averages, baselines, per item.

Expected values are worked out by hand (beside each test) or computed with
the WMT 2016 scoring recipe (shared/docs/reference/wmt16-pronoun-prediction-eval.txt)
and textbook per-class precision/recall written out with loops.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from annoscore.scorer.labels.counts import LabelCounts
from annoscore.scorer.labels.evaluate import (
    BY_ID, BY_ORDER, MISSING_FROM_GOLD, MISSING_FROM_PREDICTION, evaluate_label_files, predicted_for_gold,
    score_item,
)
from annoscore.scorer.labels.reader import parse_item, parse_labels


def score(gold: str, pred: str, outcomes: bool = False):
    return evaluate_label_files(parse_labels(gold.split("\n")), parse_labels(pred.split("\n")), outcomes)


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


def test_id_tab_label_and_plain_label_files():
    f = parse_labels(["a\tNOUN", "", " b \t VERB ", ""])
    assert f.has_ids and f.ids == ["a", "b"] and f.labels == ["NOUN", "VERB"] and f.lines == [0, 2]
    assert not f.problems
    f = parse_labels(["NOUN", "not sure", "VERB", "", ""])
    assert not f.has_ids and f.labels == ["NOUN", "not sure", "VERB"] and not f.problems


@pytest.mark.parametrize("lines,code,line", [
    (["a\tX", "b"], "format-columns", 1),
    (["a\tX", "b\tY\tZ"], "format-columns", 1),
    (["a\tX", "\tY"], "format-empty-id", 1),
    (["a\tX", "b\t  "], "format-empty-label", 1),
    (["a\tX", "a\tY"], "format-duplicate-id", 1),
    (["X", "", "Y"], "format-empty-label", 1),
    (["X", "a\tY"], "format-columns", 1),
])
def test_malformed_lines_are_errors_with_their_line(lines, code, line):
    problems = parse_labels(lines).problems
    assert [(p.code, p.line) for p in problems] == [(code, line)]


@pytest.mark.parametrize("lines", [
    [" a\tX", "b\tY", "   a\tZ"],              # well formed: read with whole-list operations
    [" a\tX", "b\tY", "   a\tZ", "c"],         # a bad line: read line by line
])
def test_a_duplicate_id_is_marked_where_it_is_in_its_line(lines):
    duplicate = next(p for p in parse_labels(lines).problems if p.code == "format-duplicate-id")
    assert (duplicate.line, duplicate.start, duplicate.end) == (2, 3, 4)
    (first,) = duplicate.related
    assert (first.line, first.start, first.end) == (0, 1, 2)


def test_a_line_of_only_whitespace_among_plain_labels_is_marked_whole():
    problems = parse_labels(["  ", "X", "\t ", "", "Y"]).problems
    assert [(p.code, p.line, p.start, p.end) for p in problems] == [
        ("format-empty-label", 0, 0, 2), ("format-empty-label", 2, 0, 2), ("format-empty-label", 3, 0, 0)]


def test_parse_item_columns():
    line = " id7 \t\tx"
    item, problems = parse_item(line, 3, True)
    assert item is None and problems[0].code == "format-columns"
    line = " id7 \t pron "
    item, problems = parse_item(line, 3, True)
    assert not problems and item.line == 3
    assert line[item.id_start:item.id_end] == "id7" and line[item.label_start:item.label_end] == "pron"


# --------------------------------------------------------------------------
# Measures
# --------------------------------------------------------------------------


def test_accuracy_macro_recall_macro_f1_and_the_never_predicted_class():
    # gold: ce ce ce il elle; pred: ce ce il il ce
    # ce: tp 2, predicted 3, support 3 -> P 2/3 R 2/3 F1 2/3
    # il: tp 1, predicted 2, support 1 -> P 1/2 R 1 F1 2/3
    # elle: never predicted -> P 0 R 0 F1 0, and it still counts in the averages
    r = score("ce\nce\nce\nil\nelle", "ce\nce\nil\nil\nce")
    s = r.counts.scores()
    assert (s.correct, s.total) == (3, 5) and s.accuracy == 0.6
    assert s.macro_recall == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert s.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    assert s.per_class["elle"].recall == 0.0 and s.per_class["elle"].precision == 0.0
    assert s.per_class["il"].precision == 0.5
    assert r.paired_by == BY_ORDER


def test_per_class_precision_recall_f1_equal_a_computation_from_the_confusion_counts():
    # gold: A A A A B B C C C D; pred: A A A B B A C C A Q
    # confusion: A->A 3, A->B 1; B->B 1, B->A 1; C->C 2, C->A 1; D->Q 1 (Q: not a gold class)
    # A: tp 3, predicted 5, support 4 -> P 3/5 R 3/4 F1 2/3
    # B: tp 1, predicted 2, support 2 -> P 1/2 R 1/2 F1 1/2
    # C: tp 2, predicted 2, support 3 -> P 1   R 2/3 F1 4/5
    # D: tp 0, predicted 0, support 1 -> P 0   R 0   F1 0
    r = score("A\nA\nA\nA\nB\nB\nC\nC\nC\nD", "A\nA\nA\nB\nB\nA\nC\nC\nA\nQ")
    s = r.counts.scores()
    assert r.counts.pairs == Counter({("A", "A"): 3, ("A", "B"): 1, ("B", "B"): 1, ("B", "A"): 1,
                                      ("C", "C"): 2, ("C", "A"): 1, ("D", "Q"): 1})
    by_hand = {"A": (3 / 5, 3 / 4, 2 / 3), "B": (1 / 2, 1 / 2, 1 / 2), "C": (1.0, 2 / 3, 4 / 5),
               "D": (0.0, 0.0, 0.0)}
    assert list(s.per_class) == ["A", "B", "C", "D"]
    for label, (precision, recall, f1) in by_hand.items():
        got = s.per_class[label]
        assert (got.precision, got.recall, got.f1) == pytest.approx((precision, recall, f1), abs=1e-15), label
    # The same from the confusion counts with a small reference computation.
    for label, got in s.per_class.items():
        tp = r.counts.pairs[(label, label)]
        predicted = sum(n for (_, p), n in r.counts.pairs.items() if p == label)
        support = sum(n for (g, _), n in r.counts.pairs.items() if g == label)
        precision = tp / predicted if predicted else 0.0
        recall = tp / support if support else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        assert (got.correct, got.system_total, got.gold_total) == (tp, predicted, support)
        assert (got.precision, got.recall, got.f1) == pytest.approx((precision, recall, f1), abs=1e-15)
    assert s.macro_f1 == pytest.approx((2 / 3 + 1 / 2 + 4 / 5 + 0) / 4, abs=1e-15)
    assert s.macro_recall == pytest.approx((3 / 4 + 1 / 2 + 2 / 3 + 0) / 4, abs=1e-15)


def test_baselines():
    # 3 of 5 gold items are "ce": majority accuracy 0.6; macro recall of always-ce = 1/3 = uniform
    s = score("ce\nce\nce\nil\nelle", "il\nil\nil\nil\nil").counts.scores()
    b = s.baselines
    assert (b.majority_label, b.majority_accuracy) == ("ce", 0.6)
    assert b.majority_macro_recall == b.uniform == pytest.approx(1 / 3)
    # A tie goes to the label that sorts first.
    assert score("b\na", "a\na").counts.scores().baselines.majority_label == "a"


def test_missing_items_on_either_side_are_listed():
    # gold a b c d; pred a c e: b and d have no prediction (wrong), e is not in gold (not scored)
    r = score("a\tX\nb\tY\nc\tX\nd\tZ", "a\tX\nc\tY\ne\tX", outcomes=True)
    assert r.paired_by == BY_ID
    assert [(m.missing_from, m.id, m.line) for m in r.missing] == [
        (MISSING_FROM_PREDICTION, "b", 1), (MISSING_FROM_PREDICTION, "d", 3), (MISSING_FROM_GOLD, "e", 2)]
    s = r.counts.scores()
    assert (s.correct, s.total) == (1, 4)
    # e's X is no prediction of a gold item, so X was predicted once (for a)
    assert s.per_class["Y"].gold_total == 1 and s.per_class["X"].system_total == 1
    assert r.outcomes == "1000"
    assert r.counts.extra == 1


def test_pairing_by_order_with_different_lengths():
    r = score("X\nY\nZ", "X\nY\nZ\nW")
    assert [(m.missing_from, m.line) for m in r.missing] == [(MISSING_FROM_GOLD, 3)]
    assert r.counts.scores().accuracy == 1.0
    r = score("X\nY\nZ", "X")
    assert [(m.missing_from, m.line) for m in r.missing] == [(MISSING_FROM_PREDICTION, 1),
                                                              (MISSING_FROM_PREDICTION, 2)]


def test_labels_unknown_to_gold_count_as_wrong_and_are_listed():
    r = score("X\nY\nX", "X\nQ\nQ")
    s = r.counts.scores()
    assert s.unknown == {"Q": 2} and "Q" not in s.per_class
    assert r.unknown_first_line == {"Q": 1}
    assert s.accuracy == pytest.approx(1 / 3)
    assert r.counts.pairs[("Y", "Q")] == 1  # in the confusion matrix


def test_zero_denominators():
    s = score("X\nX", "Y\nY").counts.scores()
    assert s.per_class["X"].precision == 0.0 and s.per_class["X"].f1 == 0.0
    assert s.accuracy == 0.0 and s.macro_f1 == 0.0
    empty = LabelCounts().scores()
    assert (empty.accuracy, empty.macro_recall, empty.accuracy_ci95) == (0.0, 0.0, None)


def _wmt_macro_recall(predictions, gold, classes):
    """The recipe of the WMT 2016 description, classes given as a list."""
    recalls = []
    for c in classes:
        tp = sum(1 for p, g in zip(predictions, gold) if p == c and g == c)
        fn = sum(1 for p, g in zip(predictions, gold) if p != c and g == c)
        recalls.append(tp / (tp + fn) if (tp + fn) > 0 else 0.0)
    return sum(recalls) / len(classes)


def test_against_textbook_definitions_on_random_data():
    rng = random.Random(7)
    classes = ["ce", "elle", "il", "ils", "cela", "on", "OTHER"]
    gold = [rng.choices(classes, weights=[30, 10, 20, 5, 3, 2, 1])[0] for _ in range(5000)]
    pred = [g if rng.random() < 0.7 else rng.choice(classes + ["??"]) for g in gold]
    s = score("\n".join(gold), "\n".join(pred)).counts.scores()
    gold_classes = sorted(set(gold))
    assert s.macro_recall == pytest.approx(_wmt_macro_recall(pred, gold, gold_classes), abs=1e-12)
    assert s.accuracy == sum(p == g for p, g in zip(pred, gold)) / len(gold)
    f1s = []
    for c in gold_classes:
        tp = sum(p == g == c for p, g in zip(pred, gold))
        predicted = sum(p == c for p in pred)
        support = sum(g == c for g in gold)
        precision = tp / predicted if predicted else 0.0
        recall = tp / support
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
        assert s.per_class[c].gold_total == support and s.per_class[c].system_total == predicted
        assert (s.per_class[c].precision, s.per_class[c].recall, s.per_class[c].f1) == \
            pytest.approx((precision, recall, f1s[-1]), abs=1e-12)
    assert s.macro_f1 == pytest.approx(sum(f1s) / len(f1s), abs=1e-12)


# --------------------------------------------------------------------------
# One item at a time
# --------------------------------------------------------------------------


def test_items_one_at_a_time_add_up_to_the_file():
    rng = random.Random(3)
    gold_lines = [f"id{i}\t{rng.choice('ABC')}" for i in range(300)]
    pred_lines = [f"id{i}\t{rng.choice('ABCD')}" for i in range(300) if i % 17] + ["zz\tA"]
    rng.shuffle(pred_lines)
    gold, pred = parse_labels(gold_lines), parse_labels(pred_lines)
    whole = evaluate_label_files(gold, pred, outcomes=True)
    gold_items = [parse_item(line, k, True)[0] for k, line in enumerate(gold_lines)]
    pred_items = {item.id: item for item in (parse_item(line, k, True)[0] for k, line in enumerate(pred_lines))}
    classes = set(gold.labels)
    total = LabelCounts()
    outcomes = []
    for item in gold_items:
        one = score_item(item, pred_items.pop(item.id, None), classes)
        total = total + one.counts
        outcomes.append(one.outcome)
    for item in pred_items.values():
        total = total + score_item(None, item, classes).counts
    assert total == whole.counts
    assert "".join(outcomes) == whole.outcomes
    assert (total - whole.counts) == LabelCounts()


def test_item_problems():
    line = "id1\tils"
    pred, _ = parse_item(line, 0, True)
    gold, _ = parse_item("id1\til", 0, True)
    result = score_item(gold, pred, {"il", "elle"})
    assert [(p.code, line[p.start:p.end]) for p in result.problems] == [("label-mismatch", "ils"),
                                                                        ("unknown-label", "ils")]
    assert "'il'" in result.problems[0].message and result.outcome == "0"
    extra = score_item(None, pred, {"il"})
    assert extra.problems[0].code == "extra-item" and extra.outcome == ""
    missing = score_item(gold, None, {"il"})
    assert missing.outcome == "0" and missing.counts.unpredicted == Counter({"il": 1})


def test_first_of_duplicate_predicted_ids_wins():
    gold = parse_labels(["a\tX"])
    pred = parse_labels(["a\tX", "a\tY"])
    assert predicted_for_gold(gold, pred)[0] == ["X"]


def test_reading_in_blocks_equals_reading_whole_lines():
    from annoscore.scorer.labels.reader import parse_label_blocks
    from annoscore.scorer.lines import line_blocks, split_lines
    texts = [
        "a\tX\r\nb\tY\n\n\nc\tZ\nd\tX\n",           # blank lines in an ID file are skipped
        "\n\nX\nY\n\nZ\n\n\n",                     # blank lines among plain labels are errors, at the end not
        "a\tX\nb\n c \t Y \nd\tX\tQ\na\tZ\n",      # problems of every kind
        "X\nY\nZ",
        " a\tX\n  b\tY\n   a\tZ\n",               # a duplicate ID after leading spaces
        "X\n  \nY\n",                             # a line of spaces among plain labels
    ]
    for text in texts:
        whole = parse_labels(split_lines(text))
        for size in (1, 3, 7, 100):
            blocks = parse_label_blocks(line_blocks(text, size))
            assert (blocks.has_ids, blocks.ids, blocks.labels, list(blocks.lines)) == \
                (whole.has_ids, whole.ids, whole.labels, list(whole.lines)), (text, size)
            assert blocks.problems == whole.problems
    plain = parse_labels(split_lines(texts[1]))
    assert plain.labels == ["X", "Y", "Z"] and [(p.code, p.line) for p in plain.problems] == [
        ("format-empty-label", 0), ("format-empty-label", 1), ("format-empty-label", 4)]
