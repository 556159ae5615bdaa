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
the results.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from scorer.conllu.counts import METRICS
from scorer.conllu.evaluate import ConlluOptions, ConlluResult, RefList, SentenceRef
from scorer.conllu.report import conllu_text
from scorer.problems import Problem, Severity
from scorer.report import Signature

from ..config import Pairing, Settings, pairing_for, severity_for
from ..textstore import TextStore
from . import formats
from .conllu import ConlluPairing, PairingSettings, SentenceInfo, analyze_segment

UNPARSED_CAP = 20  # more unparsed sentences than this: one summary diagnostic
INCREMENTAL_LIMIT = 64  # more new sentences than this: pair everything again


def read_disk_text(path: str) -> str | None:
    """A file's text as the reader would see it (bad bytes replaced), or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


@dataclass(eq=False)
class Document:
    key: str
    path: str | None
    store: TextStore
    pairing: Pairing
    version: int | None = None
    in_editor: bool = False
    binary: bool = False
    # CoNLL-U
    conllu: ConlluPairing | None = None
    # Other formats keep their state here (see engine/formats.py).
    state: Any = None

    @property
    def format(self) -> str:
        return self.pairing.format


class Engine:
    def __init__(self, root: str | None = None, settings: Settings | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.root = root
        self.settings = settings or Settings()
        self.documents: dict[str, Document] = {}
        self.log = log or (lambda message: None)

    # --- documents ------------------------------------------------------------

    def pairing_of(self, path: str | None) -> Pairing | None:
        if path is None:
            return None
        return pairing_for(path, self.settings, self.root)

    def open(self, key: str, path: str | None, text: str, version: int | None = None,
             language: str | None = None) -> Document | None:
        """An editor opened a document (or a file is to be checked)."""
        pairing = self.pairing_of(path) or (Pairing("conllu") if language == "conllu" else None)
        if pairing is None:
            return None
        document = self.documents.get(key)
        if document is not None and not document.in_editor and document.store.text == text:
            document.in_editor = True
            document.version = version
            return document
        document = Document(key, path, TextStore(text), pairing, version, in_editor=True)
        document.binary = "\x00" in text
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
                document.store.replace_all(change)
            else:
                document.store.apply_change(*change)
        document.binary = False

    def close(self, key: str) -> None:
        document = self.documents.get(key)
        if document is None:
            return
        if self._is_gold_of_open(document) and document.path:
            # Still needed as gold: back to the file on disk.
            text = read_disk_text(document.path)
            if text is not None:
                document.store.replace_all(text)
            document.in_editor = False
            return
        del self.documents[key]

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
            gold = self.documents[gold_path] = Document(gold_path, gold_path, TextStore(text), pairing)
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
                document.store.replace_all(text)
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
        self.settings = settings
        for document in self.documents.values():
            if settings.threshold != old.threshold:
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

    def rescore(self, key: str) -> list[str]:
        """Bring a document's results up to date.  Returns the keys of
        documents whose diagnostics may have changed (itself, its gold)."""
        document = self.documents.get(key)
        if document is None:
            return []
        if document.format != "conllu":
            return formats.rescore(self, document)
        fresh = self._analyze(document)
        gold = self.gold_document(document)
        out = [key]
        if gold is None:
            document.conllu = None
            return out
        self._analyze(gold)
        system_infos = self.infos(document)
        gold_infos = self.infos(gold)
        settings = PairingSettings(self.settings.sentences, self.settings.gold_diff)
        if document.conllu is None:
            document.conllu = ConlluPairing(settings)
            document.conllu.rescore(system_infos, gold_infos)
        elif (len(fresh) <= INCREMENTAL_LIMIT and gold_infos == document.conllu.gold
              and len(system_infos) == len(document.conllu.system)
              and document.conllu.update(*_positions(system_infos, fresh))):
            pass
        else:
            document.conllu.rescore(system_infos, gold_infos)
        if gold.in_editor:
            out.append(gold.key)
        return out

    def _analyze(self, document: Document) -> set[int]:
        """Analyse the segments that changed (those without an analysis);
        returns the ids of the new infos."""
        threshold = self.settings.threshold
        fresh: set[int] = set()
        for segment in document.store.segments:
            if segment.analysis is None or segment.analysis[0] != threshold:
                infos, _ = analyze_segment(segment, threshold)
                segment.analysis = (threshold, infos)
                fresh.update(id(i) for i in infos)
        return fresh

    @staticmethod
    def infos(document: Document) -> list[SentenceInfo]:
        out: list[SentenceInfo] = []
        for segment in document.store.segments:
            if segment.analysis is not None:
                out += segment.analysis[1]
        return out

    # --- results --------------------------------------------------------------

    def diagnostics(self, key: str) -> list[Problem]:
        """Everything to show on a document, severities applied, capped per code."""
        document = self.documents.get(key)
        if document is None:
            return []
        if document.binary:
            return [Problem("format-binary", "this is not a text file (it has NUL bytes)", 0, 0, 0)]
        if document.format != "conllu":
            problems = formats.diagnostics(self, document)
        else:
            problems = self._conllu_problems(document)
        return self._finish(problems)

    def _conllu_problems(self, document: Document) -> list[Problem]:
        problems: list[Problem] = []
        for segment in document.store.segments:
            problems += segment.problems
        infos = self.infos(document)
        unparsed = [i for i in infos if i.unparsed]
        summarize_unparsed = len(unparsed) > UNPARSED_CAP
        for info in infos:
            line = info.first_line
            own = info.problems
            if summarize_unparsed and info.unparsed:
                own = [p for p in own if p.code != "unparsed"]
            for p in own:
                problems.append(p.shifted(line))
            for p in info.low_confidence:
                problems.append(p.shifted(line))
            for p in info.pair_problems:
                problems.append(p.shifted(line))
        if summarize_unparsed:
            first = unparsed[0].first_line
            problems.append(Problem(
                "unparsed", f"{len(unparsed)} sentences are not parsed yet (all HEADs _), from line "
                f"{first + 1} on; the official scorer refuses them", first, 0, 0, Severity.INFORMATION,
                refuses=True))
        pairing = document.conllu
        if pairing is not None and pairing.missing:
            names = [pairing.gold[k].sent_id or f"line {pairing.gold[k].first_line + 1}"
                     for k in pairing.missing[:5]]
            more = f" and {len(pairing.missing) - 5} more" if len(pairing.missing) > 5 else ""
            problems.append(Problem(
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
                problems.append(Problem("missing-sentence", f"not in the prediction {name}",
                                        info.first_line, 0, 0, Severity.INFORMATION))
        return problems

    def _finish(self, problems: list[Problem]) -> list[Problem]:
        """Severities from the settings (dropping those turned off), then at
        most ``max_diagnostics`` per code, the rest summed up in one."""
        cap = self.settings.max_diagnostics
        counts: dict[str, int] = {}
        out: list[Problem] = []
        for p in sorted(problems, key=lambda p: (p.line, p.start)):
            severity = severity_for(self.settings, p.code, p.severity)
            if severity is None:
                continue
            n = counts[p.code] = counts.get(p.code, 0) + 1
            if n <= cap:
                out.append(p if severity == p.severity else _with_severity(p, severity))
        for code, n in counts.items():
            if n > cap:
                first = next(p for p in out if p.code == code)
                out.append(_with_severity(Problem(
                    code, f"{n - cap} more '{code}' diagnostics are not shown (at most {cap} per "
                    "kind; see annoscore.maxDiagnostics)", first.line, first.start, first.end,
                    first.severity), first.severity))
        return out

    def score(self, key: str) -> dict[str, Any] | None:
        """The ``annoscore/score`` payload, with paths (the adapter makes URIs)."""
        document = self.documents.get(key)
        if document is None:
            return None
        if document.format != "conllu":
            return formats.score(self, document)
        infos = self.infos(document)
        payload: dict[str, Any] = {
            "path": document.path or document.key,
            "format": "conllu",
            "gold": document.pairing.gold if document.conllu is not None else None,
            "metrics": {},
            "counts": {
                "sentences": len(infos),
                "unparsed": sum(1 for i in infos if i.unparsed),
                "refused": sum(1 for i in infos if i.refused and not i.unparsed),
                "lowConfidence": sum(len(i.low_confidence) for i in infos),
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


def _gold_hint(document: Document) -> str:
    if document.path is None:
        return ""
    stem, extension = os.path.splitext(document.path)
    return (f"Put the gold beside it as {os.path.basename(stem)}.gold{extension}, or pair it in "
            "annoscore.toml.")


def _with_severity(problem: Problem, severity: Severity) -> Problem:
    from dataclasses import replace
    return replace(problem, severity=severity)


def _positions(infos: list[SentenceInfo], fresh: set[int]) -> tuple[list[int], list[SentenceInfo]]:
    positions = [k for k, info in enumerate(infos) if id(info) in fresh]
    return positions, [infos[k] for k in positions]
