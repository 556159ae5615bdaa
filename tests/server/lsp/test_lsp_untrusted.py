"""The language server with a workspace someone else wrote, and a client that
sends anything (issue 26: S1, S2, S5 in the server; P1-P4; a property test
over every request and notification the server registers).

The server runs as a subprocess driven with raw messages (`RawServer`), so
that what no client library would send can be sent, and so that a hang
fails a test (every wait has a timeout) instead of stopping the suite."""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.support.lsp import RawServer
from tests.support import wrong_params

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "server" / "demo"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and /dev")


@pytest.fixture
def raw(tmp_path):
    server = RawServer(tmp_path)
    server.initialize()
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def request(raw: RawServer, request_id, method: str, params, timeout: float = 10.0) -> dict:
    raw.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    return raw.answer(request_id, timeout)


def diagnostics_of(raw: RawServer, uri: str, timeout: float = 30.0) -> list[dict]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        message = raw.next(timeout=max(deadline - time.time(), 0.1))
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return message["params"]["diagnostics"]
    raise AssertionError(f"no diagnostics for {uri}")


def open_document(raw: RawServer, path: Path) -> str:
    uri = path.as_uri()
    raw.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "conllu", "version": 1, "text": path.read_text(encoding="utf-8")}}})
    return uri


def log_text(raw: RawServer) -> str:
    return "".join(raw.stderr)


def no_traceback(raw: RawServer) -> None:
    text = log_text(raw)
    assert "Traceback" not in text and "Error in server" not in text, text[-2000:]


# --- S1, S2, S5: the workspace's files ---------------------------------------------------


@linux_only
@pytest.mark.parametrize("target", ["/dev/zero", "/dev/stdin"])
def test_s1_s2_a_gold_linked_to_a_device_neither_hangs_nor_exhausts_the_server(tmp_path, target):
    shutil.copy(DEMO / "sample.conllu", tmp_path / "dev.conllu")
    (tmp_path / "dev.gold.conllu").symlink_to(target)
    server = RawServer(tmp_path)
    try:
        server.initialize()
        uri = open_document(server, tmp_path / "dev.conllu")
        found = diagnostics_of(server, uri)
        refused = [d for d in found if d["code"] == "gold-refused"]
        assert refused and "not a regular file" in refused[0]["message"]
        score = request(server, 2, "annoscore/score", {"uri": uri})
        assert score["result"]["gold"] is None
        hover = request(server, 3, "textDocument/hover", {"textDocument": {"uri": uri},
                                                          "position": {"line": 13, "character": 3}})
        assert "result" in hover
        assert server.memory_mb()["VmHWM"] < 400
        no_traceback(server)
        assert server.stop() == 0
    finally:
        if server.process.poll() is None:
            server.process.kill()


def test_s5_diagnostics_never_quote_a_gold_outside_the_project(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (tmp_path / "secret.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (project / "a.txt").write_text("helloworld\n")
    (project / "annoscore.toml").write_text('[[pair]]\nfiles = "a.txt"\ngold = "../secret.txt"\nformat = "space"\n')
    server = RawServer(project)
    try:
        server.initialize()
        uri = (project / "a.txt").as_uri()
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "plaintext", "version": 1, "text": "helloworld\n"}}})
        score = None
        for attempt in range(50):  # (scored once the settings are in)
            score = request(server, f"s{attempt}", "annoscore/score", {"uri": uri})["result"]
            if score is not None:
                break
            time.sleep(0.1)
        assert score is not None and score["gold"] is None
        seen = []
        while True:
            try:
                seen.append(server.next(timeout=2))
            except AssertionError:
                break
        assert "root:x" not in json.dumps(seen) + log_text(server)
        assert "is outside the project folder" in json.dumps(seen) + log_text(server)
        assert server.stop() == 0
    finally:
        if server.process.poll() is None:
            server.process.kill()


# --- P1-P4 ------------------------------------------------------------------------------------


INVALID_PARAMS, INVALID_REQUEST = -32602, -32600


def test_p1_wrong_types_in_our_own_params_are_answered(raw: RawServer):
    place = {"uri": "file:///x.conllu", "position": {"line": 0, "character": 0}}
    for k, params in enumerate([{**place, "kind": []}, {**place, "kind": {"a": 1}}, {**place, "kind": "error",
                                "direction": ["next"]}]):
        answer = request(raw, k, "annoscore/next", params, timeout=5)
        assert answer["error"]["code"] == INVALID_PARAMS, answer
    answer = request(raw, "t", "annoscore/tree", {**place, "format": ["text"]}, timeout=5)
    assert answer["error"]["code"] == INVALID_PARAMS
    for k, arguments in enumerate([5, "file:///x.conllu", {"uri": 5}, [5]]):
        answer = request(raw, f"c{k}", "workspace/executeCommand",
                         {"command": "annoscore.rescore", "arguments": arguments}, timeout=5)
        assert answer["error"]["code"] == INVALID_PARAMS, (arguments, answer)
    no_traceback(raw)
    assert raw.stop() == 0


def test_p2_requests_after_shutdown_are_invalid_requests(raw: RawServer):
    assert request(raw, "bye", "shutdown", None)["result"] is None
    answer = request(raw, 1, "annoscore/score", {"uri": "file:///x.conllu"}, timeout=5)
    assert answer["error"]["code"] == INVALID_REQUEST and "shut down" in answer["error"]["message"]
    answer = request(raw, 2, "textDocument/hover", {"textDocument": {"uri": "file:///x.conllu"},
                                                    "position": {"line": 0, "character": 0}}, timeout=5)
    assert answer["error"]["code"] == INVALID_REQUEST
    raw.send({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": "x"}}})
    raw.send({"jsonrpc": "2.0", "method": "exit"})
    assert raw.wait(timeout=20) == 0
    assert sum("shut down" in line for line in raw.stderr) == 3  # one line each
    no_traceback(raw)


@linux_only
@pytest.mark.parametrize("method, params", [
    ("textDocument/codeAction", {"textDocument": {"uri": "file:///x.conllu"}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": "d" * 300_000}}),
    ("textDocument/didChange", {"textDocument": {"uri": "file:///x.conllu", "version": 2},
                                "contentChanges": "c" * 100_000}),
    ("workspace/didChangeWatchedFiles", {"changes": "w" * 300_000}),
], ids=["codeAction", "didChange", "didChangeWatchedFiles"])
def test_p3_a_string_where_a_list_is_expected_costs_neither_time_nor_memory(raw: RawServer, method, params):
    request(raw, "warm", "annoscore/score", {"uri": "file:///x.conllu"})
    before = raw.memory_mb()["VmRSS"]
    started = time.time()
    for k in range(5):
        if method == "textDocument/codeAction":
            answer = request(raw, k, method, params, timeout=5)
            assert answer["error"]["code"] == INVALID_PARAMS and "expected an array" in answer["error"]["message"]
        else:
            raw.send({"jsonrpc": "2.0", "method": method, "params": params})
        assert request(raw, f"ping{k}", "annoscore/score", {"uri": "file:///x.conllu"}, timeout=5)["result"] is None
    assert time.time() - started < 5  # (42 s for one codeAction before)
    assert raw.memory_mb()["VmRSS"] < before + 40  # (+1.2 GB before)
    no_traceback(raw)


def test_p4_a_wrong_command_name_is_one_short_log_line(raw: RawServer):
    lines = len(raw.stderr)
    answer = request(raw, 1, "workspace/executeCommand", {"command": "x" * 100_000, "arguments": []})
    assert answer["error"]["code"] == INVALID_PARAMS and len(answer["error"]["message"]) < 300
    answer = request(raw, 2, "workspace/executeCommand", {"command": ["annoscore.rescore"]})
    assert answer["error"]["code"] == INVALID_PARAMS
    request(raw, 3, "annoscore/score", {"uri": "file:///x.conllu"})
    assert raw.stop() == 0  # (and its stderr read to the end)
    new = [line for line in raw.stderr[lines:] if "watching" not in line]  # (the watcher's start, maybe)
    assert len(new) == 2 and all(len(line) < 300 for line in new), new
    no_traceback(raw)


# --- every request and notification, with wrong-typed params -------------------------------


@linux_only
def test_every_registered_method_answers_wrong_typed_params(tmp_path):
    """Random wrong-typed params (tests/support/wrong_params.py) to every request and
    notification the server registers, annoscore's own and pygls's built-in
    ones, read from the server itself: each request answered within a second,
    the server still answering after each notification, no traceback, each
    message at most one log line of bounded length, and resident memory back
    within a bound afterwards.  ANNOSCORE_FUZZ_MESSAGES sets how many (400)."""
    from annoscore.server.lsp.app import create_server

    requests, notifications, commands = wrong_params.registered(create_server())
    assert {"annoscore/next", "annoscore/tree", "textDocument/codeAction"} <= set(requests)
    assert {"textDocument/didChange", "workspace/didChangeWatchedFiles"} <= set(notifications)
    methods = [m for m in requests + notifications if m not in wrong_params.ENDING]
    rng = random.Random(26)
    count = int(os.environ.get("ANNOSCORE_FUZZ_MESSAGES", "400"))
    shutil.copy(DEMO / "sample.conllu", tmp_path / "x.conllu")
    server = RawServer(tmp_path)
    try:
        server.initialize()
        open_document(server, tmp_path / "x.conllu")
        request(server, "warm", "annoscore/score", {"uri": (tmp_path / "x.conllu").as_uri()})
        before = server.memory_mb()["VmRSS"]
        slow = []
        for k in range(count):
            method = methods[k % len(methods)] if k < len(methods) else rng.choice(methods)
            if method == "workspace/executeCommand":
                params = wrong_params.wrong_command(commands, rng)
            else:
                params = wrong_params.wrong_params(wrong_params.valid_params(method), rng)
            message = {"jsonrpc": "2.0", "method": method, "params": params}
            started = time.time()
            if method in requests:
                message["id"] = k
                server.send(message)
                answer = server.answer(k, timeout=10)
                assert "result" in answer or "error" in answer
                if time.time() - started > 1:
                    slow.append((method, json.dumps(params)[:100]))
            else:
                server.send(message)
            assert "result" in request(server, f"ping{k}", "annoscore/score", {"uri": wrong_params.URI},
                                       timeout=10)
        assert not slow, slow
        time.sleep(0.5)
        after = server.memory_mb()["VmRSS"]
        assert after < before + 100, (before, after)
        assert server.stop() == 0  # (and its stderr read to the end)
        no_traceback(server)
        assert len(server.stderr) <= count + 10
        assert all(len(line) <= 2100 for line in server.stderr)
    finally:
        if server.process.poll() is None:
            server.process.kill()


# --- faults in pygls's paths (what our overrides rely on: test_lsp_pygls_overrides.py) -------------


def test_a_fault_in_a_request_handler_is_one_log_line_and_an_answer(caplog):
    """A handler that raises (a fault of ours, or pygls's InvalidParams for
    a command's arguments) is answered with one error and logged in one
    line without a traceback (`AnnoscoreProtocol._send_handler_result`;
    pygls's own logs the traceback and quotes the error whole)."""
    import logging
    from concurrent.futures import Future

    from pygls.exceptions import JsonRpcInvalidParams

    from annoscore.server.lsp.app import create_server

    protocol = create_server().protocol
    sent = []
    protocol._send_response = lambda msg_id, result=None, error=None: sent.append((msg_id, result, error))
    for k, error in enumerate([KeyError("k" * 100_000), JsonRpcInvalidParams.of(ValueError("v" * 100_000))]):
        future: Future = Future()
        try:
            raise error
        except Exception as raised:
            future.set_exception(raised)
        with caplog.at_level(logging.INFO):
            caplog.clear()
            protocol._send_handler_result(future, msg_id=k)
        (record,) = [r for r in caplog.records if r.name == "annoscore"]
        assert record.exc_info is None and len(record.getMessage()) < 400
        assert not [r for r in caplog.records if r.name.startswith("pygls")]
        msg_id, _, answer = sent[-1]
        assert msg_id == k and answer.code in (-32603, -32602) and len(answer.message) < 400


def test_strict_types_keep_enums_and_refuse_other_types():
    """server/lsp/strict.py: a str, int, bool or float comes from its JSON
    type only, and lsprotocol's enums (IntEnum, str enums: subclasses of int
    and str) stay enums, so what the server echoes back (a code action's
    diagnostics) is sent as it came."""
    from lsprotocol import types
    from lsprotocol.converters import get_converter

    from annoscore.server.lsp.strict import make_strict

    converter = get_converter()
    make_strict(converter)
    diagnostic = {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
                  "message": "m", "severity": 1, "code": "cycle"}
    structured = converter.structure(diagnostic, types.Diagnostic)
    assert structured.severity is types.DiagnosticSeverity.Error
    assert converter.unstructure(structured) == diagnostic
    item = converter.structure({"uri": "u", "languageId": "conllu", "version": 1, "text": "t"}, types.TextDocumentItem)
    assert item.language_id == "conllu"
    for wrong in ({"uri": {"a": 1}}, {"uri": 5}, {"uri": ["u"]}):
        with pytest.raises(Exception):
            converter.structure(wrong, types.TextDocumentIdentifier)
    with pytest.raises(Exception):
        converter.structure({"line": True, "character": 0}, types.Position)


def test_a_result_that_cannot_be_encoded_is_still_answered(caplog):
    """pygls 2.1.1 logs an answer it cannot encode and sends nothing (the
    client waits for ever); ours answers InternalError in one log line."""
    from annoscore.server.lsp.app import create_server

    protocol = create_server().protocol
    written: list[str] = []
    protocol.write_encoded = written.append
    protocol._send_response(7, result={"a": object()})
    (body,) = written
    answer = json.loads(body)
    assert answer["id"] == 7 and answer["error"]["code"] == -32603
    protocol._send_response(8, result={"fine": [1, "two"]})
    assert json.loads(written[-1]) == {"id": 8, "jsonrpc": "2.0", "result": {"fine": [1, "two"]}}
