"""Which sentences are counted together: the rules, written once.

The pairer (`pairing.SentencePairer`) turns the system file into a stream
of *chunks*: predicted sentences paired with gold sentences (PAIRED),
predicted sentences whose text gold does not have (UNMATCHED), and gold
sentences the prediction lacks (MISSING).  Both `evaluate` and the engine's
incremental score (`server.engine.conllu`) count that stream the same way,
through `ChunkCounter`:

1. **Unparsed chunks left out** (``annotated_only``): a PAIRED chunk holding
   a sentence not parsed yet is left out *before* anything else, exactly as
   if it were in neither file.
2. **Unclean chunks joined.**  A chunk whose word alignment ends with words
   left over on one side (see `align`) is not counted alone: the official
   scorer's walk would carry those words into the next chunk, so it is held
   and counted together with the next PAIRED chunk.  An UNMATCHED or MISSING
   chunk (or the end of the file) counts the held one as it is.
3. **One side only.**  UNMATCHED sentences count in the predicted totals;
   MISSING ones in the gold totals unless missing sentences are ignored
   (``predicted_only`` / ``annotated_only``).

What counting a chunk means is the caller's (a `CountingSink`): `evaluate`
keeps per-sentence lists and details, the engine keeps units it can reuse
after an edit.  Both batch the commonest case, one sentence paired with one
of the same tokens, with `IdenticalBatch`.
"""

from __future__ import annotations

from typing import Callable, Generic, Protocol, TypeVar

from .counts import Counts
from .pairing import MISSING, PAIRED, UNMATCHED, Chunk
from .identical import count_identical_many
from .sentence import Sentence

S = TypeVar("S")  # what the sink calls a system sentence (a Sentence, or the engine's info)

# Sentence pairs counted together by `IdenticalBatch`: few enough that their
# columns stay within a core's cache.
IDENTICAL_BATCH = 64


class CountingSink(Protocol[S]):
    def count(self, gold: list[int], system: list[S], final: bool) -> bool:
        """Count a PAIRED chunk (gold indices, system sentences).  Return
        False, having counted nothing, when its alignment ended unclean and
        ``final`` is False: the counter then holds it for the next chunk."""

    def exclude(self, chunk: Chunk) -> None:
        """A PAIRED chunk left out because it is not parsed yet."""

    def unmatched(self, chunk: Chunk) -> None:
        """An UNMATCHED chunk: its sentences count in the predicted totals."""

    def missing(self, gold: int, counted: bool) -> None:
        """A gold sentence the prediction lacks; ``counted``: against recall."""


class ChunkCounter(Generic[S]):
    """Feeds a sink the chunks of one pass, by the rules of the module's docstring."""

    def __init__(self, sink: CountingSink[S], annotated_only: bool, ignore_missing: bool,
                 missing_heads: Callable[[S], bool]) -> None:
        self.sink = sink
        self.annotated_only = annotated_only
        self.ignore_missing = ignore_missing
        self.missing_heads = missing_heads
        self.held: tuple[list[int], list[S]] | None = None  # an unclean chunk

    def handle(self, chunk: Chunk) -> None:
        if chunk.kind == PAIRED:
            system: list[S] = chunk.system  # type: ignore[assignment]
            if self.annotated_only and any(map(self.missing_heads, system)):
                self.sink.exclude(chunk)
                return
            gold = chunk.gold
            if self.held is not None:
                gold, system = self.held[0] + gold, self.held[1] + system
                self.held = None
            if not self.sink.count(gold, system, False):
                self.held = (gold, system)
        elif chunk.kind == UNMATCHED:
            self.flush()
            self.sink.unmatched(chunk)
        elif chunk.kind == MISSING:
            self.flush()
            for k in chunk.gold:
                self.sink.missing(k, not self.ignore_missing)

    def flush(self) -> None:
        """Count a held chunk as it is."""
        if self.held is not None:
            gold, system = self.held
            self.held = None
            self.sink.count(gold, system, True)

    def finish(self) -> bool:
        """The end of the pass: count what is held.  Returns whether the last
        chunk was held, i.e. would have been joined with what came next
        (for scoring a file in parts: the first part must end clean)."""
        held = self.held is not None
        self.flush()
        return held

    @property
    def idle(self) -> bool:
        return self.held is None


class IdenticalBatch(Generic[S]):
    """Pairs of one gold and one system sentence with the same tokens
    (`identical.identity_ready`), counted a batch at a time: whole columns
    compared at once (`identical.count_identical_many`).  Without ``each`` the
    counts are summed in ``total``; with it, ``each(tag, counts)`` is told
    every pair's own counts (the engine keeps them per unit)."""

    def __init__(self, each: Callable[[S, Counts], None] | None = None) -> None:
        self.pairs: list[tuple[Sentence, Sentence, S]] = []
        self.total = Counts()
        self.each = each

    def add(self, gold: Sentence, system: Sentence, tag: S) -> None:
        self.pairs.append((gold, system, tag))
        if len(self.pairs) >= IDENTICAL_BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.pairs:
            return
        pairs, self.pairs = self.pairs, []
        if self.each is None:
            self.total += count_identical_many([(g, s) for g, s, _ in pairs])
        else:
            for g, s, tag in pairs:
                self.each(tag, count_identical_many([(g, s)]))
