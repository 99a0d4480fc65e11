"""What the rules API answers, as OpenAPI components (the bodies are built by the selectors)."""

from __future__ import annotations

from rest_framework import serializers

from cards.vocabulary import GAMES

from .models import Passage


class Cited(serializers.Serializer):
    """A passage as an answer quotes it."""

    id = serializers.IntegerField()
    book = serializers.CharField(help_text="rulebook slug")
    heading = serializers.CharField()
    part = serializers.IntegerField(help_text="a long section's parts share its heading")
    text = serializers.CharField()
    url = serializers.CharField(help_text="the passage on the site")


class PassageHit(Cited):
    book_title = serializers.CharField()
    path = serializers.ListField(child=serializers.CharField(), help_text="the headings above it")
    kind = serializers.ChoiceField(choices=Passage.KINDS)
    highlight = serializers.CharField(help_text="its sentences nearest the question, as HTML with <mark>")
    score = serializers.FloatField()


class SearchResults(serializers.Serializer):
    query = serializers.CharField(allow_blank=True)
    game = serializers.ChoiceField(choices=GAMES)
    results = PassageHit(many=True)


class GlossaryEntry(serializers.Serializer):
    term = serializers.CharField()
    book = serializers.CharField()
    definition = serializers.CharField()
    url = serializers.CharField()


class ConflictSide(serializers.Serializer):
    rulesets = serializers.ListField(child=serializers.CharField())
    books = serializers.ListField(child=serializers.CharField())
    summary = serializers.CharField()
    passages = Cited(many=True)


class Conflict(serializers.Serializer):
    id = serializers.CharField()
    topic = serializers.CharField()
    sides = ConflictSide(many=True)


class NamedCard(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    set = serializers.CharField()
    check = serializers.CharField(allow_null=True)
    url = serializers.CharField()


class Answer(serializers.Serializer):
    question = serializers.CharField()
    game = serializers.ChoiceField(choices=GAMES)
    found = serializers.BooleanField(help_text="false when no rule answers the question")
    results = PassageHit(many=True)
    glossary = GlossaryEntry(many=True)
    did_you_mean = serializers.CharField(allow_null=True)
    conflicts = Conflict(many=True, help_text="each edition's rule where the editions disagree")
    cards = NamedCard(many=True, help_text="the cards the question names")
    concepts = serializers.ListField(child=serializers.CharField())
    other_game = serializers.ChoiceField(
        choices=GAMES, allow_null=True, help_text="the game the question may be about instead"
    )
    mode = serializers.ChoiceField(
        choices=["full", "words"],
        help_text="words: word search only, while a new site computes the passages' vectors (minutes)",
    )
    notice = serializers.CharField(allow_null=True, help_text="in words mode, how far the vectors are and what to do")


class Book(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    game = serializers.ChoiceField(choices=GAMES)
    ruleset = serializers.CharField()
    edition = serializers.CharField()
    language = serializers.CharField()
    passages = serializers.IntegerField()
    kept_chars = serializers.IntegerField(help_text="characters of the book's text kept in passages")
    dropped_chars = serializers.IntegerField()
    duplicate_chars = serializers.IntegerField()
    url = serializers.CharField()


class Link(serializers.Serializer):
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    anchor = serializers.CharField()


class PassageDetail(serializers.Serializer):
    id = serializers.IntegerField()
    book = serializers.CharField()
    anchor = serializers.CharField()
    kind = serializers.ChoiceField(choices=Passage.KINDS)
    heading = serializers.CharField()
    path = serializers.ListField(child=serializers.CharField())
    part = serializers.IntegerField()
    text = serializers.CharField()
    concepts = serializers.ListField(child=serializers.CharField())
    links = Link(many=True, help_text="cross-references: character range in the text and the passage it names")
    questions = serializers.ListField(child=serializers.CharField(), help_text="questions this passage answers")
    url = serializers.CharField()
