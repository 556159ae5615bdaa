"""The one ``ids-out-of-sequence`` error of a sentence lists its
consequences in reading order, however the diagnostics came to the fold:
the language server asks for them unordered, and an incremental rescore
lists them in another order than a fresh one (found by the LSP fuzz
campaign, scripts/fuzz_lsp.py: the related information of a published set
in another order than a fresh check's)."""

from __future__ import annotations

from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import Presentation

# Words 2 and 3 swapped: IDs out of order, a cycle, and the validator's
# word-id-sequence on the first word line, listed after annoscore's own.
TEXT = ("# sent_id = s1\n# text = a c b d\n"
        "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n"
        "3\tc\tc\tX\t_\t_\t1\tdep\t_\t_\n"
        "2\tb\tb\tX\t_\t_\t3\tdep\t_\t_\n"
        "4\td\td\tX\t_\t_\t1\tdep\t_\t_\n\n")


def related_of(engine: Engine, path: str, ordered: bool) -> list[tuple]:
    (cause,) = [p for p in engine.diagnostics(path, ordered=ordered) if p.code == "ids-out-of-sequence"]
    return [(r.line, r.start, r.end, r.message) for r in cause.related]


def test_consequences_are_related_in_reading_order_however_listed(tmp_path):
    engine = Engine(str(tmp_path), presentation=Presentation(explains_id_sequence=True))  # this behaviour of the editor's alone
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, TEXT, 1)
    engine.rescore(path)
    unordered, ordered = related_of(engine, path, False), related_of(engine, path, True)
    assert {m.split(":")[0] for *_, m in ordered} >= {"word-id-sequence", "format-id-order", "cycle"}
    assert unordered == ordered == sorted(ordered)
