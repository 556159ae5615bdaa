"""The language server put together: its features, and ``annoscore lsp``'s main.

One small class per feature (in ``features/``), each added to the server in
`create_server`, in the order of `FEATURES` — the order they hear events in
(`server.lsp.feature.LanguageFeature`):

- `Configuration`: initialization options, ``workspace/configuration``,
  annoscore.toml — invalid values are reported and replaced by defaults;
- `Scoring`: rescoring (on save, or while typing, debounced), publishing
  diagnostics and the ``annoscore/score`` notification; the
  ``annoscore/score`` and ``annoscore/report`` requests; the
  ``annoscore.rescore`` command;
- `DocumentSync`: didOpen/didChange/didSave/didClose into the engine;
- `FileWatching`: files changed on disk by other programs (watchfiles);
- `CellHover`: what the cell under the cursor is, with gold's value;
- `QuickFixes`: code actions that mend a diagnostic (as edits; the server
  never writes a file);
- `TreeNavigation`: go to a word's head, find the words that depend on it;
- `CellCompletion`: UPOS tags, relations and HEADs (as words) in their cells;
- `SentenceSymbols`: go to a sentence by its sent_id (workspace symbols);
- `SentenceTree`: the sentence under the cursor as a tree (``annoscore/tree``);
- `SentenceOutline`: the sentences as the document's outline (document symbols);
- `NextPlace`: the next place of a kind, from the engine's results (``annoscore/next``);
- `Agreement`: other annotations of the same text compared (``annoscore.compareWith``,
  ``annoscore/agreement``);
- `SentenceEditing`: structural edits of the sentence at the cursor
  (``annoscore.edit``, refactor code actions, renumbering);
- `InlayHints`, `TreeHighlight`, `SentenceFolding`, `CellSelection`: the
  reading aids (head words after HEAD and DEPS, a word's head and
  dependents highlighted, sentences and multiword tokens folded, selection
  from cell to line to sentence; docs/reading-aids.md).
"""

from __future__ import annotations

import logging
import os
import sys
import traceback

from annoscore.scorer.excerpt import excerpt

from .feature import LanguageFeature
from .features.agreement import Agreement
from .features.completion import CellCompletion
from .features.configuration import Configuration
from .features.documents import DocumentSync
from .features.editing import SentenceEditing
from .features.folding import SentenceFolding
from .features.highlight import TreeHighlight
from .features.hover import CellHover
from .features.inlay import InlayHints
from .features.navigation import TreeNavigation
from .features.outline import SentenceOutline
from .features.quickfix import QuickFixes
from .features.scoring import Scoring
from .features.seek import NextPlace
from .features.selection import CellSelection
from .features.symbols import SentenceSymbols
from .features.tree import SentenceTree
from .features.watching import FileWatching
from .server import AnnoscoreServer

# Every feature, in the order they hear events: the settings first (the
# others read them), then rescoring, before what the documents' events start.
FEATURES: tuple[type[LanguageFeature], ...] = (
    Configuration, Scoring, DocumentSync, FileWatching, CellHover, QuickFixes, TreeNavigation,
    CellCompletion, SentenceSymbols, SentenceTree, SentenceOutline, NextPlace, Agreement, SentenceEditing,
    InlayHints, TreeHighlight, SentenceFolding, CellSelection)


def create_server() -> AnnoscoreServer:
    server = AnnoscoreServer()
    for feature_class in FEATURES:
        server.add_feature(feature_class(server))
    return server


class OneLineFormatter(logging.Formatter):
    """Every log record is one line of at most `LOG_LINE` characters, its
    control characters escaped: whatever a message quotes (a client's token,
    a file's name, pygls's own messages), the editor's log gets no forged
    line, no terminal escape and no quoted megabytes.  A traceback (exc_info)
    is left out; its innermost frame is named."""

    LOG_LINE = 2000

    def format(self, record: logging.LogRecord) -> str:
        try:
            message = record.getMessage()
        except Exception as error:  # (a message whose arguments do not fit its format)
            message = f"{record.msg!r} ({type(error).__name__})"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)
            where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
            message += f": {type(error).__name__}: {error}{where}"
        return f"annoscore {record.levelname}: {excerpt(message, self.LOG_LINE)}"


def main() -> int:
    level = os.environ.get("ANNOSCORE_LOG", "info").upper()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter())
    logging.basicConfig(level=level if level in logging._nameToLevel else "INFO", handlers=[handler])
    if level != "DEBUG":
        # pygls logs every message at INFO, and watchfiles every change it
        # sees: too much for an editor's log (and a log file inside the
        # watched folder would feed itself).
        logging.getLogger("pygls").setLevel(logging.WARNING)
        logging.getLogger("watchfiles").setLevel(logging.WARNING)
    # Work moves between the event loop, the reader's thread and the engine
    # thread several times per edit; a shorter switch interval than Python's
    # 5 ms lets each handover happen sooner (a few ms less per edit).
    sys.setswitchinterval(0.001)
    return create_server().serve_stdio()
