"""``--official PATH``: run the official conll18_ud_eval.py beside our scorer.

The script is the user's own download; it runs in a separate process, so
annoscore never imports it: ``python PATH -v GOLD SYSTEM`` for a Python file
(or any file that is not executable), ``PATH -v GOLD SYSTEM`` for another
executable file or a command found on PATH (udtools' ``udeval``).  It gets the
predicted sentences that were scored and their gold sentences, written again
so that it can load them, with refused trees repaired for that run only (see
`scorer.conllu.repair`).  Its table is parsed and printed beside ours.  When
it fails (it cannot start, exits non-zero, prints no table) the report says
what it printed, and `annoscore evaluate` exits 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

from annoscore.scorer.conllu.evaluate import ConlluResult
from annoscore.scorer.conllu.repair import repaired_text
from annoscore.scorer.conllu.sentence import Sentence
from annoscore.scorer.excerpt import quoted
from annoscore.scorer.report import percent, render_table


TIMEOUT_SECONDS = 3600


class OfficialScriptError(Exception):
    """The official script named with --official cannot be run (not found)."""


@dataclass
class OfficialTable:
    metrics: dict[str, tuple[float, float, float, float | None]] = field(default_factory=dict)
    sentences: int = 0
    repaired_sentences: int = 0
    repaired_words: int = 0
    left_out_sentences: int = 0
    error: str | None = None

    def as_json(self) -> dict:
        return {
            "metrics": {name: {"precision": p / 100, "recall": r / 100, "f1": f / 100,
                               "aligned_accuracy": None if a is None else a / 100}
                        for name, (p, r, f, a) in self.metrics.items()},
            "sentences": self.sentences,
            "repaired_sentences": self.repaired_sentences,
            "repaired_words": self.repaired_words,
            "left_out_sentences": self.left_out_sentences,
            "error": self.error,
        }

    def side_by_side(self, ours: ConlluResult) -> str:
        head = (f"The official script, on the {self.sentences} predicted sentences that were scored"
                f" ({self.repaired_sentences} with repaired trees, {self.repaired_words} words moved")
        head += f"; {self.left_out_sentences} left out: empty FORM)" if self.left_out_sentences else ")"
        if self.error:
            return head + f":\n  it failed: {self.error}"
        rows = []
        for name, (p, r, f, _) in self.metrics.items():
            try:
                mine = ours.counts.score(name)
            except KeyError:
                continue
            rows.append([name, percent(mine.precision), percent(mine.recall), percent(mine.f1),
                         f"{p:.2f}", f"{r:.2f}", f"{f:.2f}"])
        table = render_table(["Metric", "Precision", "Recall", "F1", "Official P", "Official R",
                              "Official F1"], rows)
        return head + ":\n" + table


def parse_official_table(text: str) -> dict[str, tuple[float, float, float, float | None]]:
    """Rows of ``conll18_ud_eval.py -v`` output: ``LAS | 82.51 | 82.51 | 82.51 | 82.51``."""
    metrics = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 4 or cells[0] in ("Metric", "") or set(cells[0]) <= {"-", "+"}:
            continue
        try:
            p, r, f = float(cells[1]), float(cells[2]), float(cells[3])
        except ValueError:
            continue
        aligned = float(cells[4]) if len(cells) > 4 and cells[4] else None
        metrics[cells[0]] = (p, r, f, aligned)
    return metrics


def official_command(script: str) -> list[str]:
    """How to run ``--official SCRIPT``: a file (with Python unless it is an
    executable that is not a .py file), else a command on PATH."""
    if os.path.isfile(script):
        if script.endswith(".py") or not os.access(script, os.X_OK):
            return [sys.executable, script]
        return [os.path.abspath(script)]
    found = shutil.which(script)
    if found is None:
        raise OfficialScriptError(f"{script}: not found, neither as a file nor as a command on PATH "
                         "(--official takes the path of conll18_ud_eval.py, or a command such as udeval)")
    return [found]


def _what_it_printed(text: str, where: str) -> str:
    """A few words on a failed run's output: nothing, or its last line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return f"it printed nothing {where}"
    last = "its only line" if len(lines) == 1 else f"the last of its {len(lines)} lines"
    return f"{last} {where}: {quoted(lines[-1].strip(), 120)}"


class OfficialRun:
    """Collects scored chunks (as `ChunkSink`), then runs the script on them."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.command = official_command(script)
        self.folder = tempfile.mkdtemp(prefix="annoscore-official-")
        self.gold_path = os.path.join(self.folder, "gold.conllu")
        self.system_path = os.path.join(self.folder, "system.conllu")
        self._gold = open(self.gold_path, "w", encoding="utf-8")
        self._system = open(self.system_path, "w", encoding="utf-8")
        self.table = OfficialTable()

    def __call__(self, gold: list[Sentence], system: list[Sentence]) -> None:
        gold_texts = [repaired_text(s) for s in gold]
        system_texts = [repaired_text(s) for s in system]
        if any(t is None for t in gold_texts + system_texts):
            self.table.left_out_sentences += len(system)
            return
        for text, _ in gold_texts:  # type: ignore[misc]
            self._gold.write(text)
        for text, changed in system_texts:  # type: ignore[misc]
            self._system.write(text)
            self.table.sentences += 1
            if changed:
                self.table.repaired_sentences += 1
                self.table.repaired_words += changed

    def run(self) -> OfficialTable:
        self._gold.close()
        self._system.close()
        try:
            done = subprocess.run(self.command + ["-v", self.gold_path, self.system_path],
                                  capture_output=True, text=True, errors="replace", timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self.table.error = f"{self.script} did not finish in {TIMEOUT_SECONDS} s"
        except OSError as error:
            self.table.error = f"{self.script} could not be started: {error.strerror or error}"
        else:
            if done.returncode != 0:
                self.table.error = (f"{self.script} exited with status {done.returncode}; "
                                    + _what_it_printed(done.stderr or done.stdout, "on stderr"))
            else:
                self.table.metrics = parse_official_table(done.stdout)
                if not self.table.metrics:
                    self.table.error = (f"{self.script} printed no table of scores (is it "
                                        "conll18_ud_eval.py?); " + _what_it_printed(done.stdout, "on stdout"))
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
        return self.table
