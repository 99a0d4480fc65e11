"""Stage 4, rank: the word ranking fused with the embedding similarity, then the priors the
ranking functions don't know (a named book, the newest edition, one book not crowding out the
others, a definition's rule before it)."""

from __future__ import annotations

from collections import Counter

from .. import search
from ..models import Passage
from .pipeline import Pipeline, per_index
from .understand import newest_books


def ranked(
    question: search.Question,
    cosines: tuple[list[search.Hit], dict[int, float]],
    pipeline: Pipeline,
    *,
    games: list[str],
    books: list[str],
    kinds: list[str],
    limit: int,
) -> list[search.Hit]:
    """Word ranking (BM25 with boosts and concepts) fused with embedding similarity: each
    candidate scores (1 - w) x its BM25 score relative to the best + w x its cosine, rescaled
    so that the nearest passage in scope is 1 and the farthest 0 (E5's cosines all lie between
    about 0.7 and 0.95, so raw they would barely move the ranking)."""
    boosts = pipeline.boosts if pipeline.asked else {**pipeline.boosts, "asked": 0.0}
    words = search.search(question, games=games, books=books, kinds=kinds, limit=search.RERANK_DEPTH, boosts=boosts)
    by_meaning, similarity = cosines
    if not similarity:
        return words[:limit]
    top_words = words[0].score if words else 1.0
    by_words = {hit.pid: hit.score / top_words for hit in words}
    candidates = {hit.pid: hit for hit in [*words, *by_meaning]}
    weight, best, lowest = pipeline.dense_weight, by_meaning[0].score, min(similarity.values())
    spread = best - lowest or 1.0

    def fuse(pid: int) -> float:
        meaning = (similarity[pid] - lowest) / spread if pid in similarity else 0.0
        return (1 - weight) * by_words.get(pid, 0.0) + weight * meaning

    fused = [search.Hit(pid, hit.book, hit.kind, round(fuse(pid), 6)) for pid, hit in candidates.items()]
    return _rerank(fused, question, pipeline, kinds)[:limit]


def _rerank(
    hits: list[search.Hit], question: search.Question, pipeline: Pipeline, kinds: list[str]
) -> list[search.Hit]:
    """Priors the ranking functions don't know: the rule before its glossary entry, a book the
    question names comes first (else the newest rules in the question's language: a player who
    doesn't say which edition most likely plays the current one), and the top five show more
    than one book when others answer."""
    named = question.books
    preferred, weight = (
        (named, pipeline.named_book_weight) if named else (newest_books(question.language), pipeline.newest_weight)
    )
    rescored = sorted(
        (
            search.Hit(
                hit.pid,
                hit.book,
                hit.kind,
                round(
                    hit.score
                    * (pipeline.glossary_weight if hit.kind == "glossary" else 1.0)
                    * (weight if hit.book in preferred else 1.0),
                    4,
                ),
            )
            for hit in hits
        ),
        key=lambda hit: -hit.score,
    )
    if pipeline.follow_glossary:
        rescored = _with_glossary_rules(rescored, kinds)
    # A question that names no book sees the other editions' rules too, when they answer: a
    # book's passage past its share waits while another book's, near enough, comes later.
    cap = 5 if named else pipeline.per_book
    top: list[search.Hit] = []
    later: list[search.Hit] = []
    counts: Counter[str] = Counter()
    for position, hit in enumerate(rescored):
        if len(top) < 5 and (
            counts[hit.book] < cap
            or not _near_rival(hit, rescored[position + 1 :], counts, cap, pipeline.per_book_margin)
        ):
            top.append(hit)
            counts[hit.book] += 1
        else:
            later.append(hit)
    if len(top) < 5:  # not enough other books: fill the top five in score order
        top, later = top + later[: 5 - len(top)], later[5 - len(top) :]
    return top + sorted(later, key=lambda hit: -hit.score)


def _near_rival(hit: search.Hit, rest: list[search.Hit], counts: Counter[str], cap: int, margin: float) -> bool:
    """Whether a passage of another book, still within its share, comes later at `margin` of
    `hit`'s score or more (so `hit`, past its own book's share, waits)."""
    return any(
        other.book != hit.book and counts[other.book] < cap and other.score >= margin * hit.score for other in rest
    )


def _with_glossary_rules(hits: list[search.Hit], kinds: list[str]) -> list[search.Hit]:
    """ "Evade: End the encounter ... See Apply Any Evasion Effects on page 8": a definition that
    answers names the rule, so the rule comes just before it (at the definition's score) unless
    already above. The answer quotes the definitions of the question's terms apart; a player who
    asks where a cornered villain goes wants the rule first, not the entry for "Corner"."""
    targets = per_index("glossary_targets", _glossary_targets)
    out: list[search.Hit] = []
    placed: set[int] = set()
    for position, hit in enumerate(hits):
        if hit.pid in placed:
            continue
        target = targets.get(hit.pid)
        if target and position < 5 and target.pid not in placed and (not kinds or target.kind in kinds):
            out.append(search.Hit(target.pid, target.book, target.kind, hit.score))
            placed.add(target.pid)
        out.append(hit)
        placed.add(hit.pid)
    return out


def _glossary_targets() -> dict[int, search.Hit]:
    """Each glossary entry's rule: the first passage of its book that its text links to."""
    passages = Passage.objects.values_list("pk", "book__slug", "anchor", "kind")
    by_anchor = {(book, anchor): search.Hit(pk, book, kind, 0.0) for pk, book, anchor, kind in passages}
    targets = {}
    for pk, book, links in Passage.objects.filter(kind="glossary").values_list("pk", "book__slug", "links"):
        found = [by_anchor[book, link["anchor"]] for link in links if (book, link["anchor"]) in by_anchor]
        if found and found[0].pid != pk:
            targets[pk] = found[0]
    return targets
