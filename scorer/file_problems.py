"""The text reports' lines for problems of a whole file: each problem on its
line, except bytes that are not UTF-8, which a file in another encoding has
on hundreds of lines: one line naming the likely encoding and the iconv
command that converts it, then a few examples."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Iterable

from .problems import Problem

ENCODING_CODE = "format-encoding"
EXAMPLES = 3
_BYTE = re.compile(r"byte 0x([0-9A-F]{2}) ")


def likely_encoding(problems: list[Problem]) -> str:
    """Windows-1252 when a byte is one of its letters or signs at 0x80-0x9F
    (C1 controls in Latin-1, never text), else Latin-1 (ISO-8859-1)."""
    values = [int(m.group(1), 16) for p in problems if (m := _BYTE.search(p.message))]
    return "CP1252" if any(0x80 <= v <= 0x9F for v in values) else "LATIN1"


def file_problem_lines(role: str, problems: Iterable[Problem], path: str | None = None) -> list[str]:
    """``In the ROLE file, line N: …`` for each problem, the encoding ones
    summed up; the iconv command names ``path`` when it is known (and a
    file: not ``-``, standard input), else FILE."""
    problems = list(problems)
    encoding = [p for p in problems if p.code == ENCODING_CODE]
    lines = [f"In the {role} file, line {p.line + 1}: {p.message}" for p in problems if p.code != ENCODING_CODE]
    if encoding:
        name = likely_encoding(encoding)
        source = shlex.quote(path) if path and path != "-" else "FILE"
        target = (shlex.quote(str(Path(path).with_suffix(".utf8" + Path(path).suffix)))
                  if source != "FILE" else "FILE.utf8")
        shown = "Windows-1252" if name == "CP1252" else "Latin-1 (ISO-8859-1)"
        lines.append(f"In the {role} file: {len(encoding)} line{'s' if len(encoding) != 1 else ''} with bytes "
                     f"that are not UTF-8 (read as U+FFFD); the file is likely {shown}: convert it with "
                     f"iconv -f {name} -t UTF-8 {source} > {target}")
        lines += [f"  line {p.line + 1}: {p.message}" for p in encoding[:EXAMPLES]]
        if len(encoding) > EXAMPLES:
            lines.append(f"  ... and {len(encoding) - EXAMPLES} more")
    return lines
