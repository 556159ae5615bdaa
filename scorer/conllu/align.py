"""Aligning gold and system words, exactly as the official CoNLL 2018 scorer does.

How tokens align
----------------
Both sides are laid out as one running text: the forms of the tokens with
their spaces (Unicode Zs) removed, end to end.  Every token then covers a span
``[start, end)`` of that text, and a gold token and a system token are "the
same token" when their spans are equal.  The texts of both sides must be
equal for this to mean anything; callers check that first.

How words align
---------------
A word that is its own token has the token's span.  A word inside a multiword
token (``du`` = ``de`` + ``le``) has the span of the whole multiword token, so
spans alone cannot tell its words apart.  The scorer therefore looks for
*multiword spans*: stretches of text that contain at least one multiword
token, with every multiword token of either side that touches the stretch
lying completely inside it, as short as possible.  Inside such a stretch the
gold and system words are aligned by the longest common subsequence of their
forms (compared in lower case).  Everywhere else words align when their spans
are equal.

Both steps walk the two word lists left to right with one index each; when
the spans differ, the side that starts earlier (gold on a tie) moves on.  The
function below follows the official code step by step, including its corner
cases (the skip of one word when a multiword span starts, which can pull a
word from before the span into the LCS), because the counts must be equal.

A chunk (a run of sentences) can be aligned on its own when both sides end
at the same character and the walk has used up both word lists: then the
walk over the whole file would arrive at the next chunk in the same state.
``clean`` reports this; when it is False the caller joins the chunk with the
next one.
"""

from __future__ import annotations

from typing import NamedTuple


class WordSpans(NamedTuple):
    """One side's words in a chunk, as parallel lists."""

    start: list[int]
    end: list[int]
    multiword: list[bool]
    form: list[str]  # lower-cased, for the LCS inside multiword spans


class Alignment(NamedTuple):
    gold: list[int]    # indices of aligned gold words
    system: list[int]  # ... and of the system word each one is aligned with
    clean: bool


def _beyond_end(words: WordSpans, i: int, span_end: int) -> bool:
    """Whether word i lies past the end of the current multiword span."""
    if i >= len(words.start):
        return True
    if words.multiword[i]:
        return words.start[i] >= span_end
    return words.end[i] > span_end


def _lcs_pairs(gold: WordSpans, system: WordSpans, gs: int, ge: int, ss: int, se: int,
               out_gold: list[int], out_system: list[int]) -> None:
    """Align gold[gs:ge] with system[ss:se] by the longest common subsequence of forms."""
    gf, sf = gold.form, system.form
    n, m = ge - gs, se - ss
    # lcs[g][s]: LCS length of gold[gs+g:ge] and system[ss+s:se]; one extra
    # row and column of zeros stand for "past the end".
    lcs = [[0] * (m + 1) for _ in range(n + 1)]
    for g in range(n - 1, -1, -1):
        row, below = lcs[g], lcs[g + 1]
        form = gf[gs + g]
        for s in range(m - 1, -1, -1):
            best = below[s + 1] + 1 if form == sf[ss + s] else 0
            if below[s] > best:
                best = below[s]
            if row[s + 1] > best:
                best = row[s + 1]
            row[s] = best
    g = s = 0
    while g < n and s < m:
        if gf[gs + g] == sf[ss + s]:
            out_gold.append(gs + g)
            out_system.append(ss + s)
            g += 1
            s += 1
        elif lcs[g][s] == lcs[g + 1][s]:
            g += 1
        else:
            s += 1


def align_words(gold: WordSpans, system: WordSpans) -> Alignment:
    g_start, g_end, g_mw = gold.start, gold.end, gold.multiword
    s_start, s_end, s_mw = system.start, system.end, system.multiword
    n_gold, n_system = len(g_start), len(s_start)
    out_gold: list[int] = []
    out_system: list[int] = []
    gi = si = 0
    while gi < n_gold and si < n_system:
        if not (g_mw[gi] or s_mw[si]):
            # Neither word is in a multiword token: equal spans align.
            if g_start[gi] == s_start[si] and g_end[gi] == s_end[si]:
                out_gold.append(gi)
                out_system.append(si)
                gi += 1
                si += 1
            elif g_start[gi] <= s_start[si]:
                gi += 1
            else:
                si += 1
            continue
        # A multiword token starts here: find the multiword span.  First its
        # end is that token's end; if the other side's word is a plain word
        # that starts earlier, the official scorer skips exactly one word.
        if g_mw[gi]:
            span_end = g_end[gi]
            if not s_mw[si] and s_start[si] < g_start[gi]:
                si += 1
        else:
            span_end = s_end[si]
            if not g_mw[gi] and g_start[gi] < s_start[si]:
                gi += 1
        gs, ss = gi, si
        # Then take words from both sides, earlier start first (gold on a
        # tie), stretching the end over every multiword token that reaches
        # further, until both sides are past the end.
        while not _beyond_end(gold, gi, span_end) or not _beyond_end(system, si, span_end):
            if gi < n_gold and (si >= n_system or g_start[gi] <= s_start[si]):
                if g_mw[gi] and g_end[gi] > span_end:
                    span_end = g_end[gi]
                gi += 1
            else:
                if s_mw[si] and s_end[si] > span_end:
                    span_end = s_end[si]
                si += 1
        if si > ss and gi > gs:
            _lcs_pairs(gold, system, gs, gi, ss, si, out_gold, out_system)
    return Alignment(out_gold, out_system, gi >= n_gold and si >= n_system)


def spans_correct(gold_starts: list[int], gold_ends: list[int],
                  system_starts: list[int], system_ends: list[int]) -> int:
    """How many gold spans have a system span with the same start and end
    (the official ``spans_score``, used for Tokens and Sentences)."""
    correct = gi = si = 0
    n_gold, n_system = len(gold_starts), len(system_starts)
    while gi < n_gold and si < n_system:
        if system_starts[si] < gold_starts[gi]:
            si += 1
        elif gold_starts[gi] < system_starts[si]:
            gi += 1
        else:
            correct += gold_ends[gi] == system_ends[si]
            gi += 1
            si += 1
    return correct
