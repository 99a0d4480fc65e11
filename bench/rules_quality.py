"""Quality of the rules assistant on tests/rules/eval/questions.yaml: recall@1, recall@5 and
MRR@10 overall, per book and per kind of question, on the dev and held-out halves, for the
full pipeline and for each piece switched off (to keep only what helps).

    .venv/bin/python bench/rules_quality.py [--split dev|heldout|both|probe|probe2|...|probe17] [--ablations]

`probe` to `probe17` are more development sets (tests/rules/eval/probe*.yaml), tuned on
as dev is. The books are imported without their passages' questions that copy a measured one.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, report, setup_django  # noqa: E402

EVAL = ROOT / "tests" / "rules" / "eval"
PROBES = sorted(EVAL.glob("probe*.yaml"))  # each file one more dev set, its split named as the file
QUESTION_FILES = [EVAL / "questions.yaml", *PROBES]


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def copies(asked: str, measured: list[set[str]]) -> bool:
    """Whether a passage's question shares half its words with a measured question: the
    benchmark would measure the copy, not the assistant."""
    mine = words(asked)
    return any(len(mine & theirs) / len(mine | theirs) >= 0.5 for theirs in measured)


def import_rulebooks_without_copies(questions: list[dict]) -> None:  # type: ignore[type-arg]
    """The bundled books as the site imports them, less their passages' questions that copy a
    measured question. The site keeps those: they were written from the passages, before the
    questions they resemble, and answer players who ask alike."""
    from rules.assistant.vectors import embed_passages
    from rules.services import import_bundled_rulebooks

    measured = [words(question["question"]) for question in questions]
    import_bundled_rulebooks(leave_out=lambda asked: copies(asked, measured))
    embed_passages()


def normal(text: str) -> str:
    return " ".join(text.split()).lower()


def rank_of_answer(question: dict, hits: list, passages: dict) -> int | None:  # type: ignore[type-arg]
    for rank, hit in enumerate(hits, start=1):
        passage = passages[hit.pid]
        text = normal(passage.text)
        for expected in question["expected"]:
            if passage.book.slug == expected["book"] and normal(expected["phrase"]) in text:
                return rank
    return None


def evaluate(questions: list[dict], pipeline) -> dict:  # type: ignore[no-untyped-def,type-arg]
    from rules.assistant.retrieve import confident, search_passages
    from rules.models import Passage

    by_book: dict[str, list[int | None]] = defaultdict(list)
    by_kind: dict[str, list[int | None]] = defaultdict(list)
    misses = []
    ranks: dict[str, int | None] = {}
    unanswered = 0  # questions the site would answer "no rule found"
    for question in questions:
        found = search_passages(
            question["question"],
            game=question.get("game"),
            books=[question["book"]] if question.get("book") else None,
            limit=10,
            pipeline=pipeline,
        )
        hits = found.hits
        unanswered += not confident(found)
        passages = Passage.objects.shown().in_bulk([hit.pid for hit in hits])
        rank = ranks[question["id"]] = rank_of_answer(question, hits, passages)
        books = {expected["book"] for expected in question["expected"]}
        for book in books:
            by_book[book].append(rank)
        by_book["overall"].append(rank)
        by_kind[question["kind"]].append(rank)
        if rank is None or rank > 5:
            misses.append({"id": question["id"], "question": question["question"], "rank": rank})

    def metrics(ranks: list[int | None]) -> dict[str, float]:
        n = len(ranks)
        return {
            "n": n,
            "recall@1": round(sum(r == 1 for r in ranks) / n, 3),
            "recall@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 3),
            "mrr@10": round(sum(1 / r for r in ranks if r is not None and r <= 10) / n, 3),
        }

    figures = {book: metrics(ranks) for book, ranks in sorted(by_book.items())}
    figures["overall"]["no rule found"] = unanswered
    figures["by kind"] = {kind: metrics(ranks) for kind, ranks in sorted(by_kind.items())}
    return {"metrics": figures, "misses": misses, "ranks": ranks}


def import_index_for(questions: list[dict]) -> None:  # type: ignore[type-arg]
    """Cards and books imported as on the site (a card a question names can settle its game),
    less the passages' questions that copy the measured ones, and the index built."""
    from cards.services import import_bundled_cards
    from rules.services import rebuild_rules_index

    import_bundled_cards()
    import_rulebooks_without_copies(questions)
    rebuild_rules_index()


def all_pipelines(ablations: bool) -> dict:  # type: ignore[type-arg]
    """The site's pipeline ("full") and, with `ablations`, it without each piece."""
    from rules.assistant.pipeline import FULL, Pipeline
    from rules.search import BOOSTS

    pipelines = {"full": FULL}
    if not ablations:
        return pipelines
    unasked = {**BOOSTS, "asked": 0.0}
    flat = {**unasked, "heading": 1.0, "term": 1.0, "same_language": 1.0}
    bare = {
        "asked": False,
        "word_odds": False,
        "spelling": False,
        "expansion": False,
        "player_words": False,
        "terms": False,
        "dense": False,
        "glossary_weight": 1.0,
        "named_book_weight": 1.0,
        "newest_weight": 1.0,
    }
    pipelines |= {
        "plain_bm25": Pipeline(**bare, boosts=flat),
        "bm25+boosts": Pipeline(**bare, boosts=dict(BOOSTS)),
        "bm25+boosts+concept_expansion": Pipeline(**{**bare, "expansion": True}, boosts=dict(BOOSTS)),
        "bm25+boosts+passage_questions": Pipeline(**{**bare, "asked": True}, boosts=dict(BOOSTS)),
        "embeddings_only": Pipeline(dense_weight=1.0),
        "without_embeddings": Pipeline(dense=False),
        "without_passage_questions": Pipeline(asked=False),
        "without_question_adapter": Pipeline(adapter=False),
        "passage_questions_in_embeddings_only": Pipeline(boosts=unasked),
        "without_best_question_words": Pipeline(boosts={**BOOSTS, "best_question": 0.0}),
        "passage_questions_in_words_only": Pipeline(asked_share=0.0),
        "without_spelling": Pipeline(spelling=False),
        "without_word_odds": Pipeline(word_odds=False),
        "without_concept_expansion": Pipeline(expansion=False),
        "without_phrasings": Pipeline(phrasings=False),
        "without_phrasing_glosses": Pipeline(gloss=False),
        "without_learned_player_words": Pipeline(player_words=False),
        "without_newest_edition_words": Pipeline(newest_words=False),
        "with_concept_tags": Pipeline(concepts=True),
        "without_glossary_terms": Pipeline(terms=False),
        "without_card_names_as_types": Pipeline(names_as_types=False),
        "without_priors": Pipeline(glossary_weight=1.0, named_book_weight=1.0, newest_weight=1.0),
        "without_rules_before_glossary_entries": Pipeline(glossary_weight=1.0),
        "without_newest_rules_first": Pipeline(newest_weight=1.0),
        "without_following_glossary_links": Pipeline(follow_glossary=False),
        "one_book_may_fill_the_top_five": Pipeline(per_book=5),
        "flat_boosts": Pipeline(boosts=flat),
    }
    return pipelines


def questions_of(splits: list[str]) -> list[dict]:  # type: ignore[type-arg]
    questions = [q for path in QUESTION_FILES for q in yaml.safe_load(path.read_text(encoding="utf-8"))]
    return [q for q in questions if q["split"] in splits]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=["dev", "heldout", "both", *(path.stem for path in PROBES)], default="both")
    parser.add_argument("--ablations", action="store_true", help="also measure the pipeline without each piece")
    parser.add_argument("--misses", action="store_true", help="list the questions answered below rank 5")
    args = parser.parse_args()
    setup_django()

    splits = ["dev", "heldout"] if args.split == "both" else [args.split]
    questions = questions_of(splits)
    import_index_for(questions)
    pipelines = all_pipelines(args.ablations)
    figures: dict = {"benchmark": "rules_quality", "questions": len(questions)}  # type: ignore[type-arg]
    for split in splits:
        subset = [q for q in questions if q["split"] == split]
        for name, pipeline in pipelines.items():
            result = evaluate(subset, pipeline)
            figures[f"{split}/{name}"] = result["metrics"]
            if args.misses and name == "full":
                figures[f"{split}/misses"] = result["misses"]
    figures["targets (heldout)"] = {"recall@5 overall": 0.95, "recall@5 per book": 0.90, "mrr@10": 0.80}
    report(figures)


if __name__ == "__main__":
    main()
