"""A CoNLL-U document's sentences as an outline (``textDocument/documentSymbol``).

One entry per sentence: its sent_id (or ``line N`` without one), the start
of its text, whether the official scorer would refuse it or it is not
parsed yet, and the lines it spans — so that an editor's outline and
breadcrumbs show where the cursor is and a click goes to a sentence.

Fast on a large document because nothing is parsed: what a sentence is and
whether it is refused come from the analysis the engine keeps on each
segment (`SentenceInfo`); its text from its ``# text`` comment, found among
the block's leading comments, or else from the FORMs of its first token
lines; its lines from counting newlines in the segment's text.  A
segment's entries depend only on its text (and the threshold its analysis
was made with), so they are kept on the segment, with lines relative to
it: after an edit only the new segments make theirs, and an outline is a
walk over the segments adding each one's first line.  A segment edited
since the last rescore, which has no analysis yet, is analysed here
without keeping the analysis (the next rescore does that).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..textstore import Segment, TextStore
from .conllu.analysis import SentenceInfo, analyze_segment

TEXT_SHOWN = 40    # characters of the sentence's text in an entry's detail
FORMS_READ = 12    # token lines read for a sentence without a # text


@dataclass(slots=True, eq=False)
class OutlineEntry:
    sent_id: str | None
    detail: str
    first_line: int   # relative to its segment (`segment_outlines`)
    first_text: str   # the text of its first line (for the client's columns)
    last_line: int
    last_text: str
    unparsed: bool
    refused: tuple[str, ...]  # the codes the official scorer would refuse it for
    # What the LSP adapter made of it once (its JSON), kept with it.
    encoded: object = None

    def name(self, first_line: int) -> str:
        """Its name, given its first line in the document: the sent_id, or ``line N``."""
        return self.sent_id or f"line {first_line + 1}"


def segment_outlines(engine, key: str) -> Iterator[tuple[int, list[OutlineEntry]]] | None:
    """Each segment's first line and its entries (lines relative to it), in
    order; None for a document that is not CoNLL-U."""
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        return None
    return _walk(document.store.segments, engine.settings.threshold)


def _walk(segments: list[Segment], threshold: float) -> Iterator[tuple[int, list[OutlineEntry]]]:
    for segment in segments:
        if not segment.has_block:
            continue
        kept = segment.outline
        if kept is None or kept[0] != threshold:
            analysis = segment.analysis
            infos = analysis[1] if analysis is not None and analysis[0] == threshold \
                else analyze_segment(segment, threshold)[0]
            kept = segment.outline = (threshold, [_entry(segment, info, infos[k + 1] if k + 1 < len(infos) else None)
                                                  for k, info in enumerate(infos)])
        yield segment.first_line, kept[1]


def _entry(segment: Segment, info: SentenceInfo, following: SentenceInfo | None) -> OutlineEntry:
    text = segment.text
    offset = 1 if segment.bom else 0
    for _ in range(info.line_offset):  # (nearly always none: one sentence per block)
        offset = text.index("\n", offset) + 1
    if following is not None:
        end = offset
        for _ in range(following.line_offset - info.line_offset - 1):
            end = text.index("\n", end) + 1
        end -= 1
    else:
        end = len(text)
    while end > offset and text[end - 1] in "\n \t":  # the blank lines (and whitespace) after it
        end -= 1
    first_end = text.find("\n", offset, end)
    first_text = text[offset:end if first_end < 0 else first_end]
    last_start = text.rfind("\n", offset, end) + 1 or offset
    first = info.line_offset
    last = first + text.count("\n", offset, last_start)
    refused = tuple(dict.fromkeys(p.code for p in info.problems if p.refuses)) if info.refused else ()
    return OutlineEntry(info.sent_id, _detail(text, offset, end, info, refused), first, first_text,
                        last, text[last_start:end], info.unparsed, refused)


def _detail(text: str, start: int, end: int, info: SentenceInfo, refused: tuple[str, ...]) -> str:
    sentence = _sentence_text(text, start, end)
    if len(sentence) > TEXT_SHOWN:
        sentence = sentence[:TEXT_SHOWN - 1].rstrip() + "…"
    if info.unparsed:
        mark = "unparsed"
    elif refused:
        mark = "refused: " + ", ".join(refused)
    else:
        return sentence
    return f"{mark} · {sentence}" if sentence else mark


def _sentence_text(text: str, start: int, end: int) -> str:
    """The sentence's ``# text``, else the FORMs of its first token lines."""
    pos = start
    while text.startswith("#", pos) and pos < end:
        nl = text.find("\n", pos, end)
        line = text[pos:end if nl < 0 else nl]
        key, sep, value = line[1:].partition("=")
        if sep and key.strip() == "text":
            return _printable(value.strip())
        if nl < 0:
            return ""
        pos = nl + 1
    forms = []
    for line in text[pos:end].split("\n", FORMS_READ)[:FORMS_READ]:
        cells = line.split("\t", 2)
        if len(cells) > 1 and cells[0].isdigit():  # words only, not ranges or empty nodes
            forms.append(cells[1])
    return _printable(" ".join(forms))


def _printable(text: str) -> str:
    return text if text.isprintable() else "".join(ch if ch.isprintable() else " " for ch in text)
