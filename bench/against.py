"""``python -m bench --against REV``: the same bench on this checkout and on git revision ``REV`` (a
temporary worktree, the same virtual environment), run in turn ``--runs`` times, so that a change's effect
is stated as a ratio measured side by side (this machine's speed varies by about ±30% from run to run).

The output is one JSON object: for every figure (``piratz.action_ms.p99``…) the values of each run of
both, and the ratio of their medians (this checkout over ``REV``: below 1 is faster)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def leaves(report: Any, prefix: str = "") -> Iterator[tuple[str, float]]:
    """Every number of a bench report, by its dotted path."""
    if isinstance(report, dict):
        for key, value in report.items():
            yield from leaves(value, f"{prefix}{key}.")
    elif isinstance(report, int | float) and not isinstance(report, bool):
        yield prefix.rstrip("."), float(report)


def run(where: Path, argv: Sequence[str]) -> dict[str, Any]:
    """One run of ``python -m bench argv`` in the checkout at ``where``, its JSON report."""
    done = subprocess.run([sys.executable, "-m", "bench", *argv], cwd=where, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"python -m bench failed in {where} (status {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def against(revision: str, runs: int, argv: Sequence[str]) -> dict[str, Any]:
    """Both checkouts' runs of the bench, alternating, and the ratio of their medians per figure."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "against"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), revision], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            reports: dict[str, list[dict[str, Any]]] = {"head": [], "against": []}
            for _ in range(runs):
                reports["head"].append(run(ROOT, argv))
                reports["against"].append(run(other, argv))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=True)
    figures: dict[str, dict[str, Any]] = {}
    for side, side_reports in reports.items():
        for report in side_reports:
            for path, value in leaves(report):
                figures.setdefault(path, {"head": [], "against": []})[side].append(value)
    for values in figures.values():
        head, base = values["head"], values["against"]
        if head and base and statistics.median(base):
            values["ratio"] = round(statistics.median(head) / statistics.median(base), 2)
    return {"against": revision, "runs": runs, "figures": figures}
