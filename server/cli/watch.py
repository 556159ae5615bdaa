"""``annoscore watch [PATH…] [--json]``: the engine without an editor.

Says on stderr what it watches and how to stop, scores everything once,
then on every change on disk prints what changed for each file touched: the
diagnostics that appeared or went away (``path:line:col: severity code
message``, with ``+``/``-``; the UD validator's findings among them) and
its new score line.  A file whose
diagnostics and score did not change prints nothing (a gold file is
rescored with its prediction, but says something only when its own
diagnostics change).  At most `SHOWN_PER_CODE` lines per code and file are
printed per event, then one line with how many more (a broken prediction
can make a thousand ``missing-sentence`` diagnostics on its gold; ``annoscore
check`` lists them all).  A deleted file says so; one overwritten with
something that is not text shows its ``format-binary`` diagnostic.

With ``--json``, one JSON object per line and event (``start``, ``change``,
``deleted``), complete (no cap), for status lines (tmux, polybar) and
scripts.  Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from annoscore.scorer.excerpt import printable_name
from .errors import InputError
from .commands import SUMMARIES

if TYPE_CHECKING:
    from ..daemon import DiskWorkspace, Shown

SHOWN_PER_CODE = 10  # lines per diagnostic code, file and event; then a count


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("watch", help=SUMMARIES["watch"],
                              description="Watch PATHs (files or folders; default: the current "
                                          "folder), score every file annoscore reads once, then print "
                                          "the diagnostics that appear (+) or go away (-) and the new "
                                          "score of each file that changes. Ctrl-C stops it.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or folders to watch (default: the current folder)")
    p.add_argument("--json", action="store_true", help="one JSON object per line and event")
    p.set_defaults(run=run)


class Printer:
    def __init__(self, workspace: DiskWorkspace, as_json: bool) -> None:
        self.workspace = workspace
        self.as_json = as_json
        self.previous: dict[str, set] = {}
        self.previous_scores: dict[str, object] = {}

    def report(self, keys: list[str], event: str) -> None:
        from ..daemon import shown_path
        for path in self.workspace.gone:
            self._deleted(path)
        self.workspace.gone.clear()
        for key in keys:
            if key not in self.workspace.engine.documents or not self.workspace.engine.documents[key].in_editor:
                continue
            diagnostics = self.workspace.diagnostics(key)
            now = set(diagnostics)
            before = self.previous.get(key, set())
            added = [d for d in diagnostics if d not in before]
            removed = sorted(before - now, key=lambda d: (d.line, d.column))
            score = self.workspace.score(key)
            if event != "start" and not added and not removed and score == self.previous_scores.get(key):
                continue  # rescored (a gold with its prediction), nothing new to say
            self.previous[key] = now
            self.previous_scores[key] = score
            path = shown_path(key)
            if self.as_json:
                print(json.dumps({"event": event, "path": path, "score": score,
                                  "added": [d.as_json() for d in added],
                                  "removed": [d.as_json() for d in removed],
                                  "diagnostics": len(diagnostics)}), flush=True)
            else:
                path = printable_name(path)
                _print_capped("-", removed, path)
                _print_capped("+", added, path)
                print(f"{path}: {self.workspace.status(key)}", flush=True)
            for note in self.workspace.engine.new_notes(key):  # why some validation did not run, once
                print(f"annoscore watch: {printable_name(path)}: UD validation: {note}", file=sys.stderr,
                      flush=True)

    def _deleted(self, key: str) -> None:
        from ..daemon import shown_path
        self.previous.pop(key, None)
        self.previous_scores.pop(key, None)
        path = shown_path(key)
        if self.as_json:
            print(json.dumps({"event": "deleted", "path": path}), flush=True)
        else:
            print(f"{printable_name(path)}: deleted (scored again if it comes back)", flush=True)


def _print_capped(sign: str, diagnostics: list[Shown], path: str) -> None:
    """The diagnostics, at most `SHOWN_PER_CODE` per code, then how many more."""
    shown: dict[str, int] = {}
    for d in diagnostics:
        shown[d.code] = shown.get(d.code, 0) + 1
        if shown[d.code] <= SHOWN_PER_CODE:
            print(f"{sign} {d.text()}")
    for code, n in shown.items():
        if n > SHOWN_PER_CODE:
            print(f"{sign} {path}: … and {n - SHOWN_PER_CODE} more '{code}' "
                  f"(annoscore check {path} lists them all)")


def _start_message(workspace: DiskWorkspace, folders: list[str], keys: list[str]) -> str:
    from ..daemon import shown_path
    documents = [workspace.engine.documents[k] for k in keys if k in workspace.engine.documents]
    with_gold = sum(1 for d in documents if d.setup.gold and os.path.exists(d.setup.gold))
    where = ", ".join(shown_path(f) or "." for f in folders)
    files = f"{len(documents)} file{'s' if len(documents) != 1 else ''}"
    return (f"annoscore watch: watching {where}: {files} annoscore reads ({with_gold} scored against "
            f"gold); printing what changes on every save. Ctrl-C stops.")


def report_config(workspace: DiskWorkspace) -> None:
    for problem in workspace.config_problems:
        print(f"annoscore watch: {problem.text()}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from watchfiles import DefaultFilter, watch  # imported only by the commands that use them

    from ..daemon import DiskWorkspace, files_under
    paths = args.paths or ["."]
    for path in paths:
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file or folder")
    root = paths[0] if os.path.isdir(paths[0]) else os.path.dirname(os.path.abspath(paths[0]))
    workspace = DiskWorkspace(root)
    report_config(workspace)
    skipped: list[str] = []
    keys = [os.path.abspath(p) for p in files_under(paths, skipped) if workspace.add(p)]
    for note in skipped:
        print(f"annoscore watch: {note}", file=sys.stderr, flush=True)
    printer = Printer(workspace, args.json)
    folders = sorted({os.path.abspath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p)))
                      for p in paths} | {os.path.dirname(d.setup.gold) for d in
                                         workspace.engine.documents.values() if d.setup.gold})
    print(_start_message(workspace, folders, keys), file=sys.stderr, flush=True)
    printer.report(workspace.rescore(keys), "start")
    try:
        for changes in watch(*folders, watch_filter=DefaultFilter(), debounce=400, step=50,
                             raise_interrupt=False, ignore_permission_denied=True):
            changed = {os.path.abspath(path) for _, path in changes}
            reads = workspace.config_reads
            keys = workspace.changed(changed)
            if workspace.config_reads != reads:  # the project file changed: new pairs, new files
                report_config(workspace)
                added = [os.path.abspath(p) for p in files_under(paths)
                         if os.path.abspath(p) not in workspace.engine.documents and workspace.add(p)]
                keys += [key for key in workspace.rescore(added) if key not in keys]
            printer.report(keys, "change")
    except KeyboardInterrupt:  # pragma: no cover - watch() already turns it into a clean stop
        pass
    return 0
