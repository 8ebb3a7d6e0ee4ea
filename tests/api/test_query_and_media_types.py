"""Filters outside their enum are malformed (400), and report files are documented
with the media types they are served in (API.md, issue "Input that breaks the
contract")."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from accounting.models import Payable
from core.roles import Role
from jackpots.models import Award, Hit
from reports.render import FORMATS
from tests.api.test_auth import assert_error_shape

pytestmark = pytest.mark.django_db

FILTERS = [
    ("/api/v1/cage/payables", Payable.Status.values),
    ("/api/v1/jackpots/hits", Hit.Status.values),
    ("/api/v1/jackpots/awards", Award.Status.values),
]


@pytest.fixture
def manager(staff_client):
    return staff_client(Role.MANAGER, username="mia")


@pytest.mark.parametrize(("url", "values"), FILTERS)
@pytest.mark.parametrize("bad", ["AAA", "OPEN", "open ", "pending,paid", "%27"])
def test_a_status_outside_its_enum_is_malformed(manager, url, values, bad):
    """Answered 200 [] before, which reads as "none" when it means "misspelt"."""
    if bad in values:
        pytest.skip("a value of the enum")
    error = assert_error_shape(manager.get(url, {"status": bad}), 400, "invalid")
    assert "status" in error["fields"]
    for value in values:
        assert value in error["detail"]


@pytest.mark.parametrize(("url", "values"), FILTERS)
def test_each_status_of_the_enum_and_none_are_answered(manager, url, values):
    assert manager.get(url).status_code == 200
    for value in values:
        answer = manager.get(url, {"status": value})
        assert answer.status_code == 200, (value, answer.content)


def test_report_files_are_documented_with_their_media_types():
    """Not application/octet-stream: text/csv, the XLSX type and application/pdf,
    as served (reports.render.FORMATS)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/reports/{report_id}/{fmt}"]["get"]
    documented = set(operation["responses"]["200"]["content"])
    assert documented == {media.split(";")[0] for media in FORMATS.values()}
    assert "application/octet-stream" not in documented
