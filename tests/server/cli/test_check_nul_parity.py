"""A NUL byte inside text hides nothing (issue 25, item 6): ``check`` of a
real file with NULs injected (a comment, a FORM, MISC) reports the UD
validator's findings as udvalidate does — the same (line, test id,
severity) multiset and exit status — and notes the first NUL as
information (``format-binary``) at its place."""

from __future__ import annotations

import pytest

from tests.server.cli.test_check_validation import checked, same_as_udvalidate

# An oracle test (tests/support/tiers.py): the official tools on real treebanks.
pytestmark = pytest.mark.oracle

TREEBANKS = ["UD_English-EWT/en_ewt-ud-test.conllu", "UD_French-GSD/fr_gsd-ud-test.conllu",
             "UD_German-GSD/de_gsd-ud-test.conllu"]
SENTENCES = 300


def _in_comment(block: str) -> str:
    lines = block.split("\n")
    return "\n".join([lines[0], "# note = a\x00b", *lines[1:]])


def _in_cell(column: int):
    def inject(block: str) -> str:
        lines = block.split("\n")
        k = next(i for i, line in enumerate(lines) if line and line[0].isdigit())
        cells = lines[k].split("\t")
        cells[column] = cells[column][:1] + "\x00" + cells[column][1:]
        lines[k] = "\t".join(cells)
        return "\n".join(lines)
    return inject


PLACES = {"comment": _in_comment, "form": _in_cell(1), "misc": _in_cell(9)}


@pytest.mark.parametrize("name", TREEBANKS, ids=lambda n: n.split("/")[0])
@pytest.mark.parametrize("places", [["comment"], ["form"], ["misc"], ["comment", "form", "misc"]],
                         ids=lambda p: "+".join(p))
def test_nuls_hide_no_validator_finding(shared, capsys, tmp_path, name, places):
    from annoscore.scorer.validation import guess_language

    source = shared("data", "ud", *name.split("/"))
    blocks = source.read_text(encoding="utf-8").split("\n\n")[:SENTENCES]
    first = None
    for n, place in enumerate(places):
        k = 7 + 50 * n  # a few sentences apart
        blocks[k] = PLACES[place](blocks[k])
        first = k if first is None else first
    target = tmp_path / source.name
    text = "\n\n".join(blocks).strip("\n") + "\n\n"
    target.write_bytes(text.encode("utf-8"))
    lang = guess_language(source)
    expected = same_as_udvalidate(capsys, target, 5, lang)  # the findings
    status, diagnostics, _ = checked(capsys, target, "--level", "5", "--lang", lang)
    assert status == (1 if any(severity == "error" for _, _, severity in expected) else 0)  # udvalidate's rule
    nul = text.index("\x00")
    line = text.count("\n", 0, nul)
    notes = [d for d in diagnostics if d["code"] == "format-binary"]
    assert len(notes) == 1 and notes[0]["severity"] == "information"
    assert (notes[0]["line"], notes[0]["column"]) == (line + 1, nul - text.rfind("\n", 0, nul))


def test_a_compressed_file_is_still_one_error(capsys, tmp_path):
    import gzip

    target = tmp_path / "en_x-ud-test.conllu"
    target.write_bytes(gzip.compress(b"# sent_id = 1\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"))
    status, diagnostics, _ = checked(capsys, target, "--level", "5", "--lang", "en")
    assert status == 1 and [(d["code"], d["severity"]) for d in diagnostics] == [("format-binary", "error")]
