"""The project's exception hierarchy: every error a user can cause is a SurakartaError."""


class SurakartaError(Exception):
    """Base of every error this project raises on bad input."""


class BadPosition(SurakartaError, ValueError):
    """A position string that cannot be parsed."""


class BadPoint(SurakartaError, ValueError):
    """A point name such as ``g9`` that is not on the board."""


class BadMove(SurakartaError, ValueError):
    """A move name that cannot be parsed."""


class IllegalMove(SurakartaError, ValueError):
    """A well-formed move that the rules do not allow in the position."""


class AmbiguousMove(SurakartaError, ValueError):
    """A move name that fits several legal moves (a Borobudur capture without its landing)."""


class BadColor(SurakartaError, ValueError):
    """A side's name that is neither red nor black."""


class BadOption(SurakartaError, ValueError):
    """A command-line option or a setting outside what it accepts."""


class BadVariant(SurakartaError, ValueError):
    """An unknown variant name, or a variant that does not fit the board."""


class BadRecord(SurakartaError, ValueError):
    """A game record that cannot be read; the message names the line."""


class GameOver(SurakartaError, ValueError):
    """A move was offered after the game had ended."""
