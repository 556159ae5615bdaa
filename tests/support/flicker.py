"""A large synthetic document for the tests of what is shown while the UD
validator's helpers re-validate many blocks (tests/server/lsp/test_lsp_flicker.py):
more sentences than a first validation hands to the helpers, with findings
of single sentences here and there and of the document-wide checks (a
sent_id used twice), and under the default diagnostic limits; and what
every published set is held to (`Fresh`, `Allowance`), there and in the
LSP fuzz campaign (scripts/fuzz_lsp.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from annoscore.scorer.codes import CODES
from annoscore.scorer.validation.incident import TESTS
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import IN_EDITOR
from annoscore.server.engine.conllu.handler import results_of
from annoscore.server.engine.conllu.validation_parts import MIN_BLOCKS
from annoscore.server.textstore import TextStore

VALIDATOR_CODES = set(TESTS) - set(CODES)

SENTENCES = MIN_BLOCKS + 300


def sentence(k: int) -> str:
    sent_id = "s0" if k % 97 == 50 else f"s{k}"      # used before: document-wide
    lines = [f"# sent_id = {sent_id}"]
    if k % 23 != 5:
        lines.append("# text = It runs.")            # else missing-text
    feats = "Foo=Bar" if k % 31 == 7 else "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin"
    lines += ["1\tIt\tit\tPRON\tPRP\tCase=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs\t2\tnsubj\t_\t_",
              f"2\truns\trun\tVERB\tVBZ\t{feats}\t0\troot\t_\tSpaceAfter=No",
              "3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_"]
    return "\n".join(lines) + "\n\n"


def big_document(n: int = SENTENCES) -> str:
    return "".join(sentence(k) for k in range(n))


def rewritten(text: str, start: int, count: int, mark: str) -> str:
    """``text`` with a comment added to ``count`` sentences from the
    ``start``-th on: that many blocks the validator has not seen."""
    blocks = text.split("\n\n")
    for k in range(start, min(start + count, len(blocks) - 1)):
        blocks[k] = f"# note = {mark}\n" + blocks[k]
    return "\n\n".join(blocks)


# --- a fresh check of a version, and the allowance while blocks are pending ------------------
# (tests/server/lsp/test_lsp_flicker.py and the LSP fuzz campaign, scripts/fuzz_lsp.py)

Finding = tuple  # (code, line, start, end, message), columns in code points


class Fresh:
    """A fresh check of a version, as the language server's engine makes it
    (``settings``: the project's; default Settings()): its diagnostics and
    the document-wide findings among them as `Finding`s, its diagnostics
    as the wire shows them (`wire`, a multiset), and its segments' texts."""

    def __init__(self, root: Path, path: Path, text: str, settings: Settings | None = None,
                 below_limits: bool = True) -> None:
        settings = settings or Settings()
        engine = Engine(str(root), settings, presentation=IN_EDITOR)  # as the language server's engine
        engine.open(str(path), str(path), text, 1)
        engine.rescore(str(path))
        problems = engine.diagnostics(str(path))
        self.store = engine.documents[str(path)].store
        self.all = {(p.code, p.line, p.start, p.end, p.message) for p in problems}
        if below_limits:
            assert len(problems) < min(settings.max_diagnostics_per_document, settings.max_diagnostics), \
                "keep below the limits"
        self.wire = Counter(wire_entry(p) for p in problems)
        state = results_of(engine.documents[str(path)]).validation
        self.document_wide = {(p.code, p.line, p.start, p.end, p.message) for p in state.problems} \
            if state is not None else set()
        self.segments = {s.text for s in TextStore(text).segments}


def wire_entry(p) -> tuple:
    """What a diagnostic of problem ``p`` says on the wire, positions in code
    points: code, severity, range, message, the validator's test id and
    line, related information."""
    return (p.code, int(p.severity), p.line, p.start, p.end, p.message, p.datum("test_id"),
            p.datum("ud_line"), tuple((r.line, r.start, r.end, r.message) for r in p.related))


def changed_lines(text: str, known: set[str] | None) -> set[int]:
    """Lines of the segments (sentence and blank lines after it) whose text is not in ``known``."""
    out: set[int] = set()
    for s in TextStore(text).segments:
        if known is None or s.text not in known:
            out.update(range(s.first_line, s.first_line + s.n_lines))
    return out


class Allowance:
    """The published sets of one document, in the order published, held to
    fresh checks of their versions (docs/reliability.md, "Diagnostics while
    the UD validator works in the background").  With ``u`` the last
    version whose published set was complete and ``changed`` the lines of
    the sentences whose text ``u`` did not have:

    * annoscore's own diagnostics are exactly the fresh ones;
    * a validator finding of the fresh check is missing only on a changed
      line, or when it is a document-wide check's that the last complete
      pass found as many times as the fresh check does not (by test id and
      message: the facts of that check changed, and its findings still
      show the last complete pass);
    * a validator finding the fresh check lacks is one of the last complete
      pass's document-wide findings (by test id and message), on a line not
      changed.
    """

    def __init__(self) -> None:
        self.last_complete: Fresh | None = None

    def judge(self, version: int, got: set[Finding], expected: Fresh, text: str) -> bool:
        """True when ``got`` is the fresh set, False when it is one the
        allowance admits; AssertionError otherwise."""
        if got == expected.all:
            self.last_complete = expected
            return True
        last = self.last_complete
        changed = changed_lines(text, last.segments if last else None)
        own = {d for d in got if d[0] not in VALIDATOR_CODES}
        assert own == {d for d in expected.all if d[0] not in VALIDATOR_CODES}, \
            (version, "annoscore's own diagnostics differ", sorted(own ^ {d for d in expected.all
                                                                           if d[0] not in VALIDATOR_CODES})[:5])
        stale = Counter((d[0], d[4]) for d in (last.document_wide if last else ()))
        now = Counter((d[0], d[4]) for d in expected.document_wide)
        lost = {d for d in expected.all - got if d[0] in VALIDATOR_CODES and d[1] not in changed
                and not (d in expected.document_wide and now[d[0], d[4]] != stale[d[0], d[4]])}
        assert not lost, (version, "validator findings lost", sorted(lost)[:5])
        invented = {d for d in got - expected.all if d[1] in changed or (d[0], d[4]) not in stale}
        assert not invented, (version, "findings the fresh check lacks", sorted(invented)[:5])
        return False
