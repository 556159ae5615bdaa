"""Clean evaluation in the editor: leaks shown where the annotator works,
and a test split that is not looked at.

With ``[splits]`` in the project file (`server.config.SplitSettings`):

- a prediction whose gold is a declared **test** file gets no live score and
  no problems against gold, only the gold-free ones: the test split is
  scored once, with ``annoscore evaluate --final`` (see `server.ledger`);
- an open **dev** or **test** CoNLL-U file gets a ``leak`` diagnostic on
  each sentence that also occurs in a train file (and, for test files, in a
  dev file), naming the file and line where, exact or near, under the
  normalization and near rules of ``[splits]`` (`scorer.hygiene`).

The index of the earlier splits is built once (`LeakIndexes`) and made again
only when those files change on disk (their sizes and times); each
sentence's answer is kept on its text segment, so an edit asks again only
for the sentences it touched.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from annoscore.scorer.hygiene import LeakIndex, read_items, rules_from
from annoscore.scorer.hygiene.items import conllu_text
from annoscore.scorer.problems import Problem, Severity

from annoscore.scorer.excerpt import identifier, printable_name
from ..config import Settings, declared_files, declared_split

TEST_SPLIT_MESSAGE = "test split: run annoscore evaluate --final"
LEAKS_SHOWN = 3  # places named in one leak diagnostic


def withheld_gold(gold_path: str | None, settings: Settings, root: str | None) -> bool:
    """Whether the gold is a declared test split (no live score against it)."""
    return gold_path is not None and declared_split(gold_path, settings, root) == "test"


@dataclass
class _Built:
    stamp: tuple
    index: LeakIndex


class LeakIndexes:
    """The leak index of the splits before each split, built when first asked."""

    def __init__(self) -> None:
        self._built: dict[str, _Built] = {}
        self._told: list[str] = []

    def for_split(self, split: str, settings: Settings, root: str) -> LeakIndex | None:
        """The index a ``split`` file is checked against (train; train and
        dev for test), or None when there is nothing to check against."""
        left_out: list[str] = []
        files = declared_files(settings, root, left_out)
        if left_out and self._told != left_out:  # (outside the project, a glob stopped): said once
            self._told = left_out
            log = logging.getLogger("annoscore")
            for problem in left_out:
                log.warning("%s", problem)
        earlier = files["train"] + (files["dev"] if split == "test" else [])
        if split not in ("dev", "test") or not earlier:
            return None
        stamp = (settings.splits, tuple((p, *_stat(p)) for p in earlier))
        built = self._built.get(split)
        if built is None or built.stamp != stamp:
            normalization, near = rules_from(settings.splits.normalize, settings.splits.near)
            index = LeakIndex(normalization, near, settings.splits.min_words)
            for path in earlier:
                index.add_file(read_items(path), "dev" if path in files["dev"] else "train")
            built = self._built[split] = _Built(stamp, index)
        return built.index


def _stat(path: str) -> tuple[int, int]:
    try:
        status = os.stat(path)
    except OSError:
        return -1, -1
    return status.st_size, status.st_mtime_ns


def leak_problems(document, indexes: LeakIndexes, settings: Settings, root: str | None) -> list[Problem]:
    """``leak`` problems (absolute lines) for an open dev or test document."""
    if root is None or document.path is None or not settings.splits.train:
        return []
    split = declared_split(document.path, settings, root)
    index = indexes.for_split(split, settings, root) if split else None
    if index is None:
        return []
    out = []
    for segment in document.store.segments:
        block = segment.block
        if block is None:
            continue
        kept = segment.leaks
        if kept is None or kept[0] is not index:
            text = conllu_text(block)
            segment.leaks = kept = (index, index.occurrences(text) if text else [])
        found = kept[1]
        if found:
            out.append(_leak(found, segment.first_line + (1 if segment.bom else 0), root))
    return out


def _leak(found, line: int, root: str) -> Problem:
    kind = "exactly" if all(o.kind == "exact" for o in found) else "nearly"
    places = ", ".join(f"{printable_name(os.path.relpath(o.file, root))}:{o.line + 1}"
                       + (f" ({identifier(o.sent_id)})" if o.sent_id else "")
                       for o in found[:LEAKS_SHOWN])
    more = f" and {len(found) - LEAKS_SHOWN} more" if len(found) > LEAKS_SHOWN else ""
    return Problem("leak", f"this sentence also occurs {kind} in an earlier split: {places}{more}",
                   line, 0, 0, Severity.INFORMATION)
