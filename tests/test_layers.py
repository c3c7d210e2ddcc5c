"""The layers stay apart: the engines, the registry and the Discord-free table service load neither
discord.py nor Pillow (checked in a fresh interpreter, since the test session has loaded both); the cogs
reach the store only through the service; the store knows no game; and no two cog modules import each
other in a circle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted(f"tables.{p.stem}" for p in (ROOT / "tables").glob("*.py") if p.stem != "__init__")

PROBE = f"""
import json, sys
import games.registry, {", ".join(TABLES)}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("discord", "PIL"))))
"""


def imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the project modules it imports (at any depth of its code)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).glob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names |= {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
        out[f"{package}.{path.stem}"] = names
    return out


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


def test_no_cog_module_imports_another_that_imports_it_back() -> None:
    modules = imports("cogs")
    graph = {m: {n for n in names if n in modules} for m, names in modules.items()}

    def reachable(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo += graph[node]
        return seen

    circles = [m for m in graph if m in reachable(m)]
    assert not circles, f"import circles through {circles}"


def test_the_cogs_are_adapters_only() -> None:
    """Half the size they were when they held the platform's decisions (3,754 lines). ``cogs/offline/``, the bot
    run in SimCord for the demo, ``play`` and the tests, is no adapter and is not counted."""
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "cogs").glob("*.py"))
    assert lines <= 3754 // 2, lines
