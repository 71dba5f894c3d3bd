"""Faults a running board meets: power cuts, bad cameras, full disks, signals, long runs."""

from __future__ import annotations

from hardware.mock import RECENT_STATES, mock_factory


def test_mock_pins_forget_old_changes_so_a_pc_run_does_not_grow() -> None:
    factory = mock_factory()
    try:
        pin = factory.pin(17)
        pin.function = "output"
        for change in range(10 * RECENT_STATES):
            pin.state = change % 2
        assert len(pin.states) <= RECENT_STATES
        assert [state.state for state in pin.states[-2:]] == [0.0, 1.0], "the latest are kept"
    finally:
        factory.close()
