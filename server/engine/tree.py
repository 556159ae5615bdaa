"""The sentence at a position as a tree, for every client to draw (``annoscore/tree``).

`sentence_tree` answers with plain data — one dict a client renders (the
VS Code webview draws SVG arcs, Neovim, Emacs and the CLI print the text
tree of `server.engine.treetext`):

- the sentence at the line is parsed again from its segment (one sentence:
  cheap, whatever the document's size), which gives its words, multiword
  tokens and empty nodes, each with its line in the document;
- each word's problems are the engine's own: the sentence's format and tree
  problems (a cycle on each of its HEAD cells), its low-confidence cells,
  and — when the pairing is up to date with the text — what the pairing
  found against gold (``segmentation-mismatch`` …), and the UD validator's
  findings on its lines (by test id: ``unknown-upos`` …); codes turned off
  in the settings are left out, as they are from the diagnostics;
- gold, when the document is paired and the pairing is up to date: the unit
  the sentence is counted in is aligned word by word as it is counted
  (`server.engine.cells.counted_unit`), so ``gold.words[i]`` is the gold word
  aligned with ``words[i]`` (or None), its HEAD renumbered to this
  sentence's words as hover shows it, and ``differs`` names the cells where
  the two disagree — the same comparison as the scorer's (and the
  ``gold-diff`` diagnostics').  Gold words aligned with no word here are
  listed apart (``gold.unaligned``), each after the word it follows.

Lines are 0-based, as in LSP; word indices (``head``, ``first``/``last``
of a multiword token, ``after``) count words from 1 for HEADs (0 is the
root) and from 0 for positions in ``words``.
"""

from __future__ import annotations

from typing import Any

from annoscore.scorer.conllu.checks import cycle_marks, tree_problems
from annoscore.scorer.conllu.confidence import low_cells
from annoscore.scorer.conllu.pairing import PAIRED
from annoscore.scorer.conllu.reader import parse_blocks
from annoscore.scorer.conllu.sentence import DEPS, FEATS, FORM, LEMMA, UPOS, XPOS, Sentence
from annoscore.scorer.conllu.score import HEAD_OK, LAS_OK
from annoscore.scorer.problems import Problem, Severity

from ..config import severity_for
from ..textstore import TextStore
from .cells import CountedUnit, counted_unit, sentence_at
from .conllu import validation
from .conllu.handler import results_of
from .conllu.messages import GOLD_DIFF_CELLS
from .splits import TEST_SPLIT_MESSAGE

# The cells a gold word is compared on, by the payload's names.
DIFF_NAMES = tuple((name.lower(), bit) for name, bit, _ in GOLD_DIFF_CELLS)
LOW = Problem("low-confidence", "", 0, severity=Severity.HINT)  # (only its code is read)


def sentence_tree(engine, key: str, line: int) -> dict[str, Any] | None:
    """The sentence holding ``line`` of a CoNLL-U document, or None when no
    sentence is there (a blank line, another format, an unknown document)."""
    document = engine.documents.get(key)
    if document is None or document.format != "conllu" or not isinstance(document.store, TextStore):
        return None
    store = document.store
    if not store.segments or not 0 <= line <= store.last_line:
        return None
    segment = store.segments[store.segment_at(line)]
    block = segment.block
    if block is None:
        return None
    found = sentence_at(parse_blocks(block, 0), line - segment.first_line)
    if found is None:
        return None
    index, sentence = found
    first_line = segment.first_line + sentence.first_line
    settings = engine.settings
    problems = _problems(engine, document, segment, index, sentence)
    # The UD validator's findings on the sentence's lines (its code is the
    # test id; one that annoscore reports too is there under annoscore's code).
    end = first_line + sentence.n_lines
    problems += [p.shifted(-first_line) for p in validation.findings_on(document, segment, first_line, end, False)]
    shown = [p for p in problems if severity_for(settings, p.code, p.severity) is not None]
    by_line: dict[int, list[Problem]] = {}
    for problem in shown:
        by_line.setdefault(problem.line, []).append(problem)
    # Low-confidence cells by line: counted by the engine, shown as diagnostics
    # only up to the cap, and all of them here.
    low: dict[int, list[str]] = {}
    if severity_for(settings, "low-confidence", Severity.HINT) is not None:
        for cell in low_cells(sentence, settings.threshold)[0]:
            low.setdefault(cell[0], []).append(cell[3])
            by_line.setdefault(cell[0], []).append(LOW)

    def codes(relative: int) -> list[str]:
        return list(dict.fromkeys(p.code for p in by_line.get(relative, ())))

    words = []
    for i in range(len(sentence.form)):
        relative = sentence.word_line[i]
        words.append({
            "id": sentence.line_id(i), "form": sentence.form[i], "lemma": sentence.lemma[i],
            "upos": sentence.upos[i], "xpos": sentence.xpos[i], "feats": sentence.feats[i],
            "deprel": sentence.deprel[i], "head": sentence.heads[i], "line": first_line + relative,
            "problems": codes(relative), "lowCells": low.get(relative, []),
        })
    multiwords = [{"id": _id_of(sentence.lines[m.line]), "form": m.form, "first": m.first, "last": m.end - 1,
                   "line": first_line + m.line, "problems": codes(m.line)} for m in sentence.mwts]
    empty_nodes = []
    for relative in sentence.empty_lines:
        cells = sentence.lines[relative].split("\t")
        cells += ["_"] * (10 - len(cells))
        after = sum(1 for w in sentence.word_line if w < relative) - 1
        empty_nodes.append({"id": cells[0], "form": cells[FORM], "lemma": cells[LEMMA], "upos": cells[UPOS],
                            "xpos": cells[XPOS], "feats": cells[FEATS], "deps": cells[DEPS],
                            "line": first_line + relative, "after": after, "problems": codes(relative)})
    refusing = [p.code for p in problems if p.refuses]
    payload: dict[str, Any] = {
        "sentId": sentence.sent_id, "text": sentence.text, "line": first_line,
        "endLine": first_line + sentence.n_lines - 1,
        "unparsed": sentence.is_unparsed, "refused": list(dict.fromkeys(refusing)),
        "words": words, "multiwords": multiwords, "emptyNodes": empty_nodes,
        "problems": [{"code": p.code, "line": first_line + p.line, "message": p.message} for p in shown],
        "gold": None, "goldNote": None,
    }
    if document.setup.gold is not None:
        counted = counted_unit(engine, document, segment, index)
        if counted is None:
            payload["goldNote"] = _why_no_gold(document, segment, index)
        else:
            payload["gold"] = _gold(counted, len(sentence.form), document.setup.gold)
    return _bounded(payload)


# The longest value of the payload kept whole: far above any real cell or
# sentence text, so clients draw every real file as it is, but a 50 MB line
# is not sent (or printed by `annoscore tree --json`) whole.
VALUE_LIMIT = 10_000


def _bounded(value: Any) -> Any:
    """The payload with every string past `VALUE_LIMIT` cut, saying how long it was."""
    if isinstance(value, str):
        return value if len(value) <= VALUE_LIMIT else f"{value[:VALUE_LIMIT]}… ({len(value):,} characters)"
    if isinstance(value, dict):
        return {k: _bounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_bounded(v) for v in value]
    return value


def _id_of(line: str) -> str:
    tab = line.find("\t")
    return line if tab < 0 else line[:tab]


def _problems(engine, document, segment, index: int, sentence: Sentence) -> list[Problem]:
    """The sentence's problems (lines relative to it): format and tree
    problems (a cycle on each of its cells), and what the pairing found
    against gold when it was made from this very text."""
    problems = []
    for p in sentence.problems + tree_problems(sentence):
        problems += cycle_marks(p) if p.code == "cycle" else [p]
    analysis = segment.analysis
    score = results_of(document).score
    if score is not None and analysis is not None and index < len(analysis[1]):
        info = analysis[1][index]
        if 0 <= info.position < len(score.system) and score.system[info.position] is info:
            roots_by_gold = any(p.code == "multiple-roots" for p in info.pair_problems)
            if roots_by_gold:  # gold tells which roots are wrong: those replace the gold-free marks
                problems = [p for p in problems if p.code != "multiple-roots"]
            problems += info.pair_problems
    return problems


def _why_no_gold(document, segment, index: int) -> str:
    """Why a paired document shows no gold for this sentence."""
    if document.gold_withheld:
        return f"gold is a declared test split, not shown while annotating ({TEST_SPLIT_MESSAGE})"
    score = results_of(document).score
    analysis = segment.analysis
    if score is None or analysis is None or index >= len(analysis[1]):
        return "not scored since the last edit (save, or wait for the rescoring)"
    info = analysis[1][index]
    if not (0 <= info.position < len(score.system)) or score.system[info.position] is not info:
        return "not scored since the last edit (save, or wait for the rescoring)"
    u = score.unit_of[info.position] if info.position < len(score.unit_of) else -1
    if u >= 0 and score.units[u].kind != PAIRED:
        return "gold has no sentence with this text (text-mismatch): nothing to align with"
    return "this sentence is not counted against gold (see the sentences setting)"


def _gold(counted: CountedUnit, n_words: int, gold_path: str) -> dict[str, Any]:
    """Gold's words aligned with the predicted sentence's (see the module's docstring)."""
    scored, k = counted.scored, counted.k
    outcomes = scored.outcomes or []
    by_system = {(o.system_sentence, o.system_word): o for o in outcomes if o.system_sentence >= 0}
    words: list[dict[str, Any] | None] = []
    for i in range(n_words):
        outcome = by_system.get((k, i))
        if outcome is None:
            words.append(None)
            continue
        gk, gw = outcome.gold_sentence, outcome.gold_word
        gold = counted.golds[gk]
        head_here = scored.head_in_system(gold, gk, gw, k, counted.system_words)
        own_head = gold.heads[gw]
        head_form = gold.form[own_head - 1] if own_head and own_head <= len(gold.form) else None
        words.append({
            "id": gold.line_id(gw), "form": gold.form[gw], "lemma": gold.lemma[gw], "upos": gold.upos[gw],
            "xpos": gold.xpos[gw], "feats": gold.feats[gw], "deprel": gold.deprel[gw],
            "head": int(head_here) if head_here is not None else None,
            "goldHead": own_head, "headForm": head_form,
            "headOutside": head_here is None and own_head is not None,
            "sentId": gold.sent_id, "line": counted.gold_lines[gk] + gold.word_line[gw],
            "differs": [name for name, bit in DIFF_NAMES if not outcome.mask & bit],
        })
    # Gold words aligned with no predicted word, shown where they fall among
    # this sentence's words: those between its first and last aligned gold
    # words, and before (after) them for the unit's first (last) sentence.
    mine = [n for n, o in enumerate(outcomes) if o.system_sentence == k]
    lo = -1 if k == 0 else (min(mine) if mine else len(outcomes))
    hi = len(outcomes) if k == len(counted.systems) - 1 else (max(mine) if mine else -1)
    unaligned = []
    after = -1
    for n, o in enumerate(outcomes):
        if o.system_sentence == k:
            after = o.system_word
        if o.system_sentence < 0 and lo <= n <= hi:
            gold = counted.golds[o.gold_sentence]
            unaligned.append({"id": gold.line_id(o.gold_word), "form": gold.form[o.gold_word],
                              "sentId": gold.sent_id, "after": after,
                              "line": counted.gold_lines[o.gold_sentence] + gold.word_line[o.gold_word]})
    uas = sum(1 for o in outcomes if o.mask & HEAD_OK)
    las = sum(1 for o in outcomes if o.mask & LAS_OK)
    return {"path": gold_path, "sentIds": counted.gold_ids, "words": words, "unaligned": unaligned,
            "uas": [uas, len(outcomes)], "las": [las, len(outcomes)]}

