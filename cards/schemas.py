"""What the cards API answers beside the card serializers, as OpenAPI components."""

from __future__ import annotations

from rest_framework import serializers


class SetName(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()


class NameSuggestion(serializers.Serializer):
    name = serializers.CharField()
    uid = serializers.CharField(help_text="a card with this name (its id)")
    set = serializers.CharField(help_text="that card's set")


class SyntaxForm(serializers.Serializer):
    form = serializers.CharField()
    meaning = serializers.CharField()


class SearchField(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField())
    operators = serializers.ListField(child=serializers.CharField())
    summary = serializers.CharField()
    examples = serializers.ListField(child=serializers.CharField())
    values = serializers.ListField(child=serializers.CharField(), help_text="the values it takes, where closed")


class SetAliases(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    game = serializers.CharField()


class SearchHelp(serializers.Serializer):
    syntax = SyntaxForm(many=True)
    fields = SearchField(many=True)
    orderings = serializers.DictField(child=serializers.CharField(), help_text="order value: meaning")
    sets = SetAliases(many=True)
