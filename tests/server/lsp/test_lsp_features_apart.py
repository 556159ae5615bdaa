"""The LSP features are small classes that declare what they answer and hear
typed events from the server, and find each other only through
``server.get_feature(Class)`` (issue 28): read from their source, so that a
feature written another way fails here, not in a review."""

from __future__ import annotations

import ast
import asyncio
import importlib
from pathlib import Path

from lsprotocol import types

from annoscore.server.lsp.app import FEATURES, create_server
from annoscore.server.lsp.feature import LanguageFeature
from annoscore.server.lsp.features.documents import DocumentSync
from annoscore.server.lsp.server import AnnoscoreServer

FEATURES_DIR = Path(__file__).resolve().parents[3] / "server" / "lsp" / "features"
PACKAGE = "annoscore.server.lsp.features"
# pygls's ways of registering a handler: a feature declares its handlers instead
# (`feature.handles`, `feature.command`), which the base hands to pygls.
REGISTERING = {"feature", "command", "check_params", "thread"}


def feature_modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8"), str(path))
            for path in sorted(FEATURES_DIR.glob("*.py")) if path.stem != "__init__"}


def sibling_imports(tree: ast.Module) -> list[tuple[str, str]]:
    """(module, name) of what a feature module imports from another feature module."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:
            module = node.module
        elif node.level == 0 and (node.module or "").startswith(PACKAGE + "."):
            module = node.module[len(PACKAGE) + 1:]
        else:
            continue
        for alias in node.names:
            found.append((module or alias.name, alias.name if module else "(the module)"))
    return found


def get_feature_arguments(tree: ast.Module) -> set[int]:
    """The ids of the Name nodes that are the argument of a ``….get_feature(X)`` call."""
    return {id(node.args[0]) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get_feature" and len(node.args) == 1 and isinstance(node.args[0], ast.Name)}


def test_a_feature_imports_another_only_to_ask_the_server_for_it():
    wrong = []
    for name, tree in feature_modules().items():
        allowed = get_feature_arguments(tree)
        for module, imported in sibling_imports(tree):
            value = getattr(importlib.import_module(f"{PACKAGE}.{module}"), imported, None)
            if not (isinstance(value, type) and issubclass(value, LanguageFeature)):
                wrong.append(f"{name}: imports {imported} from the feature {module} (not a feature class)")
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and node.id == imported and id(node) not in allowed:
                    wrong.append(f"{name}:{node.lineno}: uses the feature {imported} other than in get_feature()")
    assert not wrong, wrong


def test_no_feature_reaches_into_another_object_s_private_state():
    """``x._y`` only on ``self``: not on the server, another feature, or pygls."""
    wrong = [f"{name}:{node.lineno}: {ast.unparse(node)}"
             for name, tree in feature_modules().items() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
             and not (isinstance(node.value, ast.Name) and node.value.id == "self")]
    assert not wrong, wrong


def test_no_feature_registers_a_handler_itself():
    wrong = [f"{name}:{node.lineno}: {ast.unparse(node.func)}"
             for name, tree in feature_modules().items() for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in REGISTERING]
    assert not wrong, wrong


def test_every_feature_module_is_one_feature_of_the_server():
    classes = {}
    for name, tree in feature_modules().items():
        module = importlib.import_module(f"{PACKAGE}.{name}")
        defined = [node.name for node in tree.body if isinstance(node, ast.ClassDef)
                   and issubclass(getattr(module, node.name), LanguageFeature)]
        assert len(defined) == 1, (name, defined)
        classes[name] = getattr(module, defined[0])
    assert sorted(FEATURES, key=lambda c: c.__name__) == sorted(classes.values(), key=lambda c: c.__name__)


def test_every_handler_the_server_has_is_a_feature_s_declared_one():
    """pygls's handlers are the server's own lifecycle ones and the methods
    the features mark (`handles`, `command`), nothing else."""
    declared, commands = set(), set()
    for feature_class in FEATURES:
        for value in vars(feature_class).values():
            marked = getattr(value, "__lsp__", None)
            if marked is not None:
                (commands if marked.is_command else declared).add(marked.name)
    fm = create_server().protocol.fm
    assert set(fm.features) == declared | {types.INITIALIZE, types.INITIALIZED, types.SHUTDOWN}
    assert set(fm.commands) == commands


class Recorder(LanguageFeature):
    """A feature that notes what it hears, and what the engine holds then."""

    def __init__(self, server) -> None:
        super().__init__(server)
        self.heard: list[tuple[str, str, bool]] = []

    def _note(self, event: str, key: str) -> None:
        self.heard.append((event, key, key in self.server.engine.documents))

    def document_opened(self, key: str) -> None:
        self._note("opened", key)

    def document_changed(self, key: str) -> None:
        self._note("changed", key)
        self.server.engine.documents[key].store.line(0)  # (the change is applied: the engine reads it)

    def document_saved(self, key: str) -> None:
        self._note("saved", key)

    def document_closed(self, key: str) -> None:
        self._note("closed", key)

    def shutdown(self) -> None:
        self.heard.append(("shutdown", "", False))


def test_document_events_reach_every_feature_once_the_engine_has_them(tmp_path):
    """DocumentSync puts the text into the engine, then every feature hears
    of it (one added after it too); closed is heard while the engine still
    holds the document (Scoring cancels its rescore then: a rescore of a
    document the engine let go fails); shutdown reaches every feature."""
    server = AnnoscoreServer()  # (with no client's initialize, just these two: no rescoring)
    server.add_feature(DocumentSync(server))
    recorder = Recorder(server)
    server.add_feature(recorder)
    sync = server.get_feature(DocumentSync)
    path = tmp_path / "doc.conllu"
    uri = path.as_uri()
    text = "# sent_id = s1\n1\tA\ta\tDET\t_\t_\t0\troot\t_\t_\n\n"
    server.protocol.write_encoded = lambda body: None  # (no client: what would be sent goes nowhere)

    async def session() -> None:
        document = types.TextDocumentIdentifier(uri=uri)
        await sync.did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="conllu", version=1, text=text)))
        await sync.did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text.replace("A", "B"))]))
        await sync.did_save(types.DidSaveTextDocumentParams(text_document=document))
        await sync.did_close(types.DidCloseTextDocumentParams(text_document=document))
        server.stop_work()

    asyncio.run(session())
    key = str(path)
    assert recorder.heard == [("opened", key, True), ("changed", key, True), ("saved", key, True),
                              ("closed", key, True), ("shutdown", "", False)]
    assert key not in server.engine.documents
