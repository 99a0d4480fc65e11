"""Facets of the card search (game, set, type, trait, level range), declared with django-filter.

The filter set validates and documents the parameters; its values become terms of the same
search tree as the query language, so a facet and the equivalent `q` term cannot disagree."""

from __future__ import annotations

import django_filters
from django import forms

from .search import parser as ast
from .search.facts import normalize_keyword
from .search.fields import BY_NAME, ORDERINGS, TYPE_VALUES
from .selectors import known_sets
from .vocabulary import GAMES


class WholeNumberFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField  # levels are whole numbers: 0.5 is refused, not rounded


class CardFacets(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=[(g, g) for g in sorted(GAMES)], help_text="pacg or aventuria")
    set = django_filters.CharFilter(help_text="a set code or alias; includes the set's parts")
    type = django_filters.ChoiceFilter(choices=[(t, t) for t in TYPE_VALUES], help_text="type, subtype or group")
    trait = django_filters.CharFilter(help_text="a trait (accents optional)")
    level_min = WholeNumberFilter(min_value=0, help_text="lowest level")
    level_max = WholeNumberFilter(min_value=0, help_text="highest level")
    ordering = django_filters.ChoiceFilter(choices=list(ORDERINGS.items()), empty_label=None, help_text="sort order")

    def clean_set_code(self) -> None:
        code = self.form.cleaned_data.get("set")
        if code:
            resolved = known_sets().get(code.strip().lower())
            if resolved is None:
                self.form.add_error("set", f"no set has the code or alias {code!r}")
            else:
                self.form.cleaned_data["set"] = resolved

    def is_valid(self) -> bool:
        valid = super().is_valid()
        if valid:
            self.clean_set_code()
            low, high = self.form.cleaned_data.get("level_min"), self.form.cleaned_data.get("level_max")
            if low is not None and high is not None and low > high:
                self.form.add_error("level_max", "must not be below level_min")
        return valid and not self.form.errors

    def terms(self) -> list[ast.Node]:
        data = self.form.cleaned_data
        terms: list[ast.Node] = []
        if data.get("game"):
            terms.append(ast.Term(BY_NAME["game"], "=", data["game"]))
        if data.get("set"):
            terms.append(ast.Term(BY_NAME["set"], "=", data["set"]))
        if data.get("type"):
            terms.append(ast.Term(BY_NAME["type"], "=", data["type"]))
        if data.get("trait"):
            terms.append(ast.Term(BY_NAME["trait"], "=", normalize_keyword(data["trait"])))
        if data.get("level_min") is not None:
            terms.append(ast.Term(BY_NAME["level"], ">=", int(data["level_min"])))
        if data.get("level_max") is not None:
            terms.append(ast.Term(BY_NAME["level"], "<=", int(data["level_max"])))
        return terms

    @property
    def ordering_value(self) -> str:
        return self.form.cleaned_data.get("ordering") or "name"

    class Meta:
        form = forms.Form
        fields: list[str] = []
