"""litsea's published figures and counts, reproduced on every pair in ../shared/data/litsea/pred/.

The expected numbers are read from the table in shared/data/litsea/README.md
(P / R / F1 to two decimals, and the gold/pred word counts under it), not
copied here, so the test checks the scorer against the published record.
"""

from __future__ import annotations

import re

import pytest

from tests.support.data import shared_path
from annoscore.scorer.lines import read_lines
from annoscore.scorer.segmentation.counts import SegmentationCounts
from annoscore.scorer.segmentation.evaluate import evaluate_files
from annoscore.scorer.segmentation.score import score_line
from annoscore.scorer.segmentation.tokens import SegmentationOptions

ROW = re.compile(r"^\| `(pred/[^`]+)` \| `(eval/[^`]+)`(?: \(([a-z, ]+)\))? \| (\w+) \| (.+?) \| (.+?) \| (.+?) \|$")
COUNTS = re.compile(r"(\w+) ([\d,]+)/([\d,]+)")


def published() -> list[dict]:
    """The rows of the README table, with the word counts listed under it (same order)."""
    text = shared_path("data", "litsea", "README.md").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            flags = m.group(3) or ""
            rows.append({"pred": m.group(1), "gold": m.group(2),
                         "format": "tsv" if "tsv" in flags else "space", "pos": "pos" in flags,
                         "Word": m.group(5), "Boundary": m.group(6), "TaggedWord": m.group(7)})
    sentence = text[text.index("Gold/pred word counts:"):]
    sentence = sentence[:sentence.index(". ")]
    counts = COUNTS.findall(sentence)
    assert len(rows) == 7 and len(counts) == len(rows), "the README table changed shape"
    for row, (name, gold, pred) in zip(rows, counts):
        row["counts_name"] = name
        row["gold_words"], row["pred_words"] = int(gold.replace(",", "")), int(pred.replace(",", ""))
    return rows


def row_ids():
    return ["japanese", "chinese", "korean", "english", "korean_pos", "english_pos", "RWCP"]


@pytest.mark.parametrize("index", range(7), ids=row_ids())
def test_published_figures_and_counts(index):
    row = published()[index]
    folder = shared_path("data", "litsea")
    options = SegmentationOptions(row["format"], row["pos"])
    result = evaluate_files(folder / row["pred"], folder / row["gold"], options)
    assert not result.mismatched and result.paired_by == "position"
    for metric in ("Word", "Boundary", "TaggedWord"):
        if row[metric] == "n/a":
            assert not row["pos"]
            continue
        score = result.counts.score(metric)
        ours = " / ".join(f"{100 * x:.2f}" for x in (score.precision, score.recall, score.f1))
        assert ours == row[metric], (metric, row["pred"])
    words = result.counts.score("Word")
    assert (words.gold_total, words.system_total) == (row["gold_words"], row["pred_words"])
    # Sentences: every gold line (the files have no blank lines).
    assert result.counts.sentences == len(read_lines(folder / row["gold"]).lines)


@pytest.mark.parametrize("index", range(7), ids=row_ids())
def test_lines_scored_one_at_a_time_add_up_to_the_file(index):
    row = published()[index]
    folder = shared_path("data", "litsea")
    options = SegmentationOptions(row["format"], row["pos"])
    gold = read_lines(folder / row["gold"]).lines
    pred = read_lines(folder / row["pred"]).lines
    total = SegmentationCounts()
    for g, p in zip(gold, pred):
        total = total + score_line(g, p, options).counts
    assert total == evaluate_files(folder / row["pred"], folder / row["gold"], options).counts


def test_a_prediction_equal_to_gold_scores_100_on_the_legacy_pos_files():
    folder = shared_path("data", "litsea", "eval")
    for name in ("japanese_gsd_test_pos.txt", "english_ewt_test_pos.txt"):
        result = evaluate_files(folder / name, folder / name, SegmentationOptions("space", pos=True))
        for metric in ("Word", "TaggedWord"):
            score = result.counts.score(metric)
            assert score.precision == score.recall == 1.0, (name, metric)
