"""Reading aids for a CoNLL-U document: what inlay hints, document highlight,
folding and selection ranges show (see `server.lsp.features.reading`).

Everything here works on the sentences of the segments a request touches
(`TextStore` keeps one segment per sentence block), parsed again one block
at a time — never the whole document: a screen of inlay hints parses the
few sentences on it.  Folding the whole document reads the outline entries
the engine keeps per segment (`server.engine.outline`) and finds multiword
ranges with one search of each segment's text, kept on the segment.
Positions are in code points; the LSP adapter converts them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.editing import EditError
from annoscore.scorer.conllu.editing.renumber import out_of_sequence, renumber
from annoscore.scorer.conllu.parse import parse_blocks
from annoscore.scorer.conllu.sentence import DEPS, FORM, HEAD, Sentence

from ..textstore import TextStore
from .cells import sentence_at
from .outline import _walk

HINT_MARK = "▸"
ROOT = "root"


@dataclass(frozen=True, slots=True)
class Hint:
    line: int
    column: int   # where the hint goes: after the HEAD cell, or after a DEPS item
    label: str    # "▸ demir", "▸ root"


@dataclass(frozen=True, slots=True)
class Mark:
    """A word's FORM cell, highlighted as the word itself, its head or a dependent."""

    line: int
    start: int
    end: int
    role: str     # "word", "head" or "dependent"


def _store(engine, key: str) -> TextStore | None:
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        return None
    return document.store


def sentences_between(engine, key: str, first: int, last: int) -> Iterator[tuple[int, Sentence]]:
    """The sentences holding lines ``first`` .. ``last`` (absolute), each with
    its first line in the document; only their segments are parsed."""
    store = _store(engine, key)
    if store is None or not store.segments:
        return
    k = store.segment_at(first)
    while k < len(store.segments):
        segment = store.segments[k]
        if segment.first_line > last:
            break
        block = segment.block
        if block is not None:
            for sentence in parse_blocks(block, 0):
                start = segment.first_line + sentence.first_line
                if start <= last and start + sentence.n_lines - 1 >= first:
                    yield start, sentence
        k += 1


def _node_forms(sentence: Sentence) -> dict[str, str]:
    """FORM by ID, words and empty nodes (DEPS heads may be ``N.1``)."""
    forms = {"0": ROOT}
    for i, form in enumerate(sentence.form):
        forms[str(i + 1)] = form
    lines = sentence.lines
    for relative in sentence.empty_lines:
        cells = lines[relative].split("\t")
        if len(cells) > 1:
            forms[cells[0]] = cells[1]
    return forms


def _as_meant(sentence: Sentence) -> Sentence:
    """The sentence as its HEADs and DEPS mean it: where its IDs are out of
    sequence (a line inserted, deleted or moved by hand), its lines as
    Renumber would write them, so that a hint names the word a HEAD meant
    (the one Renumber keeps it attached to), not the word that happens to
    hold that number now; the sentence itself otherwise."""
    block = "\n".join(sentence.lines)
    if out_of_sequence(block) is None:
        return sentence
    try:
        lines = renumber(block).lines
    except EditError:
        return sentence
    def forms(rows: list[str]) -> list[str | None]:
        return [None if row.startswith("#") else row.split("\t")[1] if "\t" in row else row for row in rows]

    if forms(lines) != forms(sentence.lines):  # Renumber moved a line (an empty node to its place): hint by number
        return sentence
    return next(iter(parse_blocks("\n".join(lines) + "\n", 0)), sentence)


def inlay_hints(engine, key: str, first: int, last: int) -> list[Hint]:
    """Hints on lines ``first`` .. ``last``: after each HEAD cell the head's
    FORM (``root`` for 0), after each DEPS item its head's FORM.  A HEAD or
    DEPS head that names no node of the sentence gets none."""
    out: list[Hint] = []
    for start, sentence in sentences_between(engine, key, first, last):
        meant = _as_meant(sentence)
        forms = _node_forms(meant)
        written_forms = forms if meant is sentence else _node_forms(sentence)
        for relative, text in enumerate(sentence.lines):
            line = start + relative
            if not first <= line <= last or text.startswith("#") or text.count("\t") < 9:
                continue
            cells = meant.lines[relative].split("\t")
            head_start, head_end = cell_span(text, HEAD)
            head = forms.get(cells[HEAD]) if len(cells) > HEAD else None
            if head is not None:
                out.append(Hint(line, head_end, f"{HINT_MARK} {head}"))
            deps_start, deps_end = cell_span(text, DEPS)
            deps = text[deps_start:deps_end]
            if deps == "_":
                continue
            items = deps.split("|")
            meant_items = cells[DEPS].split("|") if len(cells) > DEPS else []
            targets = forms
            if [i.partition(":")[2] for i in meant_items] != [i.partition(":")[2] for i in items]:
                meant_items, targets = items, written_forms  # renumbering re-sorted them: by number
            offset = deps_start
            for item, meant_item in zip(items, meant_items):
                target = targets.get(meant_item.split(":", 1)[0])
                if target is not None:
                    out.append(Hint(line, offset + len(item), f"{HINT_MARK} {target}"))
                offset += len(item) + 1
    return out


def highlights(engine, key: str, line: int) -> list[Mark]:
    """On a word's line: its FORM, its head's and its dependents' FORMs."""
    found = next(sentences_between(engine, key, line, line), None)
    if found is None:
        return []
    start, sentence = found
    relative = line - start
    word = next((i for i, w in enumerate(sentence.word_line) if w == relative), None)
    if word is None:
        return []

    def mark(i: int, role: str) -> Mark:
        at = sentence.word_line[i]
        begin, end = cell_span(sentence.lines[at], FORM)
        return Mark(start + at, begin, end, role)

    out = [mark(word, "word")]
    head = sentence.heads[word]
    if head and head <= len(sentence.form):
        out.append(mark(head - 1, "head"))
    out += [mark(i, "dependent") for i, h in enumerate(sentence.heads) if h == word + 1 and i != word]
    return out


# A multiword token's range line: "3-4<TAB>…" after a newline (a literal
# first character lets the search skip ahead: much faster than a MULTILINE
# "^"), and the same at the text's start.
_RANGE = re.compile(r"\n(\d+)-(\d+)\t")
_RANGE_FIRST = re.compile(r"(\d+)-(\d+)\t")


def _segment_ranges(segment) -> list[tuple[int, int]]:
    """(range line, its last word's line), relative to the segment; kept on it."""
    if segment.folds is not None:
        return segment.folds
    out = []
    text = segment.text
    if "-" in text:
        skip = 1 if segment.bom else 0
        first = _RANGE_FIRST.match(text, skip)
        for m in ([first] if first else []) + list(_RANGE.finditer(text, skip)):
            at = text.count("\n", 0, m.end(2))
            last_id = m.group(2) + "\t"
            pos, line, end_line = m.end(), at, at
            while True:  # to the line of the range's last word (empty nodes may come between)
                nl = text.find("\n", pos)
                if nl < 0 or nl + 1 >= len(text) or text[nl + 1] == "\n":
                    break
                pos, line = nl + 1, line + 1
                if text.startswith(last_id, pos):
                    end_line = line
                    break
            if end_line > at:
                out.append((at, end_line))
    segment.folds = out
    return out


def folding_ranges(engine, key: str) -> list[tuple[int, int]] | None:
    """(first line, last line) of each sentence (its comments included) and
    of each multiword token, in order of their first line; None for a
    document that is not CoNLL-U.

    A segment holding one sentence (nearly all: see `server.textstore`)
    spans its text without the blank lines after it; only the others are
    asked of the outline entries (which are dearer to make)."""
    store = _store(engine, key)
    if store is None:
        return None
    threshold = engine.settings.threshold
    out = []
    for segment in store.segments:
        if not segment.has_block:
            continue
        base = segment.first_line
        analysis = segment.analysis
        if analysis is not None and len(analysis[1]) == 1 and analysis[1][0].line_offset == 0:
            last = segment.text.rstrip("\n \t").count("\n")
            if last > 0:
                out.append((base, base + last))
        else:
            for e in next(_walk([segment], threshold))[1]:
                if e.last_line > e.first_line:
                    out.append((base + e.first_line, base + e.last_line))
        out += [(base + a, base + b) for a, b in _segment_ranges(segment)]
    return out


def selection_ranges(engine, key: str, line: int, column: int) -> list[tuple[int, int, int, int]]:
    """The ranges around a position, innermost first: the cell (on a token
    line), the line, the sentence; each (line, start, end line, end)."""
    store = _store(engine, key)
    if store is None or not store.segments:
        return []
    text = store.line(line)
    out = []
    if "\t" in text and not text.startswith("#"):
        at = text.count("\t", 0, min(column, len(text)))
        if at <= 9:
            begin, end = cell_span(text, at)
            out.append((line, begin, line, end))
    if text:
        out.append((line, 0, line, len(text)))
    segment = store.segments[store.segment_at(line)]
    block = segment.block
    if block is not None:
        found = sentence_at(parse_blocks(block, 0), line - segment.first_line)
        if found is not None:
            sentence = found[1]
            first = segment.first_line + sentence.first_line
            last = first + sentence.n_lines - 1
            span = (first, 0, last, len(store.line(last)))
            if not out or span != out[-1]:
                out.append(span)
    return out
