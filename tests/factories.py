"""factory-boy factories and an API client shared by the tests."""

from __future__ import annotations

import factory
from django.contrib.auth.models import User
from rest_framework.test import APIClient


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):  # type: ignore[no-untyped-def]
        self.set_password(extracted or "a-long-test-password")
        if create:
            self.save(update_fields=["password"])


def client_for(user: User | None = None) -> APIClient:
    """An API client authenticated as `user`, or anonymous."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
