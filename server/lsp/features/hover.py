"""Hover: what the cell under the cursor is (``textDocument/hover``).

On a token line: the column's name, the word, what a HEAD points to, the
parser's confidence in the cell (MISC ``Conf=``), and gold's value when the
document is paired with gold (or that no gold word is aligned with this
word).  On a comment line: the sentence, the gold sentences it is counted
with and its attachment scores.  What is shown comes from
`server.engine.cells`; this class only turns it into text.
"""

from __future__ import annotations

from lsprotocol import types

from scorer.conllu.sentence import HEAD, MISC, Sentence

from ...engine.cells import Cell, SentenceSummary, describe


def _head_text(sentence: Sentence, value: str) -> str:
    """A HEAD value with the word it points to."""
    if value == "0":
        return "`0` (the root)"
    if value.isdigit() and 0 < int(value) <= len(sentence.form):
        return f"`{value}` → *{sentence.form[int(value) - 1]}*"
    return f"`{value}`"


def cell_markdown(cell: Cell, threshold: float) -> str:
    sentence = cell.sentence
    where = f"sentence {sentence.sent_id}" if sentence.sent_id else "this sentence"
    if cell.word is None:
        lines = [f"**{cell.name}** of a token line that is not a word (a multiword token or an "
                 f"empty node) in {where}", f"`{cell.value}`"]
        return "\n\n".join(lines)
    word = sentence.form[cell.word]
    lines = [f"**{cell.name}** · word {cell.word + 1} of {len(sentence.form)}, *{word}*, in {where}"]
    lines.append(_head_text(sentence, cell.value) if cell.column == HEAD else f"`{cell.value}`")
    if cell.confidence is not None:
        below = f" (below the threshold {threshold:g})" if cell.confidence < threshold else ""
        lines.append(f"parser's confidence: {cell.confidence:.2f}{below}")
    if cell.has_gold:
        if cell.gold is None:
            lines.append("gold: no gold word is aligned with this word")
        elif cell.column in (0, 1):
            gold = cell.gold
            lines.append(f"gold: aligned with word {gold.word + 1}, *{gold.sentence.form[gold.word]}*"
                         + (f", of {gold.sentence.sent_id}" if gold.sentence.sent_id else ""))
        elif cell.column != MISC:  # (gold's MISC says nothing about this word's annotation)
            value = cell.gold.value(cell.column)
            if cell.column == HEAD:
                if cell.gold.head_here is None and value != "0":
                    gold = cell.gold.sentence
                    head = gold.heads[cell.gold.word]
                    shown = f"word {value}" + (f", *{gold.form[head - 1]}*"
                                               if head and head <= len(gold.form) else "")
                    lines.append(f"gold: {shown}, which is aligned with no word of this sentence")
                else:
                    same = value == cell.value
                    lines.append(f"gold: {_head_text(sentence, value)}" + (" (the same)" if same else ""))
            else:
                lines.append(f"gold: `{value}`" + (" (the same)" if value == cell.value else ""))
    return "\n\n".join(lines)


def summary_markdown(summary: SentenceSummary) -> str:
    sentence = summary.sentence
    name = sentence.sent_id or "this sentence"
    lines = [f"**{name}** · {len(sentence.form)} words"]
    if summary.unparsed:
        lines.append("not parsed yet (every HEAD is `_`)")
    elif summary.refused_because:
        lines.append("the official scorer would refuse it: " + ", ".join(summary.refused_because))
    if summary.gold_ids is not None:
        golds = ", ".join(g or "(no sent_id)" for g in summary.gold_ids)
        together = (f", together with {summary.together_with} other predicted sentence"
                    f"{'s' if summary.together_with > 1 else ''}") if summary.together_with else ""
        lines.append(f"counted against gold {golds}{together}")
        if summary.uas and summary.las and summary.uas[1]:
            uas, las = summary.uas, summary.las
            lines.append(f"UAS {uas[0]}/{uas[1]} ({100 * uas[0] / uas[1]:.1f}%), "
                         f"LAS {las[0]}/{las[1]} ({100 * las[0] / las[1]:.1f}%)")
    return "\n\n".join(lines)


def _plain(markdown: str) -> str:
    return markdown.replace("**", "").replace("`", "'").replace("*", "")


class CellHover:
    def __init__(self, server) -> None:
        self.server = server

    def register(self) -> None:
        @self.server.feature(types.TEXT_DOCUMENT_HOVER)
        async def hover(ls, params: types.HoverParams) -> types.Hover | None:
            return await ls.worker.run(self.hover_at, params.text_document.uri, params.position)

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
        if isinstance(found, Cell):
            markdown = cell_markdown(found, ls.engine.settings.threshold)
            start, end = found.start, found.end
        else:
            markdown = summary_markdown(found)
            start, end = 0, len(ls.engine.documents[key].store.line(line))
        kind = types.MarkupKind.Markdown if self._markdown() else types.MarkupKind.PlainText
        return types.Hover(
            contents=types.MarkupContent(kind=kind, value=markdown if kind == types.MarkupKind.Markdown
                                         else _plain(markdown)),
            range=ls.client_range(key, line, start, line, end))
