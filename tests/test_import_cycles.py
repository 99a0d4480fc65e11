"""No module of an app imports, directly or through others, a module that imports it back: a
cycle hidden in a function-level import breaks as soon as someone moves that import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["cards", "cards/dataformat", "cards/search", "rules", "campaigns", "play", "play/engine", "pacg_site"]


def relative_imports(package: Path) -> dict[str, set[str]]:
    """Each module of the package -> the package's modules it imports, at any depth of its code."""
    modules = {path.stem for path in package.glob("*.py")}
    graph = {}
    for path in package.glob("*.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module.split(".")[0]] if node.module else [alias.name for alias in node.names]
                imported.update(name for name in names if name in modules)
        graph[path.stem] = imported - {path.stem}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph[module]:
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while (member := stack.pop()) != module:
                group.append(member)
            if group:
                found.append(sorted([module, *group]))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"check": {"effects"}, "effects": {"check"}, "game": set()}) == [["check", "effects"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    assert cycles(relative_imports(ROOT / package)) == []
