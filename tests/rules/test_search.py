"""The word ranking sums Whoosh's own BM25 scores with numpy: it must rank exactly as Whoosh
evaluating the same query does, for every question of the evaluation set, in both games."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from whoosh import query as wq

from pacg_site import textindex
from rules import search
from rules.selectors import prepare

pytestmark = pytest.mark.django_db
QUESTIONS = yaml.safe_load((Path(__file__).parent / "eval" / "questions.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", ["pacg", "aventuria"])
def test_the_word_ranking_is_whooshs_ranking_of_the_same_query(game):
    for entry in QUESTIONS:
        question, _ = prepare(entry["question"], game)
        ours = [(hit.pid, hit.score) for hit in search.search(question, games=[game], limit=search.RERANK_DEPTH)]
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
