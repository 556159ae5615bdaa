"""The package's import graph has no circle: no module imports, however
late (inside a function) or only for type hints, a module that imports it
back.  A circle is how a layer starts depending on the one above it; the
code-structure rules (docs/design/architecture.md) forbid them.  Read from
the source with `ast`, so nothing is imported to check it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The installed package's name -> the repository's folder (setup.py's PARTS).
FOLDERS = {"annoscore.scorer": ROOT / "scorer", "annoscore.server": ROOT / "server", "annoscore": ROOT / "annoscore"}


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            found.setdefault(name, path)
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            # A name imported from a package is the submodule when there is one.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def package_graph() -> dict[str, set[str]]:
    known = modules()
    # A package's __init__ re-exporting its modules is not a circle with
    # them: each edge from a module to its own package (or a package above
    # it) is left out, as Python resolves those without a cycle of code.
    graph = {}
    for name, path in known.items():
        graph[name] = {t for t in imports_of(name, path, known)
                       if not name.startswith(t + ".") and not t.startswith(name + ".")}
    return graph


def test_no_module_imports_one_that_imports_it_back():
    assert circles(package_graph()) == []


def test_the_check_finds_a_circle():
    graph = package_graph()
    graph["annoscore.scorer.conllu.lane"].add("annoscore.scorer.conllu.plain_pairs")  # (plain_pairs imports lane)
    assert any({"annoscore.scorer.conllu.lane", "annoscore.scorer.conllu.plain_pairs"} <= set(c) for c in circles(graph))
