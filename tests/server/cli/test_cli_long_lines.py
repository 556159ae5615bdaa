"""Every command that echoes its input bounds what it prints of a huge line
(issue 25, item 5): a value of a one-line file is shown as an excerpt, so
the output of a 2 MB line is a few kilobytes, whatever the command and the
output format."""

from __future__ import annotations

import pytest

from annoscore.server.cli import main

SIZE = 2_000_000
BOUND = 30_000  # bytes of output allowed for one file holding a SIZE-character line
LONG = "a" * SIZE


def _line(**cells: str) -> str:
    row = dict(id="1", form="dog", lemma="dog", upos="NOUN", xpos="NN", feats="_", head="0",
               deprel="root", deps="_", misc="_")
    row.update(cells)
    return "\t".join(row.values()) + "\n"


# A file that is one long line, and files with one long value each.
SHAPES = {
    "one-line": LONG + "\n\n",
    "form": "# sent_id = s1\n# text = dog\n" + _line(form=LONG) + "\n",
    "id": "# sent_id = s1\n# text = dog\n" + _line(id="1" * SIZE) + "\n",
    "sent_id": f"# sent_id = {LONG}\n# text = dog\n" + _line() + "\n",
    "text": f"# sent_id = s1\n# text = {LONG}\n" + _line() + "\n",
    "upos": "# sent_id = s1\n# text = dog\n" + _line(upos=LONG) + "\n",
    "deprel": "# sent_id = s1\n# text = dog\n" + _line(deprel=LONG) + "\n",
}
GOLD = "# sent_id = s1\n# text = dog\n" + _line() + "\n"


def _commands(big: str, gold: str) -> list[list[str]]:
    return [
        ["tree", big], ["tree", big, "--line", "1"], ["tree", big, "--json"], ["tree", big, "--gold", gold],
        ["tree", gold, "--gold", big],
        ["check", big], ["check", big, "--json"], ["check", big, "--output-format", "sarif"],
        ["check", big, "--output-format", "github"], ["check", big, "--output-format", "junit"],
        ["check", big, "--gold", gold, "--statistics"],
        ["evaluate", big, gold], ["evaluate", gold, big], ["evaluate", big, gold, "--json"],
        ["evaluate", gold, big, "--json"], ["evaluate", big, big],
        ["leaks", "x-train.conllu", "x-test.conllu"], ["leaks", "x-train.conllu", "x-test.conllu", "--json"],
        ["compare", big, big],
    ]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_output_of_a_huge_line_is_bounded(shape, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.conllu").write_text(SHAPES[shape], encoding="utf-8")
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    for name in ("x-train.conllu", "x-test.conllu"):
        (tmp_path / name).write_text(SHAPES[shape], encoding="utf-8")
    sizes = {}
    for argv in _commands("big.conllu", "gold.conllu"):
        try:
            status = main(argv)
        except SystemExit as stop:  # (argparse)
            status = stop.code
        out, err = capsys.readouterr()
        assert status in (0, 1, 2), (argv, status)
        sizes[" ".join(argv)] = len(out.encode()) + len(err.encode())
    too_long = {command: size for command, size in sizes.items() if size > BOUND}
    assert not too_long, too_long
