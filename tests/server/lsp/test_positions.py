"""Columns between code points and the client's encodings."""

from annoscore.server.lsp.positions import UTF8, UTF16, UTF32, from_client, to_client


def test_round_trips():
    line = "a😀éx\tb"
    for column in range(len(line) + 1):
        for encoding in (UTF8, UTF16, UTF32):
            assert from_client(line, to_client(line, column, encoding), encoding) == column
    assert to_client(line, 2, UTF16) == 3 and to_client(line, 2, UTF8) == 5
    assert to_client(line, 3, UTF8) == 7 and to_client(line, 3, UTF32) == 3


def test_ascii_and_past_the_end():
    assert to_client("abc", 2, UTF16) == 2
    assert from_client("abc", 10, UTF8) == 10
    assert from_client("é", 1, UTF8) == 0  # inside a character rounds down
