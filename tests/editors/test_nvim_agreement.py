"""Agreement in a real, headless Neovim: the status line shows the live
agreement with the other annotation, its disagreements are diagnostics on
the cells, :AnnoscoreNextDisagreement walks them, and :AnnoscoreCompare
starts a comparison from the editor.  (The runner is test_nvim's.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from annoscore.scorer.agreement.annotation import read_annotation
from annoscore.scorer.agreement.compare import compare

from tests.editors.test_nvim import NVIMS, SERVER, SKIP_REASON, run_scenario

INFORMATION = 3  # vim.diagnostic.severity.INFO
NVIM = NVIMS[0][0] if NVIMS else None
pytestmark = pytest.mark.skipif(NVIM is None, reason=SKIP_REASON)

ANNOTATION = """# sent_id = s1
# text = The cat sat
1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_
2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_
3\tsat\tsit\tVERB\tVBD\t_\t0\troot\t_\t_

# sent_id = s2
# text = Dogs bark
1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t_\t_
2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\t_

"""


def _pair(folder: Path) -> tuple[Path, Path]:
    (folder / "alice").mkdir()
    (folder / "bob").mkdir()
    mine = folder / "alice" / "t.conllu"
    mine.write_text(ANNOTATION, encoding="utf-8")
    theirs = folder / "bob" / "t.conllu"
    # Bob tags 'cat' PROPN and attaches 'Dogs' to nothing else: two cells differ.
    theirs.write_text(ANNOTATION.replace("cat\tcat\tNOUN", "cat\tcat\tPROPN").replace("2\tnsubj\t_\t_\n2\tbark",
                                                                                      "2\tobj\t_\t_\n2\tbark"),
                      encoding="utf-8")
    return mine, theirs


def _expected_status(mine: Path, theirs: Path) -> str:
    result = compare([read_annotation(mine, "A"), read_annotation(theirs, "B")], samples=0)
    rows = {row.name: row.coefficients for row in result.rows}
    las = result.attachment[0]["LAS"]["f1"]
    return (f"agree bob/t.conllu LAS {las * 100:.2f} κ UPOS {rows['UPOS']['cohen_kappa']:.2f} "
            f"DEPREL {rows['DEPREL']['cohen_kappa']:.2f}")


@pytest.mark.parametrize("how", ["declared", "compare-command"])
def test_agreement_in_neovim(tmp_path, how):
    mine, theirs = _pair(tmp_path)
    spec = {"scenario": "agree", "options": {"cmd": SERVER}}
    if how == "declared":
        (tmp_path / "annoscore.toml").write_text('[agreement]\nothers = ["alice/{name}", "bob/{name}"]\n')
    else:
        (tmp_path / "annoscore.toml").write_text("")
        spec["compare"] = str(theirs)
    results = run_scenario(NVIM, tmp_path, spec, str(mine))
    if how == "compare-command":
        assert "agree" not in results["before_compare"]
    assert results["status"] == "no gold | " + _expected_status(mine, theirs) or \
        results["status"] == _expected_status(mine, theirs)
    assert _expected_status(mine, theirs) in results["statusline"]
    lines = mine.read_text(encoding="utf-8").split("\n")
    shown = sorted((d["lnum"], d["col"], d["end_col"], d["message"]) for d in results["diagnostics"]
                   if d["code"] == "disagreement")
    upos_line = lines.index("2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_")
    deprel_line = lines.index("1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t_\t_")
    upos_start = len("2\tcat\tcat\t")
    deprel_start = len("1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\t")
    assert shown == [(upos_line, upos_start, upos_start + 4, "UPOS: bob/t.conllu has 'PROPN'"),
                     (deprel_line, deprel_start, deprel_start + 5, "DEPREL: bob/t.conllu has 'obj'")]
    assert all(d["severity"] == INFORMATION for d in results["diagnostics"] if d["code"] == "disagreement")
    walk = results["walk"]
    assert [w["cursor"] for w in walk[:2]] == [[upos_line, upos_start], [deprel_line, deprel_start]]  # (0-based)
    assert walk[2]["found"] is False and "no further" in walk[2]["message"]
