"""Writing sentences so that the official scorer loads them (for ``--official``).

The official script stops at the first tree it cannot load.  To run it on a
prediction anyway, each sentence is written again from what the reader
understood (IDs renumbered, ten columns, no empty nodes, no comments among
the token lines) and its tree is repaired:

- a missing HEAD (``_``, not a number, out of range) becomes the root when the
  sentence has none, otherwise it is attached to the root;
- every root after the first, and one word of each cycle, is attached to the
  first root with DEPREL ``dep`` (a sentence that is all cycle gets its first
  cycle word as root).

The repairs put heads where they are wrong, so a repaired file never scores
higher than the prediction deserves.  Sentences with an empty FORM cannot be
written without changing the text; `repaired_text` returns None for them.
"""

from __future__ import annotations

from .checks import find_cycles
from .columns import parse_deps
from .sentence import Sentence
from .text import strip_spaces


def repaired_heads(sentence: Sentence) -> tuple[list[int], list[str], int]:
    """HEADs and DEPRELs after the repairs above, and how many words changed."""
    n = len(sentence.heads)
    heads: list[int | None] = [h if h is not None and 0 <= h <= n else None for h in sentence.heads]
    deprels = list(sentence.deprel)
    changed = set()
    roots = [i for i, h in enumerate(heads) if h == 0]
    missing = [i for i, h in enumerate(heads) if h is None]
    if missing and not roots:
        heads[missing[0]] = 0
        roots = [missing[0]]
        changed.add(missing[0])
        missing = missing[1:]
    for i in missing:
        heads[i] = roots[0] + 1
        changed.add(i)
    for extra in roots[1:]:
        heads[extra] = roots[0] + 1
        deprels[extra] = "dep"
        changed.add(extra)
    while True:
        cycles = find_cycles(heads)
        if not cycles:
            break
        word = cycles[0][0]
        if not roots:
            heads[word] = 0
            deprels[word] = "root"
            roots = [word]
        else:
            heads[word] = roots[0] + 1
            deprels[word] = "dep"
        changed.add(word)
    return heads, deprels, len(changed)  # type: ignore[return-value]


def _deps_or_blank(deps: str) -> str:
    try:
        parse_deps(deps)
    except ValueError:
        return "_"
    return deps


def repaired_text(sentence: Sentence, repair_tree: bool = True) -> tuple[str, int] | None:
    """The sentence as the official scorer will load it, and the number of
    repaired words; None when it cannot be written without changing its text."""
    n = len(sentence.form)
    if not n:
        return None
    for mwt in sentence.mwts:
        if not strip_spaces(mwt.form):
            return None
    inside = {i for m in sentence.mwts for i in range(m.first, m.end)}
    if any(i not in inside and not strip_spaces(f) for i, f in enumerate(sentence.form)):
        return None
    if repair_tree:
        heads, deprels, changed = repaired_heads(sentence)
    else:
        heads = [h if h is not None else 0 for h in sentence.heads]
        deprels, changed = list(sentence.deprel), 0
    lines = [c for c in sentence.comments if c.startswith("# sent_id") or c.startswith("# text")]
    starts = {m.first: m for m in sentence.mwts}
    for i in range(n):
        mwt = starts.get(i)
        if mwt is not None and mwt.end > mwt.first:
            lines.append(f"{mwt.first + 1}-{mwt.end}\t{mwt.form}" + "\t_" * 8)
        lines.append("\t".join([
            str(i + 1), sentence.form[i], sentence.lemma[i], sentence.upos[i], sentence.xpos[i],
            sentence.feats[i] or "_", str(heads[i]), deprels[i] or "_", _deps_or_blank(sentence.deps[i]),
            sentence.misc[i] or "_"]))
    return "\n".join(lines) + "\n\n", changed
