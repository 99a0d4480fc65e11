"""Rate limits on log-in, sign-up, the API token and the rules assistant: over the limit a 429
that says when to retry (Retry-After), per client address (and, for log-ins, per username),
counted by the real limiter in the real cache, with the rates set short here."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from pacg_site.ratelimit import limiter
from pacg_site.settings import parse_rate_limits

pytestmark = pytest.mark.django_db

# 15 s into an hour: a minute's window has 45 s left, an hour's 3,585.
START = 1_700_000_000 - 1_700_000_000 % 3600 + 15
SHORT = {"login": (3, 60), "signup": (2, 3600), "ask": (4, 60)}
# endpoint -> (scope, method, URL name, request data, the limit's window left at START)
ENDPOINTS = {
    "login": ("login", "post", "login", {"password": "wrong"}, 45),
    "signup": ("signup", "post", "signup", {"password1": "amiri-rages-on", "password2": "other"}, 3585),
    "token": ("login", "post", "api:token", {"password": "wrong"}, 45),
    "ask": ("ask", "get", "api:rules-ask", {"q": "what happens when my character dies"}, 45),
}
JSON_ENDPOINTS = {"token", "ask"}


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def clock(monkeypatch, settings):  # type: ignore[no-untyped-def]
    """Time stands still unless a test moves it, so no request falls into the next window."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **SHORT}
    fake = Clock(START)
    monkeypatch.setattr(limiter, "clock", fake)
    return fake


def send(client, endpoint: str, address: str = "10.0.0.1", username: str = "lee"):  # type: ignore[no-untyped-def]
    _, method, name, data, _ = ENDPOINTS[endpoint]
    if endpoint != "ask":
        data = {**data, "username": username}
    as_json = {"content_type": "application/json"} if endpoint == "token" else {}
    return getattr(client, method)(reverse(name), data, REMOTE_ADDR=address, **as_json)


def allowed(endpoint: str) -> int:
    return SHORT[ENDPOINTS[endpoint][0]][0]


def assert_throttled(response, endpoint: str) -> int:  # type: ignore[no-untyped-def]
    left = ENDPOINTS[endpoint][4]
    assert response.status_code == 429
    retry_after = response["Retry-After"]
    assert retry_after.isdigit() and int(retry_after) == left > 0
    if endpoint in JSON_ENDPOINTS:
        body = response.json()
        assert body["error"]["code"] == "throttled"
        assert f"{left} seconds" in body["error"]["message"]
        assert body["error"]["details"] == {"retry_after": left}
    else:
        assert response["Content-Type"].startswith("text/html")
        assert f"Try again in {left} seconds" in response.content.decode()
    return int(retry_after)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_one_request_over_the_limit_is_a_429_that_says_when_to_retry(client, endpoint):
    for _ in range(allowed(endpoint)):
        assert send(client, endpoint).status_code != 429
    assert_throttled(send(client, endpoint), endpoint)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_another_address_is_not_affected(client, endpoint):
    for _ in range(allowed(endpoint) + 1):
        send(client, endpoint)
    assert send(client, endpoint, address="10.0.0.2", username="max").status_code != 429


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_the_count_starts_again_when_the_window_ends(client, clock, endpoint):
    for _ in range(allowed(endpoint)):
        send(client, endpoint)
    retry_after = assert_throttled(send(client, endpoint), endpoint)
    clock.now += retry_after - 1
    assert send(client, endpoint).status_code == 429
    clock.now += 1
    for _ in range(allowed(endpoint)):
        assert send(client, endpoint).status_code != 429
    assert send(client, endpoint).status_code == 429


def test_showing_the_log_in_form_is_never_limited(client):
    for _ in range(3 * allowed("login")):
        assert client.get(reverse("login"), REMOTE_ADDR="10.0.0.1").status_code == 200
    for _ in range(allowed("login")):
        assert send(client, "login").status_code == 200
    assert send(client, "login").status_code == 429
    assert client.get(reverse("login"), REMOTE_ADDR="10.0.0.1").status_code == 200


def test_a_real_user_logs_in_within_the_limit(client):
    User.objects.create_user("lee", password="lem-sings-well")
    for _ in range(allowed("login") - 1):
        send(client, "login")
    response = client.post(reverse("login"), {"username": "lee", "password": "lem-sings-well"}, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 302


def test_guesses_at_one_account_are_limited_from_any_address(client):
    for number in range(allowed("login")):
        send(client, "login", address=f"10.0.1.{number}", username="Lee")
    assert send(client, "login", address="10.0.2.1", username="lee ").status_code == 429
    assert send(client, "login", address="10.0.2.1", username="max").status_code == 200


def test_the_log_in_pages_and_the_token_share_one_count(client):
    for _ in range(allowed("login")):
        send(client, "login")
    assert send(client, "token").status_code == 429
    admin_login = client.post("/admin/login/", {"username": "lee", "password": "wrong"}, REMOTE_ADDR="10.0.0.1")
    assert admin_login.status_code == 429 and admin_login["Retry-After"] == "45"


def test_a_forwarded_for_header_does_not_make_a_new_client(client):
    for _ in range(allowed("ask")):
        send(client, "ask")
    spoofed = client.get(
        reverse("api:rules-ask"), {"q": "dying"}, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4"
    )
    assert spoofed.status_code == 429


def test_behind_a_proxy_clients_are_told_apart_by_the_address_it_forwards(client, settings):
    settings.REVERSE_PROXIES = 1
    url, proxy = reverse("api:rules-ask"), "127.0.0.1"
    for _ in range(allowed("ask")):
        client.get(url, {"q": "dying"}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="6.6.6.6, 10.0.0.1")
    assert client.get(url, {"q": "dying"}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="10.0.0.1").status_code == 429
    assert client.get(url, {"q": "dying"}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="10.0.0.2").status_code == 200


def test_limits_that_are_off_never_refuse(client, settings):
    settings.RATE_LIMITS = {scope: None for scope in settings.RATE_LIMITS}
    for _ in range(3 * allowed("login")):
        assert send(client, "login").status_code == 200


def test_the_environment_sets_the_rates_strictly(monkeypatch):
    defaults = {"login": "10/min", "signup": "20/h", "ask": "60/min"}
    monkeypatch.setenv("PACG_RATE_LIMITS", "ask=600/min, login=20/s")
    assert parse_rate_limits("PACG_RATE_LIMITS", defaults) == {"login": (20, 1), "signup": (20, 3600), "ask": (600, 60)}
    monkeypatch.setenv("PACG_RATE_LIMITS", "signup=off")
    assert parse_rate_limits("PACG_RATE_LIMITS", defaults)["signup"] is None
    monkeypatch.setenv("PACG_RATE_LIMITS", "off")
    assert parse_rate_limits("PACG_RATE_LIMITS", defaults) == {"login": None, "signup": None, "ask": None}
    for bad, message in [("ask=60", "is not N/period"), ("ask=0/min", "is not N/period"), ("chat=1/s", "unknown")]:
        monkeypatch.setenv("PACG_RATE_LIMITS", bad)
        with pytest.raises(ImproperlyConfigured, match=message):
            parse_rate_limits("PACG_RATE_LIMITS", defaults)
