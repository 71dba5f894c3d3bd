"""Who can capture whom on one circuit, without walking every trip.

A trip from a piece runs along the circuit to the first occupied station (the
piece's own point, met again at a crossing, counts as empty), so the captures
of a side follow from the cyclic order of the occupied stations alone: each
piece looks at its neighbour in that order, each way round. The trip passes a
loop exactly when it leaves the line it started on, which station indices tell
at once: a circuit is four lines of ``size`` stations, with a loop after each.

The move generator and the attack maps both ask this question for every new
occupancy they meet, so it is worth keeping cheap; the paths of the trips
(which the lamps light) are worked out separately, only for moves shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.geometry import Circuit

NO_LANDING = 63
"""``landing`` of a capture by replacement (every variant but Borobudur). It is no
point of any board (g7, the largest, is 54) and fits the six bits a landing takes
in the move generator's move keys."""


@dataclass(frozen=True, slots=True)
class CircuitCaptures:
    """What the side owning ``own`` can do on one circuit through at least one loop."""

    captures: tuple[tuple[int, int, int], ...]
    """Distinct ``(origin, target, landing)`` captures; ``landing`` is NO_LANDING
    unless the capture jumps (Borobudur), in the order first found."""
    guards: int
    """Bitboard of the side's own pieces that another of its pieces reaches."""


NO_CAPTURES = CircuitCaptures((), 0)


def scan_circuit(circuit: Circuit, own: int, opp: int, jumps: bool) -> CircuitCaptures:
    """The captures and guards of the side owning ``own`` on ``circuit``.

    ``jumps``: captures land on the station beyond the captured piece, which must
    be empty or the mover's own starting point.
    """
    return _scan(circuit, own, opp, jumps, sides=1)[0]


def scan_both(
    circuit: Circuit, own: int, opp: int, jumps: bool
) -> tuple[CircuitCaptures, CircuitCaptures]:
    """``scan_circuit`` for both sides at once: ``(own's, opp's)``.

    The evaluation asks for both sides of every position, and they share the
    order of the occupied stations, which is most of the work.
    """
    return _scan(circuit, own, opp, jumps, sides=2)


def _looped_end(
    stations: tuple[int, ...], ring: list[int], order: int, direction: int, line: int
) -> int | None:
    """The station a trip from ``ring[order]`` going ``direction`` stops at (the next
    occupied one, passing over the origin's other station), when the trip passes a
    loop on the way; None when it does not, or when nothing else stands on the circuit."""
    count = len(ring)
    start = ring[order]
    neighbour = (order + direction) % count
    end = ring[neighbour]
    if stations[end] == stations[start]:
        end = ring[(neighbour + direction) % count]
        if end == start:
            return None
    if direction == 1:
        looped = end < start or end // line != start // line
    else:
        looped = end > start or end // line != start // line
    return end if looped else None


def _scan(
    circuit: Circuit, own: int, opp: int, jumps: bool, sides: int
) -> tuple[CircuitCaptures, CircuitCaptures]:
    stations = circuit.stations
    length = len(stations)
    line = length // 4
    occupied = own | opp
    ring = [index for index, point in enumerate(stations) if occupied >> point & 1]
    count = len(ring)
    if count < 2:
        return NO_CAPTURES, NO_CAPTURES
    found: tuple[dict[tuple[int, int, int], None], dict[tuple[int, int, int], None]] = ({}, {})
    guards = [0, 0]
    for order, start in enumerate(ring):
        origin = stations[start]
        side = 0 if own >> origin & 1 else 1
        if side >= sides:
            continue
        friends = own if side == 0 else opp
        for direction in (1, -1):
            end = _looped_end(stations, ring, order, direction, line)
            if end is None:
                continue
            target = stations[end]
            if friends >> target & 1:
                guards[side] |= 1 << target
                continue
            landing = NO_LANDING
            if jumps:
                landing = stations[(end + direction) % length]
                if landing != origin and occupied >> landing & 1:
                    continue
            found[side][(origin, target, landing)] = None
    return (
        CircuitCaptures(tuple(found[0]), guards[0]) if found[0] or guards[0] else NO_CAPTURES,
        CircuitCaptures(tuple(found[1]), guards[1]) if found[1] or guards[1] else NO_CAPTURES,
    )
