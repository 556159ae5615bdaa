"""The LSP fuzz campaign (scripts/fuzz_lsp.py), small enough for CI: a few
hundred random edits through the real server with UD validation at level 5
and saves not awaited, every published set equal to a fresh check of its
version.  The campaign's own parts are held too: the changes it sends are
the edits it means (UTF-16 positions, no position inside a CR LF), a
published set that differs is caught and written out as a reproducer, and
a reproducer replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

from scripts import fuzz_lsp  # the campaign itself, a script of the repository
from scripts.fuzz_check import load_corpus


def _assert_clean(counts, out: Path) -> None:
    written = sorted(out.glob("*.json")) if out.is_dir() else []
    details = "\n".join(p.read_text(encoding="utf-8")[:1500] for p in written[:2])
    assert counts.mismatches == 0 and counts.faults == 0 and not written, f"{counts.report()}\n{details}"


def test_self_made_campaign(tmp_path):
    out = tmp_path / "out"
    campaign = fuzz_lsp.Campaign(fuzz_lsp.self_made_corpus(), out, sentences=(3, 12), batch=60)
    counts = campaign.run_chunk(seed=7, chunk=0, edits=300)
    _assert_clean(counts, out)
    assert counts.edits == 300 and counts.compared == counts.published >= 60
    assert counts.equal == counts.compared
    assert len(counts.kinds) >= 15, counts.kinds


def test_real_treebanks_campaign(shared, tmp_path):
    out = tmp_path / "out"
    campaign = fuzz_lsp.Campaign(load_corpus(shared("data", "ud")), out, sentences=(4, 16), batch=80)
    counts = campaign.run_chunk(seed=11, chunk=0, edits=240)
    _assert_clean(counts, out)
    assert counts.compared >= 50 and counts.equal == counts.compared


def test_a_change_is_the_edit_meant():
    rng = random.Random(3)
    alphabet = ["a", "\t", "\n", "\r\n", "é", "\U0001F600", "#"]
    for _ in range(3000):
        old = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        new = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        change = fuzz_lsp.ranged_change(old, new, rng)
        assert fuzz_lsp.apply_change(old, change) == new
        lines = fuzz_lsp.Lines(old)
        for end in ("start", "end"):
            position = change["range"][end]
            start = lines.starts[position["line"]]
            line = old[start:lines.starts[position["line"] + 1] if position["line"] + 1 < len(lines.starts)
                       else len(old)]
            assert position["character"] <= fuzz_lsp.utf16_units(line.rstrip("\r\n")), (old, new, change)
    # UTF-16: a character outside the BMP counts two
    change = fuzz_lsp.ranged_change("\U0001F600a\n", "\U0001F600b\n", random.Random(0))
    assert change["range"]["start"]["character"] in (0, 2)


class _WrongFresh(fuzz_lsp.Campaign):
    """A campaign whose fresh checks all have one diagnostic more: every
    published set differs from them."""

    def _fresh(self, d, text, counts):
        fresh = super()._fresh(d, text, counts)
        if not getattr(fresh, "_wrong", False):
            fresh.wire[("made-up", 1, 0, 0, 1, "not published", None, None, ())] += 1
            fresh._wrong = True
        return fresh


def test_a_difference_is_caught_and_written_out(tmp_path):
    out = tmp_path / "out"
    counts = _WrongFresh(fuzz_lsp.self_made_corpus(), out, sentences=(2, 4), batch=10, documents=1) \
        .run_chunk(seed=1, chunk=0, edits=10)
    assert counts.mismatches == counts.compared >= 1
    written = sorted(out.glob("chunk0-batch0-*.json"))
    assert written
    found = json.loads(written[0].read_text(encoding="utf-8"))
    assert found["expected_only"] == [["made-up", "1", "0", "0", "1", "not published", "None", "None", "()"]]
    assert found["published_only"] == []
    text = found["base"]
    for method, params in found["sent"]:
        if method == "textDocument/didChange" and params["textDocument"]["version"] <= found["version"]:
            for change in params["contentChanges"]:
                text = fuzz_lsp.apply_change(text, change)
    assert text == found["text"]
    # Sent again to a new server (and compared with true fresh checks): no difference.
    assert fuzz_lsp.replay(written[-1]) == 0
