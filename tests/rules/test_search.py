"""The word ranking sums Whoosh's own BM25 scores with numpy: by the index's fields (less the
best question's score, which no Whoosh query expresses) it must rank exactly as Whoosh evaluating
the same query does, for every question of the evaluation set, in both games."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from whoosh import query as wq

from pacg_site import textindex
from rules import search
from rules.assistant.understand import prepare

pytestmark = pytest.mark.django_db
QUESTIONS = yaml.safe_load((Path(__file__).parent / "eval" / "questions.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", ["pacg", "aventuria"])
def test_the_word_ranking_is_whooshs_ranking_of_the_same_query(game):
    for entry in QUESTIONS:
        question, _ = prepare(entry["question"], game)
        fields = {**search.BOOSTS, "best_question": 0.0}
        hits = search.search(question, games=[game], limit=search.RERANK_DEPTH, boosts=fields)
        ours = [(hit.pid, hit.score) for hit in hits]
        with textindex.reading(search.NAME) as (searcher, _):
            results = searcher.search(
                search.build_query(question), limit=search.RERANK_DEPTH, filter=wq.Term("game", game)
            )
            same = search.BOOSTS["same_language"]
            whoosh = sorted(
                (
                    (int(h["pid"]), round(h.score * (same if h["language"] == question.language else 1.0), 4))
                    for h in results
                ),
                key=lambda hit: -hit[1],
            )
        assert [pid for pid, _ in ours] == [pid for pid, _ in whoosh], entry["question"]
        assert [score for _, score in ours] == pytest.approx([score for _, score in whoosh], abs=1e-3)


@pytest.mark.parametrize("language", search.LANGUAGES)
def test_the_spelling_corrector_suggests_what_whooshs_reader_corrector_does(language):
    """Ours reads the field's words once, as plain data that threads share; Whoosh's reads
    the index through its reader at every suggestion."""
    typos = ["hourgalss", "localizacoin", "recovrey", "chalise", "damge", "bendicoin", "henchmna"]
    words = sorted({w for entry in QUESTIONS for w in search.plain_words(entry["question"])} | set(typos))
    with textindex.reading(search.NAME) as (searcher, _):
        ours, whooshs = (
            search.WordsCorrector(searcher.reader(), f"plain_{language}"),
            searcher.corrector(f"plain_{language}"),
        )
        for word in words:
            for distance in (1, 2):
                options = {"limit": 1, "maxdist": distance, "prefix": 1}
                assert ours.suggest(word, **options) == whooshs.suggest(word, **options), word
    assert ours.suggest("hourgalss", limit=1, maxdist=2, prefix=1) == (["hourglass"] if language == "en" else [])


@pytest.mark.parametrize(
    "scope",
    [
        {},
        {"games": ["pacg"]},
        {"games": ["aventuria"]},
        {"games": ["pacg"], "books": ["wotr"]},
        {"kinds": ["glossary"]},
    ],
)
def test_a_game_s_similarities_are_those_of_all_passages_in_its_scope(scope):
    """Each game's passages are compared apart (a game's own rows of the matrix): every passage in
    scope, and only those, with its nearest window's and nearest question's cosine."""
    import numpy as np

    from rules.models import Passage

    vector = np.random.default_rng(7).normal(size=search.DIMENSIONS).astype(np.float32)
    vector /= np.linalg.norm(vector)
    near = search.similarities(vector, **scope)
    passages = Passage.objects.exclude(embedding=None)
    for key, field in (("games", "book__game__in"), ("books", "book__slug__in"), ("kinds", "kind__in")):
        if key in scope:
            passages = passages.filter(**{field: scope[key]})
    expected = {}
    for pk, windows, questions in passages.values_list("pk", "embedding", "question_embedding"):
        rows = [
            np.frombuffer(bytes(blob), dtype=np.float32).reshape(-1, search.DIMENSIONS) for blob in (windows, questions)
        ]
        expected[pk] = [float((matrix @ vector).max()) for matrix in rows]
    assert sorted(near.pids.tolist()) == sorted(expected)
    found = {pid: [text, asked] for pid, text, asked in zip(near.pids.tolist(), near.text, near.asked, strict=True)}
    assert all(found[pid] == pytest.approx(expected[pid], abs=1e-5) for pid in expected)
