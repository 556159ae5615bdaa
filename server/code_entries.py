"""Each diagnostic code's reference entry, written once.

An entry is a piece of Markdown: ``scripts/write_reference.py`` puts every
entry on docs/reference/codes.md, ``annoscore explain CODE`` prints one in
the terminal (`terminal_text`, a plain rendering of the same Markdown), and
the language server links a diagnostic to the entry's anchor on that page
(`anchor`, the heading id MkDocs gives it).  Sources: `scorer.codes`
(annoscore's codes and the validator's test ids), `scorer.validation.rules.RULES`
(each test id's checking function and its docstring), the quick fixes
(`server.engine.fixes.FIXABLE`) and the codes annoscore reports a validator
finding as (`server.engine.conllu.twins`).

One id is both one of annoscore's codes and a validator test id
(``multiple-roots``): it has two entries, the validator's anchored
``multiple-roots-validator`` (MkDocs's id for the heading
"`multiple-roots` (validator)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from annoscore.scorer.codes import CODES, VALIDATION

ROOT = Path(__file__).resolve().parent.parent
REPOSITORY = "https://github.com/annoscore/annoscore/blob/main/"
FORMATS = {"conllu": "CoNLL-U", "segmentation": "segmentation", "labels": "labels", "project": "the project file"}
FIX_YES = "yes (a code action in the editor)"


@dataclass(frozen=True)
class Entry:
    code: str
    kind: str                 # "annoscore" (scorer/codes.py) or "validator" (a UD validator test id)
    anchor: str               # its heading's id on docs/reference/codes.md
    summary: str              # one line (for ``explain --all``)
    severity: str             # the default severity's label
    quick_fix: bool
    markdown: str             # the entry as docs/reference/codes.md has it (heading included)
    details: dict             # the facts of the entry, for ``explain --output-format json``


def _twins() -> dict[str, list[str]]:
    """Each validator test id that annoscore reports as one of its own codes."""
    from annoscore.server.engine.conllu.twins import SAME_DOCUMENT, SAME_LINE, SAME_SENTENCE

    out: dict[str, list[str]] = {}
    for table in (SAME_LINE, SAME_SENTENCE, SAME_DOCUMENT):
        for code, test_ids in table.items():
            for test_id in test_ids:
                out.setdefault(test_id, [])
                if code not in out[test_id]:
                    out[test_id].append(code)
    return out


def _source_link(function: str) -> str:
    """`scorer.validation.level3.check_leaves` as a link to its module in the repository."""
    module, _, name = function.rpartition(".")

    def source(module: str) -> str:  # the package annoscore.X is the repository's folder X (setup.py)
        return module.removeprefix("annoscore.").replace(".", "/") + ".py"

    while module and not (ROOT / source(module)).exists():
        module, _, outer = module.rpartition(".")
        name = f"{outer}.{name}"
    path = source(module)
    return f"[`{module}.{name}`]({REPOSITORY}{path})"


def _sentence(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}." if text else ""


def _first_clause(doc: str, most: int = 100) -> str:
    """A docstring's first clause (to its first full stop or semicolon), plain
    and on one line, at most ``most`` characters (cut at a space, with …)."""
    text = re.sub(r"^Level \d: ", "", " ".join(doc.split()).replace("`", ""))
    text = re.split(r"(?<=[.;])\s", text, maxsplit=1)[0].rstrip(".;")
    if len(text) > most:
        text = text[:most - 1].rsplit(" ", 1)[0].rstrip(",;:(") + "…"
    return _sentence(text) if not text.endswith("…") else text[0].upper() + text[1:]


def _with_quick_fix() -> frozenset[str]:
    """The codes the editor offers a quick fix for: the engine's fixes, the
    ones `annoscore fix` makes too (renumbering, line ends), did-you-mean."""
    from annoscore.server.engine import autofix, fixes, suggestions

    return fixes.FIXABLE | autofix.FIXABLE | suggestions.SUGGESTED


def _code_entry(name: str) -> Entry:
    FIXABLE = _with_quick_fix()
    code = CODES[name]
    fixable = name in FIXABLE
    formats = [FORMATS.get(f, f) for f in code.formats]
    markdown = (f"### `{name}`\n\n"
                f"{_sentence(code.meaning)}\n\n"
                f"- Severity: {code.severity.label}\n"
                f"- Files: {', '.join(formats)}\n"
                f"- Quick fix: {FIX_YES if fixable else 'none'}\n")
    details = {"meaning": _sentence(code.meaning), "files": list(code.formats)}
    return Entry(name, "annoscore", name, _sentence(code.meaning), code.severity.label, fixable, markdown, details)


def _validator_entry(test_id: str) -> Entry:
    from annoscore.scorer.validation.rules import RULES

    FIXABLE = _with_quick_fix()

    rule = RULES.get(test_id)
    severity = VALIDATION[test_id].severity.label
    if rule is not None:
        level, test_class = rule.level, rule.test_class
    else:
        level, test_class = re.match(r"UD validation, level (\d), (\S+)", VALIDATION[test_id].meaning).groups()
    fixable = test_id in FIXABLE
    twins = _twins().get(test_id, [])
    heading = f"### `{test_id}` (validator)\n\n" if test_id in CODES else f"### `{test_id}`\n\n"
    lines = [heading, f"- Level {level}, class {test_class}, severity {severity}\n",
             f"- Quick fix: {FIX_YES if fixable else 'none'}\n"]
    if twins:
        named = ", ".join(f"[`{c}`](#{c})" for c in twins)
        lines.append(f"- annoscore finds it too: shown once, with annoscore's code ({named})\n")
    doc = ""
    if rule is None:
        lines.append("- No input can produce it: the conditions that would reach it are checked before\n")
        summary = f"Level {level}, {test_class}: no input can produce it."
    else:
        where = ", ".join(_source_link(f) for f in (rule.function, *rule.also))
        lines.append(f"- Checked by: {where}\n")
        doc = rule.doc or ""
        if doc:
            lines.append("\n> " + doc.replace("\n", "\n> ").replace("\n> \n", "\n>\n") + "\n")
        summary = f"Level {level}, {test_class}" + (f": {_first_clause(doc)}" if doc else ".")
    details = {"level": int(level), "class": test_class, "annoscore_codes": twins,
               "checked_by": [] if rule is None else [rule.function, *rule.also],
               "reachable": rule is not None, "explanation": doc}
    anchor = f"{test_id}-validator" if test_id in CODES else test_id
    return Entry(test_id, "validator", anchor, summary, severity, fixable, "".join(lines), details)


@lru_cache(maxsize=None)
def all_entries() -> tuple[Entry, ...]:
    """Every entry, in the page's order: annoscore's codes, then the validator's test ids sorted."""
    return tuple([_code_entry(name) for name in CODES] + [_validator_entry(t) for t in sorted(VALIDATION)])


def entries_for(code: str) -> list[Entry]:
    """The entries of a code (two for an id that is both annoscore's and the validator's); [] if unknown."""
    return [e for e in all_entries() if e.code == code]


def anchor(code: str) -> str | None:
    """The anchor of a diagnostic code's entry: annoscore's own entry first (a code a diagnostic carries
    is annoscore's when both have it); None for a code without an entry."""
    return code if code in CODES or code in VALIDATION else None


def known_codes() -> list[str]:
    return list(dict.fromkeys(e.code for e in all_entries()))


# --------------------------------------------------------------------------
# The terminal


_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def terminal_text(markdown: str) -> str:
    """An entry's Markdown as plain text: the heading as its code, code spans
    without backticks, a link to another entry as its text, an outside link
    as its text and address, the quoted explanation indented."""
    def link(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        return text if target.startswith("#") else f"{text} <{target}>"

    out = []
    for line in markdown.rstrip("\n").split("\n"):
        if line.startswith("### "):
            line = line[4:]
        elif line.startswith(">"):
            line = "    " + line[2:] if len(line) > 1 else ""
        line = _LINK.sub(link, line).replace("`", "")
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
