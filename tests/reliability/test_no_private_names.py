"""No private names of our dependencies in the bot's own code (bot/, cogs/, storage/).

An underscore name of SQLAlchemy, aiosqlite, asyncpg, discord.py or APScheduler can change or go in
any release, and the version ranges in pyproject.toml would not say so. Parsed with ``ast``, so
strings and comments don't count. Flagged:

- ``from sqlalchemy.x import _y``, ``from sqlalchemy._x import y``, ``import aiosqlite._x``;
- an attribute ``._x`` (single underscore, not a dunder) on a chain rooted at a name imported from
  one of those libraries (``aiosqlite.Connection._execute``);
- an attribute ``._x`` anywhere else whose name our own code never defines (not as a function,
  class, variable, argument, attribute assignment or ``__slots__`` entry): it can only be someone
  else's, e.g. ``binds[name].type._cached_bind_processor`` or ``bot.http._HTTPClient__session``.
  A chain rooted at a name imported from any other module (``os._exit``) is not our dependencies'.
- ``getattr(x, "_y")`` and friends, by the same rule.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUR_PACKAGES = ("bot", "cogs", "storage")
DEPENDENCIES = frozenset({"sqlalchemy", "aiosqlite", "asyncpg", "discord", "apscheduler"})
# Documented public API that is spelled with an underscore to stay clear of column and field names:
# SQLAlchemy's Row (and the named tuples it imitates).
PUBLIC_UNDERSCORE_API = frozenset({"_mapping", "_asdict", "_fields", "_t", "_tuple", "_replace", "_make"})
ATTRIBUTE_FUNCTIONS = frozenset({"getattr", "setattr", "hasattr", "delattr"})


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def our_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for package in OUR_PACKAGES for p in (root / package).rglob("*.py"))


def defined_names(trees: list[ast.AST]) -> set[str]:
    """Every name our own code defines: an attribute by such a name is (or may be) ours."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
                names.add(node.attr)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
            elif (isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
                  and any(isinstance(t, ast.Name) and t.id == "__slots__"
                          for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))):
                names |= {c.value for c in ast.walk(node.value)
                          if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return names


def imported_names(tree: ast.AST) -> dict[str, str]:
    """Local name -> what it was imported as (``import discord.ui as ui``: ui -> discord.ui;
    ``from aiosqlite import Connection``: Connection -> aiosqlite.Connection)."""
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                imported[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return imported


def dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return inner and f"{inner}.{node.attr}"
    return None


def dependency_bases(node: ast.ClassDef, imported: dict[str, str]) -> list[type]:
    """The classes of our dependencies this class derives from (imported to look inside them)."""
    bases = []
    for base in node.bases:
        name = dotted(base)
        if name is None or name.split(".")[0] not in imported:
            continue
        path = imported[name.split(".")[0]] + name[len(name.split(".")[0]):]
        if path.split(".")[0] not in DEPENDENCIES:
            continue
        module_name, *attrs = path.split(".")
        found: object = importlib.import_module(module_name)
        for attr in attrs:  # walk down, importing submodules on the way
            try:
                found = getattr(found, attr)
            except AttributeError:
                module_name = f"{module_name}.{attr}"
                found = importlib.import_module(module_name)
            else:
                module_name = f"{module_name}.{attr}"
        if isinstance(found, type):
            bases.append(found)
    return bases


def overridden_privates(tree: ast.AST, path: str, imported: dict[str, str]) -> Iterator[Finding]:
    """In a subclass of a dependency's class: a private name of the base class that we override or touch
    on ``self`` (``_execute_async``, ``_cursor_cls``, a slot such as ``_connection``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = dependency_bases(node, imported)
        if not bases:
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef) and inner in node.body:
                name = inner.name
            elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store) and inner.id != "__slots__":
                name = inner.id
            elif isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self":
                name = inner.attr
            else:
                continue
            if is_private(name) and any(hasattr(base, name) for base in bases):
                yield Finding(path, inner.lineno, f"{node.name} touches its base class's private {name}")


def chain_root(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (``a.b().c[0].d``: a), None for a literal or the like."""
    while True:
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def private_uses(tree: ast.AST, path: str, ours: set[str]) -> Iterator[Finding]:
    imported = imported_names(tree)
    roots = {local: target.split(".")[0] for local, target in imported.items()}
    yield from overridden_privates(tree, path, imported)

    def foreign(attr: str, owner: ast.expr) -> str | None:
        """Why ``owner.attr`` is a dependency's private name, or None when it isn't."""
        if not is_private(attr) or attr in PUBLIC_UNDERSCORE_API:
            return None
        root = chain_root(owner)
        package = roots.get(root) if root is not None else None
        if package in DEPENDENCIES:
            return f"{package}'s private {attr}"
        if package is not None and package not in OUR_PACKAGES:
            return None  # another library's, or the standard library's: not what this test guards
        if attr not in ours:
            return f"{attr}, which our code never defines"
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] in DEPENDENCIES:
                if any(is_private(p) for p in parts):
                    yield Finding(path, node.lineno, f"import from private module {node.module}")
                for alias in node.names:
                    if is_private(alias.name):
                        yield Finding(path, node.lineno, f"from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in DEPENDENCIES and any(is_private(p) for p in parts):
                    yield Finding(path, node.lineno, f"import {alias.name}")
        elif isinstance(node, ast.Attribute):
            why = foreign(node.attr, node.value)
            if why:
                yield Finding(path, node.lineno, f".{node.attr}: {why}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_FUNCTIONS
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str)):
            why = foreign(node.args[1].value, node.args[0])
            if why:
                yield Finding(path, node.lineno, f"{node.func.id}(..., {node.args[1].value!r}): {why}")


def findings(root: Path = ROOT, files: list[Path] | None = None) -> list[Finding]:
    files = our_files(root) if files is None else files
    trees = {p: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for p in files}
    ours = defined_names(list(trees.values()))
    return [f for p, tree in trees.items() for f in private_uses(tree, str(p.relative_to(root)), ours)]


def test_no_private_names_of_our_dependencies() -> None:
    found = findings()
    assert not found, "private names of our dependencies:\n" + "\n".join(map(str, found))


# --- the rule itself: it catches what it must and nothing of ours --------------------------------------

@pytest.mark.parametrize("source", [
    "from sqlalchemy.util import greenlet_spawn\nfrom sqlalchemy.util._concurrency_py3k import await_only",
    "from sqlalchemy.dialects.sqlite.aiosqlite import _connect",
    "import aiosqlite._private",
    "def f(binds, name, dialect):\n    return binds[name].type._cached_bind_processor(dialect)",
    "def f(compiled):\n    return compiled._result_columns",
    "def f(bot):\n    return bot.http._HTTPClient__session",
    "import aiosqlite\nclass C:\n    def _execute(self): ...\nreal = aiosqlite.Connection._execute",
    "def f(conn):\n    return getattr(conn, '_conn')",
    "from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_cursor as Base\n"
    "class Cursor(Base):\n    def _handle_rows(self):\n        return self._rows",
    "from sqlalchemy.dialects.sqlite import aiosqlite\n"
    "class Connection(aiosqlite.AsyncAdapt_aiosqlite_connection):\n"
    "    def _handle_exception(self, error): ...",
])
def test_a_private_name_is_caught(tmp_path: Path, source: str) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "m.py").write_text(source)
    assert findings(tmp_path)


@pytest.mark.parametrize("source", [
    "class C:\n    __slots__ = ('_a',)\n    def __init__(self):\n        self._b = 1\n"
    "    def f(self):\n        return self._a, self._b, self.__class__",
    "import os\ndef f():\n    os._exit(1)",
    "def f(row):\n    return row._mapping['name'], row._asdict()",
    "def _helper(): ...\ndef f(module):\n    return module._helper()",
    "from discord.ext import commands\nclass Cog(commands.Cog):\n    def __init__(self):\n"
    "        self._cache = {}\n    def _lookup(self):\n        return self._cache",
])
def test_our_own_private_names_are_fine(tmp_path: Path, source: str) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "m.py").write_text(source)
    assert findings(tmp_path) == []
