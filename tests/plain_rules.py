"""A plain, dictionary-based move generator written straight from docs/RULES.md.

It is slow on purpose and shares no code with ``controller``: the tests compare
the real generator against it on many positions, and ``benchmarks/perft.py``
uses it as the baseline of its speed ratio.
"""

from __future__ import annotations

Square = tuple[int, int]
Board = dict[Square, str]  # (x, y) -> "r" / "b"; empty points are absent

LOOP = "loop"


def circuit_tracks(size: int) -> list[list[object]]:
    """Both circuits as lists of squares with LOOP markers between lines."""
    tracks = []
    for k in (1, 2):
        lo, hi, n = k, size - 1 - k, size
        track: list[object] = []
        track += [(x, lo) for x in range(n)] + [LOOP]
        track += [(hi, y) for y in range(n)] + [LOOP]
        track += [(x, hi) for x in reversed(range(n))] + [LOOP]
        track += [(lo, y) for y in reversed(range(n))] + [LOOP]
        tracks.append(track)
    return tracks


def name(square: Square) -> str:
    return "abcdefg"[square[0]] + str(square[1] + 1)


def parse(text: str) -> tuple[Board, str, int]:
    board_text, side = text.split()
    ranks = board_text.split("/")
    size = len(ranks)
    board: Board = {}
    for row, rank in enumerate(ranks):
        x = 0
        for char in rank:
            if char.isdigit():
                x += int(char)
            else:
                board[(x, size - 1 - row)] = char
                x += 1
    return board, side, size


def trips(board: Board, start: Square, size: int, slides_on: set[int], jump: bool):
    """Yield (kind, target, landing, path_len) for every trip from ``start``."""
    me = board[start]
    for index, track in enumerate(circuit_tracks(size)):
        n = len(track)
        for i, station in enumerate(track):
            if station != start:
                continue
            for step in (1, -1):
                loops, length, j = 0, 1, i
                for _ in range(2 * n):
                    j = (j + step) % n
                    here = track[j]
                    length += 1
                    if here == LOOP:
                        loops += 1
                        continue
                    if here == start or here not in board:
                        if index in slides_on and loops and here != start:
                            yield "~", here, None, length
                        continue
                    if board[here] == me or not loops:
                        break
                    if not jump:
                        yield "x", here, None, length
                        break
                    k = (j + step) % n
                    if track[k] == LOOP:
                        k = (k + step) % n
                    land = track[k]
                    if land == start or land not in board:
                        yield "x", here, land, length
                    break


def plain_moves(text: str, variant: str = "standard") -> set[str]:
    """The legal move names of a position string."""
    board, side, size = parse(text)
    diagonal = variant != "gonu"
    slides_on = {1} if variant == "gonu" else set()
    jump = variant == "borobudur"
    moves: set[str] = set()
    for (x, y), piece in list(board.items()):
        if piece != side:
            continue
        steps = set()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) == (0, 0) or (dx and dy and not diagonal):
                    continue
                to = (x + dx, y + dy)
                if 0 <= to[0] < size and 0 <= to[1] < size and to not in board:
                    steps.add(to)
                    moves.add(f"{name((x, y))}-{name(to)}")
        for kind, target, land, _ in trips(board, (x, y), size, slides_on, jump):
            if kind == "~" and target in steps:
                continue
            text_move = f"{name((x, y))}{kind}{name(target)}"
            moves.add(text_move if land is None else f"{text_move}>{name(land)}")
    return moves


def plain_play(text: str, move: str) -> str:
    """The position string after a move name from ``plain_moves``."""
    board, side, size = parse(text)
    origin = move[:2]
    target = move[3:5]
    squares = {name((x, y)): (x, y) for x in range(size) for y in range(size)}
    piece = board.pop(squares[origin])
    if move[2] == "x":
        del board[squares[target]]
    destination = move[-2:]
    board[squares[destination]] = piece
    ranks = []
    for y in reversed(range(size)):
        rank, gap = "", 0
        for x in range(size):
            if (x, y) in board:
                rank += (str(gap) if gap else "") + board[(x, y)]
                gap = 0
            else:
                gap += 1
        ranks.append(rank + (str(gap) if gap else ""))
    return "/".join(ranks) + " " + ("b" if side == "r" else "r")


def plain_perft(text: str, depth: int, variant: str = "standard") -> int:
    if depth == 0:
        return 1
    board, side, _ = parse(text)
    if side not in board.values():
        return 0
    moves = plain_moves(text, variant)
    if depth == 1:
        return len(moves)
    return sum(plain_perft(plain_play(text, m), depth - 1, variant) for m in moves)
