"""``annoscore explain CODE [CODE …] [--output-format {text,json}]`` and
``annoscore explain --all``: a diagnostic code's reference entry in the
terminal, as ``ruff rule``.

The entry is the one docs/reference/codes.md has (`server.code_entries`,
which scripts/write_reference.py writes the page from), shown as plain
text (an example's files indented, as they are).  An id that is both one of annoscore's codes and a validator test id
(``multiple-roots``) shows both entries.  An unknown code is a wrong
command line (exit 2) with the nearest known codes.
"""

from __future__ import annotations

import argparse
import json

from .commands import SUMMARIES
from .errors import UsageError


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("explain", help=SUMMARIES["explain"],
                              description="Print the reference entry of diagnostic codes (annoscore's codes and "
                                          "the UD validator's test ids): what it means, its severity, files or "
                                          "level, the quick fix, the validator check's explanation, why it "
                                          "matters, an example that produces it and how to fix it; the same "
                                          "entry as the documentation's codes page.")
    p.add_argument("codes", nargs="*", metavar="CODE", help="a diagnostic code (cycle) or validator test id "
                                                             "(unknown-upos)")
    p.add_argument("--all", action="store_true", help="list every code with a one-line summary")
    p.add_argument("--output-format", choices=("text", "json"), default="text",
                   help="text (default) or json (a list with one object per entry)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..code_entries import all_entries, entries_for, known_codes, terminal_text
    from ..engine.suggestions import nearest

    if args.all and args.codes:
        raise UsageError("explain takes codes or --all, not both")
    if not args.all and not args.codes:
        raise UsageError("name a code (annoscore explain cycle), or list them all with --all")
    if args.all:
        entries = list(all_entries())
    else:
        entries = []
        for code in args.codes:
            found = entries_for(code)
            if not found:
                near = nearest(code, known_codes())
                hint = f"; did you mean {' or '.join(near)}?" if near else ""
                raise UsageError(f"unknown code {code!r}{hint} (annoscore explain --all lists them)")
            entries += found
    if args.output_format == "json":
        print(json.dumps([_as_json(e, brief=args.all) for e in entries], ensure_ascii=False, indent=2))
    elif args.all:
        width = max(len(e.code) for e in entries) + 2
        for e in entries:
            label = e.code + (" (validator)" if e.kind == "validator" and e.anchor != e.code else "")
            print(f"{label:<{width}}{e.summary}")
    else:
        print("\n".join(terminal_text(e.markdown) for e in entries), end="")
    return 0


def _as_json(entry, brief: bool) -> dict:
    out = {"code": entry.code, "kind": entry.kind, "anchor": entry.anchor, "summary": entry.summary,
           "severity": entry.severity, "quick_fix": entry.quick_fix}
    if not brief:
        out.update(entry.details)
        out["markdown"] = entry.markdown
    return out
