"""The gold document's sentences, read as far as the pairing needs them.

The pairing (`scorer.conllu.pairing.SentencePairer`) asks for gold
sentences by position, by sent_id and by text (see its ``GoldText``).
`GoldSource` answers from the gold document's segments, analysing them a
batch at a time when the pairing first reaches them, and parses a sentence
again only when it is counted the ordinary way.
"""

from __future__ import annotations

from typing import Sequence

from annoscore.scorer.conllu.bulk import PlainSentence
from annoscore.scorer.conllu.sentence import Sentence

from ...textstore import Segment
from .analysis import BULK_BATCH, SentenceInfo, analyze_segments


class GoldSource:
    """The gold document's sentences for the pairing (see pairing.GoldText):
    segments are analysed when the pairing first reaches them, and parsed
    again only when a sentence is counted the ordinary way."""

    def __init__(self, segments: Sequence[Segment], threshold: float) -> None:
        self.segments = segments
        self.threshold = threshold
        self.next_segment = 0
        self.infos: list[SentenceInfo] = []
        self.by_id: dict[str, int] = {}
        self._by_text: dict[str, list[int]] | None = None
        # Plain sentences (of both documents) read during this pass and not
        # counted yet: counted from these columns, not read again.
        self.keep: dict[int, PlainSentence] = {}

    def _advance(self) -> bool:
        """Analyse the next few segments (in bulk, see `analyze_segments`)."""
        if self.next_segment >= len(self.segments):
            return False
        batch = self.segments[self.next_segment:self.next_segment + BULK_BATCH]
        self.next_segment += len(batch)
        analyze_segments(batch, self.threshold, self.keep)
        for segment in batch:
            for info in segment.analysis[1]:  # type: ignore[index]
                position = len(self.infos)
                self.infos.append(info)
                if info.sent_id is not None and info.sent_id not in self.by_id:
                    self.by_id[info.sent_id] = position
                if self._by_text is not None:
                    self._by_text.setdefault(info.chars, []).append(position)
        return True

    def exists(self, index: int) -> bool:
        while len(self.infos) <= index and self._advance():
            pass
        return index < len(self.infos)

    def chars(self, index: int) -> str:
        self.exists(index)
        return self.infos[index].chars

    def find(self, sent_id: str) -> int | None:
        while sent_id not in self.by_id and self._advance():
            pass
        return self.by_id.get(sent_id)

    def with_text(self, text: str) -> list[int]:
        if self._by_text is None:
            self._by_text = {}
            for i, info in enumerate(self.infos):
                self._by_text.setdefault(info.chars, []).append(i)
        while self._advance():
            pass
        return self._by_text.get(text, [])

    def count(self) -> int:
        while self._advance():
            pass
        return len(self.infos)

    def get(self, index: int) -> Sentence:
        self.exists(index)
        return self.infos[index].parse()
