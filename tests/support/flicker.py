"""A large synthetic document for the tests of what is shown while the UD
validator's helpers re-validate many blocks (tests/server/lsp/test_lsp_flicker.py):
more sentences than a first validation hands to the helpers, with findings
of single sentences here and there and of the document-wide checks (a
sent_id used twice), and under the default diagnostic limits."""

from __future__ import annotations

from annoscore.server.engine.conllu.validation_parts import MIN_BLOCKS

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
