"""Reading segmentation lines as litsea does (EVALUATION-NOTES.md, section 1 and 3)."""

from __future__ import annotations

import sys

import pytest

from annoscore.scorer.lines import decode_lines, split_lines
from annoscore.scorer.segmentation.tokens import (
    SegmentationOptions, is_white_space, parse_line, split_tag, split_tokens, split_words,
)

SPACE = SegmentationOptions("space")
TSV = SegmentationOptions("tsv")
SPACE_POS = SegmentationOptions("space", pos=True)
TSV_POS = SegmentationOptions("tsv", pos=True)

# Unicode's White_Space property (PropList.txt), which Rust's char::is_whitespace follows.
WHITE_SPACE = {*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
               0x2028, 0x2029, 0x202F, 0x205F, 0x3000}


def test_space_format_splits_on_u0020_only():
    assert split_tokens("a\tb  c\u3000d ", " ") == ["a\tb", "c\u3000d"]
    assert split_words("  ", SPACE).words == []


def test_tsv_format_splits_on_tab_only_and_keeps_space_tokens():
    assert split_tokens("I\t \tsaw\t\t \t.\t", "\t") == ["I", " ", "saw", " ", "."]
    assert split_words(" ", TSV).words == [" "]


def test_pos_splits_at_the_last_slash():
    assert split_tag("//PUNCT") == ("/", "PUNCT")
    assert split_tag("and/or/CCONJ") == ("and/or", "CCONJ")
    assert split_tag("a/b") == ("a", "X")          # not a tag, still cut off the word
    assert split_tag("word") == ("word", "X")      # no slash
    assert split_tag("word/") == ("word", "X")     # empty tag
    assert split_tag("/") == ("", "X")             # an empty word
    assert split_tag("dog/noun") == ("dog", "X")   # tags are case-sensitive
    words = split_words("//PUNCT a/b and/or/CCONJ x", SPACE_POS)
    assert words.words == ["/", "a", "and/or", "x"]
    assert words.tags == ["PUNCT", "X", "CCONJ", "X"]
    assert words.unknown_tags == 2


def test_tsv_space_tokens_without_tag_are_not_reported_as_unknown():
    words = split_words("I/PRON\t \tgo/VERB", TSV_POS)
    assert words.words == ["I", " ", "go"] and words.tags == ["PRON", "X", "VERB"]
    assert words.unknown_tags == 0
    assert parse_line("I/PRON\t \tgo/VERB", TSV_POS).problems() == []


def test_white_space_is_the_unicode_property_not_str_isspace():
    for code in range(sys.maxunicode + 1):
        assert is_white_space(chr(code)) == (code in WHITE_SPACE), hex(code)
    assert "\x1c".isspace() and not is_white_space("\x1c")
    assert not is_white_space("")
    assert is_white_space(" \u3000\t")
    assert not is_white_space(" x")


def test_lines_end_at_lf_and_crlf_only():
    assert split_lines("a\r\nb\nc\x0bd\u2028e\r") == ["a", "b", "c\x0bd\u2028e\r"]
    assert split_lines("a\n") == ["a"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("") == []


def test_bad_utf8_is_a_problem_with_line_and_column():
    file = decode_lines("ok\nab\xffc\n".encode("latin-1"))
    assert file.lines[0] == "ok" and len(file.lines[1]) == 4
    [problem] = file.problems
    assert (problem.code, problem.line, problem.start) == ("format-encoding", 1, 2)
    assert "0xFF" in problem.message


def test_byte_order_mark_is_dropped_with_a_warning():
    file = decode_lines(b"\xef\xbb\xbfa b\n")
    assert file.lines == ["a b"]
    assert [p.code for p in file.problems] == ["format-bom"]


def test_parse_line_columns_point_into_the_line():
    line = "  dog/NOUN  //PUNCT a/b"
    parsed = parse_line(line, SPACE_POS)
    assert [line[s:e] for s, e in parsed.word_columns] == ["dog", "/", "a"]
    assert [line[s:e] for s, e in parsed.tag_columns] == ["NOUN", "PUNCT", "b"]
    assert parsed.text == "dog/a"
    assert (parsed.starts, parsed.ends) == ((0, 3, 4), (3, 4, 5))
    assert parsed.column_of(3) == line.index("//")
    [problem] = parsed.problems()
    assert problem.code == "format-unknown-tag" and line[problem.start:problem.end] == "b"


@pytest.mark.parametrize("line,message", [("dog", "no /TAG"), ("dog/", "empty tag"), ("dog/Noun", "'Noun'")])
def test_unknown_tag_messages(line, message):
    [problem] = parse_line(line, SPACE_POS).problems()
    assert message in problem.message


def test_written_x_is_not_unknown():
    assert parse_line("foo/X", SPACE_POS).problems() == []
    assert split_words("foo/X", SPACE_POS).unknown_tags == 0


def test_options_reject_unknown_formats():
    with pytest.raises(ValueError):
        SegmentationOptions("csv")


def test_line_blocks_cut_like_split_lines():
    from annoscore.scorer.lines import line_blocks
    text = "a\r\nbb\n\nccc\r\n\r\nd\re\nf"
    for size in (1, 2, 5, 100):
        numbers, lines = [], []
        for first, block in line_blocks(text, size):
            numbers.append(first)
            assert first == len(lines)
            lines += block
        assert lines == split_lines(text)


def test_bad_utf8_on_several_lines():
    file = decode_lines(b"ok\n\xffa\xfe\nfine\nab\xc3\n")
    assert [(p.line, p.start) for p in file.problems] == [(1, 0), (3, 2)]
    assert "0xFF" in file.problems[0].message and "0xC3" in file.problems[1].message
