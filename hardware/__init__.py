"""Everything that touches pins: the lamp layout, LED drivers and effects, buttons, buzzer.

All devices go through gpiozero with an injectable pin factory, so the same code
runs on a Raspberry Pi and, with gpiozero's MockFactory, on any computer.
"""

from hardware.build import Hardware, build_driver, build_hardware
from hardware.buttons import ButtonName, ButtonPanel
from hardware.buzzer import SOUND_PATTERNS, Sound, SoundPlayer
from hardware.chain import Chain, Frame
from hardware.config import (
    DriverKind,
    HardwareConfig,
    check_hardware_config,
    load_hardware_config,
    load_hardware_file,
)
from hardware.drivers import (
    GpioLamps,
    LampDriver,
    NullLamps,
    ShiftRegisterChain,
    SpiShiftRegisterChain,
)
from hardware.effects import Blink, Chase, Effect, Pulse, Steady, frame_at
from hardware.errors import HardwareConfigError, HardwareError
from hardware.lamps import (
    Lamp,
    LampKind,
    LampLayout,
    default_chain_order,
    lamps_for_move,
    lamps_for_stations,
)
from hardware.scene import LampRefresher, LedScene
from hardware.ws2812 import Ws2812Strip, encode_ws2812

__all__ = [
    "SOUND_PATTERNS",
    "Blink",
    "ButtonName",
    "ButtonPanel",
    "Chain",
    "Chase",
    "DriverKind",
    "Effect",
    "Frame",
    "GpioLamps",
    "Hardware",
    "HardwareConfig",
    "HardwareConfigError",
    "HardwareError",
    "Lamp",
    "LampDriver",
    "LampKind",
    "LampLayout",
    "LampRefresher",
    "LedScene",
    "NullLamps",
    "Pulse",
    "ShiftRegisterChain",
    "Sound",
    "SoundPlayer",
    "SpiShiftRegisterChain",
    "Steady",
    "Ws2812Strip",
    "build_driver",
    "build_hardware",
    "check_hardware_config",
    "default_chain_order",
    "encode_ws2812",
    "frame_at",
    "lamps_for_move",
    "lamps_for_stations",
    "load_hardware_config",
    "load_hardware_file",
]
