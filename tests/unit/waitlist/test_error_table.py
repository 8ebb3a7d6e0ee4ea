"""Every refusal of the waiting lists has a text in waitlist's table or core's, and
every text of the table reads in Finnish and Korean."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.errors import SHARED_TEXTS, SharedCode
from waitlist import errors

OTHER_TEXTS = [
    value
    for name, value in vars(errors).items()
    if name.isupper() and isinstance(value, str)
]


def test_every_code_has_a_text():
    assert {str(c) for c in errors.Code} <= {str(k) for k in errors.TEXTS}
    assert not set(errors.Code) & set(SharedCode)


def test_a_shared_code_the_table_leaves_out_reads_as_cores():
    error = errors.missing(SharedCode.SEAT_EMPTY, s=4)
    assert (error.code, error.detail) == ("seat_empty", "Nobody sits in seat 4.")
    assert SharedCode.SEAT_EMPTY not in errors.TEXTS
    assert SharedCode.SEAT_EMPTY in SHARED_TEXTS


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_every_text_is_translated(language):
    with translation.override(language):
        for template in [*errors.TEXTS.values(), *OTHER_TEXTS]:
            assert translation.gettext(template) != template, template
