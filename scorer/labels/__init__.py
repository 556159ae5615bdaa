"""Labels per item (classification) scored with honest baselines.

Files have one item per line, ``ID<TAB>LABEL`` or just ``LABEL``; items pair
by ID when both files have IDs, else by order.  Reported: accuracy (with its
95% Wilson interval), macro-averaged recall (WMT 2016's primary measure),
macro F1, per-class precision/recall/F1/support, the confusion matrix, the
majority-class and uniform (1/C) baselines, items missing on either side and
labels gold never uses.  Macro averages run over the gold classes; a class
never predicted has recall 0 and still counts.

Modules: `reader` (lines → items, with problems), `evaluate` (pairing and
tallying whole files; one item), `counts` (tallies that add up, and every
measure made from them), `report` (table and JSON).

API for an editor (one item at a time, cacheable by content)
-------------------------------------------------------------

- ``parse_item(line, number, has_ids) -> (LabelItem | None, [Problem])``
  reads one line, with the columns of its ID and label.  Whether a file has
  IDs is decided by its first non-blank line (``"\\t" in line``).
- ``score_item(gold_item, predicted_item, gold_classes) -> ItemScore`` is
  pure.  ``ItemScore.counts`` is a `LabelCounts` (a one-item tally; tallies
  add and subtract exactly, so totals are "sum - old item + new item" and
  ``LabelCounts.scores()`` gives every measure); ``outcome`` is '1'/'0' for
  a gold item ('' for an item gold lacks); ``problems`` are in the predicted
  line: ``label-mismatch`` (the message names gold's label), ``unknown-label``,
  ``extra-item``.  Pass None for a missing side: a gold item without
  prediction counts as wrong.
- ``gold_classes`` is the set of gold labels; it changes only when gold does.
"""

from .counts import LabelCounts, LabelScores
from .evaluate import ItemScore, LabelResult, evaluate_files, evaluate_label_files, score_item
from .reader import LabelFile, LabelItem, parse_item, parse_labels

__all__ = ["ItemScore", "LabelCounts", "LabelFile", "LabelItem", "LabelResult", "LabelScores",
           "evaluate_files", "evaluate_label_files", "parse_item", "parse_labels", "score_item"]
