"""What the camera does after the light reaches it: lens, exposure, white balance, noise, JPEG.

Input is Blender's linear render (float RGB, rows from the top); output a BGR JPEG of
the output size. Everything random about a camera is drawn once per setup
(``draw_camera_response``) so that all frames of a setup come from the same camera.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
from conditions import Lens
from optics import OUTPUT_SIZE, distortion_maps

EXPOSURE_PERCENTILE = 90.0
"""Auto exposure puts this percentile of the luminance at ``EXPOSURE_TARGET`` (mostly paper)."""
EXPOSURE_TARGET = 0.72
WHITE_BALANCE_PERCENTILE = 80.0
"""Auto white balance looks at the pixels brighter than this percentile (the paper)."""


@dataclass(frozen=True, slots=True)
class CameraResponse:
    """The camera's processing, fixed for a setup."""

    exposure_bias: float
    """Stops above (or below) the auto exposure."""
    white_balance: float
    """How much of the colour cast the auto white balance removes (0: none, 1: all)."""
    shot_noise: float
    """Variance of photon noise per unit of linear signal."""
    read_noise: float
    """Standard deviation of the sensor's read noise, linear units."""
    jpeg_quality: int
    """JPEG quality of the saved frames."""

    def describe(self) -> dict[str, float]:
        """The response as JSON-ready data."""
        return asdict(self)


def draw_camera_response(rng: np.random.Generator, jpeg_quality: int) -> CameraResponse:
    """A camera's response with noise and exposure of a small board camera."""
    return CameraResponse(
        exposure_bias=float(rng.uniform(-0.3, 0.3)),
        white_balance=float(rng.uniform(0.5, 0.9)),
        shot_noise=float(rng.uniform(0.0003, 0.0015)),
        read_noise=float(rng.uniform(0.002, 0.006)),
        jpeg_quality=jpeg_quality,
    )


class Darkroom:
    """Develops the renders of one setup: same lens, same camera, fresh noise per frame."""

    def __init__(self, lens: Lens, rendered: tuple[int, int], response: CameraResponse,
                 rng: np.random.Generator) -> None:
        self.response = response
        self.rng = rng
        self.maps = None if rendered == OUTPUT_SIZE else distortion_maps(lens, rendered)
        self.vignette = _vignette(lens.vignetting)

    def develop(self, linear: np.ndarray) -> np.ndarray:
        """The 8-bit BGR image the camera would deliver for a linear RGB render."""
        image: np.ndarray = np.nan_to_num(linear.astype(np.float32), nan=0.0, posinf=1e4)
        if self.maps is not None:
            image = cv2.remap(image, *self.maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        image = image * self.vignette[:, :, None]
        image = self._white_balance(image)
        luminance = image @ np.array([0.2126, 0.7152, 0.0722], np.float32)
        level = max(float(np.percentile(luminance, EXPOSURE_PERCENTILE)), 1e-6)
        image = image * (EXPOSURE_TARGET / level * 2.0 ** self.response.exposure_bias)
        image = self._noisy(np.clip(image, 0.0, 1.0))
        encoded = _srgb(np.clip(image, 0.0, 1.0))
        return cv2.cvtColor((encoded * 255 + 0.5).astype(np.uint8), cv2.COLOR_RGB2BGR)

    def _white_balance(self, image: np.ndarray) -> np.ndarray:
        luminance = image.mean(axis=2)
        bright = image[luminance >= np.percentile(luminance, WHITE_BALANCE_PERCENTILE)]
        means = np.maximum(bright.mean(axis=0), 1e-6)
        gains = (means.mean() / means) ** self.response.white_balance
        return np.asarray(image * gains.astype(np.float32))

    def _noisy(self, image: np.ndarray) -> np.ndarray:
        sigma = np.sqrt(self.response.shot_noise * image + self.response.read_noise ** 2)
        return image + sigma * self.rng.standard_normal(image.shape, np.float32)

    def save(self, linear: np.ndarray, path: Path) -> None:
        """Develop and write a JPEG; raises OSError if it cannot be written."""
        quality = [cv2.IMWRITE_JPEG_QUALITY, self.response.jpeg_quality]
        if not cv2.imwrite(str(path), self.develop(linear), quality):
            raise OSError(f"cannot write image: {str(path)!r}")


def _vignette(strength: float) -> np.ndarray:
    """Share of light reaching each pixel: 1 in the centre, ``1 - strength`` in the corners."""
    width, height = OUTPUT_SIZE
    xs, ys = np.meshgrid(np.linspace(-1, 1, width), np.linspace(-1, 1, height))
    radius_squared = (xs ** 2 + ys ** 2) / 2
    return (1.0 - strength * radius_squared).astype(np.float32)


def _srgb(linear: np.ndarray) -> np.ndarray:
    """The sRGB transfer curve."""
    return np.where(linear <= 0.0031308, 12.92 * linear,
                    1.055 * np.power(linear, 1 / 2.4) - 0.055).astype(np.float32)
