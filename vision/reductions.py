"""Sums, means, vector lengths and medians along one axis, without numpy's wrappers round
them.

A frame is read from small arrays (36 points, some 90 paper samples), so numpy's ``mean``,
``linalg.norm`` and ``median`` cost more in their Python wrappers (argument checks, counting
the items, a NaN check) than in their arithmetic, and a frame calls them dozens of times;
over a colour's three channels, numpy's reduction is slow besides. Each function here does
the same arithmetic in the same order, so its results are the same numbers, bit for bit.
"""

from __future__ import annotations

import numpy as np

_DOUBLE = np.dtype(np.float64)


def mean_along(values: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """``values.mean(axis=axis, keepdims=keepdims)``: the sum over the axis divided by its
    length (which is all numpy's mean does, after its checks). Integers are summed in double
    precision, as numpy's mean sums them (half-precision floats, which it sums in single
    precision, are not expected)."""
    # The dtype's kind ("f" float, "c" complex) is a cheaper test than np.issubdtype.
    dtype = None if values.dtype.kind in "fc" else _DOUBLE
    total: np.ndarray = values.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    result: np.ndarray = total / values.shape[axis]
    return result


def channel_mean(values: np.ndarray) -> np.ndarray:
    """``values.mean(axis=-1)`` over a last axis of three colour channels."""
    if values.dtype.kind not in "fc":
        values = values.astype(_DOUBLE)  # as numpy's mean sums integers
    result: np.ndarray = short_sum(values) / 3
    return result


def channel_norm(values: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(values, axis=-1)`` of real ``values`` over a last axis of three
    channels: the root of the sum of the squares, as numpy works it out for one axis."""
    result: np.ndarray = np.sqrt(short_sum(values * values))
    return result


_PAIRWISE_BLOCK = 8
"""Numpy adds fewer entries than this one after the other; more, pairwise in blocks."""


def short_sum(values: np.ndarray) -> np.ndarray:
    """``values.sum(axis=-1)`` of floats over a last axis of two to seven entries.

    Added one after the other, as numpy's reduction adds so few entries. Numpy steps through
    so short an axis slowly, element by element: over a few thousand rows this is several
    times faster.
    """
    count = values.shape[-1]
    if not 2 <= count < _PAIRWISE_BLOCK or values.dtype.kind not in "fc":
        raise ValueError(f"expected floats over a last axis of 2 to 7, got {values.shape}")
    total: np.ndarray = values[..., 0] + values[..., 1]
    for index in range(2, count):
        total += values[..., index]
    return total


def median_along(values: np.ndarray, axis: int) -> np.ndarray:
    """``np.median(values, axis=axis)`` of ``values`` without NaNs: the middle value, or the
    mean of the middle two of an even count, found by partial sorting as numpy finds them
    (numpy's median would also give NaN wherever a NaN is among the values)."""
    count = values.shape[axis]
    upper = count // 2
    if count % 2:
        middle: np.ndarray = np.partition(values, upper, axis=axis).take(upper, axis=axis)
        return middle
    ranked = np.partition(values, (upper - 1, upper), axis=axis)
    result: np.ndarray = (ranked.take(upper - 1, axis=axis) + ranked.take(upper, axis=axis)) / 2
    return result
