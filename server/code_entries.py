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

from annoscore.scorer.code_example import Example
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


def _quick_fix(code: str) -> str:
    """The entry's quick-fix line: none, the editor's, and `annoscore fix` when it makes it too."""
    from annoscore.server.engine import autofix

    if code not in _with_quick_fix():
        return "none"
    if code in autofix.FIXABLE:
        return f"{FIX_YES}; `annoscore fix --select {code}` makes it in files"
    return FIX_YES


def example_of(entry: Entry) -> Example | None:
    """The example of an entry: its code's (`scorer.codes.Code`) or its test id's
    (`scorer.validation.explanations`)."""
    from annoscore.scorer.validation.rules import RULES

    if entry.kind == "annoscore":
        return CODES[entry.code].example
    rule = RULES.get(entry.code)
    return None if rule is None else rule.example


def example_level(entry: Entry) -> int:
    """The validation level an entry's example is checked at: its own, else
    0 for annoscore's codes (the validator's findings left out) and the test
    id's level for the validator's."""
    example = example_of(entry)
    if example is not None and example.level is not None:
        return example.level
    return 0 if entry.kind == "annoscore" else int(entry.details["level"])


def _editor_settings(example: Example) -> str:
    from annoscore.server.settings_schema import SETTINGS

    names = {s.field: s.key for s in SETTINGS if getattr(s, "field", None)}
    shown = [f"`annoscore.{names.get(k, k)}` {str(v).lower() if isinstance(v, bool) else v}"
             if k != "keeps_lone_cr" else "a client that keeps a lone CR inside a line, as VS Code does"
             for k, v in example.editor or ()]
    return f", with {', '.join(shown)}" if shown else ""


def _example_markdown(code: str, example: Example, level: int) -> str:
    """An example as the entry shows it: where it is reported, then each file in a code block."""
    if example.found_by == "leaks":
        lead = (f"**Example.** `annoscore leaks` and `annoscore split` report it on `{example.name}` (their "
                "messages name no code)")
    elif example.found_by == "evaluate":
        lead = (f"**Example.** `annoscore evaluate {example.name} {example.gold_name()}` reports it (its message "
                "names no code)")
    elif example.editor is not None:
        where = f"The editor (the language server{_editor_settings(example)}"
        where += f", validation level {level})" if level else ", UD validation off)"
        lead = f"**Example.** {where} reports `{code}` on `{example.name}`"
    else:
        lead = f"**Example.** `annoscore {' '.join(example.command(level))}` reports `{code}` on `{example.name}`"
    out = [lead + ":\n\n", _block(example.text)]
    for name, text in ((example.gold_name(), example.gold) if example.gold is not None else (None, None),
                       *example.files):
        if name is not None:
            out += [f"`{name}`:\n\n", _block(text)]
    out.append(_invisible_note([example.text, *([example.gold] if example.gold is not None else []),
                                *(text for _, text in example.files)]))
    if example.also:
        out.append(f"The same input also reports {', '.join(f'`{c}`' for c in example.also)}.\n\n")
    return "".join(out)


def _block(text: str) -> str:
    """A file's text as a fenced block (shown as written: TABs kept, bytes that are not UTF-8 as U+FFFD)."""
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    shown = "".join(c if c in "\t\n" or (c.isprintable() and c != "\ufeff") else f"<U+{ord(c):04X}>" for c in shown)
    return "```text\n" + shown.rstrip("\n") + "\n```\n\n"


def _invisible_note(texts: list[str]) -> str:
    """What the blocks' stand-ins mean, when an example holds characters a block cannot show."""
    notes = []
    if any(re.search("[\udc80-\udcff]", t) for t in texts):
        notes.append("`\ufffd` stands for a byte that is not UTF-8")
    if any(c not in "\t\n" and (not c.isprintable() or c == "\ufeff") and not "\udc80" <= c <= "\udcff"
           for t in texts for c in t):
        notes.append("`<U+XXXX>` stands for the invisible character of that code point")
    return f"In the example, {'; '.join(notes)}.\n\n" if notes else ""


def _texts(code: str, why: str, fix: str, example: Example | None, level: int) -> str:
    """The sections after an entry's facts: why it matters, the example, how to fix it."""
    out = []
    if why:
        out.append(f"**Why it matters.** {why}\n\n")
    if example is not None:
        out.append(_example_markdown(code, example, level))
    if fix:
        out.append(f"**How to fix it.** {fix}\n\n")
    return "".join(out).rstrip("\n") + "\n" if out else ""


def _code_entry(name: str) -> Entry:
    FIXABLE = _with_quick_fix()
    code = CODES[name]
    fixable = name in FIXABLE
    formats = [FORMATS.get(f, f) for f in code.formats]
    level = code.example.level if code.example is not None and code.example.level is not None else 0
    texts = _texts(name, code.why, code.fix, code.example, level)
    markdown = (f"### `{name}`\n\n"
                f"{_sentence(code.meaning)}\n\n"
                f"- Severity: {code.severity.label}\n"
                f"- Files: {', '.join(formats)}\n"
                f"- Quick fix: {_quick_fix(name)}\n" + ("\n" + texts if texts else ""))
    details = {"meaning": _sentence(code.meaning), "files": list(code.formats), **_details(code, level)}
    return Entry(name, "annoscore", name, _sentence(code.meaning), code.severity.label, fixable, markdown, details)


def _details(source, level: int) -> dict:
    """The new texts for ``explain --output-format json``: why, fix, and the example with its command."""
    example = source.example
    shown = None
    if example is not None:
        shown = {"file": example.name, "text": example.text.encode("utf-8", "surrogateescape").decode(
                     "utf-8", "replace"),
                 "gold": example.gold, "files": dict(example.files), "also": list(example.also),
                 "command": None if example.editor is not None or example.found_by == "leaks"
                 else ["annoscore", "evaluate", example.name, example.gold_name()] if example.found_by == "evaluate"
                 else ["annoscore", *example.command(level)], "found_by": example.found_by,
                 "editor": None if example.editor is None else dict(example.editor)}
    return {"why": source.why, "fix": source.fix, "example": shown}


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
             f"- Quick fix: {_quick_fix(test_id)}\n"]
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
        shown_level = rule.example.level if rule.example is not None and rule.example.level is not None \
            else int(level)
        texts = _texts(test_id, rule.why, rule.fix, rule.example, shown_level)
        if texts:
            lines.append("\n" + texts)
    details = {"level": int(level), "class": test_class, "annoscore_codes": twins,
               "checked_by": [] if rule is None else [rule.function, *rule.also],
               "reachable": rule is not None, "explanation": doc,
               **(_details(rule, shown_level) if rule is not None else {"why": "", "fix": "", "example": None})}
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
    as its text and address, the quoted explanation and an example's files
    indented (a file's lines as they are, TABs included), bold as plain."""
    def link(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        return text if target.startswith("#") else f"{text} <{target}>"

    out = []
    in_block = False
    for line in markdown.rstrip("\n").split("\n"):
        if line.startswith("```"):  # a file of an example: its lines as they are, indented
            in_block = not in_block
            continue
        if in_block:
            out.append("    " + line)
            continue
        if line.startswith("### "):
            line = line[4:]
        elif line.startswith(">"):
            line = "    " + line[2:] if len(line) > 1 else ""
        line = _LINK.sub(link, line).replace("`", "").replace("**", "")
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
