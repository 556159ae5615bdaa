"""A diagnostic code's example: a few lines of input that produce the code.

Each code's reference entry (docs/reference/codes.md, ``annoscore explain``)
shows one, and tests/project/test_code_examples.py runs every example through
``annoscore check`` with exactly the command the entry shows and asserts that
the code (the test id, for a validator entry) is what it reports, so that an
example cannot be wrong.  An example lives beside its code's other metadata
(`scorer.codes.Code`, `scorer.validation.explanations`).

Token lines are written with columns separated by runs of spaces (`conllu`
turns them into TABs), so that the examples read in the source; an example
about whitespace itself is written out with ``\\t`` where it needs to be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    text: str                         # the checked file's content
    name: str = "example.conllu"      # the checked file's name (its suffix says the format)
    gold: str | None = None           # gold's content, checked against with --gold gold.EXT
    files: tuple[tuple[str, str], ...] = ()  # other files beside it (annoscore.toml, a split)
    args: tuple[str, ...] = ()        # more options of check (--level is the entry's)
    also: tuple[str, ...] = ()        # other codes the same input reports, necessarily
    level: int | None = None          # the validation level; None: 0 for annoscore's codes, the test id's
    # Shown in the editor (the language server) rather than by check: the
    # settings it needs, as `server.config.Settings` fields and values, and
    # ("keeps_lone_cr", True) for a client that keeps a lone CR inside a line.
    editor: tuple[tuple[str, object], ...] | None = None
    # Found only by other commands, whose messages name no code: "leaks" (`annoscore leaks` and
    # `annoscore split`, the file read as they read it, `scorer.hygiene.items.read_items`) or "evaluate"
    # (the file scored against its gold as `annoscore evaluate` does).
    found_by: str | None = None

    def gold_name(self) -> str:
        return "gold" + self.name[self.name.rfind("."):]

    def command(self, level: int) -> list[str]:
        """The command line that shows the example's code (after ``annoscore``)."""
        out = ["check", "--level", str(level), *self.args]
        if self.gold is not None:
            out += ["--gold", self.gold_name()]
        return out + [self.name]


_TOKEN = re.compile(r"^\d")


def conllu(*lines: str) -> str:
    """CoNLL-U from readable lines: a token line's columns separated by spaces
    become TABs; comment lines stay as written; "" is a sentence's blank line.
    The text ends with a newline (the blank line after the last sentence is
    the caller's "")."""
    out = []
    for line in lines:
        if _TOKEN.match(line) and "\t" not in line:
            line = "\t".join(line.split())
        out.append(line)
    return "\n".join(out) + "\n"


def sentence(text: str, *tokens: str, sent_id: str = "1", comments: tuple[str, ...] = ()) -> str:
    """One sentence with its ``# sent_id`` and ``# text`` and the blank line after it."""
    return conllu(*comments, f"# sent_id = {sent_id}", f"# text = {text}", *tokens, "")
