"""A CoNLL-U document compared with other annotations of the same text, kept up to date.

Which others: those ``[agreement] others`` names for the document
(`config.agreement_others`), and those the editor asked for
(``annoscore.compareWith``, `Engine.compare_with`).  Each other file is
read like a gold file: its open buffer if it is open, else the file on disk.

For each other annotation an `AgreementState` keeps, per sentence of the
document, the counts of the sentence pair (`scorer.agreement.pairs`):
sentences are matched by sent_id (by text without one), as ``annoscore
agree`` matches them.  A sentence pair's counts are cached by the two
blocks' texts, so a rescore after an edit counts again only the sentences
whose text (or partner) changed; the totals are the old totals with the
counts of sentences gone taken out and those of new ones added (integers:
exactly what a fresh pass gives, which the racing tests check).

What it shows:

- ``disagreement`` diagnostics (information) on each cell whose value the
  other annotation gives otherwise, naming that annotation and its value;
  the quick fix "Take B's value" (`agreement_fix`);
- ``agreement`` in the score payload: per other annotation, observed
  agreement and Cohen's kappa of UPOS, XPOS, LEMMA, FEATS, HEAD, DEPREL,
  HEAD+DEPREL and DEPS, and the attachment F1 (Words, UAS, LAS, CLAS), the
  numbers ``annoscore agree`` prints for the two files;
- the ``disagreement`` kind of ``annoscore/next``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.parse import parse_blocks, read_comments
from annoscore.scorer.conllu.sentence import Sentence
from annoscore.scorer.excerpt import excerpt, quoted
from annoscore.scorer.problems import Problem, Severity

from ..config import agreement_others
from ..textstore import TextStore
from .fix import Fix

if TYPE_CHECKING:
    from annoscore.scorer.agreement.pairs import Difference, SentencePair, Totals


def _pairs():
    """scorer.agreement.pairs, imported when first needed: it imports numpy
    (0.1-0.2 s), which a check or an editor without other annotations never uses."""
    from annoscore.scorer.agreement import pairs

    return pairs


def compare_sentences(here: Sentence, there: Sentence) -> SentencePair:
    """`scorer.agreement.pairs.compare_sentences` (its module imported when first needed)."""
    return _pairs().compare_sentences(here, there)

CODE = "disagreement"
COLUMN = {"LEMMA": 2, "UPOS": 3, "XPOS": 4, "FEATS": 5, "HEAD": 6, "DEPREL": 7, "DEPS": 8}


@dataclass(eq=False)
class _Entry:
    """One sentence of the document and its counts against the other's."""

    pair: SentencePair
    problems: tuple[Problem, ...]   # lines relative to the sentence


@dataclass(eq=False)
class _Other:
    """The other annotation's sentences: by what matches them, each (block, index in it)."""

    state: tuple = ()
    sentences: dict[tuple, tuple[str, int]] = field(default_factory=dict)
    parsed: dict[tuple[str, int], Sentence] = field(default_factory=dict)
    words: int = 0
    content: int = 0


@dataclass(eq=False)
class AgreementState:
    path: str
    name: str
    other: _Other = field(default_factory=_Other)
    cache: dict[tuple, _Entry] = field(default_factory=dict)
    entries: list[_Entry] = field(default_factory=list)   # per sentence of the document
    infos: list = field(default_factory=list)             # ... which were these
    first_lines: list[int] = field(default_factory=list)
    sent_ids: list[str | None] = field(default_factory=list)
    totals: Totals = field(default_factory=lambda: _pairs().Totals())
    available: bool = True


def _name(path: str, root: str | None) -> str:
    """How messages name another annotation: its path in the workspace."""
    if root:
        relative = os.path.relpath(path, root)
        if not relative.startswith(".."):
            return relative
    return os.path.basename(path)


def others_of(engine, document) -> list[str]:
    declared = agreement_others(document.path, engine.settings, engine.root) if document.path else []
    for path in engine.compared.get(document.key, ()):
        if path not in declared and path != document.path:
            declared.append(path)
    return declared


def _keys(block_infos) -> list[tuple]:
    """What matches each sentence: (sent_id, use) or (text, use)."""
    uses: dict[tuple, int] = {}
    out = []
    for sent_id, chars in block_infos:
        base = ("id", sent_id) if sent_id is not None else ("text", chars)
        use = uses.get(base, 0)
        uses[base] = use + 1
        out.append(base + (use,))
    return out


def _read_other(state: AgreementState, other_document) -> None:
    store = other_document.store
    version = (id(other_document), getattr(store, "version", None), len(store.segments))
    if state.other.state == version:
        return
    parsed_before = state.other.parsed
    other = _Other(version)
    infos = []
    places = []
    for segment in store.segments:
        block = segment.block
        if not block:
            continue
        sentences = None
        sent_id, pos = read_comments(block) if block.startswith("#") else (None, 0)
        count = 1
        if "\n\n" in block or sent_id is None or pos < 0:
            sentences = parse_blocks(block, 0)
            count = len(sentences)
        for k in range(count):
            key = (block, k)
            sentence = parsed_before.get(key) or (sentences[k] if sentences else None)
            if sentence is None:
                sentence = parse_blocks(block, 0)[k]
            other.parsed[key] = sentence
            infos.append((sentence.sent_id, sentence.chars if sentence.sent_id is None else None))
            places.append(key)
            other.words += len(sentence.form)
            other.content += _content(sentence)
    for key, place in zip(_keys(infos), places):
        other.sentences[key] = place
    state.other = other


def _content(sentence: Sentence) -> int:
    from annoscore.scorer.conllu.relations import BASE_DEPREL, CONTENT_DEPRELS
    return sum(BASE_DEPREL[d] in CONTENT_DEPRELS for d in sentence.deprel)


def rescore(engine, document) -> None:
    """Bring the document's agreement with each other annotation up to date."""
    states: dict[str, AgreementState] = engine.agreements.setdefault(document.key, {})
    wanted = others_of(engine, document) if document.format == "conllu" and isinstance(document.store, TextStore) \
        else []
    for path in list(states):
        if path not in wanted:
            del states[path]
    document.agreement = states if wanted else None
    if not wanted:
        engine.agreements.pop(document.key, None)
        return
    from .conllu.handler import results_of
    infos = results_of(document).index(document.store).infos
    for path in wanted:
        state = states.get(path)
        if state is None:
            state = states[path] = AgreementState(path, _name(path, engine.root))
        other_document = engine.other_document(document, path)
        state.available = other_document is not None and isinstance(other_document.store, TextStore)
        if not state.available:
            state.entries, state.totals, state.cache = [], _pairs().Totals(), {}
            continue
        _read_other(state, other_document)
        keys = _keys([(info.sent_id, info.chars if info.sent_id is None else None) for info in infos])
        cache, new_cache = state.cache, {}
        entries = []
        for info, key in zip(infos, keys):
            partner = state.other.sentences.get(key)
            cache_key = (info.segment.block, info.index, partner)
            entry = cache.get(cache_key) or new_cache.get(cache_key)
            if entry is None:
                entry = _entry(info.parse(), state.other.parsed.get(partner) if partner else None, state)
            new_cache[cache_key] = entry
            entries.append(entry)
        kept = {id(e) for e in entries}
        before = {id(e) for e in state.entries}
        for e in state.entries:
            if id(e) not in kept:
                state.totals.remove(e.pair)
        for e in entries:
            if id(e) not in before:
                state.totals.add(e.pair)
                before.add(id(e))
        state.entries, state.cache = entries, new_cache
        state.infos = list(infos)
        state.first_lines = [info.first_line for info in infos]
        state.sent_ids = [info.sent_id for info in infos]


def _entry(here: Sentence, there: Sentence | None, state: AgreementState) -> _Entry:
    if there is None:
        pair = _pairs().SentencePair(words=(len(here.form), 0), content=(_content(here), 0))
        return _Entry(pair, ())
    pair = compare_sentences(here, there)
    pair.words = (pair.words[0], 0)      # the other's words are counted once, in all (see `payload`)
    pair.content = (pair.content[0], 0)
    return _Entry(pair, tuple(_problem(here, there, d, state) for d in pair.differences))


def _problem(here: Sentence, there: Sentence, d: Difference, state: AgreementState) -> Problem:
    line = here.word_line[d.word]
    start, end = cell_span(here.lines[line], COLUMN[d.column])
    name = state.name
    if d.column == "HEAD" and d.other not in ("_", "0") and there.heads[d.other_word] is not None:
        head = there.heads[d.other_word]
        form = there.form[head - 1] if head is not None and 0 < head <= len(there.form) else "?"
        if d.other_here is not None:
            message = f"HEAD: {name} has '{d.other_here} ({excerpt(form)})'"
        else:
            message = f"HEAD: {name} attaches it to {quoted(form)}, a word this file tokenizes otherwise"
    else:
        message = f"{d.column}: {name} has {quoted(d.other)}"
    value = d.other_here if d.column == "HEAD" and d.other not in ("_", "0") else d.other
    return Problem("disagreement", message, line, start, end, Severity.INFORMATION,
                   data=(("other", state.path), ("value", value), ("column", d.column)))


def problems(engine, document) -> list[Problem]:
    """Every disagreement diagnostic of the document (absolute lines)."""
    out = []
    for state in engine.agreements.get(document.key, {}).values():
        for entry, first in zip(state.entries, state.first_lines):
            out += [p.shifted(first) for p in entry.problems]
    return out


def payload(engine, document) -> list[dict[str, Any]] | None:
    states = engine.agreements.get(document.key)
    if not states:
        return None
    out = []
    for state in states.values():
        if not state.available:
            out.append({"path": state.path, "name": state.name, "available": False})
            continue
        totals = state.totals
        totals.counts["words_there"] = state.other.words
        totals.counts["content_there"] = state.other.content
        coefficients = totals.coefficients()
        out.append({"path": state.path, "name": state.name, "available": True,
                    "sentences": sum(1 for e in state.entries if e.pair.aligned or e.pair.differences),
                    "disagreements": sum(len(e.problems) for e in state.entries),
                    "variables": {v: {"items": coefficients[v]["items"], "observed": coefficients[v]["observed"],
                                      "kappa": coefficients[v]["cohen_kappa"],
                                      "alpha": coefficients[v]["krippendorff_alpha"]} for v in _pairs().MAIN},
                    "attachment": totals.attachment()})
    return out


def differences_at(engine, key: str, line: int) -> list[Problem]:
    """The disagreements on a line (absolute lines)."""
    document = engine.documents.get(key)
    if document is None:
        return []
    return [p for p in problems(engine, document) if p.line == line]


def agreement_fix(engine, key: str, line: int, start: int, other: str | None = None):
    """The edit that gives the cell at (line, start) the other annotation's value."""
    for p in differences_at(engine, key, line):
        if p.start <= start <= p.end and (other is None or p.datum("other") == other):
            value = p.datum("value")
            if value is None:
                return None  # (a HEAD whose word this file tokenizes otherwise)
            name = _name(str(p.datum("other")), engine.root)
            return Fix(f"Take {name}'s {p.datum('column')} {quoted(str(value))}",
                       [(p.line, p.start, p.line, p.end, str(value))])
    return None


def sentence_problems(engine, document, info) -> list[Problem]:
    """A sentence's disagreements (lines relative to it), for ``annoscore/next``
    (none for a sentence edited since the last rescore)."""
    out = []
    position = info.position
    for state in engine.agreements.get(document.key, {}).values():
        if 0 <= position < len(state.entries) and state.infos[position] is info:
            out += state.entries[position].problems
    return out
