"""Errors the vision raises on bad input; a board it cannot read is a status, not an error."""

from __future__ import annotations

from controller.errors import SurakartaError


class BadImage(SurakartaError, ValueError):
    """An image file that cannot be read, or an array that is not a colour image."""


class BadCalibration(SurakartaError, ValueError):
    """A calibration file that is missing, corrupt or for something else."""


class CalibrationFailed(SurakartaError, ValueError):
    """The calibration image cannot be used: no board in it, or not the start position."""


class CameraUnavailable(SurakartaError, OSError):
    """A camera that cannot be opened (missing device, missing driver module)."""


class CameraLost(SurakartaError, OSError):
    """A camera that was delivering frames and stopped; the caller may reopen and retry."""
