"""The OpenAPI contract a companion app generates its client from: every operation named,
summarised, typed, and with its errors documented as the one error object."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

FREE_FORM = {"type": "object", "additionalProperties": {}}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):  # type: ignore[no-untyped-def]
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield f"{method.upper()} {path}", operation


def test_operation_ids_are_unique_and_readable(schema):  # type: ignore[no-untyped-def]
    ids = [operation["operationId"] for _, operation in operations(schema)]
    assert len(ids) == len(set(ids))
    generated = [i for i in ids if i.startswith("api_") or re.search(r"_\d+$", i)]
    assert generated == [], "set an operation_id with pacg_site.api.documented"


def test_every_operation_has_a_summary(schema):  # type: ignore[no-untyped-def]
    missing = [name for name, operation in operations(schema) if not operation.get("summary")]
    assert missing == []


def test_no_operation_answers_a_free_form_object(schema):  # type: ignore[no-untyped-def]
    untyped = []
    for name, operation in operations(schema):
        for code, response in operation["responses"].items():
            body = response.get("content", {}).get("application/json", {}).get("schema")
            if code.startswith("2") and (body is None or body == FREE_FORM):
                untyped.append(f"{name} {code}")
    assert untyped == []


def test_every_documented_error_is_the_error_object(schema):  # type: ignore[no-untyped-def]
    wrong = []
    for name, operation in operations(schema):
        for code, response in operation["responses"].items():
            if code.startswith("4") and code != "405":
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                if body.get("$ref") != "#/components/schemas/Error":
                    wrong.append(f"{name} {code}")
    assert wrong == []
    assert schema["components"]["schemas"]["Error"]["required"] == ["error"]


def test_every_write_documents_its_bad_input(schema):  # type: ignore[no-untyped-def]
    undocumented = [
        name
        for name, operation in operations(schema)
        if name.split()[0] in {"POST", "PUT", "PATCH"}
        and operation.get("requestBody")
        and "400" not in operation["responses"]
    ]
    assert undocumented == []


def test_lists_that_grow_are_paged_like_cards(schema):  # type: ignore[no-untyped-def]
    components = schema["components"]["schemas"]
    for path in ["/api/parties/", "/api/play/sessions/", "/api/parties/{party_id}/log/", "/api/cards/"]:
        body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        page = components[body["$ref"].rsplit("/", 1)[1]]
        assert set(page["properties"]) == {"count", "next", "previous", "results"}, path
        assert page["properties"]["next"].get("nullable") is True, path


def test_nullable_fields_are_marked(schema):  # type: ignore[no-untyped-def]
    components = schema["components"]["schemas"]
    assert components["Set"]["properties"]["parent"].get("nullable") is True
    assert components["Party"]["properties"]["adventure_path"].get("nullable") is True
    assert components["Party"]["properties"]["game"]["$ref"] == "#/components/schemas/Game"
