"""Whether two copies of one text are annotated alike, and if not, where they differ.

Two items with the same normalized text may still differ in what was
written: ``Thanks`` and ``thanks`` are one text under case folding.  So
the parts of an annotation that follow the text (a CoNLL-U FORM and LEMMA:
``Mike`` has the lemma ``Mike``, ``mike`` the lemma ``mike``; a
segmentation's words) are compared normalized as the texts are; the rest
(a label, ID, UPOS … DEPS, tags) exactly.  A conflict is then a real
disagreement: another label, another tree, another segmentation.
"""

from __future__ import annotations

from ..excerpt import quoted
from .normalize import Normalization

_CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS")
WORD, TAGS = "\x1f", "\x1e"  # separators of a segmentation annotation: words, then tags


def _normalized(fmt: str, annotation: str, normalization: Normalization) -> str:
    if fmt == "conllu":
        lines = []
        for line in annotation.split("\n"):
            cells = line.split("\t")
            if len(cells) > 2:
                cells[1], cells[2] = normalization(cells[1]), normalization(cells[2])
            lines.append("\t".join(cells))
        return "\n".join(lines)
    if fmt in ("space", "tsv"):
        words, tags, rest = annotation.partition(TAGS)
        return WORD.join(normalization(w) for w in words.split(WORD)) + tags + rest
    return annotation


def agree(fmt: str, a: str | None, b: str | None, normalization: Normalization) -> bool:
    """True when two annotations of one text say the same."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    return _normalized(fmt, a, normalization) == _normalized(fmt, b, normalization)


def difference(fmt: str, later: str | None, earlier: str | None, normalization: Normalization) -> str:
    """What differs between two annotations that do not `agree`, in a few words."""
    if fmt == "labels" or later is None or earlier is None:
        return f"label {quoted(later or '')} vs {quoted(earlier or '')}"
    a, b = _normalized(fmt, later, normalization), _normalized(fmt, earlier, normalization)
    if fmt in ("space", "tsv"):
        a_words, _, a_tags = a.partition(TAGS)
        b_words, _, b_tags = b.partition(TAGS)
        if a_words != b_words:
            return f"words {quoted(a_words.replace(WORD, ' '))} vs {quoted(b_words.replace(WORD, ' '))}"
        words = a_words.split(WORD)
        for k, (x, y) in enumerate(zip(a_tags.split(WORD), b_tags.split(WORD))):
            if x != y:
                return f"the tag of word {k + 1} {quoted(words[k])}: {quoted(x)} vs {quoted(y)}"
        return "the tags differ"
    a_lines, b_lines = a.split("\n"), b.split("\n")
    written = later.split("\n")  # as in the file, for the form shown
    for k, (x_line, y_line) in enumerate(zip(a_lines, b_lines)):
        if x_line != y_line:
            x_cells, y_cells = x_line.split("\t"), y_line.split("\t")
            for c, (x, y) in enumerate(zip(x_cells, y_cells)):
                if x != y:
                    name = _CONLLU_COLUMNS[c] if c < len(_CONLLU_COLUMNS) else f"column {c + 1}"
                    cells = written[k].split("\t")
                    form = cells[1] if len(cells) > 1 else ""
                    if c in (1, 2):  # compared normalized: show them as written
                        x = cells[c]
                        y = earlier.split("\n")[k].split("\t")[c]
                    return f"{name} of token line {k + 1} {quoted(form)}: {quoted(x)} vs {quoted(y)}"
            return f"token line {k + 1} has {len(x_cells)} vs {len(y_cells)} columns"
    return f"{len(a_lines)} vs {len(b_lines)} token lines"
