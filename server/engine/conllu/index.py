"""A document's analysed sentences in order, with the counts for its score
(and its annotation progress, see `progress`).

Made by a rescore, when every segment has its analysis; after an edit that
keeps the number of sentences it is patched in place (`replace`), so that an
edit does not cost a pass over every sentence of the file.  Each info knows
its place in it (``SentenceInfo.position``): an edit's removed infos say
where its new ones go.
"""

from __future__ import annotations

from operator import attrgetter

from ...textstore import TextStore
from .analysis import SentenceInfo
from .progress import is_annotated, is_marked


class SentenceIndex:
    def __init__(self, store: TextStore, numbered: bool = True) -> None:
        self.infos: list[SentenceInfo] = []
        for segment in store.segments:
            if segment.analysis is not None:
                self.infos += segment.analysis[1]  # type: ignore[index]
        if numbered:  # the index edits are patched into (see ConlluResults.index)
            for position, info in enumerate(self.infos):
                info.position = position
        infos = self.infos
        self.unparsed = sum(1 for i in infos if i.unparsed)
        self.refused = sum(1 for i in infos if i.refused and not i.unparsed)
        self.low = sum(map(attrgetter("low"), infos))
        self.annotated = sum(map(is_annotated, infos))  # a HEAD in every word (see .progress)
        self._marked: tuple[str, int] | None = None      # (marker, sentences marked), once asked

    def marked(self, marker: str) -> int:
        """Sentences carrying the marker comment (counted when first asked, then kept)."""
        if self._marked is None or self._marked[0] != marker:
            self._marked = (marker, sum(1 for i in self.infos if is_marked(i, marker)))
        return self._marked[1]

    def replace(self, positions: list[int], new: list[SentenceInfo]) -> None:
        for position, info in zip(positions, new):
            old = self.infos[position]
            self.unparsed += info.unparsed - old.unparsed
            self.refused += (info.refused and not info.unparsed) - (old.refused and not old.unparsed)
            self.low += info.low - old.low
            self.annotated += is_annotated(info) - is_annotated(old)
            if self._marked is not None:
                marker, count = self._marked
                self._marked = (marker, count + is_marked(info, marker) - is_marked(old, marker))
            info.position = position
            self.infos[position] = info
