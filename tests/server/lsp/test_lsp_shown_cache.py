"""A large document opened again shows what it showed, at once (`server.lsp.shown_cache`).

Through the real server, as subprocesses: a reference server with no cache
opens a document of over 1 MiB, waits for its UD validation's findings,
then edits one cell.  A server with the cache does the same twice (the
entry is kept after the first complete publication, and the second opening
is published from it), and a new server process once more.  Every opening
from the cache publishes, as its first publication, exactly the reference's
complete diagnostics and score; it publishes nothing else for that version
(the live model built behind it showed the same); and the edit after it
shows what the reference shows for the edited text.  A damaged entry is
ignored, said on stderr and made again.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.support.data import ROOT
from tests.support.lsp import RawServer
from tests.support.validation_inject import inject, repeat
from annoscore.server.lsp import shown_cache

BASE = (ROOT / "tests" / "scorer" / "data" / "validation_base.conllu").read_text(encoding="utf-8")
TIMEOUT = 120.0


def document() -> str:
    text = inject(repeat(BASE, 240), 3)
    assert len(text) >= shown_cache.MIN_CHARS
    return text


class Session:
    """One server process, its publications by version."""

    def __init__(self, folder: Path, cache: Path | None) -> None:
        env = {k: v for k, v in os.environ.items() if k != "ANNOSCORE_NO_CACHE"}
        if cache is None:
            env["ANNOSCORE_NO_CACHE"] = "1"
        else:
            env["XDG_CACHE_HOME"] = str(cache)
        self.raw = RawServer(folder, env)
        self.raw.initialize()
        self.path = folder / "big.conllu"
        self.uri = self.path.resolve().as_uri()
        self.published: list[dict] = []
        self.scores: list[dict] = []

    def _take(self) -> None:
        message = self.raw.next(TIMEOUT)
        params = message.get("params") or {}
        if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == self.uri:
            self.published.append(params)
        elif message.get("method") == "annoscore/score" and params.get("uri") == self.uri:
            self.scores.append(params)

    def until_complete(self, version: int) -> dict:
        """The first publication of ``version`` with the validator's findings."""
        while True:
            for params in self.published:
                if params.get("version") == version and any((d.get("data") or {}).get("test_id")
                                                            for d in params["diagnostics"]):
                    return params
            self._take()

    def first(self, version: int) -> dict:
        while not any(p.get("version") == version for p in self.published):
            self._take()
        return next(p for p in self.published if p.get("version") == version)

    def of(self, version: int) -> list[dict]:
        return [p for p in self.published if p.get("version") == version]

    def open(self, text: str, version: int) -> None:
        self.raw.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": self.uri, "languageId": "conllu", "version": version, "text": text}}})

    def close(self) -> None:
        self.raw.send({"jsonrpc": "2.0", "method": "textDocument/didClose",
                       "params": {"textDocument": {"uri": self.uri}}})

    def edit(self, text: str, version: int) -> None:
        """One cell changed (a FORM: the validator and the own pass see it), then saved."""
        lines = text.split("\n")
        line = next(k for k, l in enumerate(lines) if l.startswith("1\t") and k > 5000)
        form = lines[line].split("\t")[1]
        self.raw.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": self.uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": 2},
                                          "end": {"line": line, "character": 2 + len(form)}},
                                "text": form + "x"}]}})
        self.raw.send({"jsonrpc": "2.0", "method": "textDocument/didSave",
                       "params": {"textDocument": {"uri": self.uri}}})

    def score_of(self, version: int) -> dict:
        found = [s for s in self.scores if s.get("version") == version]
        return found[-1]

    def stop(self) -> str:
        self.raw.stop()
        return "".join(self.raw.stderr)


def shown(params: dict) -> list[str]:
    """The diagnostics, in one order, the document's URI left out (each test has its own folder)."""
    uri = json.dumps(params["uri"])
    return sorted(json.dumps(d, sort_keys=True).replace(uri, '"URI"') for d in params["diagnostics"])


def same_score(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "uri"} == {k: v for k, v in b.items() if k != "uri"}


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "annoscore" / "validation").glob("shown-*.json"))


def kept(cache: Path, other_than: bytes | None = None) -> Path:
    """The entry, once written (and not ``other_than``)."""
    waited = 0.0
    while True:
        found = entries(cache)
        if found and found[0].read_bytes() != other_than:
            return found[0]
        assert waited < TIMEOUT, "nothing kept"
        time.sleep(0.1)
        waited += 0.1


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """What a server without the cache shows: the opened text (complete)
    and after the edit (complete)."""
    folder = tmp_path_factory.mktemp("reference")
    (folder / "annoscore.toml").write_text("[validation]\nlevel = 3\n", encoding="utf-8")
    text = document()
    (folder / "big.conllu").write_text(text, encoding="utf-8")
    session = Session(folder, None)
    session.open(text, 1)
    opened = session.until_complete(1)
    score = session.score_of(1)
    session.edit(text, 2)
    edited = session.until_complete(2)
    session.stop()
    return {"text": text, "opened": shown(opened), "score": score, "edited": shown(edited)}


def test_reopened_shows_at_once_what_a_fresh_server_shows(reference, tmp_path):
    (tmp_path / "annoscore.toml").write_text("[validation]\nlevel = 3\n", encoding="utf-8")
    text = reference["text"]
    (tmp_path / "big.conllu").write_text(text, encoding="utf-8")
    cache = tmp_path / "cache"

    session = Session(tmp_path, cache)
    session.open(text, 1)
    assert shown(session.until_complete(1)) == reference["opened"]
    # Kept once complete; then opened again in the same server: from the cache.
    kept(cache)
    session.close()
    session.open(text, 2)
    first = session.first(2)
    assert shown(first) == reference["opened"]
    session.edit(text, 3)
    assert shown(session.until_complete(3)) == reference["edited"]
    assert len(session.of(2)) == 1  # the live model behind it showed the same: nothing sent again
    session.stop()

    # A new server process: the entry on disk.
    later = Session(tmp_path, cache)
    later.open(text, 1)
    assert shown(later.first(1)) == reference["opened"]
    later.edit(text, 2)
    assert shown(later.until_complete(2)) == reference["edited"]
    assert later.scores[0]["version"] == 1 and same_score(later.scores[0], reference["score"])
    assert len(later.of(1)) == 1
    later.stop()


def test_a_damaged_entry_is_ignored_and_made_again(reference, tmp_path):
    (tmp_path / "annoscore.toml").write_text("[validation]\nlevel = 3\n", encoding="utf-8")
    text = reference["text"]
    (tmp_path / "big.conllu").write_text(text, encoding="utf-8")
    cache = tmp_path / "cache"
    session = Session(tmp_path, cache)
    session.open(text, 1)
    session.until_complete(1)
    entry = kept(cache)
    session.stop()
    data = entry.read_bytes()
    # A diagnostic of another shape (a severity the LSP has not).
    entry.write_bytes(data.replace(b'"severity": 1', b'"severity": 9', 1))
    assert entry.read_bytes() != data

    again = Session(tmp_path, cache)
    again.open(text, 1)
    assert shown(again.until_complete(1)) == reference["opened"]
    assert kept(cache, other_than=data.replace(b'"severity": 1', b'"severity": 9', 1)).read_bytes() == data
    stderr = again.stop()
    assert "was not usable" in stderr


def test_what_depends_on_other_files_is_not_kept(tmp_path, monkeypatch):
    """A document with gold, or that is another's gold, or checked for
    leaks, shows what other files hold: no key, nothing kept."""
    from annoscore.server.config import Settings, SplitSettings
    from annoscore.server.engine.engine import Engine

    monkeypatch.delenv("ANNOSCORE_NO_CACHE", raising=False)
    text = "x" * shown_cache.MIN_CHARS
    pred, gold = tmp_path / "a.conllu", tmp_path / "a.gold.conllu"
    pred.write_text("", encoding="utf-8")
    engine = Engine(str(tmp_path), Settings())
    assert shown_cache.entry_key(engine, str(pred), str(pred), text, pred.as_uri(), "utf-16") is not None
    assert shown_cache.entry_key(engine, str(pred), str(pred), text[1:], pred.as_uri(), "utf-16") != \
        shown_cache.entry_key(engine, str(pred), str(pred), text, pred.as_uri(), "utf-16")
    assert shown_cache.entry_key(engine, str(pred), str(pred), text[:100], pred.as_uri(), "utf-16") is None
    gold.write_text("", encoding="utf-8")
    assert shown_cache.entry_key(engine, str(pred), str(pred), text, pred.as_uri(), "utf-16") is None
    leaks = Engine(str(tmp_path), Settings(splits=SplitSettings(train=("train/*.conllu",))))
    other = tmp_path / "b.conllu"
    assert shown_cache.entry_key(leaks, str(other), str(other), text, other.as_uri(), "utf-16") is None
    assert shown_cache.entry_key(engine, str(other), str(other), text, other.as_uri(), "utf-8") != \
        shown_cache.entry_key(engine, str(other), str(other), text, other.as_uri(), "utf-16")
    assert shown_cache.entry_key(engine, str(other), None, text, "untitled:1", "utf-16") is None
    monkeypatch.setenv("ANNOSCORE_NO_CACHE", "1")
    assert shown_cache.entry_key(engine, str(other), str(other), text, other.as_uri(), "utf-16") is None


GOOD = {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}}, "severity": 1,
        "code": "non-tree", "source": "annoscore", "message": "m",
        "codeDescription": {"href": "https://x/#non-tree"},
        "data": {"test_id": "non-tree", "level": 2, "class": "SYNTAX"},
        "relatedInformation": [{"location": {"uri": "file:///a", "range": {
            "start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}}}, "message": "r"}]}
PAYLOAD = {"format": "conllu", "gold": None, "metrics": {}, "counts": {"sentences": 3}, "progress": {"marked": None}}


def entry(diagnostics: list, payload=PAYLOAD, key: str = "k" * 64) -> bytes:
    return shown_cache.encode([json.dumps(d) for d in diagnostics], payload, key)


def test_an_entry_decodes_to_the_texts_it_was_made_of():
    texts, payload = shown_cache.decode(entry([GOOD, {**GOOD, "severity": 4}]), "k" * 64)
    assert texts == [json.dumps(GOOD), json.dumps({**GOOD, "severity": 4})] and payload == PAYLOAD


def _without(d: dict, name: str) -> dict:
    return {k: v for k, v in d.items() if k != name}


@pytest.mark.parametrize("made", [
    lambda: entry([GOOD], key="o" * 64),                                    # another key
    lambda: entry([GOOD]).replace(b'"diagnostics": 1', b'"diagnostics": 2'),  # another count
    lambda: entry([GOOD]).split(b"\n")[0],                                  # cut short
    lambda: entry([GOOD]) + b"{}\n",                                        # a line more
    lambda: entry([[1, 2]]),                                                # not an object
    lambda: entry([_without(GOOD, "range")]),
    lambda: entry([{**GOOD, "range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}}]),
    lambda: entry([{**GOOD, "severity": True}]),
    lambda: entry([{**GOOD, "severity": 0}]),
    lambda: entry([{**GOOD, "source": "other"}]),
    lambda: entry([{**GOOD, "message": 3}]),
    lambda: entry([{**GOOD, "command": "rm"}]),                             # a field the LSP's writer never writes
    lambda: entry([{**GOOD, "data": {"test_id": ["x"]}}]),
    lambda: entry([{**GOOD, "relatedInformation": [{"location": {"uri": 1}, "message": "r"}]}]),
    lambda: entry([GOOD], payload={"format": "labels", "counts": {}}),
    lambda: entry([GOOD], payload={**PAYLOAD, "x": {"y": object.__name__, "z": [[[[[[[1]]]]]]]}}),
    lambda: b"\xff\xfe" + entry([GOOD]),
])
def test_an_entry_of_another_shape_is_refused(made):
    with pytest.raises((ValueError, UnicodeDecodeError)):
        shown_cache.decode(made(), "k" * 64)


def test_a_fault_in_the_cache_costs_only_the_cache(tmp_path, monkeypatch, caplog):
    """An error while looking for a kept entry must not stop the opening:
    the look-up is awaited before the document is announced, so an error
    escaping it left a document that was never scored (seen once, from a
    key that read a renamed engine attribute)."""
    from types import SimpleNamespace

    from annoscore.server.config import Settings
    from annoscore.server.engine.engine import Engine
    from annoscore.server.lsp.features.documents import DocumentSync

    def broken(*args, **kwargs):
        raise AttributeError("a fault in the key")

    monkeypatch.setattr(shown_cache, "entry_key", broken)
    server = SimpleNamespace(engine=Engine(str(tmp_path), Settings()), shown_from_cache={}, keep_shown={},
                             uri_for=lambda key: key, encoding="utf-16")
    with caplog.at_level("ERROR", logger="annoscore"):
        assert DocumentSync(server)._kept("big.conllu", None, "x" * shown_cache.MIN_CHARS) is None
    assert "opened without it" in caplog.text and server.keep_shown == {}


def test_the_look_up_runs_without_the_collector(tmp_path, monkeypatch):
    """Opened again in the same server, the key and the entry's decoding
    must not set off a full collection: the close before unfroze the heap,
    and one collection of it was ~50 ms of the reopening's first
    publication (issue 31: 0.23 s, 0.14 s without it)."""
    import gc
    from types import SimpleNamespace

    from annoscore.server.config import Settings
    from annoscore.server.engine.engine import Engine
    from annoscore.server.lsp.features.documents import DocumentSync

    seen = []
    monkeypatch.setattr(shown_cache, "entry_key", lambda *a, **k: seen.append(gc.isenabled()) or "k" * 64)
    monkeypatch.setattr(shown_cache, "load", lambda entry: seen.append(gc.isenabled()) or (["d"], None))
    server = SimpleNamespace(engine=Engine(str(tmp_path), Settings()), shown_from_cache={}, keep_shown={},
                             uri_for=lambda key: key, encoding="utf-16")
    assert gc.isenabled()
    assert DocumentSync(server)._kept("big.conllu", None, "x" * shown_cache.MIN_CHARS) == (["d"], None)
    assert seen == [False, False] and gc.isenabled()
