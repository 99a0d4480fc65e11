"""factory-boy factories shared by the tests."""

from __future__ import annotations

import factory
from django.contrib.auth.models import User

from campaigns.models import Party


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.PostGenerationMethodCall("set_password", "a-long-test-password")


class PartyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Party

    name = factory.Sequence(lambda n: f"Party {n}")
    owner = factory.SubFactory(UserFactory)
    game = "pacg"
    ruleset = "core-2019"

    @factory.post_generation
    def with_owner_as_member(self, create, extracted, **kwargs):  # type: ignore[no-untyped-def]
        if create:
            self.members.add(self.owner)
