"""A random source for tests that need a particular table: dice from a script, shuffles that put
named cards on top, random picks that take a named card. It implements the engine's
RandomSource protocol (injected, never monkeypatched)."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence


class ArrangedSource:
    def __init__(
        self,
        faces: Iterable[int] = (),
        *,
        arrange: dict[str, list[list[str]]] | None = None,
        picks: dict[str, list[str]] | None = None,
    ) -> None:
        self.faces: deque[int] = deque(faces)
        self.arrange: dict[str, deque[list[str]]] = defaultdict(
            deque, {k: deque(v) for k, v in (arrange or {}).items()}
        )
        self.picks: dict[str, deque[str]] = defaultdict(deque, {k: deque(v) for k, v in (picks or {}).items()})
        self.rolled: list[int] = []

    def add_faces(self, *faces: int) -> None:
        self.faces.extend(faces)

    def roll(self, sides: int, draw: int) -> int:
        if not self.faces:
            raise AssertionError(f"the test did not script a face for this d{sides}")
        face = self.faces.popleft()
        if not 1 <= face <= sides:
            raise AssertionError(f"a d{sides} cannot show {face}")
        self.rolled.append(face)
        return face

    def shuffle(self, cards: Sequence[str], label: str, draw: int) -> list[int]:
        """Named cards go on top in the order given; the rest keep their order."""
        remaining = list(range(len(cards)))
        if not self.arrange[label]:
            return remaining
        order = []
        for wanted in self.arrange[label].popleft():
            index = next(i for i in remaining if cards[i] == wanted)
            remaining.remove(index)
            order.append(index)
        return order + remaining

    def pick(self, cards: Sequence[str], label: str, draw: int) -> int:
        if not self.picks[label]:
            return 0
        return list(cards).index(self.picks[label].popleft())
