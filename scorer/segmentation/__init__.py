"""Word segmentation (and word/UPOS tagging) scored as litsea's ``evaluate`` does.

Gold and prediction are files of one sentence per line: ``space`` (tokens
separated by U+0020), ``tsv`` (separated by TAB; a token may be a literal
space), either with ``--pos`` (tokens ``word/UPOS``).  For each line, both
token lists are laid end to end over the line's text and compared by exact
character spans; counts are summed over the corpus (micro-averaged):

- **Word** P/R/F1: words whose start and end both match;
- **Boundary** P/R/F1: word start offsets, offset 0 excluded;
- **TaggedWord** P/R/F1 (--pos): matching span and the same tag;
- whitespace-only tokens count nowhere; lines without tokens are skipped;
  a proportion whose denominator is 0 is 0.0.

Modules, in the order data flows: `tokens` (one line → words, tags,
columns), `score` (one line pair → counts, and what differs), `pairing`
(which line goes with which), `evaluate` (whole files), `counts` (the sums),
`report` (table and JSON).  The exact rules, with the reasons, are in their
docstrings.

API for an editor (one line at a time, cacheable by content)
-------------------------------------------------------------

``score_line(gold_line, predicted_line, options) -> LineScore`` is pure: its
result depends only on the two strings and the (frozen, hashable) options,
so an engine can cache it by ``(gold_line, predicted_line, options)``.

- ``LineScore.counts`` is a `SegmentationCounts`; counts of all lines add
  up (``+``, ``-``) to exactly what `evaluate_files` reports, so file totals
  can be kept as "cached sum - old line + new line".
- ``LineScore.problems`` are `scorer.problems.Problem` objects on line 0,
  with code-point columns in the *predicted* line (shift them with
  ``problem.shifted(line_number)``):

  ``text-mismatch`` (error, one per line): the line does not rebuild its
  gold line's text and is left out of the scores (counts ``mismatched=1``);
  ``segmentation-mismatch`` (warning, per predicted word that is not a gold
  word; the message names the gold words there); ``tag-mismatch`` (warning,
  --pos: right span, other tag; the span is the tag); ``format-unknown-tag``
  (warning: a tag read as X).
- ``LineScore.outcomes``: one character per scored gold word, '1' found,
  '0' missed, '-' not scored (line left out); ``tagged_outcomes`` the same
  for TaggedWord.  These are what ``--save-errors`` writes.
- ``score_line(gold_line, None, options)``: a gold line with no predicted
  partner (its words count against recall).
- Which predicted line goes with which gold line is the engine's choice;
  `pairing.pair_by_text` re-pairs files whose line counts differ, as the
  command line does.

``parse_line(line, options)`` gives a single line's words, tags, their
columns and its own problems (unknown tags), e.g. for a gold document.
"""

from .counts import METRICS, SegmentationCounts
from .evaluate import SegmentationResult, evaluate_files, evaluate_lines
from .score import LineScore, TextMismatch, score_line
from .tokens import ParsedLine, SegmentationOptions, parse_line, split_words

__all__ = ["METRICS", "LineScore", "ParsedLine", "SegmentationCounts", "SegmentationOptions",
           "SegmentationResult", "TextMismatch", "evaluate_files", "evaluate_lines", "parse_line",
           "score_line", "split_words"]
