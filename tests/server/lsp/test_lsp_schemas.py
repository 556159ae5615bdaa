"""Every custom request, notification and command of the language server, on
the wire, held to its JSON Schema (server/lsp/schemas, docs/lsp-protocol.md).

The messages are recorded as the JSON the server wrote (before pygls's client
turns them into attribute objects), on real documents: CoNLL-U with gold (a
different tokenization, low confidence, a cycle, an unparsed sentence), one
with a multiword token and an empty node, segmentation and labels with gold.
Every answer and every ``annoscore/score`` notification must validate, and
every schema must have been used."""

from __future__ import annotations

import copy
import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.support.lsp import SERVER, tabs, wait_for
from tests.support.protocol_schemas import check, problems
from annoscore.server.engine.seek import KINDS
from annoscore.server.lsp import schemas
from tests.server.lsp.test_lsp import configure, diagnostics_for, open_document, prepare_client, start_session

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "server" / "demo"

# A sentence with a multiword token and an empty node (and no gold).
TOKENS = tabs("""
# sent_id = mwt-1
# text = vámonos al mar
1-2 vámonos _ _ _ _ _ _ _ _
1 vamos ir VERB _ _ 0 root _ _
2 nos nosotros PRON _ _ 1 obj _ _
3-4 al _ _ _ _ _ _ _ _
3 a a ADP _ _ 5 case _ _
4 el el DET _ _ 5 det _ _
4.1 ya ya ADV _ _ _ _ 1:advmod _
5 mar mar NOUN _ _ 1 obl _ _
""")


class Wire:
    """What the server wrote, as JSON: notifications by method, responses by id."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.notifications: dict[str, list[Any]] = defaultdict(list)
        self.responses: dict[str, dict] = {}
        self.checked: dict[tuple[str, str], int] = defaultdict(int)
        self.ids = itertools.count()
        protocol = client.protocol
        structure = protocol.structure_message

        # json.loads calls the hook innermost object first: the outermost is the message,
        # with plain dicts inside. pygls's hook rewrites "params" in place: record a copy first.
        def record(data: Any) -> Any:
            if isinstance(data, dict) and "jsonrpc" in data:
                if "method" in data and "id" not in data:
                    self.notifications[data["method"]].append(copy.deepcopy(data.get("params")))
                elif "id" in data and "method" not in data:
                    self.responses[data["id"]] = copy.deepcopy(data)
            return structure(data)

        protocol.structure_message = record  # (read again for every message)

    def check(self, method: str, part: str, instance: Any) -> None:
        check(method, part, instance)
        self.checked[(method, part)] += 1

    async def request(self, method: str, params: dict) -> Any:
        """Send a custom request (its params checked first), return its result as JSON, checked."""
        self.check(method, "params", params)
        return self.checked_result(method, await self._send(method, params))

    async def command(self, command: str, *arguments: Any) -> Any:
        self.check(command, "arguments", list(arguments))
        answer = await self._send(types.WORKSPACE_EXECUTE_COMMAND,
                                  types.ExecuteCommandParams(command=command, arguments=list(arguments)))
        return self.checked_result(command, answer)

    async def _send(self, method: str, params: Any) -> Any:
        msg_id = f"schema-{next(self.ids)}"
        await self.client.protocol.send_request_async(method, params, msg_id=msg_id)
        response = self.responses[msg_id]
        assert "error" not in response, f"{method}: {response['error']}"
        return response.get("result")

    def checked_result(self, method: str, result: Any) -> Any:
        self.check(method, "result", result)
        return result

    def check_notifications(self) -> list[Any]:
        received = self.notifications["annoscore/score"]
        for params in received:
            self.check("annoscore/score", "notification", params)
        return received


@pytest_lsp.fixture(params=["visual-studio-code", "neovim@v0.11.0"],
                    config=ClientServerConfig(server_command=SERVER))
async def client(request, lsp_client: LanguageClient, tmp_path: Path):
    prepare_client(lsp_client, tmp_path, request.param)
    lsp_client.wire = Wire(lsp_client)  # type: ignore[attr-defined]  # (pytest-lsp yields the client itself)
    await start_session(lsp_client, tmp_path, request.param)
    yield
    await lsp_client.shutdown_session()


def demo(root: Path) -> tuple[Path, Path]:
    pred, gold = root / "sample.conllu", root / "sample.gold.conllu"
    pred.write_text((DEMO / "sample.conllu").read_text(encoding="utf-8"), encoding="utf-8")
    gold.write_text((DEMO / "sample.gold.conllu").read_text(encoding="utf-8"), encoding="utf-8")
    return pred, gold


async def scored(wire: Wire, uri: str) -> dict:
    """The last score notification for a document, once it came."""
    await wait_for(lambda: any(p["uri"] == uri for p in wire.notifications["annoscore/score"]))
    return [p for p in wire.notifications["annoscore/score"] if p["uri"] == uri][-1]


@pytest.mark.asyncio(loop_scope="function")
async def test_every_extension_answers_as_its_schema_says(client: LanguageClient):
    wire: Wire = client.wire  # type: ignore[attr-defined]
    root: Path = client.root  # type: ignore[attr-defined]
    pred, gold = demo(root)
    uri = open_document(client, pred)
    await diagnostics_for(client, uri)
    assert (await scored(wire, uri))["gold"] == gold.as_uri()

    # annoscore/score and annoscore/report, for the document and for one the server does not hold.
    score = await wire.request("annoscore/score", {"uri": uri})
    assert score["format"] == "conllu" and set(score["metrics"]) >= {"UAS", "LAS"}
    assert await wire.request("annoscore/score", {"uri": (root / "absent.conllu").as_uri()}) is None
    report = await wire.request("annoscore/report", {"uri": uri})
    assert "LAS" in report["text"]

    # annoscore/tree on every line, as data and as text: sentences with gold, with and without
    # a different tokenization; blank lines give null.
    lines = pred.read_text(encoding="utf-8").split("\n")
    trees = [await wire.request("annoscore/tree", {"uri": uri, "position": {"line": n, "character": 0}})
             for n in range(len(lines) + 1)]
    assert trees[-1] is None and any(t is None for t in trees[:-1])
    assert any(t and t["gold"] and t["gold"]["unaligned"] for t in trees)  # demo-2's don't
    assert any(t and t["gold"] and None in t["gold"]["words"] for t in trees)
    drawn = await wire.request("annoscore/tree", {"uri": uri, "position": {"line": 12, "character": 0},
                                                  "format": "text"})
    assert "rows" in drawn and "\n" in drawn["text"]

    # annoscore/next: every kind, both ways, from the top and from the end.
    found = {True: 0, False: 0}
    for kind in KINDS:
        for direction, line in (("next", 0), ("previous", len(lines) - 1)):
            answer = await wire.request("annoscore/next", {"uri": uri, "position": {"line": line, "character": 0},
                                                           "kind": kind, "direction": direction})
            found[answer["found"]] += 1
    assert found[True] and found[False]

    # The commands: annoscore.edit (an edit, and a refusal), annoscore.rescore in its three shapes.
    word_line = lines.index(next(text for text in lines if text.startswith("2\tcat\t")))
    edit = await wire.command("annoscore.edit", {"uri": uri, "version": 1, "line": word_line, "character": 0,
                                                 "operation": "attach", "head": 6, "deprel": "nmod"})
    assert edit["edit"]["documentChanges"][0]["textDocument"] == {"uri": uri, "version": 1}
    assert edit["edit"]["documentChanges"][0]["edits"][0]["newText"]
    refused = await wire.command("annoscore.edit", {"uri": uri, "version": 1, "line": 0, "character": 0,
                                                    "operation": "splitWord", "at": 1})
    assert set(refused) == {"refused"}
    for arguments in ((), (uri,), ({"uri": uri},)):
        assert await wire.command("annoscore.rescore", *arguments) is None

    # Agreement: compared with gold as another annotation, then no longer.
    assert await wire.request("annoscore/agreement", {"uri": uri}) is None
    before = len(wire.notifications["annoscore/score"])
    compared = await wire.command("annoscore.compareWith", uri, str(gold))
    assert compared == {"uri": uri, "other": gold.as_uri()}
    await wait_for(lambda: any("agreement" in p for p in wire.notifications["annoscore/score"][before:]))
    agreement = await wire.request("annoscore/agreement", {"uri": uri})
    assert agreement and agreement[0]["available"] is True and agreement[0]["variables"]
    assert (await wire.command("annoscore.compareWith", uri, None))["other"] is None

    # A multiword token and an empty node (no gold).
    tokens = root / "tokens.conllu"
    tokens.write_text(TOKENS, encoding="utf-8")
    tokens_uri = open_document(client, tokens)
    await diagnostics_for(client, tokens_uri)
    tree = await wire.request("annoscore/tree", {"uri": tokens_uri, "position": {"line": 0, "character": 0}})
    assert len(tree["multiwords"]) == 2 and len(tree["emptyNodes"]) == 1 and tree["gold"] is None
    await wire.request("annoscore/tree", {"uri": tokens_uri, "position": {"line": 0, "character": 0},
                                          "format": "text"})

    # Segmentation and labels with gold: their score payloads, and null where CoNLL-U is wanted.
    (root / "seg.gold.txt").write_text("これ は テスト です 。\n猫 が いる\n", encoding="utf-8")
    seg = root / "seg.txt"
    seg.write_text("これ は テス ト です 。\n猫が いる\n", encoding="utf-8")
    seg_uri = open_document(client, seg)
    await diagnostics_for(client, seg_uri)
    assert (await scored(wire, seg_uri))["format"] == "space"
    assert (await wire.request("annoscore/score", {"uri": seg_uri}))["metrics"]["Word"]["recall"] == pytest.approx(5 / 8)
    assert await wire.request("annoscore/tree", {"uri": seg_uri, "position": {"line": 0, "character": 0}}) is None
    assert await wire.request("annoscore/next", {"uri": seg_uri, "position": {"line": 0, "character": 0},
                                                 "kind": "error"}) is None
    await wire.request("annoscore/report", {"uri": seg_uri})
    (root / "items.gold.tsv").write_text("1\til\n2\telle\n3\til\n", encoding="utf-8")
    (root / "annoscore.toml").write_text('[[pair]]\nfiles = "items.tsv"\ngold = "items.gold.tsv"\n'
                                         'format = "labels"\n', encoding="utf-8")
    configure(client, {})  # the project file is read again with the settings
    items = root / "items.tsv"
    items.write_text("1\til\n2\til\n3\tça\n", encoding="utf-8")
    items_uri = open_document(client, items)
    # (scored first as plain text if it came before the settings were applied:
    # applying them scores it again as labels, which is what is waited for)
    await wait_for(lambda: any(p["uri"] == items_uri and p["format"] == "labels"
                               for p in wire.notifications["annoscore/score"]))
    labels = await wire.request("annoscore/score", {"uri": items_uri})
    assert labels["format"] == "labels" and labels["metrics"]["Accuracy"]["value"] == pytest.approx(1 / 3)

    received = wire.check_notifications()
    assert {p["format"] for p in received} >= {"conllu", "space"}
    # Every schema was used, and none is vacuous: each answer loses its validity with any required field.
    assert set(wire.checked) == set(schemas.methods()), set(schemas.methods()) - set(wire.checked)
    for instance, (method, part) in ((score, ("annoscore/score", "result")),
                                     (next(t for t in trees if t and t["gold"]), ("annoscore/tree", "result")),
                                     (tree, ("annoscore/tree", "result")), (agreement, ("annoscore/agreement", "result")),
                                     (edit, ("annoscore.edit", "result")), (labels, ("annoscore/score", "result"))):
        assert_required_fields_matter(method, part, instance)


def assert_required_fields_matter(method: str, part: str, instance: Any) -> None:
    """Removing any one key of the payload (at any depth, in objects) makes it invalid, unless
    the schema declares the key optional; checked here for the keys every payload has."""
    def objects(value: Any, path: tuple = ()):
        if isinstance(value, dict):
            yield path, value
            for key, inner in value.items():
                yield from objects(inner, path + (key,))
        elif isinstance(value, list):
            for k, inner in enumerate(value[:3]):
                yield from objects(inner, path + (k,))

    optional = {"progress", "agreement", "rows", "value"}  # (the schemas' optional keys these payloads have)
    removed = 0
    for path, value in list(objects(instance)):
        if path and path[-1] in ("metrics", "counts", "variables", "attachment"):
            continue  # (maps whose keys are names)
        for key in value:
            if key in optional:
                continue
            broken = copy.deepcopy(instance)
            target = broken
            for step in path:
                target = target[step]
            del target[key]
            assert problems(method, part, broken), f"{method} {part}: still valid without {path + (key,)}"
            removed += 1
    assert removed
