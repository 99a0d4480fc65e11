"""The rules API and pages over real HTTP."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules.models import Passage, Rulebook

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_ask_answers_with_cited_highlighted_passages(api):
    body = api.get(reverse("api:rules-ask"), {"q": "can I play armor to reduce fire damage"}).json()
    assert body["found"] is True and body["game"] == "pacg"
    result = body["results"][0]
    assert set(result) >= {"book", "heading", "path", "kind", "text", "highlight", "url", "score"}
    assert result["url"].startswith("/rules/") and "<mark>" in result["highlight"]


def test_search_endpoint_filters_and_limits(api):
    body = api.get(reverse("api:rules-search"), {"q": "close a location", "book": "wotr", "limit": 3}).json()
    assert len(body["results"]) == 3 and {r["book"] for r in body["results"]} == {"wotr"}


@pytest.mark.parametrize(
    ("name", "params", "complaint"),
    [
        ("api:rules-ask", {}, "q is empty"),
        ("api:rules-ask", {"q": "x" * 301}, "longer than 300"),
        ("api:rules-ask", {"q": "dying", "game": "chess"}, "game must be pacg or aventuria"),
        ("api:rules-search", {"q": "dying", "book": "nope"}, "no rulebook has the slug 'nope'"),
        ("api:rules-search", {"q": "dying", "limit": "0"}, "limit must be"),
        ("api:rules-search", {"q": "dying", "kind": "poem"}, "kind must be one of"),
    ],
)
def test_bad_input_is_a_400_that_says_what_is_wrong(api, name, params, complaint):
    response = api.get(reverse(name), params)
    assert response.status_code == 400
    assert complaint in response.json()["error"]["message"]


def test_books_passages_and_conflicts(api):
    books = api.get(reverse("api:rules-books")).json()
    assert [b["slug"] for b in books] == ["core", "wotr", "rotr_es", "aventuria"]
    assert all(b["passages"] > 100 and b["kept_chars"] > b["dropped_chars"] for b in books)
    passage = Passage.objects.get(book__slug="core", heading="Dying")
    detail = api.get(reverse("api:rules-passage", args=["core", passage.anchor])).json()
    assert detail["text"].startswith("If, for any reason")
    assert detail["questions"] == passage.questions and detail["questions"]
    assert api.get(reverse("api:rules-passage", args=["core", "nope"])).status_code == 404
    assert len(api.get(reverse("api:rules-conflicts")).json()) >= 10


def test_ask_page_is_a_shareable_get_url(client):
    page = client.get(reverse("rules:ask"), {"q": "how do hero titles work"}).content.decode()
    assert "Hero Title" in page and "<mark>" in page


def test_the_parts_of_one_section_are_told_apart_where_an_answer_cites_them(client):
    """Long sections are cut in parts that share a heading ("Encountering a Card"): the edition
    panel names the part it cites, and cites a passage once even where two of its phrases lie in it."""
    page = client.get(reverse("rules:ask"), {"q": "can I play armor to reduce fire damage"}).content.decode()
    cited = re.findall(r"<blockquote><a [^>]*>([^<]*)</a></blockquote>", page)
    assert any("(part " in label for label in cited), cited
    assert len(cited) == len(set(cited)), cited


def test_a_question_either_game_could_mean_links_to_the_other_games_answer(client, api):
    question = "card text vs rulebook, which wins"
    body = api.get(reverse("api:rules-ask"), {"q": question}).json()
    other = body["other_game"]
    assert other in {"pacg", "aventuria"} and other != body["game"]
    page = client.get(reverse("rules:ask"), {"q": question}).content.decode()
    assert f'href="?q={quote(question)}&amp;game={other}"' in page
    there = api.get(reverse("api:rules-ask"), {"q": question, "game": other}).json()
    assert there["game"] == other and there["other_game"] is None and there["found"]
    assert {r["book"] == "aventuria" for r in there["results"]} == {other == "aventuria"}
    # A question only one game answers names no other game.
    assert api.get(reverse("api:rules-ask"), {"q": "how do hero titles work"}).json()["other_game"] is None
    assert 'id="other-game"' not in client.get(reverse("rules:ask"), {"q": "how do hero titles work"}).content.decode()


def test_ask_page_says_when_no_rule_is_found(client):
    page = client.get(reverse("rules:ask"), {"q": "what is the capital of france"}).content.decode()
    assert 'id="no-rule"' in page


def test_book_contents_and_passage_permalinks_with_cross_references(client):
    contents = client.get(reverse("rules:book", args=["core"])).content.decode()
    assert "Attempt the Check" in contents and "kept" in contents
    suffering = Passage.objects.get(book__slug="core", heading="Suffer Damage, If Necessary")
    page = client.get(suffering.get_absolute_url()).content.decode()
    dying = Passage.objects.get(book__slug="core", heading="Suffering Damage")
    assert f'href="/rules/core/{dying.anchor}/"' in page  # "(see Suffering Damage on page 13)"
    corner = client.get(Passage.objects.get(book__slug="core", kind="glossary", heading="Corner").get_absolute_url())
    nowhere = Passage.objects.get(
        book__slug="core", heading="Villain Step: If the Villain Has Nowhere to Escape to, You Win"
    )
    # "See If the Villain Has Nowhere to Escape to, You Win! on page 10": the heading, not page 10's first rule
    assert f'href="/rules/core/{nowhere.anchor}/"' in corner.content.decode()


def test_glossary_page_lists_every_books_terms(client):
    page = client.get(reverse("rules:glossary")).content.decode()
    assert "Hourglass" in page and "A countdown timer for the game" in page


def test_every_book_is_imported_once(client):
    assert Rulebook.objects.count() == 4


def test_a_passage_page_lists_the_questions_it_answers_as_links_to_ask(client):
    transition = Passage.objects.get(book__slug="core", anchor="replaced-game-terms")
    page = client.get(transition.get_absolute_url()).content.decode()
    question = transition.questions[0]
    assert "Questions this answers" in page
    assert f'href="{reverse("rules:ask")}?q={quote(question)}&amp;game=pacg"' in page
