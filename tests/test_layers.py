"""The layers stay apart: the engines, the registry and the Discord-free table service load neither
discord.py nor Pillow (checked in a fresh interpreter, since the test session has loaded both); the cogs
reach the store only through the service; the store knows no game; no package has an import circle, nor
do the packages import one another in a circle; and no function outside the tests is longer than
:data:`LONGEST` lines.

An import counts wherever it is: in a function (imported when called), and under ``if TYPE_CHECKING:``
too. Such an import only hides a circle from the interpreter: the two modules still need each other to be
understood, and one of them usually holds what belongs in a third (a hub handed down, a type that lives
in the wrong module)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted(f"tables.{p.stem}" for p in (ROOT / "tables").glob("*.py") if p.stem != "__init__")

PROBE = f"""
import json, sys
import games.registry, {", ".join(TABLES)}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("discord", "PIL"))))
"""


PACKAGES = ("games", "data", "rendering", "tables", "cogs", "bench")
LONGEST = 60
"""Lines a function may have (its ``def`` to its last line, docstring included)."""


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (its subpackages' too) by its dotted name, a package by its own."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_from(here: list[str], node: ast.ImportFrom) -> str:
    """The module a ``from … import`` in package ``here`` reads: its own name, or a relative one resolved."""
    if not node.level:
        return node.module or ""
    base = here[: len(here) + 1 - node.level]
    return ".".join([*base, node.module] if node.module else base)


def imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules it imports, at any depth of its code: ``from a import b``
    imports ``a.b`` where that is a module of the project, ``a`` otherwise; relative imports are resolved."""
    out: dict[str, set[str]] = {}
    for module, path in modules(package).items():
        here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = _imported_from(here, node)
                names |= {f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base for a in node.names}
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
        out[module] = names
    return out


def circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of ``graph`` (each node and the nodes it needs), as the nodes along it; none: ``[]``."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def test_the_service_menus_and_registry_load_neither_discord_nor_pillow() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []
    assert "tables.compose" in TABLES and "tables.delivery" in TABLES


def test_the_probe_sees_what_it_looks_for() -> None:
    probe = PROBE.replace("import games.registry", "import PIL.Image, games.registry")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "PIL" in json.loads(done.stdout)


def test_the_cogs_reach_the_store_only_through_the_service() -> None:
    for module, names in imports("cogs").items():
        assert not any(n == "data" or n.startswith("data.") for n in names), f"{module} imports the store"


def test_the_store_knows_no_game() -> None:
    for module, names in imports("data").items():
        assert not any(n.startswith(("games", "tables", "cogs")) for n in names), f"{module} imports {names}"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_another_that_imports_it_back(package: str) -> None:
    own = imports(package)
    graph = {module: {name for name in names if name in own and name != module} for module, names in own.items()}
    assert not circle(graph), f"an import circle in {package}/: {' -> '.join(circle(graph))}"


def test_the_packages_import_one_another_in_one_direction() -> None:
    graph = {}
    for package in PACKAGES:
        needed = {name.split(".")[0] for names in imports(package).values() for name in names}
        graph[package] = needed & set(PACKAGES) - {package}
    assert not circle(graph), f"the packages import one another in a circle: {' -> '.join(circle(graph))}"


def long_functions(where: str) -> list[str]:
    """The functions of a package or a module longer than :data:`LONGEST` lines, with their lengths."""
    paths = [ROOT / where] if where.endswith(".py") else sorted((ROOT / where).rglob("*.py"))
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > LONGEST:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    return found


@pytest.mark.parametrize("where", [*PACKAGES, "bot.py"])
def test_no_function_is_longer_than_a_screen(where: str) -> None:
    assert not long_functions(where), f"functions over {LONGEST} lines: {long_functions(where)}"


ADAPTERS = 3754 // 2 + 150
"""Half the size the cogs were when they held the platform's decisions (3,754 lines), and the adapters of the
two services since, privacy and tournaments (their decisions are in ``tables/``): 150 lines."""


def test_the_cogs_are_adapters_only() -> None:
    """``cogs/offline/``, the bot run in SimCord for the demo, ``play`` and the tests, is no adapter and is not
    counted."""
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "cogs").glob("*.py"))
    assert lines <= ADAPTERS, lines
