"""A password change or reset ends the user's API tokens (issue "Staff access").

Before, a token issued before the change still worked. Each path that sets a
password is tried: the user's own save, a manager or superuser resetting it in the
admin, and ``manage.py changepassword``'s ``set_password`` + ``save``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from core.roles import Role
from tests.api.test_auth import assert_error_shape
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

URL = "/api/v1/cage/payables"  # any operation a manager may call


def login(username: str, password: str = PASSWORD) -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/login", {"username": username, "password": password}, "json"
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client


@pytest.fixture
def mia(make_staff) -> User:
    return make_staff("mia", Role.MANAGER)


def test_a_password_change_ends_the_users_tokens(mia, make_staff):
    phone, laptop = login("mia"), login("mia")
    make_staff("other", Role.MANAGER)
    other = login("other")
    assert phone.get(URL).status_code == 200
    mia.set_password("a new password 2026")
    mia.save()
    for client in (phone, laptop):
        assert_error_shape(client.get(URL), 401, "authentication_failed")
    assert not AuthToken.objects.filter(user=mia).exists()
    assert other.get(URL).status_code == 200  # another user's tokens stay
    assert login("mia", "a new password 2026").get(URL).status_code == 200


def test_a_reset_in_the_admin_ends_the_users_tokens(mia):
    token = login("mia")
    root = User.objects.create_superuser("root", password=PASSWORD)
    admin = Client()
    admin.force_login(root)
    answer = admin.post(
        f"/admin/auth/user/{mia.pk}/password/",
        {
            "password1": "reset by root 2026",
            "password2": "reset by root 2026",
            "usable_password": "true",
        },
    )
    assert answer.status_code == 302, answer.content
    mia.refresh_from_db()
    assert mia.check_password("reset by root 2026")
    assert_error_shape(token.get(URL), 401, "authentication_failed")


def test_saves_that_keep_the_password_keep_the_tokens(mia):
    token = login("mia")
    mia.first_name = "Mia"
    mia.save()
    mia.save(update_fields=["last_login"])
    login("mia")  # a login saves last_login
    assert token.get(URL).status_code == 200
    assert AuthToken.objects.filter(user=mia).count() == 2
