"""The referee: a pure state machine from board readings and button presses to decisions.

It reads moves off the difference between the last accepted position and each
stable reading. A reading is one of:

- the accepted position itself (nothing to do, or the board was put right again);
- the position after exactly one legal move: the move is accepted;
- a move under way: a piece of the side to move lifted, the piece to be captured
  taken off first, both, or (Borobudur) the jumper landed with its victim still
  there: the lamps show where the move can go, and nothing is decided yet;
- anything else: illegal. The differing points blink until the board is back at
  the accepted position or shows a legal move from it. The referee never guesses.

No clock, no threads, no I/O: every rule of play is testable in microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.decisions import (
    Accepted,
    AgreementTakenBack,
    AnalysisReady,
    BoardSeen,
    Button,
    Clear,
    ComputerChose,
    Decision,
    Effect,
    EngineAnswered,
    GameEnded,
    HintShown,
    Illegal,
    Input,
    Layer,
    LevelChanged,
    Lifted,
    Light,
    MatchChanged,
    ModeChanged,
    NewGame,
    PlaySound,
    Pressed,
    Purpose,
    Restored,
    Say,
    SetLevel,
    SetMatch,
    SetMode,
    SetVariant,
    Sound,
    Think,
    Undone,
)
from controller.engine.analysis_replay import Replay, analysis_request
from controller.engine.levels import BadLevel
from controller.game import Endings, Game, Outcome
from controller.geometry import Point, Station, bit, point_name, points_of
from controller.match import Match, MatchGame, MatchRules, Scoring
from controller.movegen import legal_moves, make_move
from controller.moves import Move, MoveKind
from controller.position import Color, Position
from controller.reading import BoardReading
from controller.variants import Variant

FULL_STRENGTH = 10
MODE_CYCLE: tuple[Color | None, ...] = (None, Color.BLACK, Color.RED)
"""The mode button steps through: two players, computer plays black, computer plays red."""

# The referee's layers of lights, from the most to the least urgent.
FIX, LIFT, COMPUTER, HINT, LAST, DANGER, RESULT = (
    Layer.FIX,
    Layer.LIFT,
    Layer.COMPUTER,
    Layer.HINT,
    Layer.LAST,
    Layer.DANGER,
    Layer.RESULT,
)


def _names(points: list[Point] | tuple[Point, ...]) -> str:
    return " ".join(point_name(point) for point in points)


def _singles(points: list[Point] | tuple[Point, ...]) -> tuple[tuple[Station, ...], ...]:
    return tuple((point,) for point in points)


def _changes(position: Position, reading: BoardReading) -> tuple[int, int, int] | None:
    """What differs from ``position`` as bitboards: the mover's piece lifted, the
    opponent's piece taken off, the mover's pieces put down (0 for none); None when
    it is more than one move could change (an opponent's piece put down, two lifted)."""
    mover = position.turn
    own, opp = position.pieces(mover), position.pieces(mover.other)
    seen_own, seen_opp = reading.red, reading.black
    if mover is Color.BLACK:
        seen_own, seen_opp = seen_opp, seen_own
    lifted = own & ~seen_own
    taken = opp & ~seen_opp
    if seen_opp & ~opp or lifted.bit_count() > 1 or taken.bit_count() > 1:
        return None
    return lifted, taken, seen_own & ~own


def _fits_capture(move: Move, lifted: int, taken: int, placed: int) -> bool:
    """Whether a capture under way can be ``move``: each of the bitboards of the piece
    lifted, the piece taken off and the piece put down (0 when none) is its own."""
    return (
        move.is_capture
        and (not lifted or bit(move.origin) == lifted)
        and (not taken or bit(move.target) == taken)
        and (not placed or (move.landing is not None and bit(move.landing) == placed))
    )


def boards_after(position: Position, moves: list[Move]) -> tuple[BoardReading, ...]:
    """The board of ``position``, then the board after each of ``moves`` from it."""
    return (BoardReading.of(position),
            *(BoardReading.of(make_move(position, move)) for move in moves))


@dataclass
class Referee:
    """Watches one game (or a match) on a physical board."""

    variant: Variant = Variant.STANDARD
    """The rules."""
    computer: Color | None = None
    """The computer's side; None for two players checking each other."""
    level: int = 5
    """The computer's strength, 1-10."""
    endings: Endings = field(default_factory=Endings)
    """Which endings apply."""
    show_danger: bool = False
    """Blink the side to move's pieces that the opponent could capture next."""
    match: Match | None = None
    """When set, finished games are scored and colours swap between games."""
    game: Game | None = None
    """The game to watch; None starts a new one. A resumed game must be set up first."""

    settled: bool = field(default=False, init=False)
    """Whether the board has shown the game's position since the last setup or undo."""
    computer_move: Move | None = field(default=None, init=False)
    """The computer's reply, lit and waiting to be carried out on the board."""
    hint: Move | None = field(default=None, init=False)
    """The hint on show, if any."""
    _request: int = field(default=0, init=False)
    _pending: Purpose | None = field(default=None, init=False)
    _reading: BoardReading | None = field(default=None, init=False)
    _illegal: bool = field(default=False, init=False)
    _announced: bool = field(default=False, init=False)
    _scored: MatchGame | None = field(default=None, init=False)
    _replay: Replay | None = field(default=None, init=False)
    """The finished game's analysis, once the engine has made it."""
    _expected: tuple[object, tuple[BoardReading, ...]] | None = field(default=None, init=False)
    """The boards last expected, and what they were worked out from."""

    def __post_init__(self) -> None:
        if self.game is None:
            self.game = Game(self.variant, endings=self.endings)
        self.variant = self.game.variant
        self.endings = self.game.endings
        if self.game.is_over:
            # A game handed over already finished (a journal saved after its last move)
            # was announced, archived and scored when it ended: doing it again at the
            # next start would count it twice.
            self._announced = True
            if self.match is not None and self.match.games:
                self._scored = self.match.games[-1]

    # -- the public face ------------------------------------------------------------

    @property
    def current(self) -> Game:
        """The game being played."""
        assert self.game is not None
        return self.game

    @property
    def position(self) -> Position:
        """The last accepted position."""
        return self.current.position

    @property
    def is_computer_turn(self) -> bool:
        """Whether the side to move is the computer's."""
        return self.computer is not None and self.position.turn is self.computer

    def expected_boards(self) -> tuple[BoardReading, ...]:
        """The boards the camera may show next with nothing amiss: the position as it
        stands and, while a move is awaited, the position after each legal move (on the
        computer's turn, after its chosen move only).

        The camera reads a frame it is unsure of as one of them when it fits exactly one
        (``vision.reader.FrameReading.fitting``); the position itself is among them so that
        a frame that fits it too is never read as a move.
        """
        position = self.position
        awaited = self.settled and not self.current.is_over
        key = (position, self.variant, awaited, self.is_computer_turn, self.computer_move)
        if self._expected is None or self._expected[0] != key:
            moves: list[Move] = []
            if awaited and not self.is_computer_turn:
                moves = legal_moves(position, self.variant)
            elif awaited and self.computer_move is not None:
                moves = [self.computer_move]
            self._expected = (key, boards_after(position, moves))
        return self._expected[1]

    def handle(self, event: Input) -> list[Decision]:
        """Take one input and return what to do about it."""
        if isinstance(event, BoardSeen):
            return self._board(event.reading)
        if isinstance(event, Pressed):
            return self._press(event.button)
        if isinstance(event, SetLevel):
            return self._set_level(event.level)
        if isinstance(event, SetMode):
            return self.set_mode(event.computer)
        if isinstance(event, SetVariant):
            return self._set_variant(event.variant)
        if isinstance(event, SetMatch):
            return self._set_match(event.players, event.rules)
        if isinstance(event, AnalysisReady):
            return self._analysed(event)
        return self._engine(event)

    def start(self) -> list[Decision]:
        """Decisions at switch-on: the board must first show the game's position."""
        return [Say(f"set up the board: {self.position.board_string()}")]

    # -- board readings -------------------------------------------------------------

    def _board(self, reading: BoardReading) -> list[Decision]:
        if reading.size != self.position.size:
            return [Say(f"the camera reads a {reading.size}x{reading.size} board")]
        if reading == self._reading:
            return []
        self._reading = reading
        position = self.position
        if not self.settled:
            return self._setup(reading)
        if self.current.is_over:
            return []
        if reading.matches(position):
            decisions: list[Decision] = [Clear(LIFT)]
            if self._illegal:
                self._illegal = False
                decisions += [Restored(), Clear(FIX)]
            return decisions
        if self.is_computer_turn and self.computer_move is None:
            return self._refuse(reading, "wait for the computer's move")
        move = self._move_shown(reading)
        if move is not None:
            if self.is_computer_turn and move != self.computer_move:
                assert self.computer_move is not None
                return self._refuse(reading, f"play the computer's move {self.computer_move}")
            return self._accept(move)
        under_way = self._under_way(reading)
        if under_way is not None:
            if self._illegal:
                self._illegal = False
                under_way.append(Clear(FIX))
            return under_way
        return self._refuse(reading, "not a legal move")

    def _setup(self, reading: BoardReading) -> list[Decision]:
        differences = reading.differences(self.position)
        if differences:
            return [Light(FIX, Effect.STEADY, _singles(differences))]
        self.settled = True
        self._illegal = False
        decisions: list[Decision] = [Clear(FIX), Say("board ready")]
        return decisions + self._turn_begins()

    def _refuse(self, reading: BoardReading, why: str) -> list[Decision]:
        fix = tuple(reading.differences(self.position))
        self._illegal = True
        return [
            Illegal(fix),
            Clear(LIFT),
            Light(FIX, Effect.BLINK, _singles(fix)),
            PlaySound(Sound.ILLEGAL_MOVE),
            Say(f"{why}: put back {_names(fix)}"),
        ]

    def _move_shown(self, reading: BoardReading) -> Move | None:
        for move in legal_moves(self.position, self.variant):
            after = make_move(self.position, move)
            if reading.matches(after):
                return move
        return None

    def _under_way(self, reading: BoardReading) -> list[Decision] | None:
        """Decisions for a move in progress, or None when the reading is not one."""
        position = self.position
        changes = _changes(position, reading)
        if changes is None:
            return None
        lifted, taken, placed = changes
        moves = legal_moves(position, self.variant)
        if not placed and lifted and not taken:
            point = lifted.bit_length() - 1
            own_moves = [move for move in moves if move.origin == point]
            targets = tuple(move.target for move in own_moves)
            return [Lifted(point, targets), self._light_moves(own_moves)]
        if not (taken or placed) or (placed and not lifted):
            return None
        fitting = [move for move in moves if _fits_capture(move, lifted, taken, placed)]
        return [self._light_moves(fitting)] if fitting else None

    @staticmethod
    def _light_moves(moves: list[Move]) -> Light:
        paths = tuple(
            move.path if move.kind is not MoveKind.STEP else (move.target,) for move in moves
        )
        return Light(LIFT, Effect.STEADY, paths)

    def _accept(self, move: Move) -> list[Decision]:
        by = self.position.turn
        self.current.play(move)
        self.computer_move = self.hint = None
        self._pending = None
        self._illegal = False
        decisions: list[Decision] = [
            Accepted(move, by, self.position),
            PlaySound(Sound.MOVE_ACCEPTED),
            Clear(FIX),
            Clear(LIFT),
            Clear(HINT),
            Clear(COMPUTER),
        ]
        if move.is_capture:
            decisions.append(Light(LAST, Effect.CHASE, (move.path,)))
        else:
            decisions.append(Clear(LAST))
        outcome = self.current.outcome
        if outcome is not None:
            return decisions + self._game_over(outcome)
        return decisions + self._turn_begins()

    def _turn_begins(self) -> list[Decision]:
        decisions: list[Decision] = []
        outcome = self.current.outcome
        if outcome is not None:
            return self._game_over(outcome)
        if self.show_danger:
            decisions.append(self._danger())
        if self.is_computer_turn and self.computer_move is None:
            decisions.append(self._think(Purpose.COMPUTER))
        return decisions

    def _danger(self) -> Decision:
        position = self.position
        threats = [
            move.target
            for move in legal_moves(position.with_turn(position.turn.other), self.variant)
            if move.is_capture
        ]
        if not threats:
            return Clear(DANGER)
        return Light(DANGER, Effect.BLINK, _singles(sorted(set(threats))))

    def _game_over(self, outcome: Outcome) -> list[Decision]:
        position = self.position
        if outcome.winner is None:
            shown = position.red | position.black
        else:
            shown = position.pieces(outcome.winner)
        decisions: list[Decision] = [
            Clear(DANGER),
            Light(RESULT, Effect.BLINK, _singles(points_of(shown))),
            Say(f"game over: {outcome}"),
        ]
        if self._announced:
            return decisions  # shown again (after a restart), not scored again
        self._announced = True
        if self.match is not None and not self.match.is_over:
            self._scored = self.match.record(outcome)
        decisions[:0] = [GameEnded(outcome), PlaySound(Sound.GAME_OVER)]
        if self.match is not None:
            totals = ", ".join(f"{name} {score}" for name, score in self.match.totals.items())
            decisions.append(Say(f"match: {totals}"))
        return decisions

    # -- the engine -----------------------------------------------------------------

    def _think(self, purpose: Purpose) -> Think:
        self._request += 1
        self._pending = purpose
        game = self.current
        return Think(
            request=self._request,
            purpose=purpose,
            position=game.position,
            history=tuple(game.positions[:-1]),
            plies_without_capture=game.plies_without_capture,
            variant=self.variant,
            endings=self.endings,
            level=self.level if purpose is Purpose.COMPUTER else FULL_STRENGTH,
            scored_by_pieces=self.match is not None,
        )

    def _engine(self, answer: EngineAnswered) -> list[Decision]:
        if answer.request != self._request or self._pending is None:
            return []  # a stale answer: the game moved on since the question
        purpose, self._pending = self._pending, None
        if purpose is Purpose.ANALYSIS:
            return []  # an analysis is answered by AnalysisReady, never by a move
        if answer.move not in legal_moves(self.position, self.variant):
            return [Say(f"the engine proposed an illegal move: {answer.move}")]
        if purpose is Purpose.HINT:
            self.hint = answer.move
            told = f" ({answer.outlook})" if answer.outlook else ""
            return [
                HintShown(answer.move, answer.outlook),
                Light(HINT, Effect.PULSE, (answer.move.path,)),
                Say(f"hint: {answer.move}{told}"),
            ]
        self.computer_move = answer.move
        return [
            ComputerChose(answer.move),
            Light(COMPUTER, Effect.CHASE, (answer.move.path,)),
            PlaySound(Sound.COMPUTER_MOVE),
            Say(f"computer plays {answer.move}"),
        ]

    # -- buttons --------------------------------------------------------------------

    def _press(self, button: Button) -> list[Decision]:
        if button is Button.HINT:
            return self._hint()
        if button is Button.UNDO:
            return self._undo()
        if button is Button.NEW:
            return self._new_game()
        return self._next_mode()

    def _hint(self) -> list[Decision]:
        if self.current.is_over:
            return self._analysis()
        if not self.settled:
            return [Say("set up the board first")]
        if self.is_computer_turn:
            return [Say("it is the computer's turn")]
        return [Say("thinking"), self._think(Purpose.HINT)]

    def _analysis(self) -> list[Decision]:
        """After a game: ask for its analysis, then step through its mistakes."""
        game = self.current
        replay = self._replay
        if replay is not None and replay.belongs_to(game.moves):
            return replay.next()
        if not game.moves:
            return [Say("the game is over")]
        if self._pending is Purpose.ANALYSIS:
            return [Say("still analysing the game")]
        self._request += 1
        self._pending = Purpose.ANALYSIS
        return [Say("analysing the game"), analysis_request(self._request, game)]

    def _analysed(self, answer: AnalysisReady) -> list[Decision]:
        if answer.request != self._request or self._pending is not Purpose.ANALYSIS:
            return []  # the game was taken back or a new one began since the question
        self._pending = None
        self._replay = Replay(tuple(self.current.moves), answer.mistakes)
        return self._replay.ready(answer.summary)

    def _undo(self) -> list[Decision]:
        game = self.current
        if not game.moves:
            return [Say("no move to take back")]
        decisions: list[Decision] = []
        if game.agreed is not None:
            # Taking back an agreement resumes the game; no move was made since.
            self._unscore()
            game.resume()
            decisions += [AgreementTakenBack(), Clear(RESULT), Say("the game goes on")]
            return decisions + self._turn_begins()
        self._unscore()
        decisions.append(Undone(game.undo()))
        # Against the computer, take its reply back too so that the player moves next.
        if self.computer is not None and game.turn is self.computer and game.moves:
            decisions.append(Undone(game.undo()))
        self.computer_move = self.hint = None
        self._pending = None
        self._illegal = False
        decisions += [Clear(name) for name in (LIFT, HINT, COMPUTER, LAST, DANGER, RESULT)]
        return decisions + self._needs_setup("put the pieces back")

    def _unscore(self) -> None:
        """Forget the ending of the current game: a move of it is being taken back."""
        match = self.match
        if self._scored is not None and match is not None and match.games[-1:] == [self._scored]:
            match.games.pop()
        self._scored = None
        self._announced = False

    def _needs_setup(self, what: str) -> list[Decision]:
        self.settled = False
        differences = self._reading.differences(self.position) if self._reading else []
        decisions: list[Decision] = [Say(f"{what}: {self.position.board_string()}")]
        if self._reading is not None and not differences:
            self._reading = None  # let the same reading settle the board again
            return decisions + self._setup(BoardReading.of(self.position))
        decisions.append(Light(FIX, Effect.STEADY, _singles(differences)))
        return decisions

    def _new_game(self) -> list[Decision]:
        game = self.current
        if game.moves and not game.is_over:
            return self._end_by_agreement()
        if self.match is not None:
            # Players swap colours after every finished game of a match.
            if self.computer is not None and self.match.rules.swap_colours and self.current.is_over:
                self.computer = self.computer.other
            if self.match.is_over:
                self.match = Match(self.match.first, self.match.second, self.match.rules)
        self.game = Game(self.variant, endings=self.endings)
        self._announced, self._scored = False, None
        self.computer_move = self.hint = None
        self._pending = None
        self._illegal = False
        decisions: list[Decision] = [NewGame(self.variant)]
        decisions += [Clear(name) for name in (LIFT, HINT, COMPUTER, LAST, DANGER, RESULT)]
        return decisions + self._needs_setup("new game: set up the start")

    def _end_by_agreement(self) -> list[Decision]:
        """The players stop an unfinished game (docs/RULES.md: an ending by agreement).

        It is scored by piece count, shown and saved like any other ending, so that a
        match keeps its score and no game vanishes unrecorded; the next press of the
        button starts the new game, and undo takes the agreement back.
        """
        outcome = self.current.end_by_agreement()
        self.computer_move = self.hint = None
        self._pending = None
        decisions: list[Decision] = [Clear(LIFT), Clear(HINT), Clear(COMPUTER)]
        decisions += self._game_over(outcome)
        return decisions + [Say("game ended by agreement: press new again for a new game")]

    def _next_mode(self) -> list[Decision]:
        index = MODE_CYCLE.index(self.computer)
        return self.set_mode(MODE_CYCLE[(index + 1) % len(MODE_CYCLE)])

    def _set_level(self, number: int) -> list[Decision]:
        if not 1 <= number <= FULL_STRENGTH:
            raise BadLevel(f"invalid level: {number!r} (expected 1 to {FULL_STRENGTH})")
        self.level = number
        return [LevelChanged(number)]

    def variant_refusal(self, variant: Variant) -> str | None:
        """Why the players cannot choose ``variant`` now, or None when they can."""
        size = self.position.size
        if variant.size != size:
            return f"this board has {size} lines a side: {variant.value} needs {variant.size}"
        return self.settings_refusal()

    def settings_refusal(self) -> str | None:
        """Why the variant or the match cannot change now (a game under way), or None."""
        game = self.current
        if game.moves and not game.is_over:
            return "finish or end the game first (press new)"
        return None

    def _set_variant(self, variant: Variant) -> list[Decision]:
        refusal = self.variant_refusal(variant)
        if refusal is not None:
            return [Say(refusal)]
        self.variant = variant
        # A new game of the new rules, exactly as the new-game button starts one (and
        # journaled as its NewGame is).
        return self._new_game()

    def _set_match(self, players: tuple[str, str] | None, rules: MatchRules) -> list[Decision]:
        refusal = self.settings_refusal()
        if refusal is not None:
            return [Say(refusal)]
        if players is None:
            self.match = None
            return [MatchChanged(None, rules), Say("no match: single games")]
        self.match = Match(*players, rules)
        length = (
            f"{rules.games} games" if rules.scoring is Scoring.FIXED_GAMES
            else f"up to {rules.target}"
        )
        return [
            MatchChanged(players, rules),
            Say(f"match of {length}: {players[0]} plays red first"),
        ]

    def set_mode(self, computer: Color | None) -> list[Decision]:
        """Play against the computer on ``computer``'s side, or two players (None)."""
        self.computer = computer
        self.computer_move = None
        self._pending = None
        text = "two players" if self.computer is None else f"computer plays {self.computer.word}"
        decisions: list[Decision] = [ModeChanged(self.computer), Clear(COMPUTER), Say(text)]
        if self.settled and not self.current.is_over and self.is_computer_turn:
            decisions.append(self._think(Purpose.COMPUTER))
        return decisions
