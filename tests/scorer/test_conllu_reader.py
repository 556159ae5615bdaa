"""The tolerant CoNLL-U reader: shapes of real files, and every kind of bad input."""

from __future__ import annotations

import pytest

from tests.support.data import conllu, shared_path, write
from tests.support.data import read_file
from annoscore.scorer.conllu.parse import parse_block
from annoscore.scorer.conllu.reader import ConlluFileReader, read_text
from annoscore.scorer.conllu.text import ZS_CHARACTERS

S1 = """# sent_id = s1
# text = The cat sat.
1 The the DET DT Definite=Def 2 det _ _
2 cat cat NOUN NN Number=Sing 3 nsubj _ _
3 sat sit VERB VBD Tense=Past 0 root _ SpaceAfter=No
4 . . PUNCT . _ 3 punct _ _"""
S2 = """# sent_id = s2
1-2 du _ _ _ _ _ _ _ _
1 de de ADP _ _ 3 case _ _
2 le le DET _ _ 3 det _ _
3 chat chat NOUN _ _ 0 root _ _
3.1 x x X _ _ _ _ 1:dep _"""


def codes(doc) -> list[str]:
    return [p.code for p in doc.all_problems()]


def test_well_formed_file():
    doc = read_text(conllu(S1, S2))
    assert codes(doc) == []
    first, second = doc.sentences
    assert first.sent_id == "s1" and first.text == "The cat sat."
    assert first.form == ["The", "cat", "sat", "."]
    assert first.heads == [2, 3, 0, 3]
    assert first.chars == "Thecatsat."
    assert list(first.word_line) == [2, 3, 4, 5]
    assert second.first_line == 7
    assert second.form == ["de", "le", "chat"]
    assert [(m.first, m.end, m.form) for m in second.mwts] == [(0, 2, "du")]
    assert second.chars == "duchat"
    assert second.empty_lines == [5]


@pytest.mark.parametrize("transform", [
    lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("\n", "\r"),
    lambda t: "\ufeff" + t,
])
def test_newlines_and_bom_read_the_same(transform):
    plain = read_text(conllu(S1, S2))
    other = read_text(transform(conllu(S1, S2)))
    assert [s.form for s in other.sentences] == [s.form for s in plain.sentences]
    assert [s.heads for s in other.sentences] == [s.heads for s in plain.sentences]
    assert [p.code for p in other.problems] in ([], ["format-bom"])


def test_bom_is_reported_because_the_official_scorer_refuses_it():
    doc = read_text("\ufeff" + conllu(S1))
    assert codes(doc) == ["format-bom"]
    assert doc.problems[0].refuses


def test_missing_final_blank_line():
    text = conllu(S1, S2).rstrip("\n") + "\n"
    doc = read_text(text)
    assert len(doc.sentences) == 2
    assert codes(doc) == ["format-final-blank-line"]
    assert doc.problems[0].line == 12  # the last line of the file


def test_several_blank_lines_are_an_empty_sentence():
    text = conllu(S1) + "\n\n" + conllu(S2)
    doc = read_text(text)
    assert len(doc.sentences) == 2
    assert codes(doc) == ["format-empty-sentence"]
    assert doc.problems[0].line == 7
    assert doc.sentences[1].first_line == 9


def test_blank_lines_at_the_end_refuse_too():
    doc = read_text(conllu(S1) + "\n")
    assert codes(doc) == ["format-empty-sentence"]


def test_empty_feats_string_is_accepted():
    # UDPipe-Future writes an empty FEATS column.
    doc = read_text("1\tif\tif\tSCONJ\tIN\t\t0\troot\t_\t_\n\n")
    assert codes(doc) == []
    assert doc.sentences[0].feats == [""]


def test_spaces_instead_of_tabs_are_repaired_and_reported():
    text = conllu(S1).replace("2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_",
                              "2 cat cat NOUN NN Number=Sing 3 nsubj _ _")
    doc = read_text(text)
    assert codes(doc) == ["format-spaces"]
    problem = doc.all_problems()[0]
    assert problem.line == 3 and problem.refuses
    assert doc.sentences[0].heads == [2, 3, 0, 3]


def test_wrong_number_of_columns():
    text = conllu(S1).replace("\tnsubj\t_\t_\n", "\tnsubj\n")
    doc = read_text(text)
    (problem,) = doc.all_problems()
    assert problem.code == "format-columns" and problem.line == 3
    assert "8 tab-separated columns" in problem.message
    # The rest of the sentence is still read.
    assert doc.sentences[0].form == ["The", "cat", "sat", "."]


def test_comment_among_token_lines():
    lines = conllu(S1).split("\n")
    lines.insert(4, "# a note")
    doc = read_text("\n".join(lines))
    assert codes(doc) == ["format-comment-position"]
    assert doc.all_problems()[0].line == 4
    assert doc.sentences[0].form == ["The", "cat", "sat", "."]


def test_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "bad.conllu"
    data = conllu(S1, S2).encode("utf-8").replace(b"cat\tcat", b"c\xe4t\tcat")
    path.write_bytes(data)
    doc = read_file(path)
    problems = doc.all_problems()
    assert [p.code for p in problems] == ["format-encoding"]
    assert problems[0].line == 3 and problems[0].start == 3
    assert doc.sentences[0].form[1] == "c\ufffdt"
    assert len(doc.sentences) == 2  # the rest still read


def test_whitespace_only_line_separates_sentences():
    text = conllu(S1).rstrip("\n") + "\n   \n" + conllu(S2)
    doc = read_text(text)
    assert [s.sent_id for s in doc.sentences] == ["s1", "s2"]
    assert codes(doc) == ["format-blank-line"]
    assert doc.all_problems()[0].line == 6


@pytest.mark.parametrize("head,code", [("x", "format-head"), ("-1", "format-head")])
def test_bad_head(head, code):
    text = conllu(S1).replace("\t3\tnsubj", f"\t{head}\tnsubj")
    doc = read_text(text)
    (problem,) = doc.all_problems()
    assert problem.code == code and problem.refuses
    line = text.split("\n")[3]
    assert line[problem.start:problem.end] == head


def test_ids_out_of_order_and_unreadable():
    doc = read_text(conllu(S1).replace("3\tsat", "5\tsat"))
    assert codes(doc) == ["format-id-order"]
    doc = read_text(conllu(S1).replace("3\tsat", "x\tsat"))
    assert codes(doc) == ["format-id"]


def test_unfinished_multiword_token():
    text = conllu("1 a a X _ _ 0 root _ _\n2-3 bc _ _ _ _ _ _ _ _\n2 b b X _ _ 1 dep _ _")
    doc = read_text(text)
    assert codes(doc) == ["format-mwt"]
    assert doc.all_problems()[0].refuses


def test_empty_form():
    doc = read_text(conllu(S1).replace("2\tcat\tcat", "2\t\tcat"))
    assert codes(doc) == ["format-empty-form"]


def test_malformed_deps():
    doc = read_text(conllu(S1).replace("nsubj\t_", "nsubj\tnsubj"))
    assert codes(doc) == ["format-deps"]
    doc = read_text(conllu(S1).replace("nsubj\t_", "nsubj\t9:nsubj"))
    assert codes(doc) == ["format-deps"]


def test_comments_only_block():
    doc = read_text("# just a comment\n\n" + conllu(S1))
    assert codes(doc) == ["format-empty-sentence"]


def test_binary_text_does_not_crash():
    doc = read_text("\x00\x01\x02garbage")
    assert codes(doc) == ["format-binary"]


def test_huge_line_does_not_crash():
    doc = read_text("1\t" + "x" * 1_000_000 + "\n\n")
    assert doc.sentences and codes(doc)


def test_spaces_inside_forms_are_removed_from_the_characters():
    doc = read_text("1\t10\u00a0000\t10000\tNUM\t_\t_\t0\troot\t_\t_\n"
                    "2\ta b\tab\tX\t_\t_\t1\tdep\t_\t_\n\n")
    assert doc.sentences[0].chars == "10000ab"
    assert doc.sentences[0].form == ["10\u00a0000", "a b"]


def test_zs_list_matches_unicodedata():
    import sys
    import unicodedata
    zs = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Zs")
    assert zs == ZS_CHARACTERS


def test_streaming_matches_whole_text(tmp_path):
    text = conllu(*([S1, S2] * 200))
    path = write(tmp_path, "many.conllu", text)
    streamed = list(ConlluFileReader(path, chunk_size=97))  # tiny chunks: cut everywhere
    whole = read_text(text).sentences
    assert [(s.first_line, s.form, s.heads) for s in streamed] == [
        (s.first_line, s.form, s.heads) for s in whole]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 64])
def test_block_splitter_in_chunks_matches_whole_text(size):
    """Blocks, problems and the line count do not depend on where the chunks
    end, even inside a run of blank lines or a long block."""
    from annoscore.scorer.conllu.blocks import BlockSplitter
    text = ("\ufeff" + conllu(S1) + "\n\n" + conllu(S2) + "\n\n\n" + conllu(*([S1] * 20)).replace("\n\n", "\n")
            + conllu(S2).rstrip("\n"))

    def split(pieces):
        splitter = BlockSplitter()
        blocks = [b for piece in pieces for b in splitter.feed(piece)] + splitter.finish()
        return blocks, [(p.code, p.line, p.start, p.end) for p in splitter.problems], splitter.line

    whole = split([text])
    assert split([text[i:i + size] for i in range(0, len(text), size)]) == whole
    assert whole[2] == text.count("\n")
    assert [p[0] for p in whole[1]] == ["format-bom"] + ["format-empty-sentence"] * 3 + ["format-final-blank-line"]
    assert len(whole[0]) == 3  # the twenty sentences without blank lines between them are one block


FIELDS = ("first_line", "n_lines", "comments", "sent_id", "text", "form", "lemma", "upos", "xpos",
          "feats", "head", "deprel", "deps", "misc", "heads", "mwts", "empty_lines", "chars")


@pytest.mark.parametrize("name", ["UD_English-EWT/en_ewt-ud-test.conllu", "UD_French-GSD/fr_gsd-ud-test.conllu",
                                  "UD_Czech-FicTree/cs_fictree-ud-test.conllu"])
def test_fast_and_careful_paths_agree_on_real_files(name):
    path = shared_path("data", "ud", *name.split("/"))
    for sentence in ConlluFileReader(path):
        careful = parse_block(sentence.body, sentence.first_line, careful=True)
        for field in FIELDS:
            assert getattr(careful, field) == getattr(sentence, field), (sentence.sent_id, field)
        assert list(careful.word_line) == list(sentence.word_line)
        assert careful.problems == sentence.problems == []


def test_every_ud_file_reads_without_problems_and_with_the_official_characters():
    from udtools import udeval
    for path in sorted(shared_path("data", "ud").glob("*/*test.conllu")):
        doc = read_file(path)
        assert doc.all_problems() == [], path
        official = udeval.load_conllu_file(str(path))
        assert "".join(s.chars for s in doc.sentences) == "".join(official.characters), path
        assert sum(len(s.form) for s in doc.sentences) == len(official.words), path
