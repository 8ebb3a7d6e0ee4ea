"""The admin names the product, in the staff's language, not Django."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "header"),
    [
        ("en", "Card room back office"),
        ("fi", "Korttihuoneen hallinto"),
        ("ko", "카드룸 백오피스"),
    ],
)
def test_the_admin_header_is_the_back_offices(make_staff, language, header):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_staff("mia", Role.MANAGER))
    page = client.get("/admin/").content.decode()
    assert header in page
    assert "Django administration" not in page
