"""``annoscore tree FILE [--sent-id ID | --line N] [--gold G] [--json]``: a
sentence's tree in the terminal.

The file is read and scored as the language server does (the same engine,
its gold found the same way, or ``--gold``), and each sentence asked for is
drawn by the same renderer as Neovim's ``:AnnoscoreTree``
(`server.engine.treetext`); ``--json`` prints the ``annoscore/tree``
payload instead.  Without ``--sent-id`` or ``--line``, every sentence, one
after another.  Exit status 1 when the sentence asked for is not there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import InputError, UsageError
from .inputs import check_input_file
from .commands import SUMMARIES


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("tree", help=SUMMARIES["tree"],
                              description="Draw the dependency tree of sentences of a CoNLL-U FILE as text, "
                                          "one line per word, with gold's HEAD and DEPREL beside the words "
                                          "that differ (gold: --gold, else NAME.gold.EXT or annoscore.toml).")
    p.add_argument("file", metavar="FILE", help="a CoNLL-U file")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--sent-id", metavar="ID", help="the sentence whose sent_id is ID")
    where.add_argument("--line", type=int, metavar="N", help="the sentence holding line N (from 1, as editors count)")
    p.add_argument("--gold", metavar="G", help="the gold file (default: NAME.gold.EXT or annoscore.toml)")
    p.add_argument("--json", action="store_true", help="the annoscore/tree payload as JSON (one object per line)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..daemon import DiskWorkspace, shown_path  # the engine, imported only by the commands that use it
    from ..engine.conllu.handler import results_of
    from ..engine.tree import sentence_tree
    from ..engine.treetext import render_tree

    if args.line is not None and args.line < 1:
        raise UsageError(f"--line counts from 1, not {args.line}")
    check_input_file(args.file)
    if args.gold:
        check_input_file(args.gold, "gold")
    workspace = DiskWorkspace(os.getcwd())
    workspace.gold_override = args.gold
    key = os.path.abspath(args.file)
    if not workspace.add(args.file) or workspace.engine.documents[key].format != "conllu":
        raise InputError(f"{args.file}: not a CoNLL-U file (annoscore tree draws .conllu files, "
                         "or those annoscore.toml pairs as conllu)")
    workspace.rescore([key])
    engine = workspace.engine
    document = engine.documents[key]
    if document.binary is not None:
        raise InputError(f"{shown_path(key)}: {document.binary.message}")
    infos = results_of(document).index(document.store).infos
    if args.line is not None:
        lines = [args.line - 1]
    elif args.sent_id is not None:
        lines = [info.first_line for info in infos if info.sent_id == args.sent_id][:1]
        if not lines:
            raise InputError(f"{shown_path(key)}: no sentence has the sent_id {args.sent_id!r}")
    else:
        lines = [info.first_line for info in infos]
    shown = 0
    for line in lines:
        payload = sentence_tree(engine, key, line)
        if payload is None:
            continue
        if args.json:
            gold = payload["gold"]
            if gold is not None:
                gold["path"] = shown_path(gold["path"])
            print(json.dumps(payload, ensure_ascii=False))
        else:
            print(("\n" if shown else "") + "\n".join(render_tree(payload)[0]))
        shown += 1
    if args.line is not None and not shown:
        raise InputError(f"{shown_path(key)}:{args.line}: no sentence there")
    sys.stdout.flush()
    return 0
