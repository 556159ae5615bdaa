"""The certain fixes, made to a document the engine holds until none is left.

``annoscore fix`` makes here what the editor offers as quick fixes, with
the SAME functions computing each edit (`server.engine.fixes.fix_for`,
the renumbering plan of `server.engine.editing.plan`), so that a file
fixed on the command line and one fixed by clicking each quick fix in the
editor are the same text.  Only the fixes with one obviously right mend
are made (the forms of the UD validator's findings, whitespace, renumbering
where every reference maps); never gold's or another annotation's value,
never a "did you mean" guess.

The fixes are made as a linter makes them: in rounds.  Each round asks the
engine for the document's diagnostics, takes the fix of each selected one,
makes the fixes whose edits do not overlap (the others wait for the next
round, computed on the new text) and rescores; it stops when a round makes
nothing (or after `MAX_ROUNDS`, against fixes that would undo each other).

CR line ends (``non-unix-newline``) are no text edit of the engine's: the
editor keeps a document's line ends itself (its clients have a command for
it).  Here they are made LF before the document is read: CR LF and a lone
CR, each of which ends a line as `evaluate` and the validator read it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from annoscore.scorer.conllu.editing import EditError
from annoscore.scorer.problems import Problem

from .editing import RENUMBER, plan
from .fix import Edit, Fix
from .fixes import fix_for
from .id_sequence import CODE as OUT_OF_SEQUENCE
from .ud_fixes import FIXES as UD_FIXES

LINE_ENDS = "non-unix-newline"
# The codes whose fix is certain, as the editor offers it (gold-diff and
# disagreement take another annotation's value: the annotator's choice).
CERTAIN = frozenset(UD_FIXES) | frozenset({"format-spaces", "format-empty-sentence", "format-final-blank-line",
                                           OUT_OF_SEQUENCE})
FIXABLE = CERTAIN | {LINE_ENDS}
MAX_ROUNDS = 20


@dataclass
class Outcome:
    text: str
    fixed: Counter = field(default_factory=Counter)  # code → diagnostics fixed
    remaining: list[Problem] = field(default_factory=list)  # selected codes left without a certain fix
    rounds: int = 0
    refused: str | None = None  # why nothing was fixed (not a CoNLL-U file)


def certain_fix(engine, key: str, problem: Problem) -> Fix | None:
    """The editor's quick fix for ``problem`` when it is certain, else None."""
    if problem.code == OUT_OF_SEQUENCE:
        try:
            planned = plan(engine, key, RENUMBER, problem.line, 0)
        except EditError:
            return None  # ambiguous IDs: no fix (the diagnostic says why)
        return Fix(planned.label, planned.edits) if planned.certain else None
    if problem.code in CERTAIN:
        return fix_for(engine, key, problem.code, problem.line, problem.start)
    return None


def unix_line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def fix_document(engine, key: str, path: str | None, text: str, selected: frozenset[str] | set[str]) -> Outcome:
    """Open ``text`` as document ``key`` in ``engine`` and make the selected
    certain fixes until none is left; the engine keeps the fixed document."""
    outcome = Outcome(text)
    setup = engine.setup_of(path)
    if setup is not None and setup.format != "conllu":
        shown = {"space": "space-separated tokens", "tsv": "TSV"}.get(setup.format, setup.format)
        outcome.refused = f"not a CoNLL-U file (annoscore reads it as {shown}); nothing fixed"
        return outcome
    if LINE_ENDS in selected and "\r" in text:
        text = unix_line_ends(text)
        outcome.fixed[LINE_ENDS] += 1  # (`check` reports it once a file)
    engine.open(key, path, text, language="conllu")
    document = engine.documents[key]
    if document.binary is not None:
        engine.close(key)
        return Outcome(outcome.text, refused="not text; nothing fixed")
    seen: set[str] = {document.store.text}
    while outcome.rounds < MAX_ROUNDS:
        engine.rescore(key)
        chosen: list[Edit] = []
        made: list[tuple[Edit, ...]] = []
        for problem in engine.diagnostics(key):
            if problem.code not in selected:
                continue
            fix = certain_fix(engine, key, problem)
            if fix is None or not fix.edits:
                continue
            edits = tuple(fix.edits)
            if edits in made:  # the same mend of two findings (e.g. # text for two of its problems)
                outcome.fixed[problem.code] += 1
            elif not any(_overlap(a, b) for a in edits for b in chosen):
                made.append(edits)
                chosen.extend(edits)
                outcome.fixed[problem.code] += 1
        if not chosen:
            break
        outcome.rounds += 1
        # From the end backwards: each edit's positions are those of the text before any was made.
        for l1, c1, l2, c2, new in sorted(chosen, key=lambda e: (e[0], e[1], e[2], e[3]), reverse=True):
            engine.change(key, None, [((l1, c1), (l2, c2), new)])
        if document.store.text in seen:
            break  # fixes undoing each other (a fault of annoscore's): stop rather than loop
        seen.add(document.store.text)
    engine.rescore(key)
    outcome.remaining = [p for p in engine.diagnostics(key) if p.code in selected]
    outcome.text = document.store.text
    return outcome


def _overlap(a: Edit, b: Edit) -> bool:
    """Whether two edits touch the same text (two insertions at one place
    count: their order would be a guess)."""
    a_start, a_end, b_start, b_end = a[:2], a[2:4], b[:2], b[2:4]
    if a_start == a_end == b_start == b_end:
        return True
    return a_start < b_end and b_start < a_end or a_start == b_start
