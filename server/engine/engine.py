"""The engine: documents, their gold, and what is shown about them.

Editor-independent: the LSP server, the watch daemon and ``annoscore check``
all drive this class.  It is plain, synchronous and not thread-safe; the LSP
adapter runs every call on one worker thread, in order.

A *document* is a text (an editor buffer, or a file read from disk when no
editor has it open) kept as a `TextStore`.  Each document has a format and
maybe a gold document (see `server.config.pairing_for`).  Documents are keyed
by their path (or the URI, for unsaved buffers).

Work happens in `rescore`: analyse the segments that changed, pair with gold
and count (reusing what did not change), then `diagnostics` and `score` read
the results.  A large document's first pass runs in two processes
(`server.engine.parts`).

Memory management: a first pass makes about a million objects that live as
long as the document.  Python's cyclic collector would scan them all, again
and again as they pile up (a quarter of the pass's time on a million-word
file), and once more at some moment after it.  So a whole pass runs with the
collector paused, and what it made is then *frozen* (`gc.freeze`): kept out
of later collections.  The one reference cycle the engine makes (a segment's
analysis holds infos that point back at the segment) is broken by hand
when a segment leaves its document (`_forget_segments`), so frozen objects
are still freed by reference counting; closing a document unfreezes, so
that anything else is collected as usual.
"""

from __future__ import annotations

import gc
import hashlib
import os
import traceback
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, Callable, Sequence

from scorer.conllu.checks import cycle_marks
from scorer.conllu.counts import METRICS
from scorer.binary import text_binary_problem
from scorer.conllu.evaluate import ConlluOptions, ConlluResult, SentenceRef
from scorer.conllu.report import conllu_text
from scorer.excerpt import excerpt, identifier
from scorer.gcpause import gc_paused
from scorer.problems import Problem, Severity
from scorer.report import Signature

from ..config import Pairing, Settings, pairing_for, severity_for
from ..textstore import LineStore, TextStore
from . import formats
from .disk import read_disk_text
from .conllu import (
    ConlluPairing, GoldSource, PairingSettings, SentenceInfo, analyze_segment,
)
from . import parts
from .parts import rescore_in_two

UNPARSED_CAP = 20  # more unparsed sentences than this: one summary diagnostic
# A whole pass over a document of this many sentence segments or more is
# long enough (a few seconds) for an editor to show its progress.
LONG_PASS_SEGMENTS = 5000
PROGRESS_STEP = 512  # segments between two reports of progress

Progress = Callable[[float], None]
INCREMENTAL_LIMIT = 64  # more new sentences than this: pair everything again


@dataclass(eq=False)
class Document:
    key: str
    path: str | None
    store: TextStore
    pairing: Pairing
    version: int | None = None
    in_editor: bool = False
    # Why the text is not scored (a NUL byte, a file that is not text): a
    # format-binary problem, the one diagnostic then; None for text.
    binary: Problem | None = None
    # What the file's bytes had that the text cannot show (bytes that are
    # not UTF-8); set by whoever read it from disk.
    byte_problems: tuple[Problem, ...] = ()
    # Why the last rescore failed (a fault of annoscore's, logged), or None.
    failure: str | None = None
    # CoNLL-U
    conllu: ConlluPairing | None = None
    # Other formats keep their state here (see engine/formats.py).
    state: Any = None
    # Edits since the last rescore: (segments removed, segments inserted);
    # None when unknown (a whole new text): then everything is looked at.
    edits: list[tuple[list, list]] | None = None
    _index: "_Index | None" = None

    def index(self) -> "_Index":
        """The analysed sentences in order, and the counts for the score.

        The index is made by `Engine.rescore`, when every segment has its
        analysis; edits apply to it only in the next rescore (`_patch`).
        Before a document's first rescore (or after new settings) there is
        none yet: what is analysed so far is shown, and nothing is kept, so
        that a half-analysed text never becomes the index an edit patches."""
        if self._index is None:
            return _Index(self.store, numbered=False)
        return self._index

    def forget_results(self) -> None:
        """Everything derived from the text goes: the next rescore starts afresh."""
        _forget_segments(getattr(self.store, "segments", ()))
        self.conllu = None
        self.state = None
        self.edits = None
        self._index = None

    def replace_text(self, text: str, byte_problems: Sequence[Problem] = (), from_disk: bool = False) -> None:
        """A whole new text (from disk, or an editor sending everything).
        A file's lone CRs end lines, as `evaluate` reads them."""
        _forget_segments(getattr(self.store, "segments", ()))
        if from_disk:
            self.store.lone_cr_ends_lines = True
        self.store.replace_all(text)
        self.edits = None
        self._index = None
        self.set_byte_problems(text, byte_problems)

    def set_byte_problems(self, text: str, byte_problems: Sequence[Problem] = ()) -> None:
        """What the text (and the bytes it was read from) say it is."""
        self.binary = next((p for p in byte_problems if p.code == "format-binary"), None) \
            or text_binary_problem(text)
        self.byte_problems = tuple(p for p in byte_problems if p.code != "format-binary")


    @property
    def format(self) -> str:
        return self.pairing.format


class _Index:
    """A document's analysed sentences in order, with the counts for its score.

    Built from the segments once; after an edit that keeps the number of
    sentences, patched in place (`replace`), so that an edit does not cost a
    pass over every sentence of the file."""

    def __init__(self, store: TextStore, numbered: bool = True) -> None:
        self.infos: list[SentenceInfo] = []
        for segment in store.segments:
            if segment.analysis is not None:
                self.infos += segment.analysis[1]
        if numbered:  # the index edits are patched into (see Document.index)
            for position, info in enumerate(self.infos):
                info.position = position
        infos = self.infos
        self.unparsed = sum(1 for i in infos if i.unparsed)
        self.refused = sum(1 for i in infos if i.refused and not i.unparsed)
        self.low = sum(map(attrgetter("low"), infos))

    def replace(self, positions: list[int], new: list[SentenceInfo]) -> None:
        for position, info in zip(positions, new):
            old = self.infos[position]
            self.unparsed += info.unparsed - old.unparsed
            self.refused += (info.refused and not info.unparsed) - (old.refused and not old.unparsed)
            self.low += info.low - old.low
            info.position = position
            self.infos[position] = info


class Engine:
    def __init__(self, root: str | None = None, settings: Settings | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.root = root
        self.settings = settings or Settings()
        self.documents: dict[str, Document] = {}
        self.log = log or (lambda message: None)
        # Whether the editor ends a line at a lone CR, as the LSP says; the
        # language server sets False for editors that keep it in the line
        # (see server.textstore.TextStore).  Files read from disk always do.
        self.lone_cr_ends_lines = True

    # --- documents ------------------------------------------------------------

    def pairing_of(self, path: str | None) -> Pairing | None:
        if path is None:
            return None
        return pairing_for(path, self.settings, self.root)

    def open(self, key: str, path: str | None, text: str, version: int | None = None,
             language: str | None = None, byte_problems: Sequence[Problem] = ()) -> Document | None:
        """An editor opened a document (or a file is to be checked, with what
        reading it found: see `read_disk_file`)."""
        pairing = self.pairing_of(path) or (Pairing("conllu") if language == "conllu" else None)
        if pairing is None:
            return None
        document = self.documents.get(key)
        if document is not None and not document.in_editor and document.store.text == text:
            document.in_editor = True
            document.version = version
            document.set_byte_problems(text, byte_problems)
            return document
        with gc_paused():
            store = _store(pairing.format, text, self.lone_cr_ends_lines)
        document = Document(key, path, store, pairing, version, in_editor=True)
        document.set_byte_problems(text, byte_problems)
        if pairing.gold is not None and isinstance(document.store, TextStore) \
                and len(document.store.segments) >= parts.MIN_SENTENCES:
            parts.prepare()  # its first scoring will want a second process
        self.documents[key] = document
        return document

    def change(self, key: str, version: int | None,
               changes: list[tuple[tuple[int, int], tuple[int, int], str] | str]) -> None:
        """Apply an editor's changes: (start, end, text) ranges, or a whole text."""
        document = self.documents.get(key)
        if document is None:
            return
        document.version = version
        for change in changes:
            if isinstance(change, str):
                document.replace_text(change)
            else:
                first, removed, inserted = document.store.apply_change(*change)
                if document.edits is not None:
                    document.edits.append((removed, document.store.segments[first:first + inserted]))
                if document.binary is not None or "\x00" in change[2]:  # a NUL typed, or maybe gone
                    document.set_byte_problems(document.store.text)

    def close(self, key: str) -> None:
        document = self.documents.get(key)
        if document is None:
            return
        if self._is_gold_of_open(document) and document.path:
            # Still needed as gold: back to the file on disk.
            text = read_disk_text(document.path)
            if text is not None:
                document.replace_text(text, from_disk=True)
            document.in_editor = False
            return
        self._drop(document)
        # Its gold, read from disk for it alone, goes too.
        gold = self.documents.get(document.pairing.gold or "")
        if gold is not None and not gold.in_editor and not self._is_gold_of_open(gold):
            self._drop(gold)
        gc.unfreeze()  # what earlier passes froze may be garbage now

    def _drop(self, document: Document) -> None:
        del self.documents[document.key]
        _forget_segments(getattr(document.store, "segments", ()))

    def _is_gold_of_open(self, document: Document) -> bool:
        return any(d.pairing.gold == document.path and d.in_editor for d in self.documents.values()
                   if d is not document)

    def gold_document(self, document: Document) -> Document | None:
        """The gold of a document: an open buffer, else the file (loaded once)."""
        gold_path = document.pairing.gold
        if gold_path is None:
            return None
        gold = self.documents.get(gold_path)
        if gold is None:
            text = read_disk_text(gold_path)
            if text is None:
                return None
            pairing = Pairing(document.format, None, document.pairing.pos)
            with gc_paused():
                store = _store(pairing.format, text, True)
            gold = self.documents[gold_path] = Document(gold_path, gold_path, store, pairing)
        return gold

    def dependents(self, path: str) -> list[Document]:
        """Open documents scored against ``path``."""
        return [d for d in self.documents.values() if d.pairing.gold == path and d.in_editor]

    def disk_changed(self, path: str) -> list[str]:
        """A file changed on disk (or appeared, or vanished).  Returns the keys
        of the documents to rescore.  Buffers open in the editor win over the disk."""
        affected: list[str] = []
        document = self.documents.get(path)
        if document is not None and not document.in_editor:
            text = read_disk_text(path)
            if text is None:
                del self.documents[path]
            else:
                document.replace_text(text, from_disk=True)
        for dependent in list(self.documents.values()):
            if not dependent.in_editor or dependent.path is None:
                continue
            if dependent.pairing.gold == path or dependent.path == path:
                affected.append(dependent.key)
            elif dependent.pairing.gold is None and os.path.basename(path).startswith(
                    os.path.splitext(os.path.basename(dependent.path))[0] + ".gold"):
                affected.append(dependent.key)  # its gold may have just appeared
        for key in affected:
            document = self.documents[key]
            pairing = self.pairing_of(document.path)
            if pairing is not None and pairing != document.pairing:
                document.pairing = pairing
                document.conllu = None
                document.state = None
        return affected

    def set_settings(self, settings: Settings) -> list[str]:
        """New settings; returns the keys of open documents to rescore."""
        old = self.settings
        if settings == old:
            return []
        self.settings = settings
        for document in self.documents.values():
            document._index = None
            if settings.threshold != old.threshold:
                document.edits = None
                for segment in document.store.segments:
                    segment.analysis = None
            if (settings.sentences, settings.gold_diff) != (old.sentences, old.gold_diff):
                document.conllu = None
            pairing = self.pairing_of(document.path)
            if document.in_editor and pairing is not None and pairing != document.pairing:
                document.pairing = pairing
                document.conllu = None
                document.state = None
        return [d.key for d in self.documents.values() if d.in_editor]

    # --- scoring --------------------------------------------------------------

    def rescore(self, key: str, progress: Progress | None = None) -> list[str]:
        """Bring a document's results up to date, and those of the open
        documents it is the gold of.  Returns the keys of documents whose
        diagnostics may have changed (itself, its gold, its predictions).
        ``progress`` is told how far a whole pass over the document is
        (0 to 1), now and then."""
        out = self._rescore_one(key, progress)
        document = self.documents.get(key)
        if document is not None and document.path is not None:
            for dependent in self.dependents(document.path):
                out += [k for k in self._rescore_one(dependent.key) if k not in out]
        return out

    def _rescore_one(self, key: str, progress: Progress | None = None) -> list[str]:
        document = self.documents.get(key)
        if document is None:
            return []
        try:
            out = self._rescore_document(document, progress)
        except Exception as error:  # a fault of ours: say so on the document, start afresh next time
            self.log(f"rescoring {key} failed:\n{traceback.format_exc()}")
            document.failure = excerpt(f"{type(error).__name__}: {error}")
            document.forget_results()
            return [key]
        document.failure = None
        return out

    def _rescore_document(self, document: Document, progress: Progress | None) -> list[str]:
        key = document.key
        if document.binary is not None:  # not text: nothing to score
            document.conllu = document.state = document._index = document.edits = None
            gold = self.documents.get(document.pairing.gold or "")
            return [key] + ([gold.key] if gold is not None and gold.in_editor else [])
        if document.format != "conllu":
            return formats.rescore(self, document)
        threshold = self.settings.threshold
        edits, document.edits = document.edits, []
        changes = self._patch(document, edits)
        for removed, _ in edits or ():
            _forget_segments(removed)
        gold = self.gold_document(document)
        if gold is None:
            if changes is None:
                with gc_paused():
                    segments = document.store.segments
                    for k, segment in enumerate(segments):
                        if segment.analysis is None or segment.analysis[0] != threshold:
                            segment.analysis = (threshold, analyze_segment(segment, threshold)[0])
                        if progress is not None and not k % PROGRESS_STEP:
                            progress(k / len(segments))
                    gc.freeze()
                document._index = _Index(document.store)
            document.conllu = None
            return [key]
        settings = PairingSettings(self.settings.sentences, self.settings.gold_diff)
        # The gold as it was when the pairing was made (its text, and the
        # document object: a gold file that was closed and read again is new).
        gold_state = (id(gold), gold.store.version, threshold)
        pairing = document.conllu
        in_place = False
        if changes is not None and pairing is not None and pairing.settings == settings \
                and pairing.gold_state == gold_state and sum(len(c[0]) for c in changes) <= INCREMENTAL_LIMIT:
            positions = [p for c in changes for p in c[0]]
            infos = [i for c in changes for i in c[1]]
            if pairing.pairs_alike(positions, infos):
                # The same pairing: count the edited units again (False when
                # the units around them would be grouped otherwise).
                in_place = pairing.update(positions, infos, [s for c in changes for s in c[2]])
            else:
                # Another text or sent_id: pair again around the edit.
                in_place = pairing.repair_locally(positions, infos,
                                                  lambda: GoldSource(gold.store.segments, threshold))
        if not in_place:
            # Units of the old pairing are reused only when gold is the same
            # and the sentences were edited here and there (some may have
            # been split or joined); otherwise it is a first pass, which a
            # large file makes in two processes.
            reusable = pairing is not None and pairing.units and edits is not None \
                and pairing.gold_state == gold_state
            if pairing is None or pairing.settings != settings:
                pairing = document.conllu = ConlluPairing(settings)
            with gc_paused():
                if reusable or not rescore_in_two(pairing, document.store.segments, gold.store.segments,
                                                  threshold, self.log, progress):
                    pairing.rescore(document.store.segments, GoldSource(gold.store.segments, threshold),
                                    progress=progress)
                gc.freeze()  # see the module's docstring
            pairing.gold_state = gold_state
        if changes is None:
            document._index = _Index(document.store)  # every segment is analysed now
        out = [key]
        if gold.in_editor:
            out.append(gold.key)
        return out

    def long_pass_ahead(self, key: str) -> bool:
        """Whether rescoring the document now means a whole pass over a large
        one (its first scoring, or after new settings or a new text)."""
        document = self.documents.get(key)
        if document is None or not isinstance(document.store, TextStore) or \
                len(document.store.segments) < LONG_PASS_SEGMENTS:
            return False
        return document._index is None or document.edits is None or \
            (document.pairing.gold is not None and document.conllu is None)

    def _patch(self, document: Document, edits: list[tuple[list, list]] | None) -> list[tuple] | None:
        """Analyse what the edits inserted and put it in the document's index.

        Returns, per edit, (positions, new infos, parsed sentences), or None
        when the sentences did not stay where they were (a sentence appeared
        or vanished, or no index yet): then everything is looked at again."""
        index = document._index
        if edits is None or index is None:
            return None
        threshold = self.settings.threshold
        out = []
        for removed, inserted in edits:
            old: list[SentenceInfo] = []
            for segment in removed:
                if segment.analysis is None or segment.analysis[0] != threshold:
                    return None
                old += segment.analysis[1]
            new: list[SentenceInfo] = []
            parsed: list = []
            for segment in inserted:
                if segment.analysis is None or segment.analysis[0] != threshold:
                    infos, sentences = analyze_segment(segment, threshold)
                    segment.analysis = (threshold, infos)
                else:
                    infos, sentences = segment.analysis[1], [None] * len(segment.analysis[1])
                new += infos
                parsed += sentences
            if len(old) != len(new):
                return None
            positions = [info.position for info in old]
            if positions and (positions[0] < 0 or positions != list(range(positions[0], positions[0] + len(old)))):
                return None
            index.replace(positions, new)
            out.append((positions, new, parsed))
        return out

    # --- results --------------------------------------------------------------

    def diagnostics(self, key: str) -> list[Problem]:
        """Everything to show on a document, severities applied, at most
        ``max_diagnostics`` per code (the rest summed up in one)."""
        document = self.documents.get(key)
        if document is None:
            return []
        shown = _Shown(self.settings)
        if document.failure is not None:
            shown.add(Problem("internal-error", f"annoscore could not score this document: "
                              f"{document.failure} (a fault of annoscore's, logged; please report it)",
                              0, 0, 0))
            return shown.finish()
        if document.binary is not None:
            shown.add(document.binary)
            return shown.finish()
        for problem in document.byte_problems:
            shown.add(problem)
        if document.format != "conllu":
            for problem in formats.diagnostics(self, document):
                shown.add(problem)
        else:
            self._conllu_problems(document, shown)
        return shown.finish()

    def _conllu_problems(self, document: Document, shown: "_Shown") -> None:
        for p in chain.from_iterable(map(attrgetter("problems"), document.store.segments)):
            shown.add(p)
        index = document.index()
        infos = index.infos
        summarize_unparsed = index.unparsed > UNPARSED_CAP
        unparsed = [i for i in infos if i.unparsed] if summarize_unparsed else []
        for info in filter(attrgetter("problems"), infos):
            line = info.first_line
            # Against gold, the roots gold disagrees with replace the gold-free marks.
            roots_by_gold = any(p.code == "multiple-roots" for p in info.pair_problems)
            for p in info.problems:
                if p.code == "cycle":
                    for mark in cycle_marks(p):
                        shown.add(mark, line)
                elif not (summarize_unparsed and p.code == "unparsed") and \
                        not (roots_by_gold and p.code == "multiple-roots"):
                    shown.add(p, line)
        for info in filter(attrgetter("pair_problems"), infos):
            problems = info.pair_problems
            if shown.saturated(problems):  # past the cap: only counted
                continue
            line = info.first_line
            for p in problems:
                shown.add(p, line)
        # Low-confidence cells become diagnostics only as far as they are shown.
        threshold, left = self.settings.threshold, index.low
        per_word = self.settings.low_confidence == "word"
        for info in filter(attrgetter("low"), infos):
            if not shown.wants("low-confidence"):
                break
            line = info.first_line
            for problem in info.low_problems(threshold, per_word):
                if not shown.wants("low-confidence"):
                    break
                shown.add(problem, line)
                left -= problem.datum("cells", 1)  # type: ignore[operator]
        if left > 0 and shown.enabled("low-confidence"):
            first = shown.first.get("low-confidence")
            shown.extra(Problem(
                "low-confidence", f"{left} more cells below the confidence threshold {threshold:g} are not "
                f"shown (at most {shown.cap} diagnostics per kind; see annoscore.maxDiagnostics)",
                first.line if first else 0, first.start if first else 0, first.end if first else 0,
                first.severity if first else Severity.HINT))
        if summarize_unparsed:
            first = unparsed[0].first_line
            shown.add(Problem(
                "unparsed", f"{len(unparsed)} sentences are not parsed yet (all HEADs _), from line "
                f"{first + 1} on; the official scorer refuses them", first, 0, 0, Severity.INFORMATION,
                refuses=True))
        pairing = document.conllu
        if pairing is not None and pairing.missing:
            names = [identifier(pairing.gold[k].sent_id or "") or f"line {pairing.gold[k].first_line + 1}"
                     for k in pairing.missing[:5]]
            more = f" and {len(pairing.missing) - 5} more" if len(pairing.missing) > 5 else ""
            shown.add(Problem(
                "missing-sentence", f"{len(pairing.missing)} gold sentences are not in this file: "
                f"{', '.join(names)}{more}" + (" (they count against recall)"
                                               if self.settings.sentences == "all" else ""),
                0, 0, 0, Severity.INFORMATION))
        # Gold documents show which of their sentences a prediction lacks.
        for dependent in self.dependents(document.path or ""):
            if dependent.conllu is None:
                continue
            name = os.path.basename(dependent.path or dependent.key)
            for k in dependent.conllu.missing:
                info = dependent.conllu.gold[k]
                shown.add(Problem("missing-sentence", f"not in the prediction {name}",
                                  info.first_line, 0, 0, Severity.INFORMATION))

    def score(self, key: str) -> dict[str, Any] | None:
        """The ``annoscore/score`` payload, with paths (the adapter makes URIs)."""
        document = self.documents.get(key)
        if document is None or document.failure is not None:
            return None
        if document.binary is not None:  # not scored: the one diagnostic says why
            return {"path": document.path or document.key, "format": document.format, "gold": None,
                    "metrics": {}, "counts": {"sentences": 0, "unparsed": 0, "refused": 0, "lowConfidence": 0}
                    if document.format == "conllu" else {}}
        if document.format != "conllu":
            return formats.score(self, document)
        index = document.index()
        payload: dict[str, Any] = {
            "path": document.path or document.key,
            "format": "conllu",
            "gold": document.pairing.gold if document.conllu is not None else None,
            "metrics": {},
            "counts": {
                "sentences": len(index.infos),
                "unparsed": index.unparsed,
                "refused": index.refused,
                "lowConfidence": index.low,
            },
        }
        if document.conllu is not None:
            totals = document.conllu.totals
            for name in METRICS:
                s = totals.score(name)
                payload["metrics"][name] = {"precision": s.precision, "recall": s.recall, "f1": s.f1}
            payload["counts"]["missing"] = len(document.conllu.missing)
            payload["counts"]["unmatched"] = len(document.conllu.unmatched)
        return payload

    def report(self, key: str) -> str | None:
        """The plain-text report, as ``annoscore evaluate`` prints it."""
        document = self.documents.get(key)
        if document is None:
            return None
        if document.format != "conllu":
            return formats.report(self, document)
        if document.conllu is None:
            return "No gold file for this document: no score. " + _gold_hint(document)
        pairing = document.conllu
        result = ConlluResult(pairing.totals, ConlluOptions(
            predicted_only=self.settings.sentences == "predicted",
            annotated_only=self.settings.sentences == "annotated"))
        result.gold_sentences = len(pairing.gold)
        result.system_sentences = len(pairing.system)
        result.scored_system_sentences = sum(len(u.system) for u in pairing.units if u.kind == "paired")
        result.scored_gold_sentences = sum(len(u.gold) for u in pairing.units if u.kind == "paired")
        for info in pairing.system:
            ref = SentenceRef(info.sent_id, info.first_line,
                              [p.shifted(info.first_line) for p in info.problems if p.refuses])
            if info.unparsed:
                result.unparsed.add(SentenceRef(info.sent_id, info.first_line))
            elif ref.reasons:
                result.refused.add(ref)
        for k in pairing.missing:
            result.missing.add(SentenceRef(pairing.gold[k].sent_id, pairing.gold[k].first_line))
        for k in pairing.unmatched:
            result.unmatched.add(SentenceRef(pairing.system[k].sent_id, pairing.system[k].first_line))
        for k in pairing.excluded:
            result.excluded.add(SentenceRef(pairing.system[k].sent_id, pairing.system[k].first_line))
        signature = Signature("conllu", {"sentences": self.settings.sentences})
        for role, doc in (("pred", document), ("gold", self.gold_document(document))):
            if doc is not None:
                text = doc.store.text
                signature.files[role] = {"path": doc.path or doc.key,
                                         "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}
        return conllu_text(result, signature)


def _forget_segments(segments: Sequence[Any]) -> None:
    """Segments that left their document: break the cycle between each and
    its analysis, so that reference counting frees them even when frozen."""
    for segment in segments:
        if getattr(segment, "analysis", None) is not None:
            segment.analysis = None


def _store(format: str, text: str, lone_cr_ends_lines: bool) -> TextStore | LineStore:
    """CoNLL-U is kept in sentence blocks; the line formats in lines."""
    return TextStore(text, lone_cr_ends_lines) if format == "conllu" else LineStore(text, lone_cr_ends_lines)


def _gold_hint(document: Document) -> str:
    if document.path is None:
        return ""
    stem, extension = os.path.splitext(document.path)
    return (f"Put the gold beside it as {os.path.basename(stem)}.gold{extension}, or pair it in "
            "annoscore.toml.")


class _Shown:
    """Collects what will be shown: severities from the settings (codes turned
    off are dropped), at most ``max_diagnostics`` per code, then one summary
    per code that had more."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cap = settings.max_diagnostics
        self.severity: dict[str, Severity | None] = {}
        self.counts: dict[str, int] = {}
        self.problems: list[Problem] = []
        self.first: dict[str, Problem] = {}
        self.summaries: list[Problem] = []

    def _severity(self, code: str, default: Severity) -> Severity | None:
        if code not in self.severity:
            self.severity[code] = severity_for(self.settings, code, default)
        return self.severity[code]

    def enabled(self, code: str) -> bool:
        # Any default will do: only "off" (None) matters here.
        return severity_for(self.settings, code, Severity.ERROR) is not None

    def wants(self, code: str) -> bool:
        return self.counts.get(code, 0) < self.cap and self.enabled(code)

    def extra(self, problem: Problem) -> None:
        """A summary of its own, past the cap (not counted)."""
        self.summaries.append(problem)

    def saturated(self, problems: Sequence[Problem]) -> bool:
        """Count the problems without looking at them when every one of them
        is past the cap already (True), else leave them to `add` (False)."""
        counts, cap = self.counts, self.cap
        for p in problems:
            if counts.get(p.code, 0) < cap:
                return False
        for p in problems:
            if self._severity(p.code, p.severity) is not None:
                counts[p.code] = counts.get(p.code, 0) + 1
        return True


    def add(self, problem: Problem, line: int = 0) -> None:
        severity = self._severity(problem.code, problem.severity)
        if severity is None:
            return
        n = self.counts[problem.code] = self.counts.get(problem.code, 0) + 1
        if n > self.cap:
            return
        problem = problem.moved(line, severity)
        self.problems.append(problem)
        self.first.setdefault(problem.code, problem)

    def finish(self) -> list[Problem]:
        out = sorted(self.problems, key=lambda p: (p.line, p.start))
        for code, n in self.counts.items():
            first = self.first.get(code)
            if n > self.cap and first is not None:
                out.append(Problem(
                    code, f"{n - self.cap} more '{code}' diagnostics are not shown (at most {self.cap} "
                    "per kind; see annoscore.maxDiagnostics)", first.line, first.start, first.end,
                    first.severity))
        return out + self.summaries
