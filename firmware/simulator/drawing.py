"""Drawing the virtual board, its lamps, pieces and trays, and the side panel, with pygame."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache

import pygame
import pygame.gfxdraw

from controller.geometry import FILES, CircuitKind, geometry
from controller.position import Color
from firmware.simulator.layout import (
    LAMP_RING,
    LOOP_LAMP_RADIUS,
    PIECE_RADIUS,
    BoardView,
    Layout,
    Rect,
)
from hardware.lamps import Lamp, LampKind, LampLayout, loop_arc

RGB = tuple[int, int, int]

BACKGROUND: RGB = (34, 38, 46)
SHEET: RGB = (238, 230, 208)
GRID: RGB = (110, 100, 86)
CIRCUIT_COLOURS: dict[CircuitKind, RGB] = {
    CircuitKind.INNER: (70, 120, 200),
    CircuitKind.OUTER: (70, 160, 100),
}
LAMP_OFF: RGB = (214, 204, 180)
LAMP_ON: RGB = (255, 196, 40)
"""A lit lamp: warm amber, unmistakable on the cream sheet (tests look for it)."""
PIECE_COLOURS: dict[Color, tuple[RGB, RGB, RGB]] = {
    # face, rim, gloss
    Color.RED: ((200, 52, 44), (130, 28, 24), (236, 130, 120)),
    Color.BLACK: ((44, 44, 50), (12, 12, 14), (120, 120, 132)),
}
TEXT: RGB = (228, 230, 236)
DIM_TEXT: RGB = (150, 156, 168)
ACCENT: RGB = (255, 196, 40)
BUTTON: RGB = (58, 64, 78)
BUTTON_EDGE: RGB = (96, 104, 122)


@lru_cache(maxsize=8)
def font(size: int) -> pygame.font.Font:
    """pygame's built-in font at ``size`` (no system fonts needed)."""
    return pygame.font.Font(None, size)


def text(surface: pygame.Surface, words: str, pos: tuple[float, float], size: int = 22,
         colour: RGB = TEXT, centre: bool = False) -> int:
    """Draw a line of text; returns its width."""
    image = _text_image(words, size, colour)
    x, y = pos
    if centre:
        x -= image.get_width() / 2
        y -= image.get_height() / 2
    surface.blit(image, (round(x), round(y)))
    return int(image.get_width())


@lru_cache(maxsize=512)
def _text_image(words: str, size: int, colour: RGB) -> pygame.Surface:
    return font(size).render(words, True, colour)


def disc(surface: pygame.Surface, centre: tuple[float, float], radius: float, colour: RGB) -> None:
    """An anti-aliased filled circle."""
    x, y, r = round(centre[0]), round(centre[1]), max(1, round(radius))
    pygame.gfxdraw.filled_circle(surface, x, y, r, colour)
    pygame.gfxdraw.aacircle(surface, x, y, r, colour)


def _thick_polyline(surface: pygame.Surface, points: list[tuple[float, float]], colour: RGB,
                    width: int) -> None:
    pygame.draw.lines(surface, colour, False, points, width)
    for point in points:  # round joints, so arcs drawn as segments have no notches
        disc(surface, point, width / 2 - 0.5, colour)


def arc_points(view: BoardView, centre: tuple[float, float], radius: float, start: float,
               sweep: float, steps: int = 48) -> list[tuple[float, float]]:
    """Window points along an arc given in grid units and degrees (y up)."""
    points = []
    for index in range(steps + 1):
        angle = math.radians(start + sweep * index / steps)
        points.append(view.pixel(centre[0] + radius * math.cos(angle),
                                 centre[1] + radius * math.sin(angle)))
    return points


def board_background(layout: Layout) -> pygame.Surface:
    """The printed sheet: grid, coloured circuits with their loops, point names."""
    view = layout.board
    size = view.size
    surface = pygame.Surface((view.side, view.side))
    surface.fill(SHEET)
    local = BoardView(size, 0, 0, view.side)
    pitch = local.pitch
    last = size - 1
    for i in range(size):
        pygame.draw.line(surface, GRID, local.pixel(i, 0), local.pixel(i, last), 2)
        pygame.draw.line(surface, GRID, local.pixel(0, i), local.pixel(last, i), 2)
    line_width = max(3, round(pitch * 0.07))
    for circuit in geometry(size).circuits:
        colour = CIRCUIT_COLOURS[circuit.kind]
        lo, hi = circuit.kind.line, last - circuit.kind.line
        for at in (lo, hi):
            _thick_polyline(surface, [local.pixel(at, 0), local.pixel(at, last)], colour,
                            line_width)
            _thick_polyline(surface, [local.pixel(0, at), local.pixel(last, at)], colour,
                            line_width)
        for loop in {loop for loop in circuit.loop_after if loop is not None}:
            cx, cy, radius, start, sweep = loop_arc(size, loop)
            _thick_polyline(surface, arc_points(local, (cx, cy), radius, start, sweep), colour,
                            line_width)
    for point in geometry(size).points:
        disc(surface, local.point_pixel(point), max(2.0, pitch * 0.06), GRID)
    for i in range(size):
        x, y = local.pixel(i, 0)
        text(surface, FILES[i], (x, y + pitch * 0.62), 20, DIM_TEXT, centre=True)
        x, y = local.pixel(0, i)
        text(surface, str(i + 1), (x - pitch * 0.62, y), 20, DIM_TEXT, centre=True)
    return surface


def lamp_centre(view: BoardView, lamp: Lamp) -> tuple[float, float]:
    """Where a lamp is drawn."""
    return view.pixel(lamp.x, lamp.y)


def lamp_probe(view: BoardView, lamp: Lamp) -> tuple[int, int]:
    """A pixel that shows a lamp's state whatever stands on it (for tests and checks)."""
    x, y = lamp_centre(view, lamp)
    if lamp.kind is LampKind.POINT:
        # Halfway across the ring, straight up-left: away from the grid lines.
        middle = (LAMP_RING[0] + LAMP_RING[1]) / 2 * view.pitch / math.sqrt(2)
        return round(x - middle), round(y - middle)
    return round(x), round(y)


def draw_lamps(surface: pygame.Surface, view: BoardView, lamps: LampLayout,
               lit: frozenset[str], colours: Mapping[str, RGB] | None = None) -> None:
    """Every lamp: a ring round each point, a dot on the loops; lit ones in amber, or in
    the colour ``colours`` gives them."""
    colours = colours or {}
    pitch = view.pitch
    inner, outer = LAMP_RING[0] * pitch, LAMP_RING[1] * pitch
    for lamp in lamps:
        centre = lamp_centre(view, lamp)
        on = lamp.name in lit
        colour = colours.get(lamp.name, LAMP_ON)
        if lamp.kind is LampKind.POINT:
            if on:
                disc(surface, centre, outer, colour)
                disc(surface, centre, inner, SHEET)
                disc(surface, centre, max(2.0, pitch * 0.06), GRID)
            else:
                x, y = round(centre[0]), round(centre[1])
                pygame.gfxdraw.aacircle(surface, x, y, round(outer), LAMP_OFF)
        else:
            radius = LOOP_LAMP_RADIUS * pitch
            if on:
                disc(surface, centre, radius, colour)
            else:
                disc(surface, centre, radius * 0.6, LAMP_OFF)


def draw_piece(surface: pygame.Surface, centre: tuple[float, float], pitch: float,
               color: Color, scale: float = 1.0) -> None:
    """A playing piece with a rim and a highlight."""
    face, rim, gloss = PIECE_COLOURS[color]
    radius = PIECE_RADIUS * pitch * scale
    disc(surface, (centre[0] + radius * 0.08, centre[1] + radius * 0.12), radius, (150, 140, 120))
    disc(surface, centre, radius, rim)
    disc(surface, centre, radius * 0.86, face)
    disc(surface, (centre[0] - radius * 0.32, centre[1] - radius * 0.32), radius * 0.22, gloss)


def draw_pieces(surface: pygame.Surface, view: BoardView,
                pieces: Iterable[tuple[int, Color]]) -> None:
    """The pieces standing on the board."""
    for point, color in pieces:
        draw_piece(surface, view.point_pixel(point), view.pitch, color)


def draw_trays(surface: pygame.Surface, layout: Layout, counts: dict[Color, int]) -> None:
    """The two trays with the pieces lying in them."""
    for color, count in counts.items():
        rect = layout.tray(color)
        pygame.draw.rect(surface, (48, 54, 66), rect, border_radius=8)
        pygame.draw.rect(surface, BUTTON_EDGE, rect, 1, border_radius=8)
        text(surface, f"{color.word} tray", (rect[0] + rect[2] / 2, rect[1] + 14), 20, DIM_TEXT,
             centre=True)
        for index in range(count):
            draw_piece(surface, layout.tray_slot(color, index), layout.board.pitch, color, 0.9)


def draw_button(surface: pygame.Surface, rect: Rect, label: str, active: bool = False) -> None:
    """An on-screen button."""
    pygame.draw.rect(surface, (84, 92, 112) if active else BUTTON, rect, border_radius=6)
    pygame.draw.rect(surface, ACCENT if active else BUTTON_EDGE, rect, 1, border_radius=6)
    text(surface, label, (rect[0] + rect[2] / 2, rect[1] + rect[3] / 2), 20, TEXT, centre=True)


def wrap(words: str, width: int, size: int) -> list[str]:
    """Split a line of text into lines that fit ``width`` pixels."""
    lines: list[str] = []
    current = ""
    for word in words.split():
        candidate = f"{current} {word}".strip()
        if current and font(size).size(candidate)[0] > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines or [""]


def move_list_lines(names: list[str]) -> list[str]:
    """Moves numbered in pairs: ``1. b2-c3  d5-d4``."""
    lines = []
    for index in range(0, len(names), 2):
        pair = "  ".join(names[index:index + 2])
        lines.append(f"{index // 2 + 1}. {pair}")
    return lines

