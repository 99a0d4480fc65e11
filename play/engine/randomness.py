"""Every die and shuffle comes from here.

The seeded source is counter based: draw number n is HMAC-SHA256(seed, n), so any draw can be
recomputed from the seed alone and no generator state has to be saved besides the counter. The
game logs every face and every shuffle it draws; a replay feeds them back (`LoggedSource`) and
never rolls again. Tests inject their own source (`ScriptedDice`, or any object with some of the
three methods); whatever it lacks falls back to the seeded source.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

from .errors import EngineError, ReplayMismatch


@runtime_checkable
class DiceSource(Protocol):
    """Rolls one die (1..sides). `draw` is the game's running draw counter."""

    def roll(self, sides: int, draw: int) -> int: ...


class RandomSource(DiceSource, Protocol):
    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        """A permutation: position i of the result holds the index of the card that goes there.
        `cards` are card ids (top first), so a test source can arrange by name."""
        ...

    def pick(self, cards: Sequence[str], label: str, draw: int) -> int:
        """Index of the card drawn at random from `cards` (e.g. a random weapon from the vault)."""
        ...


def new_seed() -> str:
    return secrets.token_hex(32)


class SeededSource:
    """HMAC-SHA256(seed, n): reproducible, unpredictable without the seed."""

    def __init__(self, seed: str) -> None:
        self._key = seed.encode()

    def _number(self, message: str) -> int:
        return int.from_bytes(hmac.digest(self._key, message.encode(), hashlib.sha256), "big")

    # A 256-bit number modulo a die's sides has a bias below 2**-250: nothing to correct.
    def roll(self, sides: int, draw: int) -> int:
        return self._number(str(draw)) % sides + 1

    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        order = list(range(len(cards)))
        for i in range(len(order) - 1, 0, -1):
            j = self._number(f"{draw}.{i}") % (i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def pick(self, cards: Sequence[str], label: str, draw: int) -> int:
        return self._number(str(draw)) % len(cards)


class ScriptedDice:
    """Faces given in advance, in the order the game rolls them. Shuffles and random picks are
    left to the seeded source (the game falls back for methods a source lacks)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: Iterator[int] = iter(faces)
        self.rolled: list[tuple[int, int]] = []

    def roll(self, sides: int, draw: int) -> int:
        try:
            face = next(self._faces)
        except StopIteration:
            raise EngineError(f"the scripted dice ran out (a d{sides} was needed)") from None
        if not 1 <= face <= sides:
            raise EngineError(f"a scripted face of {face} cannot come up on a d{sides}")
        self.rolled.append((sides, face))
        return face

    def remaining(self) -> list[int]:
        rest = list(self._faces)
        self._faces = iter(rest)
        return rest


class LoggedSource:
    """Feeds back the draws an earlier run logged, checking that the engine asks for the same."""

    def __init__(self, draws: Iterable[dict[str, Any]]) -> None:
        self._draws = list(draws)
        self._next = 0

    def _take(self, what: str) -> dict[str, Any]:
        if self._next >= len(self._draws):
            raise ReplayMismatch(f"the replay needs a {what} the log does not have")
        draw = self._draws[self._next]
        self._next += 1
        if draw["what"] != what:
            raise ReplayMismatch(f"the log has a {draw['what']} where the replay needs a {what}")
        return draw

    def roll(self, sides: int, draw: int) -> int:
        logged = self._take("roll")
        if logged["sides"] != sides:
            raise ReplayMismatch(f"the log rolled a d{logged['sides']} where the replay rolls a d{sides}")
        return int(logged["face"])

    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        return list(self._take("shuffle")["order"])

    def pick(self, cards: Sequence[str], label: str, draw: int) -> int:
        return int(self._take("pick")["index"])

    def exhausted(self) -> bool:
        return self._next == len(self._draws)


class PreviewHalt(Exception):
    """Raised by the preview source: a preview stops where the game would first draw at random."""


class PreviewSource:
    def roll(self, sides: int, draw: int) -> int:
        raise PreviewHalt

    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        raise PreviewHalt

    def pick(self, cards: Sequence[str], label: str, draw: int) -> int:
        raise PreviewHalt


def as_source(dice: Any) -> Any:
    """`dice` may be None, a source object, or a plain list of faces."""
    if dice is None or hasattr(dice, "roll") or hasattr(dice, "shuffle") or hasattr(dice, "pick"):
        return dice
    return ScriptedDice(dice)
