"""Character-level helpers shared by the CoNLL-U reader and the aligner."""

from __future__ import annotations

import re

# Unicode category Zs (space separators).  The official scorer removes these
# from every FORM before it compares the texts of gold and system, so a
# token "10 000" (with a NO-BREAK SPACE) matches "10000".  The list is fixed
# by Unicode and checked against unicodedata in the tests.
ZS_CHARACTERS = (
    "\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
_ZS = re.compile("[" + ZS_CHARACTERS + "]")


def strip_spaces(form: str) -> str:
    """FORM without its Zs characters."""
    if form.isascii():
        return form.replace(" ", "") if " " in form else form
    return _ZS.sub("", form)


def has_spaces(text: str) -> bool:
    if text.isascii():
        return " " in text
    return _ZS.search(text) is not None
