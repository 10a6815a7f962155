"""Scorekeeper: the score sheet, pot and payouts of a card night, on a phone.

The app factory lives in :mod:`scorekeeper.app`; it is imported lazily here so that the
rules engine (``scorekeeper.rules``) can be used without importing Flask at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from .app import create_app as factory

    return factory(test_config)
