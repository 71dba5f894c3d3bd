"""The four push buttons (hint, undo, new game, mode), debounced, delivering presses.

Each button connects its GPIO pin to ground; the Pi's internal pull-up holds the
pin high until it is pressed. Presses go to a callback, or into a queue when no
callback is given, so the referee can take them on its own thread.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping

from controller.decisions import Button
from hardware.gpio import PinFactory, Switch, switch

DEFAULT_BOUNCE_TIME = 0.05
"""Seconds during which further edges after a press are ignored (switch bounce)."""


ButtonName = Button
"""The buttons' names are the referee's own ``Button`` (hint, undo, new game, mode)."""


PressHandler = Callable[[ButtonName], None]
"""Called with the button pressed, on gpiozero's event thread."""


class ButtonPanel:
    """The fitted buttons; a missing pin means that button is not fitted."""

    def __init__(
        self,
        pins: Mapping[ButtonName, int],
        on_press: PressHandler | None = None,
        *,
        bounce_time: float | None = DEFAULT_BOUNCE_TIME,
        pin_factory: PinFactory | None = None,
    ) -> None:
        self._on_press = on_press
        self.presses: queue.Queue[ButtonName] = queue.Queue()
        """Presses not delivered to a handler, oldest first."""
        self._buttons: dict[ButtonName, Switch] = {}
        try:
            for name, pin in pins.items():
                button = switch(pin, bounce_time=bounce_time, pin_factory=pin_factory)
                button.when_activated = self._handler_for(name)
                self._buttons[name] = button
        except BaseException:
            self.close()
            raise

    def _handler_for(self, name: ButtonName) -> Callable[[], None]:
        def pressed() -> None:
            handler = self._on_press
            if handler is None:
                self.presses.put(name)
            else:
                handler(name)

        return pressed

    def set_handler(self, on_press: PressHandler | None) -> None:
        """Send later presses to ``on_press`` (``None``: to the ``presses`` queue)."""
        self._on_press = on_press

    @property
    def fitted(self) -> tuple[ButtonName, ...]:
        """The buttons present, in configuration order."""
        return tuple(self._buttons)

    def button(self, name: ButtonName) -> Switch:
        """The gpiozero device of one button (the self-test reads its pin)."""
        return self._buttons[name]

    def close(self) -> None:
        """Release the pins; no more presses are delivered."""
        for button in self._buttons.values():
            button.close()
        self._buttons = {}
