"""The rule variants of docs/RULES.md."""

from __future__ import annotations

from enum import Enum

from controller.errors import BadVariant


class Variant(Enum):
    """A rule set. The rules themselves work on any supported board size."""

    STANDARD = "standard"
    SEPUR = "sepur"
    GONU = "gonu"
    BOROBUDUR = "borobudur"

    @property
    def size(self) -> int:
        """Board size of the variant's start position."""
        return 7 if self is Variant.SEPUR else 6

    @property
    def has_diagonal_steps(self) -> bool:
        """Whether steps may go diagonally (not in the no-diagonal variant)."""
        return self is not Variant.GONU

    @property
    def has_slides(self) -> bool:
        """Whether pieces may slide along the outer circuit to an empty point."""
        return self is Variant.GONU

    @property
    def captures_by_jumping(self) -> bool:
        """Whether a capture lands beyond the captured piece (Borobudur)."""
        return self is Variant.BOROBUDUR


def parse_variant(name: str) -> Variant:
    """The variant called ``name``; raises BadVariant."""
    try:
        return Variant(name.strip().lower())
    except ValueError:
        names = ", ".join(v.value for v in Variant)
        raise BadVariant(f"unknown variant: {name!r} (expected one of {names})") from None
