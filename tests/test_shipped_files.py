"""Files shipped beside the code: the LICENSE is the one pyproject.toml names, and the systemd unit in docs/
runs the bot's real command, stops it the way it stops cleanly, and does not restart a setting to fix."""

from __future__ import annotations

import configparser
import shlex
import tomllib
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parent.parent


def test_the_license_is_the_mit_license_pyproject_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 The Pirate Tables authors\n")
    assert "Permission is hereby granted, free of charge" in text and text.endswith("SOFTWARE.\n")


def _unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",), strict=True)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    unit.read_string((ROOT / "docs" / "pirate-tables.service").read_text(encoding="utf-8"))
    return unit


def test_the_systemd_unit_runs_the_bot_from_its_folder_in_its_virtual_environment() -> None:
    service = _unit()["Service"]
    python, script, *arguments = shlex.split(service["ExecStart"])
    folder = Path(service["WorkingDirectory"])
    assert Path(python) == folder / ".venv" / "bin" / "python"  # the README's install: a venv in the folder
    assert (ROOT / script).resolve() == (ROOT / "bot.py").resolve()
    assert bot._parser().parse_args(arguments).command in (None, "run")  # connect to Discord


def test_the_systemd_unit_stops_the_bot_as_ctrl_c_does_and_leaves_a_setting_to_fix_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    service = _unit()["Service"]
    assert service["KillSignal"] == "SIGINT"  # the bot's own way to stop: its games let go, status 0
    assert service["Restart"] == "on-failure"
    # A setting that cannot be used (or no token, or a rejected one) fails the same way on every start.
    monkeypatch.setenv("TABLES_LOG_LEVEL", "LOUD")
    assert service["RestartPreventExitStatus"] == str(bot.main([])) == "2"
    assert "TABLES_LOG_LEVEL" in capsys.readouterr().err
    assert _unit()["Install"]["WantedBy"] == "multi-user.target"
