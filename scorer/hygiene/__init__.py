"""Evaluation hygiene: leaks between splits, leak-free splits, a test split used once.

A score means something only on data the system never saw.  This package
finds items of a later split (dev, test) that also occur in an earlier one
(train; test against dev too), makes splits that cannot leak, and knows
which file is which split.  It is pure: it reads files and returns data;
the commands (`server.cli.leaks`, `server.cli.split`) print, and the
ledger of final test runs lives in `server.ledger`.

Modules, one job each:

- `normalize`: when two texts count as the same (NFC, case folding,
  whitespace collapsed: named and configurable);
- `near`: near-duplicate rules (digits, weekdays, months, your word classes,
  ``jaccard=T``), as keys that hash;
- `similar`: Jaccard similarity by prefix filtering, exact, without all pairs;
- `items`: a file's items (CoNLL-U sentences, segmentation lines, rows of
  labelled text) with text, annotation, line, ID and raw text;
- `index`: `LeakIndex`, built once, asked "where does this text occur?";
- `leaks`: `find_leaks` over files with their splits: exact, near, conflict;
- `split`: `make_split`, the leak-free split maker and its report;
- `splits`: the three splits, and a file's split from its name.

For an editor (a ``leak`` diagnostic on each sentence of an open dev or
test file that occurs in train)::

    from annoscore.scorer.hygiene import LeakIndex, read_items, rules_from
    normalization, near = rules_from("nfc,casefold,space", "digits")   # the project's [splits] rules
    index = LeakIndex(normalization, near)
    for path in train_files:                    # once; again when a train file changes
        index.add_file(read_items(path), "train")
    index.occurrences(sentence_text)            # -> [Occurrence(file, line, sent_id, kind, rules)], line 0-based

``conllu_text(block)`` gives a CoNLL-U sentence block's text as the index
compares it (``# text``, else the FORMs rebuilt).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..lazy import lazy_exports

if TYPE_CHECKING:
    from .near import NearRules
    from .normalize import Normalization


def rules_from(normalize: str | Sequence[str], near: str | Sequence[str]) -> tuple[Normalization, NearRules]:
    """The normalization and near rules named by ``normalize`` and ``near``
    (as ``--normalize`` / ``--near`` or ``[splits]`` give them).  Raises
    ValueError saying what is wrong."""
    from .near import parse_near
    from .normalize import parse_normalization
    normalization = parse_normalization(normalize)
    return normalization, parse_near(near, normalization)


# Imported when first used (scorer.lazy): importing one module of the package loads no other.
_WHERE = {
    'LeakIndex': 'annoscore.scorer.hygiene.index',
    'Occurrence': 'annoscore.scorer.hygiene.index',
    'Item': 'annoscore.scorer.hygiene.items',
    'ItemFile': 'annoscore.scorer.hygiene.items',
    'ReadOptions': 'annoscore.scorer.hygiene.items',
    'conllu_text': 'annoscore.scorer.hygiene.items',
    'read_items': 'annoscore.scorer.hygiene.items',
    'Finding': 'annoscore.scorer.hygiene.leaks',
    'LeakReport': 'annoscore.scorer.hygiene.leaks',
    'Place': 'annoscore.scorer.hygiene.leaks',
    'find_leaks': 'annoscore.scorer.hygiene.leaks',
    'NearRules': 'annoscore.scorer.hygiene.near',
    'parse_near': 'annoscore.scorer.hygiene.near',
    'Normalization': 'annoscore.scorer.hygiene.normalize',
    'parse_normalization': 'annoscore.scorer.hygiene.normalize',
    'SPLITS': 'annoscore.scorer.hygiene.splits',
    'split_from_name': 'annoscore.scorer.hygiene.splits',
}


__getattr__ = lazy_exports(__name__, _WHERE, globals())


__all__ = ["Finding", "Item", "ItemFile", "LeakIndex", "LeakReport", "NearRules", "Normalization",
           "Occurrence", "Place", "ReadOptions", "SPLITS", "conllu_text", "find_leaks", "parse_near",
           "parse_normalization", "read_items", "rules_from", "split_from_name"]
