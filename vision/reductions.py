"""Means, vector lengths and medians along one axis, without numpy's wrappers round them.

A frame is read from small arrays (36 points, some 90 paper samples), so numpy's ``mean``,
``linalg.norm`` and ``median`` cost more in their Python wrappers (argument checks, counting
the items, a NaN check) than in their arithmetic, and a frame calls them dozens of times.
Each function here does the same arithmetic in the same order, so its results are the same
numbers, bit for bit.
"""

from __future__ import annotations

import numpy as np

_DOUBLE = np.dtype(np.float64)


def mean_along(values: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """``values.mean(axis=axis, keepdims=keepdims)``: the sum over the axis divided by its
    length (which is all numpy's mean does, after its checks). Integers are summed in double
    precision, as numpy's mean sums them."""
    # The dtype's kind ("f" float, "c" complex) is a cheaper test than np.issubdtype.
    dtype = None if values.dtype.kind in "fc" else _DOUBLE
    total: np.ndarray = values.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    result: np.ndarray = total / values.shape[axis]
    return result


def norm_along(values: np.ndarray, axis: int) -> np.ndarray:
    """``np.linalg.norm(values, axis=axis)`` of real ``values``: the root of the sum of the
    squares, as numpy works it out for a single axis."""
    result: np.ndarray = np.sqrt(np.add.reduce(values * values, axis=axis))
    return result


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
