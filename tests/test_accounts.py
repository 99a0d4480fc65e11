"""Sign-up, log-in and log-out pages, and the API token."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"), {"username": "alice", "password1": "amiri-rages-on", "password2": "amiri-rages-on"}
    )
    assert response.status_code == 302
    assert User.objects.filter(username="alice").exists()
    assert "alice" in client.get(reverse("home")).content.decode()


def test_sign_up_refuses_mismatched_passwords_and_says_why(client):
    response = client.post(reverse("signup"), {"username": "bob", "password1": "amiri-rages-on", "password2": "other"})
    assert response.status_code == 400
    assert "didn’t match" in response.content.decode() or "didn't match" in response.content.decode()
    assert not User.objects.filter(username="bob").exists()


def test_log_in_and_log_out(client):
    User.objects.create_user("lee", password="lem-sings-well")
    refused = client.post(reverse("login"), {"username": "lee", "password": "wrong"})
    assert refused.status_code == 200 and "didn't match" in refused.content.decode()
    assert client.post(reverse("login"), {"username": "lee", "password": "lem-sings-well"}).status_code == 302
    assert "lee" in client.get(reverse("home")).content.decode()
    client.post(reverse("logout"))
    assert "Log in" in client.get(reverse("home")).content.decode()


def test_the_api_token_is_given_for_a_username_and_password_in_json(client):
    user = User.objects.create_user("lee", password="lem-sings-well")
    url = reverse("api:token")
    answer = client.post(url, {"username": "lee", "password": "lem-sings-well"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"token": user.auth_token.key}
    wrong = client.post(url, {"username": "lee", "password": "nope"}, content_type="application/json")
    assert wrong.status_code == 400 and "sign up at /accounts/signup/" in wrong.json()["error"]["message"]
    extra = client.post(url, {"username": "lee", "password": "x", "admin": True}, content_type="application/json")
    assert extra.status_code == 400 and "admin: unknown field" in extra.json()["error"]["message"]
    form = client.post(url, {"username": "lee", "password": "lem-sings-well"})
    assert form.status_code == 415 and "application/json" in form.json()["error"]["message"]
