"""Segmentation counts, pairing and per-line results.

Expected numbers are worked out by hand from the definitions in
../shared/data/litsea/EVALUATION-NOTES.md (written beside each test), or come
from `reference_counts` below: a plain transcription of those definitions
with loops and sets, run against the scorer on random lines.
"""

from __future__ import annotations

import random

import pytest

from annoscore.scorer.segmentation.counts import SegmentationCounts
from annoscore.scorer.segmentation.evaluate import evaluate_lines
from annoscore.scorer.segmentation.pairing import TEXT
from annoscore.scorer.segmentation.score import score_line
from annoscore.scorer.segmentation.tokens import UPOS_TAGS, SegmentationOptions

SPACE = SegmentationOptions("space")
TSV = SegmentationOptions("tsv")
SPACE_POS = SegmentationOptions("space", pos=True)
TSV_POS = SegmentationOptions("tsv", pos=True)
WHITE_SPACE = {*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
               0x2028, 0x2029, 0x202F, 0x205F, 0x3000}


def triple(counts: SegmentationCounts, metric: str) -> tuple[int, int, int]:
    s = counts.score(metric)
    return s.correct, s.gold_total, s.system_total


def evaluate(gold: str, pred: str, options=SPACE, metric=None):
    return evaluate_lines(gold.split("\n"), pred.split("\n"), options, metric)


# --------------------------------------------------------------------------
# Hand-worked examples
# --------------------------------------------------------------------------


def test_word_and_boundary_on_exact_spans():
    # text "abcd"; gold a(0,1) bc(1,3) d(3,4); pred ab(0,2) c(2,3) d(3,4)
    # words: only d matches; boundaries: gold {1,3}, pred {2,3} (0 excluded)
    r = evaluate("a bc d", "ab c d")
    assert triple(r.counts, "Word") == (1, 3, 3)
    assert triple(r.counts, "Boundary") == (1, 2, 2)
    assert r.counts.sentences == 1
    word = r.counts.score("Word")
    assert word.precision == word.recall == word.f1 == 1 / 3


def test_whitespace_tokens_are_never_scored():
    # text "I saw it": gold I(0,1) saw(2,5) it(6,8); pred I s(2,3) aw(3,5) it
    r = evaluate("I\t \tsaw\t \tit", "I\t \ts\taw\t \tit", TSV)
    assert triple(r.counts, "Word") == (2, 3, 4)
    assert triple(r.counts, "Boundary") == (2, 2, 3)  # gold {2,6}, pred {2,3,6}


def test_a_word_after_a_leading_space_token_has_its_start_counted():
    # gold " " ab(1,3); pred " " a(1,2) b(2,3)
    r = evaluate(" \tab", " \ta\tb", TSV)
    assert triple(r.counts, "Word") == (0, 1, 2)
    assert triple(r.counts, "Boundary") == (1, 1, 2)  # gold {1}, pred {1,2}


def test_only_white_space_property_tokens_are_excluded():
    # U+001C is not White_Space (though str.isspace says so): it is a scored word.
    # U+3000 is White_Space: not scored, but it still takes an offset.
    r = evaluate("a \x1c \u3000 b", "a \x1c \u3000 b")
    assert triple(r.counts, "Word") == (3, 3, 3)
    assert triple(r.counts, "Boundary") == (2, 2, 2)  # starts 1 and 3; 0 excluded, 2 is U+3000


def test_tagged_words():
    r = evaluate("the/DET dog/NOUN", "the/DET dog/VERB", SPACE_POS)
    assert triple(r.counts, "Word") == (2, 2, 2)
    assert triple(r.counts, "TaggedWord") == (1, 2, 2)


def test_unknown_tags_become_x_on_both_sides():
    # gold a/b is word "a" tagged X; pred a/FOO too; "//PUNCT" is the word "/"
    r = evaluate("a/b //PUNCT", "a/FOO //PUNCT", SPACE_POS)
    assert triple(r.counts, "TaggedWord") == (2, 2, 2)
    assert r.gold_tags.count == 1 and r.system_tags.count == 1


def test_a_b_word_loses_its_slash_part_from_the_text():
    # gold "a/b c/NOUN" rebuilds "ac"; a prediction must rebuild "ac" too
    r = evaluate("a/b c/NOUN", "a/b/X c/NOUN", SPACE_POS)  # pred words "a/b", "c": text "a/bc"
    assert len(r.mismatched) == 1 and r.counts.sentences == 0
    r = evaluate("a/b c/NOUN", "ac/NOUN", SPACE_POS)
    assert triple(r.counts, "Word") == (0, 2, 1)


def test_tagged_uses_the_first_gold_word_with_a_span_and_counts_lists():
    # gold: two empty words at (0,0) tagged NOUN then VERB, and a(0,1) DET.
    # Word uses sets: G = {(0,0), (0,1)}; TaggedWord counts the lists (3).
    # Every predicted word at (0,0) is held against the first gold one (NOUN).
    gold = "/NOUN /VERB a/DET"
    r = evaluate(gold, "/VERB /VERB a/DET", SPACE_POS)
    assert triple(r.counts, "Word") == (2, 2, 2)
    assert triple(r.counts, "TaggedWord") == (1, 3, 3)
    assert triple(r.counts, "Boundary") == (0, 0, 0)  # every start is 0
    r = evaluate(gold, "/NOUN /NOUN a/DET", SPACE_POS)
    assert triple(r.counts, "TaggedWord") == (3, 3, 3)
    # The identical-line shortcut must follow the same rule.
    r = evaluate(gold, gold, SPACE_POS)
    assert triple(r.counts, "TaggedWord") == (2, 3, 3)


def test_zero_denominators_give_zero():
    # A TSV line that is a single space token is a sentence with no scored words.
    r = evaluate(" ", " ", TSV)
    assert r.counts.sentences == 1
    for metric in ("Word", "Boundary"):
        score = r.counts.score(metric)
        assert (score.precision, score.recall, score.f1) == (0.0, 0.0, 0.0)
        assert score.precision_ci95 is None and score.recall_ci95 is None
    # Nothing right: P = R = 0, so F1 = 0 (not a division by zero).
    r = evaluate("ab c", "a bc")
    assert r.counts.score("Word").f1 == 0.0


def test_lines_without_tokens_are_skipped():
    r = evaluate("a b\n\n   \nc", "a b\n\n\nc")
    assert r.counts.sentences == 2 and r.gold_sentences == 2
    assert r.paired_by == "position" and not r.mismatched


def test_a_trailing_blank_line_does_not_change_the_line_count():
    r = evaluate("a b\nc\n", "a b\nc\n\n\n")
    assert r.paired_by == "position" and r.counts.sentences == 2


def test_a_line_whose_text_differs_is_listed_and_left_out():
    r = evaluate("ab c\nd e\nf", "ab c\nd f\nf", metric="Word")
    assert r.counts.sentences == 2 and r.counts.mismatched == 1
    assert triple(r.counts, "Word") == (3, 3, 3)
    [m] = r.mismatched
    assert (m.line, m.gold_line, m.mismatch.offset) == (1, 1, 1)
    assert (m.mismatch.text, m.mismatch.gold_text) == ("df", "de")
    assert m.mismatch.column == 2  # "d f": the 'f' at column 2 of the predicted line
    assert r.outcomes == "11--1"


def test_a_predicted_line_beside_an_empty_gold_line_is_listed():
    r = evaluate("a\n\nb", "a\nx\nb")
    assert [m.line for m in r.mismatched] == [1] and r.counts.sentences == 2


def test_different_line_counts_are_paired_by_text_when_possible():
    # A gold line left out of the prediction counts against recall.
    r = evaluate("a b\nc d\ne f", "a b\ne f", metric="Word")
    assert r.paired_by == TEXT and r.missing == [1]
    assert triple(r.counts, "Word") == (4, 6, 4)
    assert triple(r.counts, "Boundary") == (2, 3, 2)
    assert r.counts.sentences == 3
    assert r.outcomes == "110011"
    # Blank lines added by a system pair by text without loss.
    r = evaluate("a b\nc d", "a b\n\nc d\n\n\nx", )
    assert r.pairing_error is not None  # "x" rebuilds no gold line
    r = evaluate("a b\nc d", "a b\n\nc d")
    assert r.paired_by == TEXT and not r.missing and r.counts.sentences == 2


def test_different_line_counts_that_cannot_be_paired_are_an_error():
    r = evaluate("a b\nc d", "a b\nx y\nc d")
    assert r.pairing_error is not None and r.pairing_error.line == 1
    assert "3 lines" in r.pairing_error.message and "gold has 2" in r.pairing_error.message
    assert r.counts.sentences == 0
    # Lines out of order cannot be paired either (pairing keeps the order).
    r = evaluate("a\nb\nc", "b\na")
    assert r.pairing_error is not None and r.pairing_error.line == 1


def test_tagged_outcomes():
    r = evaluate("the/DET dog/NOUN ran/VERB", "the/DET dog/VERB ra/VERB n/X", SPACE_POS, "TaggedWord")
    assert r.outcomes == "100"
    r = evaluate("the/DET dog/NOUN ran/VERB", "the/DET dog/VERB ra/VERB n/X", SPACE_POS, "Word")
    assert r.outcomes == "110"


# --------------------------------------------------------------------------
# One line at a time (what the editor engine calls)
# --------------------------------------------------------------------------


def test_score_line_differences_point_into_the_predicted_line():
    pred = "これ に 不快感 を"
    line = score_line("これ に 不快 感 を", pred, SPACE)
    assert triple(line.counts, "Word") == (3, 5, 4)
    [problem] = line.problems
    assert problem.code == "segmentation-mismatch"
    assert pred[problem.start:problem.end] == "不快感"
    assert "'不快' '感'" in problem.message
    assert line.outcomes == "11001"


def test_score_line_tag_differences_and_unknown_tags():
    pred = "the/DET dog/VERB cat/Noun"
    line = score_line("the/DET dog/NOUN cat/NOUN", pred, SPACE_POS)
    codes = [(p.code, pred[p.start:p.end]) for p in line.problems]
    assert ("tag-mismatch", "VERB") in codes
    assert ("format-unknown-tag", "Noun") in codes
    assert ("tag-mismatch", "Noun") in codes  # read as X, gold has NOUN
    assert line.tagged_outcomes == "100" and line.outcomes == "111"


def test_score_line_text_mismatch():
    pred = "ab\tc\td"
    line = score_line("ab\tc\te", pred, TSV)
    assert line.counts == SegmentationCounts(mismatched=1)
    [problem] = line.problems
    assert problem.code == "text-mismatch" and problem.start == pred.index("d")
    assert line.outcomes == "---"


def test_score_line_without_prediction_counts_against_recall():
    line = score_line("a b c", None, SPACE)
    assert triple(line.counts, "Word") == (0, 3, 0) and line.outcomes == "000"
    assert score_line("", None, SPACE).counts == SegmentationCounts()


# --------------------------------------------------------------------------
# Against a plain transcription of the definitions, on random lines
# --------------------------------------------------------------------------


def _white(token: str) -> bool:
    return token != "" and all(ord(ch) in WHITE_SPACE for ch in token)


def _reference_words(line: str, sep: str, pos: bool):
    tokens = [t for t in line.split(sep) if t != ""]
    words, tags = [], []
    for t in tokens:
        if pos:
            if "/" in t:
                i = t.rindex("/")
                word, tag = t[:i], t[i + 1:]
                tag = tag if tag in UPOS_TAGS else "X"
            else:
                word, tag = t, "X"
        else:
            word, tag = t, None
        words.append(word)
        tags.append(tag)
    return words, tags


def reference_counts(gold_lines, pred_lines, sep, pos):
    """Word/Boundary/Tagged counts of position-paired lines, straight from the notes."""
    c = dict.fromkeys(["wc", "wg", "wp", "bc", "bg", "bp", "tc", "tg", "tp", "sentences"], 0)
    for g_line, p_line in zip(gold_lines, pred_lines):
        gw, gt = _reference_words(g_line, sep, pos)
        pw, pt = _reference_words(p_line, sep, pos)
        if not gw:
            continue
        assert "".join(gw) == "".join(pw)
        c["sentences"] += 1

        def spans(words, tags):
            out, offset = [], 0
            for w, t in zip(words, tags):
                if not _white(w):
                    out.append((offset, offset + len(w), t))
                offset += len(w)
            return out

        g, p = spans(gw, gt), spans(pw, pt)
        G, P = {(s, e) for s, e, _ in g}, {(s, e) for s, e, _ in p}
        GB, PB = {s for s, _, _ in g if s != 0}, {s for s, _, _ in p if s != 0}
        c["wc"] += len(G & P); c["wg"] += len(G); c["wp"] += len(P)
        c["bc"] += len(GB & PB); c["bg"] += len(GB); c["bp"] += len(PB)
        if pos:
            c["tg"] += len(g); c["tp"] += len(p)
            for s, e, t in p:
                if (s, e) in G & P:
                    first = next(gt_ for gs, ge, gt_ in g if (gs, ge) == (s, e))
                    c["tc"] += t == first
    return c


def _random_pair(rng: random.Random, fmt: str, pos: bool) -> tuple[str, str]:
    pieces = ["a", "b", "漢", "字", "/", "\x1c", "\u3000", "\t" if fmt == "space" else " ", ""]
    tags = sorted(UPOS_TAGS) + ["", "foo", "noun"]
    sep = " " if fmt == "space" else "\t"
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))

    def segment() -> str:
        cuts = sorted({0, len(text)} | {rng.randint(0, len(text)) for _ in range(rng.randint(0, 6))})
        words = [text[a:b] for a, b in zip(cuts, cuts[1:])]
        if rng.random() < 0.2:
            words.insert(rng.randint(0, len(words)), "")  # an empty word (a bare "/" with --pos)
        tokens = []
        for w in words:
            if pos and ("/" in w or w == "" or rng.random() < 0.9):
                tokens.append(w + "/" + rng.choice(tags))
            elif w:
                tokens.append(w)
        if rng.random() < 0.2:
            tokens.insert(0, "")  # a leading separator
        return sep.join(tokens) + (sep * rng.randint(0, 2))

    return segment(), segment()


@pytest.mark.parametrize("fmt,pos", [("space", False), ("tsv", False), ("space", True), ("tsv", True)])
def test_matches_the_definitions_on_random_lines(fmt, pos):
    rng = random.Random(f"{fmt}{pos}")
    options = SegmentationOptions(fmt, pos)
    gold, pred = zip(*(_random_pair(rng, fmt, pos) for _ in range(3000)))
    # Some identical lines, to exercise the shortcut.
    pred = [g if i % 5 == 0 else p for i, (g, p) in enumerate(zip(gold, pred))]
    ref = reference_counts(gold, pred, options.separator, pos)
    r = evaluate_lines(list(gold), list(pred), options)
    assert not r.mismatched and r.paired_by == "position"
    c = r.counts
    assert (c.word_correct, c.word_gold, c.word_system) == (ref["wc"], ref["wg"], ref["wp"])
    assert (c.boundary_correct, c.boundary_gold, c.boundary_system) == (ref["bc"], ref["bg"], ref["bp"])
    assert (c.tagged_correct, c.tagged_gold, c.tagged_system) == (ref["tc"], ref["tg"], ref["tp"])
    assert c.sentences == ref["sentences"]
    # The per-line API adds up to the same totals and outcomes.
    total = SegmentationCounts()
    outcomes = []
    for g, p in zip(gold, pred):
        line = score_line(g, p, options)
        total = total + line.counts
        outcomes.append(line.outcomes)
    assert total == c
    assert "".join(outcomes) == evaluate_lines(list(gold), list(pred), options, "Word").outcomes
    assert (total - c) == SegmentationCounts()
