"""Counting one line pair, litsea's way, and explaining the differences.

Both word lists are laid end to end over the line's text, so each word gets
a span ``(start, end)`` of character offsets (code points).  Whitespace words
take part in the offsets but are never scored.  Then, per line:

- **Word**: G and P are the *sets* of spans of gold's and the prediction's
  scored words; correct = |G ∩ P|, gold = |G|, system = |P|.  A word counts
  only when both its ends match.
- **Boundary**: the sets of the scored words' *start* offsets, offset 0
  removed (the start of the text is never a boundary, and ends are never
  counted); correct, gold and system as for words.
- **TaggedWord** (--pos): gold and system are the *numbers* of scored words
  (a list count; equal to the set sizes unless empty words repeat a span);
  for every scored predicted word whose span is in G ∩ P, the first gold
  word with that span is looked up and the word is correct when the tags are
  equal.

`count_words` does this with whole-list operations (``zip``, ``compress``,
set intersection, ``map``) so that no Python code runs per word; a line
that is byte-for-byte gold's takes the shorter `count_identical`.
`score_line` returns the same counts for one line, plus what an editor
shows: the predicted words that are not gold words, tags that differ, and
where the text stops matching gold's.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, compress
from operator import eq, not_
from typing import Sequence

from ..excerpt import quoted
from ..problems import Problem, Severity
from .counts import SegmentationCounts
from .tokens import (
    SPACE_BUT_NOT_WHITE_SPACE, ParsedLine, SegmentationOptions, is_white_space, parse_line,
)

# Word, Boundary and TaggedWord, each (correct, gold, system).
RawCounts = tuple[int, int, int, int, int, int, int, int, int]

SNIPPET = 20  # characters shown on each side of a text difference
COVERING_SHOWN = 5  # gold words named in a segmentation-mismatch message


def _offsets(words: Sequence[str]) -> tuple[list[int], list[int]]:
    """Start and end offset of every word in the text the words make."""
    ends = list(accumulate(map(len, words)))
    starts = [0]
    starts += ends
    starts.pop()
    return starts, ends


def _scored(words: Sequence[str]) -> list[bool] | None:
    """Which words are scored (not whitespace); None when all of them are.

    ``str.isspace`` does the work, in C; it differs from White_Space only on
    U+001C..U+001F, so only words it calls space that hold one of those get
    a closer look.
    """
    space = list(map(str.isspace, words))
    if True not in space:
        return None
    if not SPACE_BUT_NOT_WHITE_SPACE.isdisjoint("".join(compress(words, space))):
        return [not is_white_space(w) for w in words]
    return list(map(not_, space))


def _spans(words: Sequence[str], tags: Sequence[str] | None):
    """Spans, boundary set and tags of the scored words."""
    starts, ends = _offsets(words)
    keep = _scored(words)
    if keep is None:
        spans = list(zip(starts, ends))
        boundaries = set(starts)
    else:
        spans = list(compress(zip(starts, ends), keep))
        boundaries = set(compress(starts, keep))
        if tags is not None:
            tags = list(compress(tags, keep))
    boundaries.discard(0)
    return spans, boundaries, tags


def count_words(gold_words: Sequence[str], gold_tags: Sequence[str] | None,
                system_words: Sequence[str], system_tags: Sequence[str] | None,
                outcomes: list[str] | None = None, tagged_outcomes: bool = False) -> RawCounts:
    """Word, Boundary and TaggedWord counts of one line pair whose texts are equal.

    Tags are None without --pos (TaggedWord counts are then 0).  With
    ``outcomes``, one character per scored gold word is appended to it, in
    order: '1' when the word was found (with ``tagged_outcomes``: found with
    the same tag), '0' when not.
    """
    g_spans, g_bounds, g_tags = _spans(gold_words, gold_tags)
    s_spans, s_bounds, s_tags = _spans(system_words, system_tags)
    gold_set = set(g_spans)
    system_set = set(s_spans)
    word_correct = len(gold_set & system_set)
    tagged = (0, 0, 0)
    if g_tags is not None and s_tags is not None:
        # The first gold word with each span: zip from the end, so the first wins.
        first_gold_tag = dict(zip(reversed(g_spans), reversed(g_tags)))
        tagged = (sum(map(eq, map(first_gold_tag.get, s_spans), s_tags)), len(g_spans), len(s_spans))
    if outcomes is not None:
        if tagged_outcomes and g_tags is not None and s_tags is not None:
            first_system_tag = dict(zip(reversed(s_spans), reversed(s_tags)))
            found = map(eq, map(first_system_tag.get, g_spans), g_tags)
        else:
            found = map(system_set.__contains__, g_spans)
        outcomes.append("".join(["1" if f else "0" for f in found]))
    return (word_correct, len(gold_set), len(system_set),
            len(g_bounds & s_bounds), len(g_bounds), len(s_bounds)) + tagged


def count_identical(words: Sequence[str], tags: Sequence[str] | None,
                    outcomes: list[str] | None = None, tagged_outcomes: bool = False) -> RawCounts:
    """`count_words` for a prediction that is exactly gold (the same tokens)."""
    spans, bounds, kept_tags = _spans(words, tags)
    n_words = len(set(spans))
    if n_words != len(spans) and tags is not None:
        # Empty words repeating a span: TaggedWord needs the general rule.
        return count_words(words, tags, words, tags, outcomes, tagged_outcomes)
    if outcomes is not None:
        outcomes.append("1" * len(spans))
    tagged = (len(spans),) * 3 if kept_tags is not None else (0, 0, 0)
    return (n_words, n_words, n_words, len(bounds), len(bounds), len(bounds)) + tagged


def counts_of(raw: RawCounts, sentences: int = 1) -> SegmentationCounts:
    return SegmentationCounts(sentences, *raw)


def missing_counts(words: Sequence[str], tags: Sequence[str] | None) -> RawCounts:
    """A gold line nothing was predicted for: every word and boundary missed."""
    spans, bounds, _ = _spans(words, tags)
    return (0, len(set(spans)), 0, 0, len(bounds), 0, 0, len(spans) if tags is not None else 0, 0)


def scored_word_count(words: Sequence[str]) -> int:
    """How many words of a line are scored (not whitespace): its outcome count."""
    keep = _scored(words)
    return len(words) if keep is None else sum(keep)


# --------------------------------------------------------------------------
# One line, with its differences (for editors)
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextMismatch:
    """Where a predicted line's text first differs from its gold line's."""

    offset: int        # in the rebuilt texts (the same in both up to here)
    column: int        # the same place in the predicted line as written
    text: str          # the predicted text from a little before there
    gold_text: str     # gold's text at the same place


def find_mismatch(system: ParsedLine, gold: ParsedLine) -> TextMismatch | None:
    """None when the two lines rebuild the same text."""
    text, gold_text = system.text, gold.text
    if text == gold_text:
        return None
    offset = 0
    limit = min(len(text), len(gold_text))
    while offset < limit and text[offset] == gold_text[offset]:
        offset += 1
    begin = max(0, offset - 5)
    return TextMismatch(offset, system.column_of(offset), text[begin:offset + SNIPPET],
                        gold_text[begin:offset + SNIPPET])


def describe_mismatch(m: TextMismatch) -> str:
    return (f"text differs from gold at character {m.offset + 1}: "
            f"{quoted(m.text)} vs gold {quoted(m.gold_text)}")


@dataclass(frozen=True, slots=True)
class LineScore:
    """One line pair's share of the file totals, and what differs.

    ``problems`` sit on line 0 with columns in the *predicted* line (shift
    them with ``Problem.shifted``): ``text-mismatch`` (error; the line is
    left out of the scores), ``segmentation-mismatch`` per predicted word
    that is not a gold word, ``tag-mismatch`` per word whose span is right and
    tag wrong (--pos), and ``format-unknown-tag`` for tags read as X.
    ``outcomes`` has one character per scored gold word ('1' found, '0'
    missed, '-' not scored because the line was left out), and
    ``tagged_outcomes`` the same for TaggedWord (--pos only).
    """

    counts: SegmentationCounts
    problems: tuple[Problem, ...] = ()
    outcomes: str = ""
    tagged_outcomes: str | None = None
    mismatch: TextMismatch | None = None


def score_line(gold_line: str, predicted_line: str | None,
               options: SegmentationOptions) -> LineScore:
    """Score one predicted line against its gold line.

    ``predicted_line`` None means gold's line has no predicted partner: its
    words count against recall.  A gold line without tokens is no sentence:
    it scores nothing, and a predicted line with text beside it is a text
    mismatch.  Pure and cheap to cache: the result depends only on the two
    strings and the options.
    """
    gold = parse_line(gold_line, options)
    n_gold = sum(1 for w in gold.white_space if not w)
    if predicted_line is None:
        if not gold.words:
            return LineScore(SegmentationCounts())
        raw = missing_counts(gold.words, gold.tags)
        return LineScore(counts_of(raw), (), "0" * n_gold,
                         "0" * n_gold if options.pos else None)
    system = parse_line(predicted_line, options)
    if not gold.words and not system.text:  # no sentence, and no extra text beside it
        return LineScore(SegmentationCounts())
    mismatch = find_mismatch(system, gold) if gold.words else TextMismatch(
        0, system.word_columns[0][0], system.text[:SNIPPET], "")
    if mismatch is not None:
        end = len(predicted_line.rstrip(options.separator))
        problem = Problem("text-mismatch", describe_mismatch(mismatch) + "; the line is not scored",
                          0, mismatch.column, max(end, mismatch.column), Severity.ERROR)
        return LineScore(SegmentationCounts(mismatched=1), (problem,), "-" * n_gold,
                         "-" * n_gold if options.pos else None, mismatch)
    outcomes: list[str] = []
    raw = count_words(gold.words, gold.tags, system.words, system.tags, outcomes)
    tagged_outcomes = None
    if options.pos:
        tagged: list[str] = []
        count_words(gold.words, gold.tags, system.words, system.tags, tagged, tagged_outcomes=True)
        tagged_outcomes = tagged[0]
    problems = tuple(_differences(gold, system)) + tuple(system.problems())
    return LineScore(counts_of(raw), tuple(sorted(problems, key=lambda p: (p.start, p.end))),
                     outcomes[0], tagged_outcomes)


def _differences(gold: ParsedLine, system: ParsedLine) -> list[Problem]:
    """segmentation-mismatch and tag-mismatch problems of a line pair with equal texts."""
    g_index = [i for i, w in enumerate(gold.white_space) if not w]
    g_starts = [gold.starts[i] for i in g_index]
    g_ends = [gold.ends[i] for i in g_index]
    first_gold: dict[tuple[int, int], int] = {}
    for i in g_index:
        first_gold.setdefault((gold.starts[i], gold.ends[i]), i)
    problems = []
    for i, word in enumerate(system.words):
        if system.white_space[i]:
            continue
        span = (system.starts[i], system.ends[i])
        column_start, column_end = system.word_columns[i]
        j = first_gold.get(span)
        if j is None:
            start, end = span
            k = bisect_right(g_ends, start)  # the first gold word ending after `start`
            covering = []
            while k < len(g_starts) and (g_starts[k] < end or g_starts[k] == start == end):
                covering.append(gold.words[g_index[k]])
                k += 1
            if word == "":
                message = "an empty word; gold has none here"
            elif covering:
                message = (f"{quoted(word)} is not a gold word; gold has "
                           + " ".join(map(quoted, covering[:COVERING_SHOWN]))
                           + (" …" if len(covering) > COVERING_SHOWN else "") + " here")
            else:
                message = f"{quoted(word)} is not a gold word"
            problems.append(Problem("segmentation-mismatch", message, 0, column_start, column_end,
                                    Severity.WARNING))
        elif system.tags is not None and gold.tags is not None and system.tags[i] != gold.tags[j]:
            assert system.tag_columns is not None
            tag_start, tag_end = system.tag_columns[i]
            if tag_start == tag_end:
                tag_start, tag_end = column_start, column_end
            problems.append(Problem("tag-mismatch", f"tag {system.tags[i]}, gold has {gold.tags[j]}",
                                    0, tag_start, tag_end, Severity.WARNING))
    return problems
