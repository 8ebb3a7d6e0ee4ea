"""Every message of the staff screens is translated into Finnish and Korean."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

STAFF = Path(__file__).resolve().parents[2] / "staff"
GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}
TRANSLATE = re.compile(r"""{%\s*translate\s+(?:"([^"]+)"|'([^']+)')""")
PLURAL = re.compile(r"{%\s*plural\s*%}")
BLOCK = re.compile(r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", re.S)
VARIABLE = re.compile(r"{{\s*(\w+)\s*}}")


def messages() -> set[str]:
    found: set[str] = set()
    for template in STAFF.glob("templates/**/*.html"):
        text = template.read_text()
        found.update(a or b for a, b in TRANSLATE.findall(text))
        found.update(VARIABLE.sub(r"%(\1)s", m) for m in BLOCK.findall(text))
    for module in STAFF.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in GETTEXT
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_the_screens_have_messages_to_translate():
    assert len(messages()) > 100


def translated(message: str) -> bool:
    """Whether ``message`` (``one{% plural %}many``, a plural) is translated."""
    if PLURAL.search(message):
        one, many = PLURAL.split(message)
        return translation.ngettext(one, many, 1) != one and (
            translation.ngettext(one, many, 2) != many
        )
    return translation.gettext(message) != message


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_every_message_of_the_screens_is_translated(language):
    with translation.override(language):
        missing = sorted(m for m in messages() if not translated(m))
    assert missing == []
