"""Piratz (Oliver Igelhaut, Igel Spiele): a push-your-luck treasure card game for 2–4 players."""

from __future__ import annotations

from .ai import PiratzAI
from .cards import CARDS
from .engine import Piratz

__all__ = ["CARDS", "Piratz", "PiratzAI"]
