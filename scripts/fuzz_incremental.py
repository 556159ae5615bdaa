#!/usr/bin/env python3
"""Fuzz the incremental-equals-fresh property for as long as it is given.

Random edits of a CoNLL-U prediction (cells, forms, IDs, whole lines, blank
lines that split and join sentences, comments, broken lines) reach an engine
that has the document open, interleaved as the language server interleaves
them: several edits before a rescore, diagnostics/score/report read between
an edit and its rescore, rescores with nothing changed.  Whenever the engine
has rescored the latest text, its counts, diagnostics and score must equal a
fresh engine's on that text.  A failure prints the seed that reproduces it.

    python scripts/fuzz_incremental.py --seconds 600
    python scripts/fuzz_incremental.py --seconds 600 --pred x.conllu --gold x.gold.conllu
    python scripts/fuzz_incremental.py --seconds 600 --lang en --max-diagnostics 3 --page-segments 2

Without --pred/--gold it uses the tests' sample pair, copied three times
(sentence texts that repeat, which is where pairing again is hardest).
UD validation runs as by default (level 3 without a language; ``--lang``
gives levels 4-5); a small ``--max-diagnostics`` and ``--page-segments``
(the runs of segments whose shown findings are kept together) make the cap
cut through what is kept from one rescore to the next.  Not run in CI (the
tests run the same property for a few seeds).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests package (tests/support)

from tests.support.incremental import VALIDATION_EDITS, copies, race_and_compare  # noqa: E402
from tests.support.lsp import GOLD, PRED  # noqa: E402

from annoscore.server.config import Settings  # noqa: E402
from annoscore.server.engine.conllu import validation  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long to run (default 60)")
    parser.add_argument("--steps", type=int, default=300, help="steps per seed (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--pred", type=Path, help="a prediction to edit (with --gold)")
    parser.add_argument("--gold", type=Path, help="its gold")
    parser.add_argument("--lang", help="the language UD validation checks at levels 4-5")
    parser.add_argument("--max-diagnostics", type=int, help="the cap per code (default: the setting's)")
    parser.add_argument("--max-per-document", type=int,
                        help="the limit per document (default: the setting's)")
    parser.add_argument("--page-segments", type=int, help="segments per page of kept findings")
    args = parser.parse_args()
    settings = Settings()
    if args.lang:
        settings = replace(settings, validation=replace(settings.validation, lang=args.lang))
    if args.max_diagnostics is not None:
        settings = replace(settings, max_diagnostics=args.max_diagnostics)
    if args.max_per_document is not None:
        settings = replace(settings, max_diagnostics_per_document=args.max_per_document)
    if args.page_segments is not None:
        validation.PAGE_SEGMENTS = args.page_segments
    if (args.pred is None) != (args.gold is None):
        parser.error("--pred and --gold go together")
    folder = Path(tempfile.mkdtemp(prefix="annoscore-fuzz-"))
    if args.pred is not None:
        pred = args.pred.read_text(encoding="utf-8")
        shutil.copy(args.gold, folder / "x.gold.conllu")
    else:
        pred = copies(PRED, 3)
        (folder / "x.gold.conllu").write_text(copies(GOLD, 3), encoding="utf-8")
    (folder / "x.conllu").write_text(pred, encoding="utf-8")
    start, seed, seeds, edits, compared = time.monotonic(), args.seed, 0, 0, 0
    try:
        while time.monotonic() - start < args.seconds:
            try:
                made, checked = race_and_compare(folder, pred, VALIDATION_EDITS, args.steps, seed, settings)
                edits, compared = edits + made, compared + checked
            except AssertionError as error:
                print(f"seed {seed}: incremental differs from fresh ({str(error)[:300]})\n"
                      f"reproduce: {' '.join(sys.argv)} --seed {seed} --seconds 0.1", file=sys.stderr)
                return 1
            seed += 1
            seeds += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"{seeds} seeds, {edits} edits, {compared} comparisons with a fresh engine, all equal, "
          f"in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
