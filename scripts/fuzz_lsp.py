#!/usr/bin/env python3
"""Fuzz the language server: random edits with UD validation at level 5, saves not awaited.

Each chunk starts the real server (``annoscore lsp`` over stdio, as VS Code
does: UTF-16 positions) in a fresh workspace whose project file asks for
validation at level 5 and raises the diagnostic limits out of reach
(``max_diagnostics``, ``max_diagnostics_per_document``: nothing is summed
up, so every set can be compared whole).  It opens a few small documents
(excerpts of the UD treebanks under the data folder, named as UD files so
that the language is the treebank's; half of them paired with the
unedited excerpt as gold), then sends random edits without waiting for
anything: cell edits, typed and deleted characters, the line and byte
mutations of scripts/fuzz_check.py (lines deleted, duplicated, swapped,
blank lines added and removed, tabs, combining and RTL marks, U+FFFD, NUL,
huge numbers, odd IDs, misplaced empty nodes and comments, CR, BOM), CRLF
everywhere and back, whole-text rewrites (another excerpt, the text as
opened, sentences shuffled), several changes in one notification, empty
changes.  Each edit is sent as an editor sends it (the smallest range, or
the whole document), often followed by a save, sometimes by a pause.

Every ``publishDiagnostics`` is compared with a fresh check of the text of
the version it names (`flicker_support.Fresh`: a new engine as the
server's, the same project file): code, severity, range, message, the
validator's test id and line, related information, as a multiset.  A
document of `MIN_BLOCKS` blocks or more may have its validation in the
helpers while a set is published: that set is held to the documented
allowance instead (`flicker_support.Allowance`, docs/reliability.md).
Every ``--batch`` edits the documents are saved and the last set of each
must be the current version's, equal to its fresh check.  The server's
stderr must have no traceback and the server must still run at the end.

A mismatch is written to ``--out`` as a reproducer (``chunkC-batchB-N.json``:
the document's text at the start of the batch, its gold, every
notification sent since, the version that differs, its text, what was
expected and what was published); ``--replay FILE`` sends it again to a new
server.  Results are kept in ``--out``/checkpoint.json after each chunk, and
a run started again with the same ``--out`` and seed goes on from there.

    nice -n 10 python scripts/fuzz_lsp.py --edits 100000 --seed 0 --out /tmp/fuzz-lsp
    python scripts/fuzz_lsp.py --replay /tmp/fuzz-lsp/chunk3-batch7-0.json

Without the treebanks (``--data``, default ../shared/data/ud) it edits the
tests' own sentences (tests/scorer/data/validation_base.conllu, as English).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import queue
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the tests package (tests/support) and scripts/

from scripts.fuzz_check import DEFAULT_DATA, MUTATIONS, Source, load_corpus  # noqa: E402
from tests.support.flicker import Allowance, Fresh  # noqa: E402
from tests.support.incremental import VALIDATION_EDITS, random_edit  # noqa: E402
from tests.support.lsp import RawServer  # noqa: E402

from annoscore.server.config import load_project  # noqa: E402
from annoscore.server.engine.conllu.validation_parts import MIN_BLOCKS  # noqa: E402

PROJECT = """\
# The LSP fuzz campaign's workspace (scripts/fuzz_lsp.py): every finding shown.
max_diagnostics = 1000000
max_diagnostics_per_document = 1000000

[validation]
level = 5
"""
SELF_MADE = ROOT / "tests" / "scorer" / "data" / "validation_base.conllu"


# --- positions as the client counts them -------------------------------------------------------

_BREAK = re.compile(r"\r\n|\r|\n")


class Lines:
    """A text's line starts, as the LSP ends lines (CRLF, CR, LF)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def position(self, offset: int) -> dict[str, int]:
        """The LSP position of a code point offset, in UTF-16 units."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return {"line": line, "character": utf16_units(self.text[self.starts[line]:offset])}


def utf16_units(text: str) -> int:
    return len(text) + sum(ord(ch) > 0xFFFF for ch in text)


def code_points(line: str, units: int) -> int:
    """A UTF-16 column of ``line`` in code points."""
    column = 0
    for ch in line:
        if units <= 0:
            break
        units -= 2 if ord(ch) > 0xFFFF else 1
        column += 1
    return column + max(units, 0)


def ranged_change(old: str, new: str, rng: random.Random) -> dict:
    """The change an editor sends for ``old`` -> ``new``: the smallest range
    (sometimes widened to whole lines), never splitting a CRLF."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    if start and old[start - 1] == "\r" and (old[start:start + 1] == "\n" or new[start:start + 1] == "\n"):
        start -= 1  # (a position between CR and LF is not one)
    if end_old < len(old) and old[end_old] == "\n" and end_old and old[end_old - 1] == "\r" \
            and end_old > start:
        end_old, end_new = end_old + 1, end_new + 1
    if rng.random() < 0.25:  # whole lines, as a paste or a line command sends them
        while start and old[start - 1] not in "\r\n" and new[start - 1] == old[start - 1]:
            start -= 1
        while end_old < len(old) and old[end_old] not in "\r\n" and end_new < len(new) \
                and old[end_old] == new[end_new]:
            end_old, end_new = end_old + 1, end_new + 1
    lines = Lines(old)
    return {"range": {"start": lines.position(start), "end": lines.position(end_old)},
            "text": new[start:end_new]}


# --- random edits ------------------------------------------------------------------------------

# Line ends as an editor keeps them (VS Code: one kind in a document, CR LF or
# LF): the edits work on the text with LF, and a document switched to CR LF
# (a whole new text, as the editor's "change the line ends" sends) has every
# LF sent as CR LF.  A lone CR, or a CR joined to an LF by an edit next to it,
# is left out: the server keeps LF only, with a flag that the text had a CR
# (`TextStore.has_cr`, cleared by a whole new text), and no editor sends those.
LINE_MUTATIONS = [m for m in MUTATIONS if m.on_lines and m.name != "cr-lines"]
TYPED = ("\t", " ", "\n", "_", "0", "1", "2", "9", "a", "é", "-", ".", ":", "|", "=", "#", "\ufeff",
         "\x00", "\ufffd", "\u0301", "\u200f", "\U0001F600")


def _lines_mutated(mutation):
    def edit(text: str, rng: random.Random, document: "Document") -> str:
        lines = text.split("\n")
        mutation.on_lines(lines, rng)
        return "\n".join(lines)
    return edit


def _cell(text, rng, document):
    return random_edit(text, VALIDATION_EDITS, rng)[1]


def _type(text, rng, document):
    """A character typed or deleted somewhere (a keystroke)."""
    at = rng.randrange(len(text) + 1)
    if text and rng.random() < 0.4:
        return text[:at] + text[at + 1:]
    return text[:at] + rng.choice(TYPED) + text[at:]


def _bom(text, rng, document):
    if rng.random() < 0.5:
        return "\ufeff" + text
    starts = Lines(text).starts
    at = rng.choice(starts)
    return text[:at] + "\ufeff" + text[at:]


def _another_excerpt(text, rng, document):
    return excerpt(document.source, rng, document.sentences)


def _as_opened(text, rng, document):
    return document.opened


def _shuffled(text, rng, document):
    blocks = [b for b in text.split("\n\n") if b.strip("\n")]
    rng.shuffle(blocks)
    return "\n\n".join(blocks) + "\n\n"


def _many(text, rng, document):
    for _ in range(rng.randint(2, 5)):
        text = rng.choice(SMALL_EDITS)[1](text, rng, document)
    return text


SMALL_EDITS = [("cell", _cell)] * 6 + [("type", _type)] * 3 + \
    [(m.name, _lines_mutated(m)) for m in LINE_MUTATIONS] + [("bom", _bom)]
REWRITES = [("crlf", None), ("another-excerpt", _another_excerpt), ("as-opened", _as_opened),
            ("shuffled", _shuffled), ("many", _many)]


def random_text_edit(text: str, rng: random.Random, document: "Document") -> tuple[str, str]:
    """(what kind of edit, the edited text)."""
    name, edit = rng.choice(REWRITES) if rng.random() < 0.04 else rng.choice(SMALL_EDITS)
    if edit is None:  # the line ends switched: the same text
        document.crlf = not document.crlf
        return name, text
    return name, edit(text, rng, document)


# --- documents ---------------------------------------------------------------------------------


def excerpt(source: Source, rng: random.Random, sentences: tuple[int, int]) -> str:
    count = min(rng.randint(*sentences), len(source.blocks))
    start = rng.randrange(len(source.blocks) - count + 1)
    return "\n\n".join(b.strip("\n") for b in source.blocks[start:start + count]) + "\n\n"


def self_made_corpus() -> list[Source]:
    """The tests' own sentences, as an English treebank (when the real ones are absent)."""
    text = SELF_MADE.read_text(encoding="utf-8").strip("\n") + "\n\n"
    blocks = [b for b in (text * 6).split("\n\n") if b.strip()]
    return [Source("en_mini-ud-test.conllu", "en", blocks)]


@dataclass
class Document:
    name: str
    source: Source
    sentences: tuple[int, int]
    opened: str
    gold: str | None
    text: str = ""
    version: int = 1
    texts: dict[int, str] = field(default_factory=dict)  # by version, since the batch began
    base: str = ""            # the text when the batch began
    base_version: int = 1
    sent: list = field(default_factory=list)  # the notifications since then
    allowance: Allowance = field(default_factory=Allowance)
    crlf: bool = False        # whether its line ends are CR LF

    def wire(self, text: str) -> str:
        """The text as the editor sends it (its line ends)."""
        return text.replace("\n", "\r\n") if self.crlf else text

    @property
    def plain(self) -> str:
        """The text with LF line ends, which the edits work on."""
        return self.text.replace("\r\n", "\n")

    @property
    def large(self) -> bool:
        """Whether its validation may go to the helpers (and sets be published
        meanwhile): a text of the batch has `MIN_BLOCKS` blocks or more."""
        return max(t.count("\n\n") for t in self.texts.values()) + 1 >= MIN_BLOCKS


# --- counts ------------------------------------------------------------------------------------


@dataclass
class Counts:
    chunks: int = 0
    edits: int = 0
    changes_sent: int = 0
    saves: int = 0
    published: int = 0
    compared: int = 0
    equal: int = 0
    allowed: int = 0  # sets of a large document published while its validation was pending
    fresh_checks: int = 0
    mismatches: int = 0
    faults: int = 0
    seconds: float = 0.0
    cpu_client: float = 0.0  # this process's CPU seconds (the fresh checks, mostly)
    cpu_server: float = 0.0  # the servers'
    kinds: Counter = field(default_factory=Counter)

    def add(self, other: "Counts") -> None:
        for name, value in vars(other).items():
            if name == "kinds":
                self.kinds.update(other.kinds)
            else:
                setattr(self, name, getattr(self, name) + value)

    def as_json(self) -> dict:
        return {**vars(self), "kinds": dict(self.kinds)}

    def report(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        return (f"{self.chunks} chunks, {self.edits} edits ({self.changes_sent} didChange, {self.saves} "
                f"didSave), {self.published} sets published, {self.compared} compared with a fresh check "
                f"({self.equal} equal, {self.allowed} within the allowance while validation was pending), "
                f"{self.fresh_checks} fresh checks, {self.mismatches} mismatches, {self.faults} server faults, "
                f"{self.seconds:.0f} s (CPU: {self.cpu_client:.0f} s here, {self.cpu_server:.0f} s in the servers)"
                f"\nedits: {kinds}")


# --- one chunk: a server, a few documents, batches of edits -----------------------------------


class Mismatch(Exception):
    pass


class Campaign:
    def __init__(self, sources: list[Source], out: Path, sentences=(5, 40), batch: int = 100,
                 documents: int = 3, pauses=(0, 0, 0, 0, 0, 0.001, 0.003, 0.01, 0.03)) -> None:
        self.sources, self.out, self.sentences, self.batch = sources, out, sentences, batch
        self.documents, self.pauses = documents, pauses

    # the wire
    def _drain(self, server: RawServer, timeout: float = 0.0) -> None:
        """Read what the server sent: keep the published sets, answer its requests."""
        while True:
            try:
                message = server.messages.get(timeout=timeout) if timeout else server.messages.get_nowait()
            except queue.Empty:
                return
            timeout = 0.0
            if message is None:
                raise Mismatch("the server closed its stdout: " + "".join(server.stderr[-5:]))
            if "id" in message and "method" in message:  # a request: an editor answers it
                server.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.received.append(message["params"])

    def _notify(self, server: RawServer, method: str, params: dict, document: Document | None = None) -> None:
        if document is not None:
            document.sent.append([method, params])
        server.send({"jsonrpc": "2.0", "method": method, "params": params})

    def run_chunk(self, seed: int, chunk: int, edits: int) -> Counts:
        rng = random.Random(f"{seed}:{chunk}")
        counts = Counts(chunks=1)
        began, cpu = time.perf_counter(), time.process_time()
        folder = self.folder = Path(tempfile.mkdtemp(prefix="annoscore-fuzz-lsp-"))
        server = None
        try:
            (folder / "annoscore.toml").write_text(PROJECT, encoding="utf-8")
            self.settings = load_project(str(folder))[0]
            docs = self._documents(folder, rng)
            server = RawServer(folder)
            server.initialize()
            self.received: list[dict] = []
            self.fresh: dict[tuple[str, str], Fresh] = {}
            self.uris = {(folder / d.name).as_uri(): d for d in docs}
            for uri, d in self.uris.items():
                self._notify(server, "textDocument/didOpen", {"textDocument": {
                    "uri": uri, "languageId": "conllu", "version": 1, "text": d.text}})
            batch = 0
            while counts.edits < edits:
                for _ in range(min(self.batch, edits - counts.edits)):
                    self._edit(server, rng, counts)
                    self._drain(server)
                    pause = rng.choice(self.pauses)
                    if pause:
                        time.sleep(pause)
                self._settle(server, counts, chunk, batch)
                batch += 1
            if server.process.poll() is not None:
                raise Mismatch(f"the server exited ({server.process.returncode})")
        except Mismatch as error:
            counts.faults += 1
            self._write({"chunk": chunk, "seed": seed, "fault": str(error),
                         "stderr": "".join(server.stderr[-40:]) if server else ""}, f"chunk{chunk}-fault")
        finally:
            if server is not None:
                counts.cpu_server = cpu_seconds(server.process.pid)
                try:
                    server.stop()
                except (AssertionError, OSError, Exception):  # noqa: BLE001 - counted below
                    pass
                if any("Traceback (most recent call last)" in line for line in server.stderr):
                    counts.faults += 1
                    self._write({"chunk": chunk, "seed": seed, "fault": "a traceback on the server's stderr",
                                 "stderr": "".join(server.stderr[-80:])}, f"chunk{chunk}-traceback")
            shutil.rmtree(folder, ignore_errors=True)
        counts.seconds = time.perf_counter() - began
        counts.cpu_client = time.process_time() - cpu
        return counts

    def _documents(self, folder: Path, rng: random.Random) -> list[Document]:
        docs = []
        for k in range(rng.randint(1, self.documents)):
            source = rng.choice(self.sources)
            text = excerpt(source, rng, self.sentences)
            name = f"{source.lang}_fuzz{k}-ud-test.conllu"  # (a UD name: the language is the treebank's)
            gold = text if rng.random() < 0.5 else None
            if gold is not None:
                (folder / name.replace(".conllu", ".gold.conllu")).write_text(gold, encoding="utf-8")
            docs.append(Document(name, source, self.sentences, text, gold, text, 1, {1: text}, text, 1))
        return docs

    def _edit(self, server: RawServer, rng: random.Random, counts: Counts) -> None:
        uri = rng.choice(list(self.uris))
        d = self.uris[uri]
        how = rng.random()
        changes: list[dict] = []
        text = d.text
        if how < 0.01:  # a didChange that changes nothing (clients send one now and then)
            kind = "no-change"
        elif how < 0.05:  # the whole text (a revert, a reload, a formatter)
            kind, plain = random_text_edit(d.plain, rng, d)
            text = d.wire(plain)
            changes.append({"text": text})
            kind += " (whole)"
        else:
            for _ in range(1 if rng.random() < 0.9 else rng.randint(2, 3)):  # several in one notification
                crlf = d.crlf
                kind, plain = random_text_edit(text.replace("\r\n", "\n"), rng, d)
                new = d.wire(plain)
                # (new line ends: the whole text, as the editor sends it)
                changes.append(ranged_change(text, new, rng) if crlf == d.crlf else {"text": new})
                text = new
        d.version += 1
        d.text = d.texts[d.version] = text
        counts.edits += 1
        counts.changes_sent += 1
        counts.kinds[kind.split(" ")[0]] += 1
        self._notify(server, "textDocument/didChange", {
            "textDocument": {"uri": uri, "version": d.version}, "contentChanges": changes}, d)
        if rng.random() < 0.4:  # saves not awaited, in bursts now and then
            for _ in range(1 if rng.random() < 0.8 else rng.randint(2, 4)):
                self._notify(server, "textDocument/didSave", {"textDocument": {"uri": uri}}, d)
                counts.saves += 1

    # comparing
    def _fresh(self, d: Document, text: str, counts: Counts) -> Fresh:
        key = (d.name, text)
        if key not in self.fresh:
            if len(self.fresh) > 256:
                self.fresh.clear()
            self.fresh[key] = Fresh(self.folder, self.folder / d.name, text, self.settings)
            counts.fresh_checks += 1
        return self.fresh[key]

    def _settle(self, server: RawServer, counts: Counts, chunk: int, batch: int) -> None:
        """Save every document, wait for its current version to be published,
        compare every set received, and begin the next batch."""
        for uri, d in self.uris.items():
            self._notify(server, "textDocument/didSave", {"textDocument": {"uri": uri}}, d)
            counts.saves += 1
        deadline = time.monotonic() + 120
        while True:
            last = {}
            for params in self.received:
                last[params["uri"]] = params.get("version")
            if all(last.get(uri) == d.version for uri, d in self.uris.items()) and \
                    all(self._complete(d, self.received) for d in self.uris.values()):
                break
            if time.monotonic() > deadline:
                break
            self._drain(server, timeout=0.05)
        self._drain(server)
        for number, params in enumerate(self.received):
            counts.published += 1
            self._compare(params, counts, chunk, batch, number)
        for uri, d in self.uris.items():
            if last.get(uri) != d.version:
                counts.mismatches += 1
                self._write(self._reproducer(d, chunk, batch, None, None,
                                             f"the last set published is of version {last.get(uri)}, "
                                             f"not of the current {d.version}"), f"chunk{chunk}-batch{batch}-late")
            d.base, d.base_version, d.sent, d.texts = d.text, d.version, [], {d.version: d.text}
        self.received = []

    def _complete(self, d: Document, received: list[dict]) -> bool:
        """For a large document, whether its last set is the fresh check's (its
        validation done); a small one's every set is complete."""
        if not d.large:
            return True
        mine = [p for p in received if self.uris.get(p["uri"]) is d]
        return bool(mine) and mine[-1].get("version") == d.version and \
            self._published(mine[-1], d) == self._fresh(d, d.text, Counts()).wire

    def _published(self, params: dict, d: Document) -> Counter:
        """The set published, as `flicker_support.wire_entry` gives it (code points)."""
        store = self._fresh(d, d.texts[params["version"]], Counts()).store if params.get("version") in d.texts \
            else None
        out: Counter = Counter()
        for diagnostic in params["diagnostics"]:
            def column(position):
                line = store.line(position["line"]) if store is not None else ""
                return code_points(line, position["character"])
            start, end = diagnostic["range"]["start"], diagnostic["range"]["end"]
            data = diagnostic.get("data") or {}
            related = tuple((r["location"]["range"]["start"]["line"], column(r["location"]["range"]["start"]),
                             column(r["location"]["range"]["end"]), r["message"])
                            for r in diagnostic.get("relatedInformation", ()))
            out[(diagnostic.get("code"), diagnostic.get("severity"), start["line"], column(start), column(end),
                 diagnostic.get("message"), data.get("test_id"), data.get("ud_line"), related)] += 1
            if end["line"] != start["line"]:
                out[("a range over several lines", start["line"], end["line"])] += 1
        return out

    def _compare(self, params: dict, counts: Counts, chunk: int, batch: int, number: int) -> None:
        d = self.uris.get(params["uri"])
        if d is None:
            return
        version = params.get("version")
        if version not in d.texts:
            counts.mismatches += 1
            self._write(self._reproducer(d, chunk, batch, version, None,
                                         f"a set published for version {version}, which is not one sent in this "
                                         f"batch (versions {d.base_version}-{d.version})"),
                        f"chunk{chunk}-batch{batch}-{number}")
            return
        counts.compared += 1
        expected = self._fresh(d, d.texts[version], counts)
        got = self._published(params, d)
        if got == expected.wire:
            d.allowance.judge(version, expected.all, expected, d.texts[version])
            counts.equal += 1
            return
        if d.large:
            simple = {(e[0], e[2], e[3], e[4], e[5]) for e in got if len(e) == 9}
            try:
                d.allowance.judge(version, simple, expected, d.texts[version])
                counts.allowed += 1
                return
            except AssertionError as error:
                why = f"outside the allowance: {error}"
        else:
            why = "differs from a fresh check of its version"
        counts.mismatches += 1
        self._write(self._reproducer(d, chunk, batch, version, (expected.wire, got), why),
                    f"chunk{chunk}-batch{batch}-{number}")

    # reproducers
    def _reproducer(self, d: Document, chunk: int, batch: int, version, sets, why: str) -> dict:
        found = {"chunk": chunk, "batch": batch, "why": why, "document": d.name, "gold": d.gold,
                 "base_version": d.base_version, "base": d.base, "sent": d.sent, "version": version,
                 "text": d.texts.get(version)}
        if sets is not None:
            expected, got = sets
            found["expected_only"] = [list(map(str, e)) for e in sorted((expected - got).elements(), key=str)][:40]
            found["published_only"] = [list(map(str, e)) for e in sorted((got - expected).elements(), key=str)][:40]
        return found

    def _write(self, found: dict, stem: str) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"{stem}.json"
        path.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"fuzz_lsp: {found.get('why') or found.get('fault')} -> {path}", file=sys.stderr, flush=True)


def cpu_seconds(pid: int) -> float:
    """A running process's CPU seconds, user and system (Linux; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


# --- replaying a reproducer --------------------------------------------------------------------


def replay(path: Path) -> int:
    """Send a reproducer's notifications again to a new server, without
    pauses, and compare every set published as the campaign does."""
    found = json.loads(path.read_text(encoding="utf-8"))
    folder = Path(tempfile.mkdtemp(prefix="annoscore-fuzz-lsp-"))
    try:
        (folder / "annoscore.toml").write_text(PROJECT, encoding="utf-8")
        name = found["document"]
        if found.get("gold") is not None:
            (folder / name.replace(".conllu", ".gold.conllu")).write_text(found["gold"], encoding="utf-8")
        campaign = Campaign([], folder / "replay")
        campaign.settings, campaign.folder = load_project(str(folder))[0], folder
        uri = (folder / name).as_uri()
        d = Document(name, Source(name, "", []), (1, 1), found["base"], found.get("gold"), found["base"],
                     found["base_version"], {found["base_version"]: found["base"]}, found["base"],
                     found["base_version"])
        campaign.uris, campaign.received, campaign.fresh = {uri: d}, [], {}
        server = RawServer(folder)
        server.initialize()
        campaign._notify(server, "textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "conllu", "version": d.version, "text": d.text}})
        text = d.text
        for method, params in found["sent"]:
            params["textDocument"]["uri"] = uri
            if method == "textDocument/didChange":
                for change in params["contentChanges"]:
                    text = apply_change(text, change)
                d.version = params["textDocument"]["version"]
                d.text = d.texts[d.version] = text
            campaign._notify(server, method, params)
        counts = Counts()
        campaign._settle(server, counts, -1, 0)
        server.stop()
        print(counts.report())
        return 1 if counts.mismatches or counts.faults else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def apply_change(text: str, change: dict) -> str:
    """A content change applied as the LSP says (UTF-16 positions)."""
    if "range" not in change:
        return change["text"]
    lines = Lines(text)

    def offset(position):
        start = lines.starts[min(position["line"], len(lines.starts) - 1)]
        end = lines.starts[position["line"] + 1] if position["line"] + 1 < len(lines.starts) else len(text)
        line = text[start:end].rstrip("\r\n")
        return start + code_points(line, position["character"])
    r = change["range"]
    return text[:offset(r["start"])] + change["text"] + text[offset(r["end"]):]


# --- the campaign, in chunks -------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=100_000, help="edits in all (default 100000)")
    parser.add_argument("--chunk", type=int, default=2_000, help="edits per server (default 2000)")
    parser.add_argument("--batch", type=int, default=100, help="edits between two settled points (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed (default 0)")
    parser.add_argument("--out", type=Path, help="reproducers and checkpoint.json go here")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"the treebanks (default {DEFAULT_DATA})")
    parser.add_argument("--sentences", type=int, nargs=2, default=(5, 40), metavar=("MIN", "MAX"),
                        help="sentences per document (default 5 40)")
    parser.add_argument("--replay", type=Path, help="send a reproducer again")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    if args.out is None:
        parser.error("--out is required (reproducers and the checkpoint)")
    sources = load_corpus(args.data) if args.data.is_dir() else []
    if not sources:
        print(f"fuzz_lsp: no treebank under {args.data}: editing the tests' own sentences", file=sys.stderr)
        sources = self_made_corpus()
    checkpoint = args.out / "checkpoint.json"
    total, done = Counts(), 0
    if checkpoint.exists():
        saved = json.loads(checkpoint.read_text(encoding="utf-8"))
        if saved["seed"] == args.seed:
            done = saved["next_chunk"]
            total = Counts(**{**saved["counts"], "kinds": Counter(saved["counts"]["kinds"])})
            print(f"fuzz_lsp: going on from chunk {done} ({total.edits} edits done)", file=sys.stderr)
    campaign = Campaign(sources, args.out, tuple(args.sentences), args.batch)
    chunk = done
    while total.edits < args.edits:
        counts = campaign.run_chunk(args.seed, chunk, min(args.chunk, args.edits - total.edits))
        total.add(counts)
        chunk += 1
        args.out.mkdir(parents=True, exist_ok=True)
        checkpoint.write_text(json.dumps({"seed": args.seed, "next_chunk": chunk, "counts": total.as_json()}),
                              encoding="utf-8")
        print(f"… chunk {chunk - 1}: {counts.edits} edits, {counts.compared} compared, {counts.mismatches} "
              f"mismatches, {counts.seconds:.0f} s; {total.edits} edits in all", file=sys.stderr, flush=True)
    print(total.report())
    return 1 if total.mismatches or total.faults else 0


if __name__ == "__main__":
    sys.exit(main())
