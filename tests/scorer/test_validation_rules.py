"""The validator's rules by test id (`scorer.validation.rules.RULES`), and
the shape of scorer/validation: every function short enough to read."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from annoscore.scorer.validation.incident import TESTS, UNREACHABLE
from annoscore.scorer.validation.rules import RULES

VALIDATION = Path(__file__).resolve().parents[2] / "scorer" / "validation"
LONGEST = 80  # lines of a function in scorer/validation


def _function(where: str):
    module, _, name = where.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_every_test_id_has_its_rule_with_the_registry_s_level_class_and_severity():
    assert list(RULES) == list(TESTS)
    for test_id, rule in RULES.items():
        assert (rule.id, rule.level, rule.test_class, rule.severity) == (test_id, *TESTS[test_id])


def _spelled(function) -> str:
    """The function's body (not its declaration), with the module's tables
    and helpers it names, and the helpers those tables are made of (one
    step: a helper of a helper is not followed)."""
    module_source = inspect.getsource(inspect.getmodule(function))
    tree = ast.parse(module_source)
    own = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function.__name__)
    statements = own.body[1:] if ast.get_docstring(own) is not None else own.body
    body = "\n".join(ast.get_source_segment(module_source, node) for node in statements)
    named = {node.id for node in ast.walk(own) if isinstance(node, ast.Name)}
    parts = [body]
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in named for t in node.targets):
            parts.append(ast.get_source_segment(module_source, node))
            named |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    parts += [ast.get_source_segment(module_source, node) for node in tree.body
              if isinstance(node, ast.FunctionDef) and node.name in named and node is not own]
    return "\n".join(parts)


@pytest.mark.parametrize("test_id", sorted(TESTS))
def test_a_rule_names_the_function_that_reports_it_and_explains_it(test_id):
    """The function exists, has an explanation, and its body (or a table or
    helper of its module that it names) spells the test id, or the prefix
    it is made from ("right-to-left-" + the relation)."""
    rule = RULES[test_id]
    function = _function(rule.function)
    assert len(rule.doc.split()) >= 8, (test_id, rule.doc)
    assert rule.doc == inspect.cleandoc(function.__doc__)
    if test_id in UNREACHABLE:  # (no input reaches it: its function says why, and spells it nowhere else)
        assert test_id in rule.doc and "unreachable" in rule.doc, (test_id, rule.doc)
        return
    spelled = _spelled(function)
    prefixes = [test_id[:k + 1] for k, ch in enumerate(test_id) if ch == "-"]
    assert any(f"{q}{test_id}{q}" in spelled for q in "\"'") or test_id in spelled.split() \
        or any(f'"{p}"' in spelled for p in prefixes), (test_id, rule.function)


def test_no_function_in_scorer_validation_is_longer_than_80_lines():
    long = []
    for path in sorted(VALIDATION.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_a_declaration_naming_an_id_the_validator_does_not_have_is_refused():
    from annoscore.scorer.validation.registry import checks

    with pytest.raises(ValueError, match="unknown-upso"):
        checks("unknown-upos unknown-upso")
