"""Hover: what the cell under the cursor is (``textDocument/hover``).

On a token line: the column's name, the word, what a HEAD points to, the
parser's confidence in the cell (MISC ``Conf=``), and gold's value when the
document is paired with gold (or that no gold word is aligned with this
word).  On a comment line: the sentence, the gold sentences it is counted
with and its attachment scores.  What is shown comes from
`server.engine.cells`; this class only turns it into text.

Every value from the document (sent_ids, forms, cells, gold's values) is
put into the text through a `Markdown` or `Plain` style, never pasted into
Markdown as it is: ``a_b_c`` would lose its underscores to emphasis, a
FORM ``*`` would start emphasis, a backtick would end a code span.  In
Markdown, text is backslash-escaped (CommonMark lets any ASCII punctuation
be escaped; only the characters that can start inline markup are) and a
code span is fenced with more backticks than the value has in a row.
Clients that do not take Markdown get the same lines built in plain text.
"""

from __future__ import annotations

import re

from lsprotocol import types

from annoscore.scorer.conllu.sentence import HEAD, MISC, Sentence

from ..feature import LanguageFeature, handles
from ..server import AnnoscoreServer
from ...engine.cells import Cell, SentenceSummary, describe


class Plain:
    """Hover text for clients that show it as it is."""

    @staticmethod
    def text(value: str) -> str:
        return value

    @staticmethod
    def code(value: str) -> str:
        return f"'{value}'"

    em = bold = text


class Markdown:
    """Hover text as CommonMark, every value escaped."""

    # What can start inline markup in the middle of a line: escapes, code
    # spans, emphasis, links and images, HTML and autolinks, entities, and
    # (GFM) strikethrough and table cells.  Every value here is in the middle
    # of a line, after other text, so the markers of a line's start (#, -,
    # 1.) need nothing.
    ACTIVE = re.compile(r"([\\`*_\[\]<>&~|])")

    @classmethod
    def text(cls, value: str) -> str:
        return cls.ACTIVE.sub(r"\\\1", value)

    @staticmethod
    def code(value: str) -> str:
        if not value:
            return "(empty)"
        fence = "`" * (1 + max((len(run) for run in re.findall("`+", value)), default=0))
        # A space on each side is taken off again by the renderer; without it
        # a value that starts or ends with a backtick would run into the fence.
        pad = " " if value.strip() and (value[0] in "` " or value[-1] in "` ") else ""
        return f"{fence}{pad}{value}{pad}{fence}"

    @classmethod
    def em(cls, value: str) -> str:
        # Emphasis cannot open next to a space: such a value is shown plain.
        return f"*{cls.text(value)}*" if value.strip() == value and value else cls.text(value)

    @classmethod
    def bold(cls, value: str) -> str:
        return f"**{cls.text(value)}**" if value.strip() == value and value else cls.text(value)


Style = type[Plain] | type[Markdown]


def _head_text(sentence: Sentence, value: str, style: Style) -> str:
    """A HEAD value with the word it points to."""
    if value == "0":
        return f"{style.code('0')} (the root)"
    if value.isdigit() and 0 < int(value) <= len(sentence.form):
        return f"{style.code(value)} → {style.em(sentence.form[int(value) - 1])}"
    return style.code(value)


def cell_text(cell: Cell, threshold: float, style: Style = Markdown) -> str:
    sentence = cell.sentence
    text = style.text
    where = f"sentence {text(sentence.sent_id)}" if sentence.sent_id else "this sentence"
    if cell.word is None:
        lines = [f"{style.bold(cell.name)} of a token line that is not a word (a multiword token or an "
                 f"empty node) in {where}", style.code(cell.value)]
        return "\n\n".join(lines)
    word = sentence.form[cell.word]
    lines = [f"{style.bold(cell.name)} · word {cell.word + 1} of {len(sentence.form)}, "
             f"{style.em(word)}, in {where}"]
    lines.append(_head_text(sentence, cell.value, style) if cell.column == HEAD else style.code(cell.value))
    if cell.confidence is not None:
        below = f" (below the threshold {threshold:g})" if cell.confidence < threshold else ""
        lines.append(f"parser's confidence: {cell.confidence:.2f}{below}")
    if cell.has_gold:
        if cell.gold is None:
            lines.append("gold: no gold word is aligned with this word")
        elif cell.column in (0, 1):
            gold = cell.gold
            lines.append(f"gold: aligned with word {gold.word + 1}, {style.em(gold.sentence.form[gold.word])}"
                         + (f", of {text(gold.sentence.sent_id)}" if gold.sentence.sent_id else ""))
        elif cell.column != MISC:  # (gold's MISC says nothing about this word's annotation)
            value = cell.gold.value(cell.column)
            if cell.column == HEAD:
                if cell.gold.head_here is None and value != "0":
                    gold = cell.gold.sentence
                    head = gold.heads[cell.gold.word]
                    shown = f"word {text(value)}" + (f", {style.em(gold.form[head - 1])}"
                                                     if head and head <= len(gold.form) else "")
                    lines.append(f"gold: {shown}, which is aligned with no word of this sentence")
                else:
                    same = value == cell.value
                    lines.append(f"gold: {_head_text(sentence, value, style)}" + (" (the same)" if same else ""))
            else:
                lines.append(f"gold: {style.code(value)}" + (" (the same)" if value == cell.value else ""))
    return "\n\n".join(lines)


def summary_text(summary: SentenceSummary, style: Style = Markdown) -> str:
    sentence = summary.sentence
    text = style.text
    name = style.bold(sentence.sent_id) if sentence.sent_id else style.bold("this sentence")
    lines = [f"{name} · {len(sentence.form)} words"]
    if summary.unparsed:
        lines.append(f"not parsed yet (every HEAD is {style.code('_')})")
    elif summary.refused_because:
        lines.append("the official scorer would refuse it: " + text(", ".join(summary.refused_because)))
    if summary.gold_ids is not None:
        golds = ", ".join(text(g or "(no sent_id)") for g in summary.gold_ids)
        together = (f", together with {summary.together_with} other predicted sentence"
                    f"{'s' if summary.together_with > 1 else ''}") if summary.together_with else ""
        lines.append(f"counted against gold {golds}{together}")
        if summary.uas and summary.las and summary.uas[1]:
            uas, las = summary.uas, summary.las
            lines.append(f"UAS {uas[0]}/{uas[1]} ({100 * uas[0] / uas[1]:.1f}%), "
                         f"LAS {las[0]}/{las[1]} ({100 * las[0] / las[1]:.1f}%)")
    return "\n\n".join(lines)


class CellHover(LanguageFeature):
    server: AnnoscoreServer

    @handles(types.TEXT_DOCUMENT_HOVER)
    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        return await self.server.worker.run(self.hover_at, params.text_document.uri, params.position)

    def _markdown(self) -> bool:
        capabilities = self.server.client_capabilities
        hover = capabilities.text_document.hover if capabilities and capabilities.text_document else None
        formats = hover.content_format if hover is not None else None
        return not formats or types.MarkupKind.Markdown in formats

    def hover_at(self, uri: str, position: types.Position) -> types.Hover | None:
        """(On the engine thread.)"""
        ls = self.server
        looked = ls.conllu_lookup(uri, position, describe)
        if looked is None:
            return None
        (key, found), line = looked, position.line
        markdown = self._markdown()
        style: Style = Markdown if markdown else Plain
        if isinstance(found, Cell):
            value = cell_text(found, ls.engine.settings.threshold, style)
            start, end = found.start, found.end
        else:
            value = summary_text(found, style)
            start, end = 0, len(ls.engine.documents[key].store.line(line))
        kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
        return types.Hover(contents=types.MarkupContent(kind=kind, value=value),
                           range=ls.client_range(key, line, start, line, end))
