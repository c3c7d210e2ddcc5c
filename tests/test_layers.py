"""The layers stay apart: the engines, the registry and the Discord-free play service load neither
discord.py nor Pillow (checked in a fresh interpreter, since the test session has loaded both)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
import games.registry, tables.menus, tables.service
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("discord", "PIL"))))
"""


def test_service_menus_and_registry_load_neither_discord_nor_pillow() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_the_probe_sees_what_it_looks_for() -> None:
    probe = PROBE.replace("import games.registry", "import PIL.Image, games.registry")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "PIL" in json.loads(done.stdout)
