"""Labelled text files: TEXT<TAB>LABEL and CSV tables, read and scored."""

from __future__ import annotations

import json

import pytest

from annoscore.scorer.labels.table import CSV, TSV, TableSpec, parse_table_text, table_spec
from annoscore.server.cli import main


def test_text_tab_label_without_a_header():
    f = parse_table_text("Good film.\tpos\n\nBad  film.\t neg \n", TableSpec(TSV))
    assert f.texts == ["Good film.", "Bad  film."] and f.labels == ["pos", "neg"]
    assert list(f.lines) == [0, 2] and not f.has_ids and f.problems == []


def test_a_named_column_means_a_header():
    spec = TableSpec(TSV, text="sentence", label="gold")
    assert spec.header
    f = parse_table_text("id\tsentence\tgold\nx1\tHi there.\tgreet\nx2\tBye.\tpart\n", spec)
    assert f.ids == ["x1", "x2"] and f.texts == ["Hi there.", "Bye."] and f.labels == ["greet", "part"]
    assert list(f.lines) == [1, 2]


def test_csv_with_quotes_commas_and_line_breaks():
    text = 'ID,Text,Label\n1,"Hello, world",pos\n2,"He said ""no""",neg\n3,"two\nlines",pos\n'
    f = parse_table_text(text, TableSpec(CSV))
    assert f.ids == ["1", "2", "3"]  # names match ignoring case
    assert f.texts == ["Hello, world", 'He said "no"', "two\nlines"] and list(f.lines) == [1, 2, 3]


@pytest.mark.parametrize("text, spec, code, line, message", [
    ("a\tb\tc\nd\te\n", TableSpec(TSV), "format-columns", 1, "2 TAB-separated fields where the first row has 3"),
    ("x\tpos\ny\tz\tneg\n", TableSpec(TSV), "format-columns", 1, "a TAB inside a text?"),
    ("text,label\n\"open,pos\n", TableSpec(CSV), "format-csv", 1, "cannot be read as CSV"),
    ("words,label\na,b\n", TableSpec(CSV), "format-header", 0, "no column 'text' for the text"),
    ("text,category\na,b\n", TableSpec(CSV), "format-header", 0, "no column 'label' for the label"),
    ("a\tb\n", TableSpec(TSV, label="5"), "format-header", 0, "no column 5 for the label"),
    ("x\t \n", TableSpec(TSV), "format-empty-label", 0, "empty label"),
    ("id,text,label\n1,a,b\n1,c,d\n", TableSpec(CSV), "format-duplicate-id", 2, "ID '1' already used on line 2"),
])
def test_broken_tables_are_problems_with_their_line(text, spec, code, line, message):
    problems = parse_table_text(text, spec, text_required=True).problems
    problem = next(p for p in problems if p.code == code)
    assert problem.line == line and message in problem.message


def test_which_files_are_tables():
    assert table_spec("a.csv").delimiter == CSV
    assert table_spec("a.tsv") is None  # a plain ID<TAB>LABEL file, as before
    assert table_spec("a.tsv", text="1").delimiter == TSV
    assert table_spec("a.tsv", text_by_default=True).delimiter == TSV


def test_evaluate_pairs_a_csv_by_id_and_checks_the_texts(tmp_path, capsys):
    (tmp_path / "gold.csv").write_text('id,text,label\n1,"Hello, world",pos\n2,Bad day,neg\n3,Fine,pos\n')
    (tmp_path / "pred.csv").write_text('id,text,label\n3,Fine,neg\n1,"Hello, world",pos\n2,Bad day,neg\n')
    assert main(["evaluate", str(tmp_path / "pred.csv"), str(tmp_path / "gold.csv"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["items"]["paired_by"] == "id" and out["metrics"]["Accuracy"]["correct"] == 2
    (tmp_path / "pred.csv").write_text('id,text,label\n1,"Hello, world",pos\n2,Bad dya,neg\n3,Fine,pos\n')
    assert main(["evaluate", str(tmp_path / "pred.csv"), str(tmp_path / "gold.csv")]) == 1
    err = capsys.readouterr().err
    assert "pred.csv:3:1: the text 'Bad dya' is not gold's 'Bad day' (gold line 3)" in err


def test_evaluate_pairs_text_tab_label_by_order(tmp_path, capsys):
    (tmp_path / "gold.tsv").write_text("Good.\tpos\nBad.\tneg\nGood.\tpos\n")  # texts may repeat
    (tmp_path / "pred.tsv").write_text("Good.\tpos\nBad.\tpos\nGood.\tpos\n")
    args = ["evaluate", str(tmp_path / "pred.tsv"), str(tmp_path / "gold.tsv"), "--format", "labels", "--json"]
    assert main(args + ["--text-column", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["items"] == {"gold": 3, "predicted": 3, "paired_by": "order"}
    assert out["metrics"]["Accuracy"]["correct"] == 2
    # Read as ID<TAB>LABEL (no column option) the repeated text is a duplicate ID.
    assert main(args) == 1
    assert "ID 'Good.' already used on line 1" in capsys.readouterr().err


def test_column_options_belong_to_labels(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("a b\n")
    assert main(["evaluate", str(tmp_path / "a.txt"), str(tmp_path / "a.txt"), "--text-column", "1"]) == 2
    assert "--text-column applies to labelled text files" in capsys.readouterr().err
