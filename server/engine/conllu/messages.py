"""The wording and the place of what the engine says about CoNLL-U sentences.

Problems found against gold (a text that is not gold's, words not aligned
with gold's, sentence boundaries elsewhere than gold's, roots gold
disagrees with, cells that differ from gold) and low-confidence cells:
each a `Problem` on the exact cell, with lines relative to its sentence.
"""

from __future__ import annotations

from annoscore.scorer.conllu.pairing import Mismatch
from annoscore.scorer.conllu.columns import cell_span
from annoscore.scorer.conllu.score import (
    DEPREL_FULL_OK, FEATS_ALL_OK, HEAD_OK, LEMMA_OK, UPOS_OK, XPOS_OK, ChunkScore,
)
from annoscore.scorer.conllu.sentence import FORM, HEAD, Sentence
from annoscore.scorer.conllu.text import strip_spaces
from annoscore.scorer.excerpt import excerpt, identifier, quoted
from annoscore.scorer.problems import Problem, Severity

GOLD_DIFF_CELLS = (("UPOS", UPOS_OK, 3), ("XPOS", XPOS_OK, 4), ("LEMMA", LEMMA_OK, 2),
                   ("FEATS", FEATS_ALL_OK, 5), ("HEAD", HEAD_OK, 6), ("DEPREL", DEPREL_FULL_OK, 7))

LowCell = tuple[int, int, int, str, float]  # (line, start, end, column name, confidence)


def low_confidence_word_problem(cells: list[LowCell], line_text: str,
                                threshold: float) -> Problem:
    """One word's cells below the threshold, in one diagnostic over them
    (a quiet hint: a prediction with Conf on every word would otherwise
    fill the editor)."""
    cells = sorted(cells, key=lambda cell: cell[1])
    named = ", ".join(f"{column} {quoted(line_text[start:end])} {number:.2f}"
                      for _, start, end, column, number in cells)
    return Problem("low-confidence", f"low confidence: {named} (below {threshold:g})",
                   cells[0][0], cells[0][1], max(cell[2] for cell in cells), Severity.HINT,
                   data=(("cells", len(cells)),))


def low_confidence_problem(cell: LowCell, line_text: str,
                           threshold: float) -> Problem:
    line, start, end, column, number = cell
    return Problem("low-confidence", f"{column} {quoted(line_text[start:end])} has confidence {number:.2f} "
                   f"(below {threshold:g})", line, start, end, Severity.HINT)


def locate_character(sentence: Sentence, offset: int) -> tuple[int, int, int]:
    """Line and column span of the character at ``offset`` of the sentence's
    characters (its token forms without spaces, end to end)."""
    done = 0
    tokens = sentence.token_forms()
    for number, (form, first, _end, is_mwt) in enumerate(tokens):
        if offset < done + len(form) or number == len(tokens) - 1:
            if is_mwt:
                mwt = next(m for m in sentence.mwts if m.first == first)
                line, raw = mwt.line, mwt.form
            else:
                line, raw = sentence.word_line[first], sentence.form[first]
            start, _ = cell_span(sentence.lines[line], FORM)
            # Walk the raw form to the wanted character, skipping spaces.
            wanted, seen = max(0, offset - done), 0
            for column, ch in enumerate(raw):
                if strip_spaces(ch):
                    if seen == wanted:
                        return line, start + column, start + column + 1
                    seen += 1
            return line, start, start + len(raw)
        done += len(form)
    return 0, 0, 0


def text_mismatch(sentence: Sentence, mismatch: Mismatch | None) -> Problem:
    if mismatch is None or not sentence.form:
        return Problem("text-mismatch", "this sentence's text is not in gold (the official scorer "
                       "refuses the pair)", 0, 0, 0, Severity.ERROR, refuses=True)
    line, start, end = locate_character(sentence, mismatch.offset)
    if mismatch.gold_text is None:
        message = "gold has no text left for this sentence"
    else:
        message = (f"the text differs from gold here: {quoted(mismatch.system_text)} where gold has "
                   f"{quoted(mismatch.gold_text)}")
    return Problem("text-mismatch", message + " (the official scorer refuses the pair)",
                   line, start, end, Severity.ERROR, refuses=True)


def _token_spans(sentences: list[Sentence]) -> list[tuple[int, int, int, int, int, str]]:
    """(start, end, sentence, first word, end word, description) of every token,
    on the chunk's running text; a multiword token is described with its words."""
    out = []
    offset = 0
    for k, sentence in enumerate(sentences):
        for form, first, end, mwt in sentence.token_forms():
            described = quoted(form)
            if mwt:
                described += " = " + " + ".join(map(quoted, sentence.form[first:end]))
            out.append((offset, offset + len(form), k, first, end, described))
            offset += len(form)
    return out


GOLD_TOKENS_SHOWN = 5  # gold tokens named in a segmentation-mismatch message


def segmentation_mismatch(systems: list[Sentence], golds: list[Sentence], k: int, i: int) -> Problem:
    sentence = systems[k]
    span = next(((s, e) for s, e, sk, first, end, _ in _token_spans(systems)
                 if sk == k and (first <= i < end or first == i)), (0, 0))
    gold_here = [described for s, e, _, _, _, described in _token_spans(golds) if s < span[1] and e > span[0]]
    line = sentence.word_line[i]
    start, end = cell_span(sentence.lines[line], FORM)
    in_mwt = next((m for m in sentence.mwts if m.first <= i < m.end), None)
    what = f"word {quoted(sentence.form[i])}" + (f" of {quoted(in_mwt.form)}" if in_mwt else "")
    gold_text = ", ".join(gold_here[:GOLD_TOKENS_SHOWN]) + (" …" if len(gold_here) > GOLD_TOKENS_SHOWN else "") \
        if gold_here else "nothing"
    return Problem("segmentation-mismatch", f"{what} is not aligned with a gold word; gold has "
                   f"{gold_text} here", line, start, end, Severity.WARNING)


def boundary_problems(golds: list[Sentence], systems: list[Sentence]) -> list[tuple[int, Problem]]:
    """``sentence-boundary`` where a chunk's predicted sentences end
    elsewhere than gold's (the chunk has one running text on both sides):
    on the last token of a predicted sentence that gold's goes on past, and
    on the token after which gold ends a sentence the prediction goes on
    past.  (Problems per system sentence, as (sentence, problem).)"""
    def ends(sentences: list[Sentence]) -> list[int]:
        out, offset = [], 0
        for sentence in sentences:
            offset += len(sentence.chars)
            out.append(offset)
        return out

    gold_ends, system_ends = ends(golds), ends(systems)
    tokens = _token_spans(systems)
    out = []

    def at(offset: int) -> tuple[int, int, str] | None:
        """The system sentence, word and form of the token ending at (or holding) ``offset``."""
        for start, end, k, first, _end, described in tokens:
            if start < offset <= end:
                return k, first, described
        return None

    gold_names = {end: golds[g].sent_id for g, end in enumerate(gold_ends)}
    for k, end in enumerate(system_ends[:-1]):
        if end not in gold_names:
            found = at(end)
            goes_on = next((golds[g].sent_id for g, e in enumerate(gold_ends) if e > end), None)
            if found is not None:
                out.append((found[0], _on_form(systems, found[0], found[1], (
                    f"this sentence ends after {found[2]}, where gold's sentence "
                    f"{identifier(goes_on or '')} goes on".replace(" sentence  goes", " sentence goes")
                    + " (aligned with gold as one running text here)"))))
    for g, end in enumerate(gold_ends[:-1]):
        if end not in system_ends:
            found = at(end)
            if found is not None:
                name = identifier(golds[g].sent_id or "")
                out.append((found[0], _on_form(systems, found[0], found[1], (
                    f"gold's sentence {name} ends after {found[2]}".replace("sentence  ends", "sentence ends")
                    + ", where this one goes on (aligned with gold as one running text here)"))))
    return out


def _on_form(systems: list[Sentence], k: int, word: int, message: str) -> Problem:
    sentence = systems[k]
    line = sentence.word_line[word]
    start, end = cell_span(sentence.lines[line], FORM)
    return Problem("sentence-boundary", message, line, start, end, Severity.WARNING)


def roots_against_gold(sentence: Sentence, k: int, golds: list[Sentence],
                        gold_words: dict[tuple[int, int], tuple[int, int]], scored: ChunkScore,
                        system_words: dict) -> list[Problem]:
    """``multiple-roots`` on the roots of system sentence ``k`` that gold
    does not make a root (they replace the gold-free marks on every root);
    nothing when gold agrees with all of them or with none, or when a root
    is aligned with no gold word (then the gold-free marks stay)."""
    roots = [i for i, h in enumerate(sentence.heads) if h == 0]
    wrong = []
    for i in roots:
        found = gold_words.get((k, i))
        if found is None:
            return []
        if golds[found[0]].heads[found[1]] != 0:
            wrong.append((i, found))
    if not wrong or len(wrong) == len(roots):
        return []
    named = ", ".join(f"{i + 1} ({sentence.form[i]})" for i in roots[:6]) + (
        f", … ({len(roots)} in all)" if len(roots) > 6 else "")
    out = []
    for i, (gs, gw) in wrong:
        gold = golds[gs]
        here = scored.head_in_system(gold, gs, gw, k, system_words)
        head = gold.heads[gw]
        if here is not None and here != "0":
            where = f"word {here} ({sentence.form[int(here) - 1]})"
        else:
            where = f"'{gold.form[head - 1]}'" if head else "another word"
        line = sentence.word_line[i]
        start, end = cell_span(sentence.lines[line], HEAD)
        out.append(Problem("multiple-roots", f"word {i + 1} ({sentence.form[i]}) has HEAD 0 where gold "
                           f"attaches it to {where}; {len(roots)} words have HEAD 0: {named} "
                           "(the official scorer refuses this)", line, start, end, Severity.ERROR, refuses=True))
    return out


def gold_diff(gold: Sentence, gi: int, system: Sentence, si: int, mask: int,
               head_here: str | None) -> list[Problem]:
    """A ``gold-diff`` per cell of system word ``si`` that gold word ``gi``
    has otherwise.  Gold's HEAD is shown as this sentence numbers its words
    (``head_here``, see `ChunkScore.head_in_system`), with the head's form."""
    out = []
    line = system.word_line[si]
    text = system.lines[line]
    gold_columns = gold.columns(gi)
    for name, bit, column in GOLD_DIFF_CELLS:
        if mask & bit:
            continue
        message = f"{name}: gold has {quoted(gold_columns[column])}"
        head = gold.heads[gi] if name == "HEAD" else None
        if head and head <= len(gold.form):
            form = gold.form[head - 1]
            message = (f"HEAD: gold has '{head_here} ({excerpt(form)})'" if head_here is not None
                       else f"HEAD: gold's head is {quoted(form)}, which is aligned with no word here")
        start, end = cell_span(text, column)
        out.append(Problem("gold-diff", message, line, start, end, Severity.HINT))
    return out
