"""The engine without an editor: files on disk, for ``check`` and ``watch``.

`DiskWorkspace` opens files as if an editor had them (their text read from
disk), rescoring them and their dependents when they change;
`server.cli.watch` feeds it watchfiles events and reports what changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterable

from annoscore.scorer.problems import Problem
from annoscore.scorer.reading import EMPTY, refusal

from annoscore.scorer.excerpt import one_line, printable_name
from .config import Settings, load_project, setup_for
from .project import CONFIG_FILES
from . import workspace
from .workspace import HOW_TO_ALLOW, is_inside

if TYPE_CHECKING:
    from .engine.disk import DiskText

# The engine is imported when a workspace is made, not with this module:
# every command's parser imports the command modules, and `annoscore
# evaluate` should not pay for the engine at start-up.


@dataclass(frozen=True)
class Shown:
    """A diagnostic as the command line shows it (1-based).  A UD validation
    finding carries the validator's test id, level and class (its code is
    the test id, or annoscore's own code when both found the problem: see
    `server.engine.conllu.twins`, which also gives ``ud_line``, the line
    the validator reports it on, when that is another)."""

    path: str
    line: int
    column: int
    end_column: int
    severity: str
    code: str
    message: str
    test_id: str | None = None
    level: int | None = None
    test_class: str | None = None
    ud_line: int | None = None

    def text(self) -> str:
        also = f" [{self.test_id}]" if self.test_id is not None and self.test_id != self.code else ""
        return (f"{printable_name(self.path)}:{self.line}:{self.column}: {self.severity} {self.code} "
                f"{one_line(self.message)}{also}")

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "line": self.line, "column": self.column,
                               "end_column": self.end_column, "severity": self.severity, "code": self.code,
                               "message": self.message}
        if self.test_id is not None:
            out.update({"test_id": self.test_id, "level": self.level, "class": self.test_class})
            if self.ud_line is not None:
                out["ud_line"] = self.ud_line
        return out


def shown(path: str, problem: Problem) -> Shown:
    test_id = problem.datum("test_id") if problem.data else None
    if test_id is None:
        return Shown(path, problem.line + 1, problem.start + 1, problem.end + 1, problem.severity.label,
                     problem.code, problem.message)
    ud_line = problem.datum("ud_line")
    return Shown(path, problem.line + 1, problem.start + 1, problem.end + 1, problem.severity.label,
                 problem.code, problem.message, str(test_id), problem.datum("level"),  # type: ignore[arg-type]
                 problem.datum("class"), None if ud_line is None else ud_line + 1)  # type: ignore[arg-type, operator]




class DiskWorkspace:
    def __init__(self, root: str, settings: Settings | None = None) -> None:
        self.root = os.path.abspath(root)
        self.base_settings = settings
        base, self.config_problems = load_project(self.root, settings)
        from .engine import Engine

        self.engine = Engine(self.root, base)
        self.gold_override: str | None = None
        self.config_reads = 1  # how many times the project file was read
        self.gone: list[str] = []  # tracked files found deleted, for whoever reports changes

    def reload_config(self) -> list[str]:
        """Read the project file again (``config_problems`` says what is
        wrong with it); returns the keys of the documents to rescore."""
        settings, self.config_problems = load_project(self.root, self.base_settings)
        self.config_reads += 1
        keys = self.engine.set_settings(settings)
        for key in keys:
            self._override_gold(key)
        return keys

    def _override_gold(self, key: str) -> None:
        """``check --gold G``: G is the gold of every file, whatever the pairs say."""
        if self.gold_override:
            document = self.engine.documents[key]
            document.setup = replace(document.setup, gold=os.path.abspath(self.gold_override))

    def relevant(self, path: str) -> bool:
        return setup_for(path, self.engine.settings, self.root) is not None

    def add(self, path: str, disk: DiskText | None = None, store: Any = None) -> bool:
        """Track a file (``disk``: its text, read already; ``store``: that
        text's store, made already); False when it is not a file annoscore
        reads."""
        path = os.path.abspath(path)
        setup = setup_for(path, self.engine.settings, self.root)
        if setup is None:
            return False
        if disk is None:
            disk = _read_disk_file(path, setup.format)
        if disk is None:
            return False
        # A file that is not text is tracked too: its one diagnostic says what it is.
        document = self.engine.open(path, path, disk.text, byte_problems=disk.problems, store=store)
        if document is None:
            return False
        self._override_gold(path)
        return True

    def rescore(self, paths: Iterable[str]) -> list[str]:
        """Rescore documents; returns every key whose results may have changed."""
        out: list[str] = []
        for path in paths:
            for key in self.engine.rescore(path):
                if key not in out:
                    out.append(key)
        return out

    def changed(self, paths: Iterable[str]) -> list[str]:
        """Files changed on disk: read tracked ones again, and rescore them and
        the documents scored against them.  A changed project file (at the
        root) is read again, and everything open rescored."""
        to_rescore: list[str] = []
        paths = [os.path.abspath(p) for p in paths]
        if any(os.path.dirname(p) == self.root and os.path.basename(p) in CONFIG_FILES for p in paths):
            to_rescore += self.reload_config()
        for path in paths:
            document = self.engine.documents.get(path)
            if document is not None and document.in_editor:
                disk = _read_disk_file(path, document.format)
                if disk is None:  # gone: what was scored against it is rescored below,
                    del self.engine.documents[path]  # and its gold no longer lists what it lacks
                    self.gone.append(path)
                    if document.setup.gold in self.engine.documents:
                        to_rescore.append(document.setup.gold)
                else:
                    if disk.text != document.store.text or disk.problems != document.byte_problems:
                        document.replace_text(disk.text, disk.problems, from_disk=True)
                    to_rescore.append(path)
            elif document is None and os.path.exists(path) and self.relevant(path) \
                    and self.add(path):
                to_rescore.append(path)
            to_rescore += self.engine.disk_changed(path)
        return self.rescore(dict.fromkeys(to_rescore))

    def diagnostics(self, key: str) -> list[Shown]:
        path = shown_path(key)
        return [shown(path, p) for p in self.engine.diagnostics(key)]

    def score(self, key: str) -> dict[str, Any] | None:
        return self.engine.score(key)

    def status(self, key: str) -> str:
        """One line about a file's score, as check and watch print it after its path."""
        document = self.engine.documents.get(key)
        if document is not None and document.binary is not None:
            return "not scored: not a text file (see its format-binary diagnostic)"
        if document is not None and _is_empty(document.store):
            return EMPTY if _no_bytes(key) else "no sentence: nothing to check"
        score = self.score(key)
        if score is not None and not score.get("metrics"):
            predictions = [shown_path(d.path) for d in self.engine.dependents(key) if d.path]
            if predictions:
                return "the gold of " + ", ".join(predictions)
        return score_line(score)


def _no_bytes(path: str) -> bool:
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False


def _is_empty(store: Any) -> bool:
    """No sentence (CoNLL-U) or no line with text (the line formats)."""
    segments = getattr(store, "segments", None)
    if segments is not None:
        return not any(segment.has_block for segment in segments)
    return not any(map(str.strip, store.lines))


def shown_path(path: str) -> str:
    """A path as the command line shows it: relative to the current folder
    when it is inside it, else absolute (never ``../../tmp/...``)."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative


def files_under(paths: Iterable[str], notes: list[str] | None = None) -> list[str]:
    """The files named, and the files inside the folders named (hidden folders
    skipped, symlinked folders not followed).  Inside a folder, what is not a
    regular file (a FIFO, a device, a socket) and a symlink whose real path
    leaves the folder walked and the project folder are skipped, each said
    in ``notes`` (see `server.workspace`); the user named the folder, not them."""
    out = []
    root = os.getcwd()
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                for name in sorted(names):
                    found = os.path.join(folder, name)
                    why = refusal(found)
                    if why is None and not workspace.allowed_by_command_line and not is_inside(found, [path, root]):
                        why = (f"leads outside the folder walked and the project folder (to "
                               f"{printable_name(os.path.realpath(found))}): not read; {HOW_TO_ALLOW}")
                    if why is not None:
                        if notes is not None and _interesting(found):
                            notes.append(f"{printable_name(found)}: {why}; skipped")
                        continue
                    out.append(found)
        else:
            out.append(path)
    return out


def _interesting(path: str) -> bool:
    """A name annoscore would read (an extension it knows): worth a note when skipped."""
    return os.path.splitext(path)[1].lower() in (".conllu", ".conll", ".txt", ".tsv")


def score_line(score: dict[str, Any] | None) -> str:
    """``LAS 82.51 UAS 85.01 | 3 unparsed, 1 refused`` for a score payload."""
    if not score:
        return "not scored"
    metrics = score.get("metrics") or {}
    main = {"conllu": ("LAS", "UAS", "MLAS"), "space": ("Word", "Boundary"), "tsv": ("Word", "Boundary"),
            "labels": ("Accuracy", "MacroRecall", "MacroF1")}.get(score.get("format"), ())
    parts = [f"{name} {100 * metrics[name]['f1']:.2f}" for name in main if name in metrics]
    if "TaggedWord" in metrics:
        parts.append(f"TaggedWord {100 * metrics['TaggedWord']['f1']:.2f}")
    if not metrics:
        parts.append("no gold")
    counts = score.get("counts") or {}
    extra = [f"{counts[k]} {label}" for k, label in (("unparsed", "unparsed"), ("refused", "refused"),
                                                      ("lowConfidence", "low-confidence"),
                                                      ("missing", "missing"), ("mismatched", "mismatched"))
             if counts.get(k)]
    return " ".join(parts) + (" | " + ", ".join(extra) if extra else "")


def _read_disk_file(path: str, format: str) -> "DiskText | None":
    from .engine.disk import read_disk_file

    return read_disk_file(path, format)
