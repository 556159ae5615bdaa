"""Sentences found by their ``sent_id`` across the open CoNLL-U documents
(``workspace/symbol``: "go to symbol in workspace"), so that a sentence named
in a report, a log or a colleague's message is one search away.

The sent_ids come from the analyses the engine keeps on each segment; a
segment not analysed yet (edited, not rescored) is read for its sent_id
directly.  Matching is by substring, ignoring case, and stops at ``limit``.
"""

from __future__ import annotations

from dataclasses import dataclass

from annoscore.scorer.conllu.parse import block_sent_id

from ..textstore import TextStore

LIMIT = 500


@dataclass
class SentenceSymbol:
    key: str        # the document's key in the engine
    sent_id: str
    line: int       # the sentence's first line
    end: int        # its length in code points (the sent_id line's)


def find_sentences(engine, query: str, limit: int = LIMIT) -> list[SentenceSymbol]:
    wanted = query.strip().lower()
    out: list[SentenceSymbol] = []
    for key, document in list(engine.documents.items()):
        if not document.in_editor or document.format != "conllu" or not isinstance(document.store, TextStore):
            continue
        for segment in document.store.segments:
            if not segment.has_block:
                continue
            analysis = segment.analysis
            if analysis is not None:
                found = [(info.sent_id, info.first_line) for info in analysis[1]]
            else:
                found = [(block_sent_id(segment.text), segment.first_line)]
            for sent_id, line in found:
                if sent_id and wanted in sent_id.lower():
                    out.append(SentenceSymbol(key, sent_id, line, len(document.store.line(line))))
                    if len(out) >= limit:
                        return out
    return out
