"""``annoscore watch [PATH…] [--json]``: the engine without an editor.

Scores everything once, then on every change on disk prints the diagnostics
that appeared or went away (``path:line:col: severity code message``, with
``+``/``-``) and the new score of each file touched; with ``--json``, one
JSON object per line and event, for status lines (tmux, polybar) and
scripts.  Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from .errors import InputError

if TYPE_CHECKING:
    from ..daemon import DiskWorkspace


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("watch", help="score files and rescore on every change on disk",
                              description="Watch PATHs (files or folders; default: the current "
                                          "folder) and print changed diagnostics and scores.")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--json", action="store_true", help="one JSON object per event")
    p.set_defaults(run=run)


class Printer:
    def __init__(self, workspace: DiskWorkspace, as_json: bool) -> None:
        self.workspace = workspace
        self.as_json = as_json
        self.previous: dict[str, set] = {}

    def report(self, keys: list[str], event: str) -> None:
        from ..daemon import score_line
        for key in keys:
            if key not in self.workspace.engine.documents or not self.workspace.engine.documents[key].in_editor:
                continue
            diagnostics = self.workspace.diagnostics(key)
            now = set(diagnostics)
            before = self.previous.get(key, set())
            added = [d for d in diagnostics if d not in before]
            removed = sorted(before - now, key=lambda d: (d.line, d.column))
            self.previous[key] = now
            score = self.workspace.score(key)
            path = os.path.relpath(key)
            if self.as_json:
                print(json.dumps({"event": event, "path": path, "score": score,
                                  "added": [d.as_json() for d in added],
                                  "removed": [d.as_json() for d in removed],
                                  "diagnostics": len(diagnostics)}), flush=True)
            else:
                for d in removed:
                    print(f"- {d.text()}")
                for d in added:
                    print(f"+ {d.text()}")
                print(f"{path}: {score_line(score)}", flush=True)


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
    keys = [os.path.abspath(p) for p in files_under(paths) if workspace.add(p)]
    printer = Printer(workspace, args.json)
    printer.report(workspace.rescore(keys), "start")
    folders = sorted({os.path.abspath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p)))
                      for p in paths} | {os.path.dirname(d.pairing.gold) for d in
                                         workspace.engine.documents.values() if d.pairing.gold})
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
