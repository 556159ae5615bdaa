"""The first scoring of a large CoNLL-U document, in two processes.

Opening a million-word prediction beside its gold means analysing every
sentence of both files, pairing them and counting everything once; later
edits only redo what they touch (see `server.engine.conllu.score`).  That first
pass is the one moment the engine does the work of a whole file, so it is
split in two, as `server.parallel` splits ``annoscore evaluate`` (which
cuts into more, shrinking parts; here the second half comes back as
per-sentence state to be joined, so one cut is kept):

1. Both documents are cut before one sentence that both hold under the same
   ``sent_id`` (found once in each), near the middle of the prediction.
2. A second process takes the text after the cut (prediction and gold,
   handed over in a temporary file that only the user can read, removed as
   soon as that process has opened it) and does there exactly what
   `IncrementalScore.rescore` does on a whole document: analyse, pair, count.
   It sends back, per segment, the fields of its `SentenceInfo`s, and its
   units, as plain tuples.  Meanwhile this process does the same with the
   text before the cut.
3. The two halves are joined: the second half's infos are rebuilt on this
   process's own segments and its units shifted past the first half's
   sentences, so that the result is the object a single pass would have made,
   and edits carry on incrementally as usual.

The join gives exactly the single-pass result only when nothing crosses the
cut: every predicted sentence of each half paired with gold of the same half,
no gold sentence missing, the first half not ending in an alignment left
open, and no gold ``sent_id`` in both halves (the conditions of
`server.parallel`).  When any of this fails, or the second process fails, the
document is paired and counted again in one pass — reusing the analyses both
halves made, so that this costs only the score.  So the split can only be
faster, never different; the tests hold it to the single pass.

The second process comes from the engine's forkserver (`server.processes`).
"""

from __future__ import annotations

import gc
import os
import tempfile
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from annoscore.scorer.conllu.counts import Counts
from annoscore.scorer.conllu.parse import block_sent_id

from ...processes import default_jobs, forkserver_context
from ...textstore import Segment, segments_of
from .analysis import SentenceInfo
from .goldsource import GoldSource
from .score import IncrementalScore, ScoreSettings
from .units import Unit, unit_key
from annoscore.scorer.reading import open_file

# Below this many predicted sentences, starting a process costs more than it saves.
MIN_SENTENCES = 20_000
# A message this large (a document's text, as JSON) may well hold that many.
LIKELY_LARGE_BYTES = 16 << 20
# The second process's share of the prediction.  Both halves start within a
# few milliseconds of each other (the text goes through a file), and the
# second one's reading its text weighs about as much as this one's joining
# the halves after.
SECOND_SHARE = 0.5
# How long to wait for the second half before giving up on it (seconds).
PART_TIMEOUT = 900.0

# --------------------------------------------------------------------------
# Where to cut
# --------------------------------------------------------------------------


def _sent_id(segment: Segment) -> str | None:
    # A segment's text is its block and blank lines: the comments come first
    # either way (the byte-order mark of a first block hides its sent_id,
    # which only makes it unusable as a cut).
    return block_sent_id(segment.text) if segment.has_block else None


def _holding(segments: Sequence[Segment], sent_id: str, most: int) -> list[int]:
    """The segments whose sent_id is ``sent_id`` (up to ``most`` + 1 of
    them).  A substring test first: reading every block's comments would
    cost more than the whole cut is worth."""
    found = []
    for k, segment in enumerate(segments):
        if sent_id in segment.text and _sent_id(segment) == sent_id:
            found.append(k)
            if len(found) > most:
                break
    return found


def find_cut(system: Sequence[Segment], gold: Sequence[Segment]) -> tuple[int, int] | None:
    """(system segment, gold segment) before which both documents can be
    cut: the same sent_id, found exactly once in each, near the middle of
    the prediction (see SECOND_SHARE); None when there is no such place."""
    middle = int(len(system) * (1 - SECOND_SHARE))
    for c in range(max(1, middle), min(len(system), middle + 20)):
        sent_id = _sent_id(system[c])
        if sent_id is None or len(_holding(system, sent_id, 1)) != 1:
            continue
        in_gold = _holding(gold, sent_id, 1)
        if len(in_gold) == 1 and in_gold[0] > 0:
            return c, in_gold[0]
    return None


# --------------------------------------------------------------------------
# The second half, in its own process
# --------------------------------------------------------------------------


@dataclass
class PartResult:
    """What the second half sends back: only plain values (cheap to pickle)."""

    system: list[list[tuple]]   # per predicted segment: its infos' fields
    gold: list[list[tuple]]     # per gold segment analysed: its infos' fields
    units: list[tuple]          # (kind, gold, system, counts values or None, clean, problems, mismatch)
    bulk_totals: list[int]
    missing: list[int]
    unmatched: list[int]
    excluded: list[int]
    ended_unclean: bool


def _fields(info: SentenceInfo) -> tuple:
    return (info.index, info.line_offset, info.sent_id, info.chars, info.words, info.unparsed,
            info.missing_heads, info.refused, info.problems, info.low, info.tokens)


def _info(segment: Segment, fields: tuple) -> SentenceInfo:
    return SentenceInfo(segment, *fields[:10], tokens=fields[10])


def score_part(system: list[Segment], gold: list[Segment], threshold: float,
               settings: ScoreSettings) -> tuple[int, int, PartResult]:
    """Analyse, pair and count a part of both documents, each from a block
    to the end of the document."""
    score = IncrementalScore(settings)
    source = GoldSource(gold, threshold)
    score.rescore(system, source)
    result = PartResult(
        [[_fields(i) for i in s.analysis[1]] for s in system],  # type: ignore[index]
        [[_fields(i) for i in s.analysis[1]] for s in gold[:source.next_segment]],  # type: ignore[index]
        [(u.kind, u.gold, u.system, None if u.counts is None else u.counts.values, u.clean,
          u.problems, u.mismatch) for u in score.units],
        score.bulk_totals.values, score.missing, score.unmatched, score.excluded,
        score.ended_unclean)
    return len(system), len(gold), result


PIECE = 8 << 20


def _write_text(out, segments: Sequence[Segment]) -> list[int]:
    """Write the segments' text to ``out`` (UTF-8) a few megabytes at a time
    (never all of it at once in memory twice); the byte size of each piece,
    each piece whole segments."""
    sizes: list[int] = []
    pieces: list[str] = []
    size = 0
    for segment in segments:
        pieces.append(segment.text)
        size += len(segment.text)
        if size >= PIECE:
            sizes.append(out.write("".join(pieces).encode("utf-8")))
            pieces, size = [], 0
    if pieces:
        sizes.append(out.write("".join(pieces).encode("utf-8")))
    return sizes


def _read_segments(source, sizes: list[int], line: int) -> list[Segment]:
    """The segments of the text `_write_text` wrote, cut piece by piece (each
    piece is whole segments, so they are cut as in the whole text), so that
    the text is never held whole beside its segments."""
    segments: list[Segment] = []
    for size in sizes:
        text = source.read(size).decode("utf-8")
        segments += segments_of(text, line, at_file_start=False)
        line += text.count("\n")
    return segments


@dataclass
class _Part:
    """What the second process is told: where its text is, and how to score it."""

    path: str
    system_sizes: list[int]
    gold_sizes: list[int]
    system_line: int
    gold_line: int
    threshold: float
    settings: ScoreSettings


def _part_main(connection) -> None:
    # Anything printed must not reach the language server's stdout.
    os.dup2(2, 1)
    # A short-lived process that makes objects and frees none: the cyclic
    # collector would only scan them again and again.
    gc.disable()
    try:
        part: _Part = connection.recv()
        with open_file(part.path) as source:
            _remove(part.path)  # read through the open file; nothing left behind
            system = _read_segments(source, part.system_sizes, part.system_line)
            gold = _read_segments(source, part.gold_sizes, part.gold_line)
        connection.send(("ok", score_part(system, gold, part.threshold, part.settings)))
    except BaseException as error:  # reported by the parent, which falls back
        connection.send(("error", f"{error}\n{traceback.format_exc()}"))
    finally:
        connection.close()


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class _Launch(threading.Thread):
    """Starts the second process and tells it its part; then `result` waits
    for what it sends back.

    The text goes through a temporary file, written here before the thread
    starts: one write of some 80 MB.  Sent through a pipe from this thread,
    it took a second on a million words, since each of its many small
    writes waited for the scoring thread to hand back the GIL, and the
    second process started that much later."""

    def __init__(self, system: Sequence[Segment], gold: Sequence[Segment], threshold: float,
                 settings: ScoreSettings) -> None:
        super().__init__(name="annoscore-second-half", daemon=True)
        self.process: Any = None
        self.connection: Any = None
        self.error: str | None = None
        self.part: _Part | None = None
        self.path: str | None = None
        try:
            handle, self.path = tempfile.mkstemp(prefix="annoscore-part-", suffix=".conllu")
            with os.fdopen(handle, "wb") as out:
                system_sizes = _write_text(out, system)
                gold_sizes = _write_text(out, gold)
            self.part = _Part(self.path, system_sizes, gold_sizes, system[0].first_line,
                              gold[0].first_line, threshold, settings)
        except Exception as error:
            self.error = f"could not hand the second half over: {error}"

    def run(self) -> None:
        if self.part is None:
            return
        try:
            context = forkserver_context()
            self.connection, theirs = context.Pipe()
            process = context.Process(target=_part_main, args=(theirs,), daemon=True)
            process.start()
            self.process = process  # (only a started one: `stop` joins it)
            theirs.close()
            self.connection.send(self.part)
        except Exception as error:
            self.error = f"could not start a second process: {error}"

    def result(self) -> tuple[str, Any]:
        self.join()
        status, payload = "error", self.error or "the second process ended without a result"
        if self.error is None:
            try:
                if self.connection.poll(PART_TIMEOUT):
                    status, payload = self.connection.recv()
            except (EOFError, OSError) as error:
                payload = str(error)
        self.stop(timeout=5)
        return status, payload

    def stop(self, timeout: float = 0) -> None:
        """Close the pipe; kill the process unless it ends within ``timeout``."""
        self.join()
        if self.path is not None:
            _remove(self.path)
        if self.connection is not None:
            self.connection.close()
        if self.process is not None:
            self.process.join(timeout=timeout)
            if self.process.is_alive():
                self.process.kill()
                self.process.join()


# --------------------------------------------------------------------------
# Both halves, joined
# --------------------------------------------------------------------------


def rescore_in_two(score: IncrementalScore, system: Sequence[Segment], gold: Sequence[Segment],
                   threshold: float, log: Callable[[str], None],
                   progress: Callable[[float], None] | None = None) -> bool:
    """Pair and count everything (as `IncrementalScore.rescore`) in two
    processes.  Returns False, having done nothing that needs undoing, when
    the documents are too small, cannot be cut, or the halves cannot be
    joined: then call `IncrementalScore.rescore` (the analyses made here are
    kept on the segments, so that costs only the pairing)."""
    if len(system) < MIN_SENTENCES or default_jobs() < 2:
        return False
    cut = find_cut(system, gold)
    if cut is None:
        return False
    c, g = cut
    # The second process is started from a thread, so that this one starts
    # on the first half at once.
    launch = _Launch(system[c:], gold[g:], threshold, score.settings)
    launch.start()

    first = IncrementalScore(score.settings)
    try:
        # The halves go at about the same pace: the first one's is the whole's.
        first.rescore(system[:c], GoldSource(gold[:g], threshold), progress=progress)
    except BaseException:
        launch.stop()
        raise
    status, payload = launch.result()
    if status != "ok":
        log(f"the second half failed, scoring in one process: {str(payload).splitlines()[0]}")
        return False
    n_system, n_gold, part = payload
    if n_system != len(system) - c or n_gold != len(gold) - g:
        log("the second half was cut into other sentences; scoring in one process")
        return False

    system_infos = _install(system[c:], part.system, threshold)
    gold_infos = _install(gold[g:g + len(part.gold)], part.gold, threshold)
    first_ids = {i.sent_id for i in first.gold if i.sent_id is not None}
    if (first.missing or first.unmatched or first.ended_unclean or part.missing or part.unmatched
            or any(i.sent_id in first_ids for i in gold_infos)):
        log("sentences cross the cut between the halves; pairing in one process")
        return False

    # Join: the second half's positions come after the first half's.
    s0, g0 = len(first.system), len(first.gold)
    score.system = first.system + system_infos
    score.gold = first.gold + gold_infos
    score.units = list(first.units)
    for kind, gold_positions, system_positions, values, clean, problems, mismatch in part.units:
        gold_positions = [k + g0 for k in gold_positions]
        system_positions = [k + s0 for k in system_positions]
        key = () if values is None else unit_key([score.gold[k] for k in gold_positions],
                                                  [score.system[k] for k in system_positions])
        score.units.append(Unit(kind, gold_positions, system_positions,
                                  None if values is None else Counts(values), clean, key, problems, mismatch))
    score.bulk_totals = first.bulk_totals + Counts(part.bulk_totals)
    score.missing, score.unmatched = [], []
    score.excluded = first.excluded + [k + s0 for k in part.excluded]
    score.ended_unclean = part.ended_unclean
    score.unclean = first.unclean
    score.source = None  # made when first needed (see IncrementalScore.pair_again_locally)
    score.reindex()
    log(f"first pass in two processes: {c} + {len(system) - c} sentence blocks")
    return True


def _install(segments: Sequence[Segment], fields: list[list[tuple]], threshold: float) -> list[SentenceInfo]:
    """The infos of the second half on this process's segments.  A segment
    already analysed for this threshold keeps its infos (an open gold
    document's index holds them)."""
    out: list[SentenceInfo] = []
    for segment, rows in zip(segments, fields):
        if segment.analysis is None or segment.analysis[0] != threshold:
            segment.analysis = (threshold, [_info(segment, row) for row in rows])
        out += segment.analysis[1]  # type: ignore[index]
    return out
