"""The games by name: each game module registers itself (``games/``), and the engine finds
a game by the name its record gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import RecordError

if TYPE_CHECKING:
    from .variant import Variant

#: The games, in the order they are shown.
VARIANTS: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a game to the registry (the order of registration is the order shown)."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RecordError(
            f"unknown variant {name!r}: use one of {', '.join(VARIANTS)}", field="variant"
        ) from None
