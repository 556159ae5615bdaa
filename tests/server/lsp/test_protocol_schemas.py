"""The JSON Schemas of the LSP protocol extensions (server/lsp/schemas) as files:
valid draft 2020-12 schemas, one for each part of every custom method the server
has, their enumerations the code's own, every method documented on
docs/lsp-protocol.md with links to its files (and nothing there without them),
and the fields the VS Code extension reads defined in them.  What the running
server answers is held to them in tests/server/lsp/test_lsp_schemas.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.support.protocol_schemas import problems, registry
from annoscore.server.lsp import schemas

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "lsp-protocol.md"
VSCODE = ROOT / "editors" / "vscode" / "src"
BASE = "https://github.com/annoscore/annoscore/blob/main/server/lsp/schemas/"
FILES = schemas.schemas()


def schema_of(method: str, part: str) -> dict:
    return FILES[schemas.file_of(method, part)]


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_is_a_valid_draft_2020_12_schema_under_its_own_id(name):
    schema = FILES[name]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == BASE + name  # (the relative $refs resolve against it)
    assert schema.get("title")
    # Every $ref reaches a definition.
    for ref in re.findall(r'"\$ref": "([^"]+)"', (ROOT / "server/lsp/schemas" / name).read_text()):
        resolved = registry().resolver(base_uri=schema["$id"]).lookup(ref)
        assert resolved.contents, f"{name}: {ref} resolves to nothing"


def test_a_broken_payload_is_refused():
    """(The schemas are not vacuous.)"""
    position = {"uri": "file:///x.conllu", "position": {"line": 0, "character": 0}}
    assert problems("annoscore/tree", "params", position) == []
    assert problems("annoscore/tree", "params", {**position, "position": {"line": -1, "character": 0}})
    assert problems("annoscore/tree", "params", {**position, "format": "svg"})
    assert problems("annoscore/next", "params", {**position, "kind": "everything"})
    assert problems("annoscore/score", "notification", {"uri": "file:///x.conllu"})
    assert problems("annoscore.rescore", "arguments", ["file:///a", "file:///b"])


def registered() -> tuple[set[str], set[str]]:
    """The server's own requests (annoscore/…) and commands, read from pygls's feature manager."""
    from annoscore.server.lsp.app import create_server
    fm = create_server().protocol.fm
    return {m for m in fm.features if m.startswith("annoscore/")}, set(fm.commands)


def notified() -> set[str]:
    """The custom notifications the server sends: every ``.notify(NAME, …)`` in server/ whose
    NAME is a string constant of its module (or a literal) that is not an LSP method."""
    out = set()
    for path in (ROOT / "server").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        constants = dict(re.findall(r'^([A-Z_]+) = "([^"]+)"', source, re.M))
        for name in re.findall(r"\.notify\(\s*([A-Za-z_\"/]+)", source):
            method = name.strip('"') if name.startswith('"') else constants.get(name)
            if method is not None and method.startswith("annoscore/"):
                out.add(method)
    return out


def test_every_custom_method_of_the_server_has_its_schemas_and_no_other():
    requests, commands = registered()
    assert {"annoscore/tree", "annoscore/next", "annoscore/score"} <= requests and "annoscore.edit" in commands
    expected = {(m, p) for m in requests for p in schemas.PARTS["request"]}
    expected |= {(m, p) for m in commands for p in schemas.PARTS["command"]}
    expected |= {(m, p) for m in notified() for p in schemas.PARTS["notification"]}
    assert notified() == {"annoscore/score"}
    assert set(schemas.methods()) == expected


def test_file_names_and_methods_map_both_ways():
    for (method, part), name in schemas.methods().items():
        assert schemas.file_of(method, part) == name
    with pytest.raises(ValueError):
        schemas.method_of("annoscore-tree.answer.json")


def enum_at(schema: dict, *path: str) -> list:
    node = schema
    for step in path:
        node = node[step]
    return node["enum"]


def test_enumerations_are_the_codes_own():
    from annoscore.scorer.conllu.counts import METRICS
    from annoscore.scorer.conllu.editing.operations import OPERATIONS
    from annoscore.server.engine.editing import RENUMBER
    from annoscore.server.engine.seek import DIRECTIONS, KINDS
    from annoscore.server.lsp.features.tree import FORMATS
    next_params = schema_of("annoscore/next", "params")
    assert enum_at(next_params, "properties", "kind") == list(KINDS)
    assert enum_at(next_params, "properties", "direction") == list(DIRECTIONS)
    for branch in schema_of("annoscore/next", "result")["oneOf"][:2]:
        assert enum_at(branch, "properties", "kind") == list(KINDS)
    assert enum_at(schema_of("annoscore/tree", "params"), "properties", "format") == list(FORMATS)
    edit = schema_of("annoscore.edit", "arguments")["items"]
    assert enum_at(edit, "properties", "operation") == [*OPERATIONS, RENUMBER]
    assert FILES["common.json"]["$defs"]["conlluMetric"]["enum"] == list(METRICS)


# --- the documentation page --------------------------------------------------------

def documented() -> tuple[set[str], dict[str, set[str]]]:
    """The methods the page's first table names (its first column), and the schema files
    each row links to."""
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| Method | Kind |"):].split("\n\n", 1)[0].split("\n")[2:]
    names, links = set(), {}
    for row in table:
        method = row.strip("|").split("|")[0].strip().strip("`")
        names.add(method)
        links[method] = set(re.findall(re.escape(BASE) + r"([\w.-]+\.json)", row))
    return names, links


def test_every_method_with_schemas_is_documented_with_links_to_them_and_vice_versa():
    names, links = documented()
    by_method: dict[str, set[str]] = {}
    for (method, _part), name in schemas.methods().items():
        by_method.setdefault(method, set()).add(name)
    assert names == set(by_method), (f"on the page without schemas: {names - set(by_method)}; "
                                     f"with schemas, not on the page: {set(by_method) - names}")
    for method, files in by_method.items():
        assert links[method] == files, f"{method}: the page links {links[method]}, the folder has {files}"
    assert BASE + "common.json" in PAGE.read_text(encoding="utf-8")


# --- the VS Code extension's expectations --------------------------------------------

def ts_function(source: str, name: str) -> str:
    """The text of a top-level TypeScript function (up to the next top-level one)."""
    start = re.search(rf"^(export )?function {name}\(", source, re.M)
    assert start, name
    rest = source[start.end():]
    end = re.search(r"^(export )?(function|const|interface|type) ", rest, re.M)
    return rest[:end.start() if end else len(rest)]


def test_the_fields_the_vscode_tree_view_reads_are_the_schemas():
    """treePayload.ts checks the annoscore/tree answer field by field: each field it reads
    is one the schema defines, where the schema defines it."""
    source = (VSCODE / "treePayload.ts").read_text(encoding="utf-8")
    defs = schema_of("annoscore/tree", "result")["$defs"]
    reads = {
        "word": set(re.findall(r"\bvalue\.(\w+)", ts_function(source, "parseWord"))),
        "multiword": set(re.findall(r"\bvalue\.(\w+)", ts_function(source, "parseMultiword"))),
        "emptyNode": set(re.findall(r"\bvalue\.(\w+)", ts_function(source, "parseEmptyNode"))),
        "goldWord": set(re.findall(r"\bvalue\.(\w+)", ts_function(source, "parseGoldWord"))),
    }
    whole = ts_function(source, "checkTreePayload")
    reads["tree"] = set(re.findall(r"\bvalue\.(\w+)", whole))
    reads["gold"] = set(re.findall(r"\bvalue\.gold\.(\w+)", whole))
    unaligned = set(re.findall(r"\bu\.(\w+)", whole))
    assert reads["word"] >= {"id", "form", "head", "line", "problems"} and reads["gold"] >= {"words", "uas"}
    for name, fields in reads.items():
        assert fields <= set(defs[name]["properties"]), (name, fields - set(defs[name]["properties"]))
    assert unaligned and unaligned <= set(defs["gold"]["properties"]["unaligned"]["items"]["properties"])
    # What it refuses a word without, the schema requires.
    refused_without = set(re.findall(r"\$\{where\}\.(\w+) is not", ts_function(source, "parseWord")))
    assert refused_without and refused_without <= set(defs["word"]["required"])


def test_the_vscode_commands_send_what_the_schemas_allow():
    editing = (VSCODE / "editing.ts").read_text(encoding="utf-8")
    arguments = schema_of("annoscore.edit", "arguments")["items"]
    sent = re.search(r"export interface EditArguments \{(.*?)\n\}", editing, re.S)
    fields = set(re.findall(r"^\s+(\w+)\??:", sent.group(1), re.M))
    assert {"uri", "version", "operation"} <= fields <= set(arguments["properties"])
    operations = set(re.findall(r"operation: '(\w+)'", editing))
    assert operations and operations <= set(arguments["properties"]["operation"]["enum"])
    navigation = (VSCODE / "navigation.ts").read_text(encoding="utf-8")
    kinds = set(re.findall(r"\['annoscore\.\w+', '([\w-]+)', '(?:next|previous)'\]", navigation))
    assert "low-confidence" in kinds and kinds <= set(enum_at(schema_of("annoscore/next", "params"),
                                                                 "properties", "kind"))


def test_the_pages_validation_example_runs(tmp_path):
    """The page's Python block loads the installed files and validates an answer: a null one
    (no sentence at that line) passes, a tree without its words does not."""
    from jsonschema.exceptions import ValidationError
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index("## JSON Schemas"):].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, str(PAGE), "exec"), {"answer": None})
    with pytest.raises(ValidationError, match="is not valid under any of the given schemas"):
        exec(compile(block, str(PAGE), "exec"), {"answer": {"sentId": "s1", "line": 0}})


def test_the_pages_table_of_kinds_lists_every_kind():
    from annoscore.server.engine.seek import KINDS
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| Kind | A place is |"):].split("\n\n", 1)[0].split("\n")[2:]
    assert [row.split("|")[1].strip().strip("`") for row in table] and \
        {row.split("|")[1].strip().strip("`") for row in table} == set(KINDS)
