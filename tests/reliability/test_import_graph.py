"""No import cycle anywhere in bot/, cogs/ and storage/.

`lint-imports` (pyproject.toml's [tool.importlinter]) keeps the layers pointing down, which rules out
a cycle between layers; this finds one inside a layer too: every strongly connected component of the
module graph (imports under ``TYPE_CHECKING`` included) must be a single module.
"""

from __future__ import annotations

from collections.abc import Iterator

import grimp
import pytest

PACKAGES = ("bot", "cogs", "storage")


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    work: list[tuple[str, Iterator[str]]] = []  # the modules being visited, each with what it imports left
    for root in sorted(graph.modules):
        if root in index:
            continue

        def visit(module: str) -> None:
            index[module] = low[module] = len(index)
            stack.append(module)
            on_stack.add(module)
            work.append((module, iter(sorted(graph.find_modules_directly_imported_by(module)))))

        visit(root)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    visit(step)
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_finder_reports_a_cycle_and_only_the_modules_in_it() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [("a.x", "a.y"), ("a.y", "a.z"), ("a.z", "a.x"), ("a.z", "a.w"), ("a.w", "a.v")]:
        graph.add_import(importer=importer, imported=imported)
    assert cycles(graph) == [["a.x", "a.y", "a.z"]]
    graph.remove_import(importer="a.z", imported="a.x")
    assert cycles(graph) == []


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_module_imports_itself_back_through_others(graph: grimp.ImportGraph) -> None:
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("module", ["bot.delivery.courier", "bot.delivery.scheduler"])
def test_the_courier_and_scheduler_need_no_cog_and_not_the_bot_class(graph: grimp.ImportGraph, module: str) -> None:
    reached = graph.find_upstream_modules(module)
    assert not {m for m in reached if m == "cogs" or m.startswith("cogs.")}
    assert not reached & {"bot.run.app", "bot.client.bot"}


def feature_graph(graph: grimp.ImportGraph, package: str) -> grimp.ImportGraph:
    """The features of a layer (``bot.services.<feature>``, a module or a folder) and who imports whom."""
    depth = package.count(".") + 1
    features = grimp.ImportGraph()
    for module in graph.modules:
        if not module.startswith(package + "."):
            continue
        importer = ".".join(module.split(".")[:depth + 1])
        features.add_module(importer)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith(package + "."):
                target = ".".join(imported.split(".")[:depth + 1])
                if target != importer:
                    features.add_import(importer=importer, imported=target)
    return features


@pytest.mark.parametrize("layer", ["bot.services", "bot.league", "cogs"])
def test_features_lean_on_each_other_one_way(graph: grimp.ImportGraph, layer: str) -> None:
    """What two features share lives in a module of its own (bot/services/shared/), so no feature needs
    one that needs it back: a change to one feature's insides never reaches round to itself."""
    found = cycles(feature_graph(graph, layer))
    assert found == [], f"features of {layer} importing each other round: " + "; ".join(" <-> ".join(c) for c in found)
