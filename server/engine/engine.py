"""The engine: documents, their gold, and what is shown about them.

Editor-independent: the LSP server, the watch daemon and ``annoscore check``
all drive this class.  It is plain, synchronous and not thread-safe; the LSP
adapter runs every call on one worker thread, in order.

The engine keeps the documents (`Document`, keyed by their path, or the URI
for unsaved buffers) and their lifecycle: opened, edited, closed, changed
on disk, paired with a gold document (`server.config.setup_for`), rescored
with new settings.  What a document's format means is its *handler*'s, one
per format, looked up in `HANDLERS`: `ConlluHandler` for CoNLL-U,
`LinesHandler` for segmentation and labels.  The engine hands a handler the
document and what it needs (its gold document, the documents scored
against it, the settings), never itself.

Work happens in `rescore`; `diagnostics`, `score` and `report` read what the
last rescore made.  A fault of annoscore's while rescoring a document is
caught, logged and shown on it (``internal-error``); the score is then null
until a rescore succeeds.
"""

from __future__ import annotations

import gc
import os
import traceback
from typing import Any, Callable, Sequence

from annoscore.scorer.excerpt import excerpt
from annoscore.scorer.gcpause import gc_paused
from annoscore.scorer.problems import Problem, Severity

from ..config import DocumentSetup, Settings, setup_for
from ..textstore import TextStore, forget_segments
from .conllu.handler import ConlluHandler, results_of
from .conllu.progress import annotation_progress, progress_text
from . import agreement, id_sequence
from .diagnostics import DiagnosticCap
from .disk import read_disk_text
from .document import Document
from .lines import LinesHandler
from .presentation import AS_REPORTED, Presentation
from .splits import TEST_SPLIT_MESSAGE, LeakIndexes, leak_problems, withheld_gold

Progress = Callable[[float], None]
Handler = ConlluHandler | LinesHandler

_CONLLU, _LINES = ConlluHandler(), LinesHandler()
HANDLERS: dict[str, Handler] = {name: handler for handler in (_CONLLU, _LINES) for name in handler.formats}


def handler_for(document: Document) -> Handler:
    return HANDLERS[document.format]


class Engine:
    def __init__(self, root: str | None = None, settings: Settings | None = None,
                 log: Callable[[str], None] | None = None, presentation: Presentation = AS_REPORTED) -> None:
        self.root = root
        self.settings = settings or Settings()
        self.documents: dict[str, Document] = {}
        self.log = log or (lambda message: None)
        self.leak_indexes = LeakIndexes()
        # Whether the editor ends a line at a lone CR, as the LSP says; the
        # language server sets False for editors that keep it in the line
        # (see server.textstore.TextStore).  Files read from disk always do.
        self.lone_cr_ends_lines = True
        # Whether a rescore may leave a large document's first UD validation
        # to finish in the background (the language server: its diagnostics
        # follow, see `validation_pending`); `check` waits for it.
        self.background_validation = False
        self.told: set[str] = set()  # validation notes given already (see `new_notes`)
        # Other annotations compared with each document (see `agreement`):
        # by document key, the states by the other's path; and the others
        # the editor asked for (`compare_with`).
        self.agreements: dict[str, dict] = {}
        self.compared: dict[str, list[str]] = {}
        # Findings as the editor shows them (IDs out of sequence: one cause;
        # an unparsed sentence: one diagnostic) or, by default, each as the
        # UD validator reports it (`check`; see engine.presentation).
        self.presentation: Presentation = presentation

    # --- documents ------------------------------------------------------------

    def setup_of(self, path: str | None) -> DocumentSetup | None:
        if path is None:
            return None
        return setup_for(path, self.settings, self.root)

    def open(self, key: str, path: str | None, text: str, version: int | None = None,
             language: str | None = None, byte_problems: Sequence[Problem] = (),
             store: Any = None) -> Document | None:
        """An editor opened a document (or a file is to be checked, with what
        reading it found: see `read_disk_file`).  ``store``: the text's store,
        made already (``annoscore check`` cut the file early), taken if it is
        what this engine would make of the text."""
        setup = self.setup_of(path) or (DocumentSetup("conllu") if language == "conllu" else None)
        if setup is None:
            return None
        document = self.documents.get(key)
        if document is not None and not document.in_editor and document.store.text == text:
            document.in_editor = True
            document.version = version
            document.set_byte_problems(text, byte_problems)
            return document
        handler = HANDLERS[setup.format]
        if type(store) is not handler.store_class or store.lone_cr_ends_lines != self.lone_cr_ends_lines \
                or store.text != text:
            with gc_paused():
                store = handler.new_store(text, self.lone_cr_ends_lines)
        document = Document(key, path, store, setup, version, in_editor=True)
        document.set_byte_problems(text, byte_problems)
        handler.opened(document)
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
                if document.binary is not None or document.has_nul or "\x00" in change[2]:
                    # a NUL typed, moved or maybe gone: find it again, keep the rest
                    document.set_byte_problems(document.store.text, document.byte_problems)

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
        self.agreements.pop(key, None)
        self.compared.pop(key, None)
        # Its gold, read from disk for it alone, goes too.
        gold = self.documents.get(document.setup.gold or "")
        if gold is not None and not gold.in_editor and not self._is_gold_of_open(gold):
            self._drop(gold)
        gc.unfreeze()  # what earlier passes froze may be garbage now

    def _drop(self, document: Document) -> None:
        del self.documents[document.key]
        forget_segments(getattr(document.store, "segments", ()))

    def _is_gold_of_open(self, document: Document) -> bool:
        return any(d.setup.gold == document.path and d.in_editor for d in self.documents.values()
                   if d is not document)

    def gold_document(self, document: Document) -> Document | None:
        """The gold of a document: an open buffer, else the file (loaded once)."""
        gold_path = document.setup.gold
        if gold_path is None:
            return None
        gold = self.documents.get(gold_path)
        if gold is None:
            text = read_disk_text(gold_path)
            if text is None:
                return None
            setup = DocumentSetup(document.format, None, document.setup.pos)
            with gc_paused():
                store = HANDLERS[setup.format].new_store(text, True)
            gold = self.documents[gold_path] = Document(gold_path, gold_path, store, setup)
        return gold

    def other_document(self, document: Document, path: str) -> Document | None:
        """Another annotation of a document's text: an open buffer, else the
        file (loaded once, like a gold file)."""
        other = self.documents.get(path)
        if other is None:
            text = read_disk_text(path)
            if text is None:
                return None
            with gc_paused():
                store = HANDLERS["conllu"].new_store(text, True)
            other = self.documents[path] = Document(path, path, store, DocumentSetup("conllu"))
        return other

    def compare_with(self, key: str, path: str | None) -> None:
        """Compare a document with another annotation from now on (None: with
        none but those the project declares)."""
        if path is None:
            self.compared.pop(key, None)
        elif path not in self.compared.setdefault(key, []):
            self.compared[key].append(path)

    def comparing(self, path: str) -> list[str]:
        """Open documents compared with the annotation at ``path``."""
        return [key for key, states in self.agreements.items() if path in states
                and key in self.documents and self.documents[key].in_editor]

    def dependents(self, path: str) -> list[Document]:
        """Open documents scored against ``path``."""
        return [d for d in self.documents.values() if d.setup.gold == path and d.in_editor]

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
            if dependent.setup.gold == path or dependent.path == path or path in self.agreements.get(dependent.key, {}):
                affected.append(dependent.key)
            elif dependent.setup.gold is None and os.path.basename(path).startswith(
                    os.path.splitext(os.path.basename(dependent.path))[0] + ".gold"):
                affected.append(dependent.key)  # its gold may have just appeared
        for key in affected:
            self._set_up_again(self.documents[key])
        return affected

    def _set_up_again(self, document: Document) -> None:
        """The document's setup from the current rules (its gold may have
        appeared, or a rule changed); what depended on the old one goes."""
        setup = self.setup_of(document.path)
        if setup is None or setup == document.setup:
            return
        if setup.format != document.format:
            handler_for(document).forget(document)
            document.setup = setup
            handler_for(document).forget(document)
        else:
            document.setup = setup
            handler_for(document).gold_changed(document)

    def set_settings(self, settings: Settings) -> list[str]:
        """New settings; returns the keys of open documents to rescore."""
        old = self.settings
        if settings == old:
            return []
        self.settings = settings
        for document in list(self.documents.values()):
            handler_for(document).settings_changed(document, old, settings)
            if document.in_editor:
                self._set_up_again(document)
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
            for comparing in self.comparing(document.path):
                if comparing not in out:
                    out += [k for k in self._rescore_one(comparing) if k not in out]
        return out

    def _rescore_one(self, key: str, progress: Progress | None = None) -> list[str]:
        document = self.documents.get(key)
        if document is None:
            return []
        handler = handler_for(document)
        gold = None
        try:
            document.gold_withheld = withheld_gold(document.setup.gold, self.settings, self.root)
            if document.binary is not None:  # not text: nothing to score
                handler.forget(document)
            else:
                gold = None if document.gold_withheld else self.gold_document(document)
                handler.rescore(document, gold, self.settings, self.log, progress, self.background_validation)
                if document.format == "conllu" and (self.agreements.get(key) or self.compared.get(key)
                                                    or self.settings.agreement.others):
                    agreement.rescore(self, document)
        except Exception as error:  # a fault of ours: say so on the document, start afresh next time
            self.log(f"rescoring {key} failed:\n{traceback.format_exc()}")
            document.failure = excerpt(f"{type(error).__name__}: {error}")
            handler.forget(document)
            return [key]
        document.failure = None
        if gold is None and not document.gold_withheld:
            gold = self.documents.get(document.setup.gold or "")
        return [key] + ([gold.key] if gold is not None and gold.in_editor else [])

    def long_pass_ahead(self, key: str) -> bool:
        """Whether rescoring the document now means a whole pass over a large
        one (its first scoring, or after new settings or a new text)."""
        document = self.documents.get(key)
        return document is not None and handler_for(document).long_pass_ahead(document)

    # --- results --------------------------------------------------------------

    def diagnostics(self, key: str, ordered: bool = True) -> list[Problem]:
        """Everything to show on a document, severities applied, at most
        ``max_diagnostics`` per code (the rest summed up in one); in line
        order unless ``ordered`` is False (an editor puts them in its own
        order, and sorting the tens of thousands a large file may show
        would cost more than listing them)."""
        document = self.documents.get(key)
        if document is None:
            return []
        shown = DiagnosticCap(self.settings)
        if document.failure is not None:
            shown.add(Problem("internal-error", f"annoscore could not score this document: "
                              f"{document.failure} (a fault of annoscore's, logged; please report it)",
                              0, 0, 0))
            return shown.finish()
        if document.binary is not None:
            shown.add(document.binary)
            return shown.finish()
        handler = handler_for(document)
        # In the editor, an unparsed sentence's findings that follow from its
        # missing HEADs fold under its one diagnostic (see conllu.unparsed_fold).
        fold = self.presentation.folds_unparsed and self.settings.fold_unparsed_findings and shown.enabled("unparsed")
        shown.twins = handler.twins(document, fold)  # validation problems that are annoscore's too
        if document.setup.refused is not None:
            shown.add(Problem("gold-refused", document.setup.refused, 0, 0, 0, Severity.WARNING))
        for problem in document.byte_problems:
            shown.add(problem)
        handler.diagnostics(document, self.dependents(document.path or ""), self.settings, shown, fold)
        for problem in agreement.problems(self, document):
            shown.add(problem)
        if document.format == "conllu" and self.settings.splits.train:
            for problem in leak_problems(document, self.leak_indexes, self.settings, self.root):
                shown.add(problem)
        out = shown.finish(ordered)
        if self.presentation.explains_id_sequence and document.format == "conllu" and isinstance(document.store, TextStore):
            out = id_sequence.fold(out, document.store)
        return out

    def score(self, key: str) -> dict[str, Any] | None:
        """The ``annoscore/score`` payload, with paths (the adapter makes URIs)."""
        document = self.documents.get(key)
        if document is None or document.failure is not None:
            return None
        if document.binary is not None:  # not scored: the one diagnostic says why
            return {"path": document.path or document.key, "format": document.format, "gold": None,
                    "metrics": {}, "counts": {"sentences": 0, "unparsed": 0, "refused": 0, "lowConfidence": 0}}
        payload = handler_for(document).score(document)
        if isinstance(document.store, TextStore):  # CoNLL-U: how far the annotation has come
            index = results_of(document).index(document.store)
            payload["progress"] = annotation_progress(index, self.settings.progress_marker)
        compared = agreement.payload(self, document)
        if compared is not None:
            payload["agreement"] = compared
        if document.gold_withheld:  # no live score against a test split
            payload.update({"gold": None, "metrics": {}, "testSplit": True, "message": TEST_SPLIT_MESSAGE})
        return payload

    def validation_pending(self, key: str):
        """A future that is done when the document's first UD validation,
        left to the background by the last rescore, is done (then rescore
        it again to show it); None when nothing is pending."""
        document = self.documents.get(key)
        return None if document is None else handler_for(document).validation_pending(document)

    def new_notes(self, key: str) -> list[str]:
        """Why some UD validation did not run for the document (no language,
        no data …), as far as it was not said before: each note is given once."""
        document = self.documents.get(key)
        notes = [] if document is None else [n for n in handler_for(document).notes(document) if n not in self.told]
        self.told.update(notes)
        return notes

    def report(self, key: str) -> str | None:
        """The plain-text report, as ``annoscore evaluate`` prints it (and,
        for CoNLL-U, the annotation progress)."""
        document = self.documents.get(key)
        if document is None:
            return None
        if document.gold_withheld:
            text = f"Its gold is a declared test split, scored once per system: {TEST_SPLIT_MESSAGE[12:]}.\n"
        else:
            text = handler_for(document).report(document, self.gold_document(document), self.settings)
        if isinstance(document.store, TextStore) and document.binary is None:
            index = results_of(document).index(document.store)
            line = progress_text(annotation_progress(index, self.settings.progress_marker))
            before, signed, signature = text.rpartition("\nSignature:")  # (the signature stays last)
            text = f"{before}\n{line}\n{signed}{signature}" if signed else f"{text.rstrip()}\n\n{line}\n"
        return text
