"""The sentences as the document's outline (textDocument/documentSymbol), in the engine."""

from __future__ import annotations

from tests.support.lsp import GOLD, PRED, line_of, sentence_outline
from tests.server.engine.test_tree import opened


def test_every_sentence_with_its_lines_and_marks(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    entries = sentence_outline(engine, path)
    lines = PRED.split("\n")
    names = [f"s{k}" for k in (1, 2, 3, 4, 5, 6, 7, 8, 10)]
    assert [e.sent_id for e in entries] == names
    for entry, name in zip(entries, names):
        first = line_of(PRED, f"# sent_id = {name}")
        last = next(n for n in range(first, len(lines)) if not lines[n + 1].strip()) if name != "s10" \
            else len(lines) - 3
        assert (entry.first_line, entry.last_line) == (first, last), name
        assert (entry.first_text, entry.last_text) == (lines[first], lines[last])
    details = {e.sent_id: e.detail for e in entries}
    # Without # text: the FORMs; marked when refused or unparsed.
    assert details["s1"] == "The cat sat"
    assert details["s2"] == "refused: cycle · a b c"
    assert details["s3"] == "refused: multiple-roots · d e"
    assert details["s4"] == "refused: missing-head · f g"
    assert details["s5"] == "unparsed · h i"
    assert details["s6"] == "refused: head-out-of-range · j k"
    assert details["s10"] == "refused: format-columns · m n"
    assert [e.sent_id for e in entries if e.unparsed] == ["s5"]


def test_text_comments_long_texts_no_sent_id_and_a_block_split_by_whitespace(tmp_path):
    long = "word " * 30
    text = ("\ufeff# sent_id = a\n# text = " + long + "\n1\tword\tword\tX\t_\t_\t0\troot\t_\t_\n\n"
            "1\tb\tb\tX\t_\t_\t0\troot\t_\t_\n \n# sent_id = c\n1\tc\tc\tX\t_\t_\t0\troot\t_\t_\n\n")
    engine, path = opened(tmp_path, text)
    entries = sentence_outline(engine, path)
    assert [(e.name(e.first_line), e.first_line, e.last_line) for e in entries] == [
        ("a", 0, 2), ("line 5", 4, 4), ("c", 6, 7)]
    assert entries[0].detail == ("word " * 8).strip() + "…" and len(entries[0].detail) <= 40
    assert entries[0].first_text == "# sent_id = a"  # (the byte-order mark is not in the line)
    assert entries[1].detail == "refused: format-blank-line · b" and entries[1].last_text.startswith("1\tb")


def test_an_edit_not_rescored_yet_is_outlined_as_it_is_now(tmp_path):
    engine, path = opened(tmp_path, PRED)
    s5 = line_of(PRED, "# sent_id = s5")
    engine.change(path, 2, [((s5, 0), (s5, len("# sent_id = s5")), "# sent_id = renamed")])
    names = [e.sent_id for e in sentence_outline(engine, path)]
    assert "renamed" in names and "s5" not in names
    # Lines above a sentence without a sent_id come and go: its name follows.
    text = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
    engine, path = opened(tmp_path, text + text)
    assert [e.name(e.first_line) for e in sentence_outline(engine, path)] == ["line 1", "line 3"]
    engine.change(path, 2, [((0, 0), (0, 0), "# sent_id = new\n")])
    assert [e.name(e.first_line) for e in sentence_outline(engine, path)] == ["new", "line 4"]
    assert sentence_outline(engine, "/nowhere.conllu") is None
