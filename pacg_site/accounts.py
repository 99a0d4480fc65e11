"""Sign-up and log-in: Django's own log-in view with our templates, and DRF's token view; each
limited per client (pacg_site/ratelimit.py), since each checks a password or makes an account."""

from django.contrib import admin
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import JSONParser

from .api import StrictSerializer, documented, text
from .ratelimit import ScopedRateThrottle, rate_limited


@rate_limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


# The site's log-in page and the admin's share one count: a guesser gains nothing by switching.
log_in = rate_limited("login", username_field="username")(LoginView.as_view())
admin_log_in = rate_limited("login", username_field="username")(admin.site.login)


class TokenRequest(StrictSerializer, AuthTokenSerializer):
    """Your username and password, as JSON strings."""

    # DRF's password check, with our strict input: no other fields, no other JSON types.
    username = text(write_only=True)
    password = text(write_only=True, style={"input_type": "password"}, trim_whitespace=False)
    token = None  # type: ignore[assignment]  # the answer's field, not the request's

    def validate(self, attrs):  # type: ignore[no-untyped-def]
        try:
            return super().validate(attrs)
        except serializers.ValidationError:
            raise serializers.ValidationError(
                "wrong username or password: check both, or sign up at /accounts/signup/ first",
                code="authorization",
            ) from None


class ApiToken(serializers.Serializer):
    token = serializers.CharField(help_text="send it as the header `Authorization: Token <token>`")


@extend_schema_view(
    post=documented(
        "auth_token_create", "Get your API token", ApiToken, errors=(400, 429), request=TokenRequest, public=True
    )
)
class TokenAPI(ObtainAuthToken):
    """Your API token, for your username and password. Attempts are limited per address and per
    username, together with the log-in pages: over the limit a 429 says when to try again."""

    serializer_class = TokenRequest
    parser_classes = [JSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
    throttle_methods = ("POST",)
    throttle_field = "username"
