"""No secret in the repository: keys, tokens, passwords, ``.env`` files.

Production reads every secret from the environment (config/settings/: the
``SECRET_KEY``, the database and broker URLs; docker-compose.yml takes them from an
``.env`` file that is never committed). The files looked at are those git tracks
plus those it would add (untracked and not ignored), so a secret is caught before
its commit too.

Passwords: a literal shorter than 8 characters can't be a staff password
(``AUTH_PASSWORD_VALIDATORS`` demand 8), so only longer ones are looked at. The
demo room's staff passwords are made by ``secrets.token_urlsafe`` at each run and
printed, never written in a file, so nothing is flagged there. The few literals
that remain are named in ``ALLOWED`` one by one, each with the reason it is no
secret.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# (path, the value found): why it is no secret.
ALLOWED = {
    ("tests/conftest.py", "correct-horse-battery-staple"): (
        "the test suite's fixture password, for accounts of the throwaway test database"
    ),
    ("tests/api/test_platform.py", "Kassa-2026-yo"): (
        "the password the create_staff test gives an account of the test database"
    ),
    ("Dockerfile", "build"): (
        "a placeholder SECRET_KEY for collectstatic while the image is built; the "
        "image runs with the environment's key (docker-compose.yml requires it)"
    ),
    ("docs/operations.md", "pass"): "the placeholder in the DATABASE_URL example",
    ("tests/unit/engine/test_settle_hand_command.py", "nothing"): (
        "a URL to a database that doesn't exist: settle_hand must not connect"
    ),
}

SECRET_FILES = re.compile(
    r"(^|/)("
    r"\.env(\..+)?"  # environment files with the production secrets
    r"|\.data/.*"  # the embedded database, the broker, the local secret_key
    r"|secret_key|\.pgpass|\.netrc|\.htpasswd|credentials\.json"
    r"|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?"
    r"|.*\.(pem|key|p12|pfx|jks|keystore|kdbx|ovpn)"
    r")$"
)

PATTERNS = {
    "private key": re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    # A key given as a literal in Python, YAML, JSON, a shell line or an env file;
    # not a call (env.str(…), secrets.token_urlsafe(…)) nor a ${VARIABLE}.
    "hard-coded SECRET_KEY": re.compile(
        r"""(?<!\$\{)\bSECRET_KEY["']?\s*[:=]\s*"""
        r"""(?:[rbuf]?["']([^"'\s]+)["']|([A-Za-z0-9][^\s"'$(),.{}]*)(?=\s|$))"""
    ),
    "Django's insecure key": re.compile(r"django-insecure" r"-[^\s\"']+"),
    "password literal": re.compile(
        r"""(?i)\b\w*(?:password|passwd|pwd)\w*["']?\s*[:=]\s*[rbuf]?["']"""
        r"""([^"'\s]{8,})["']"""
    ),
    "password option": re.compile(
        r"""(?i)--password["']?(?:\s*,\s*|\s*=\s*|\s+)["']?(?![-$<{])"""
        r"""([^\s"',)]{8,})"""
    ),
    "password in a URL": re.compile(
        r"""\b[a-z][a-z0-9+.-]*://[^/\s:@"'$]+:(?!\$\{)([^/\s@"']+)@"""
    ),
    "AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Stripe key": re.compile(r"\b[rs]k_live_[0-9A-Za-z]{16,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    "JSON web token": re.compile(
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
    ),
    # The API's own credentials: a knox token, a terminal key (prefix.secret).
    "bearer token": re.compile(r"Bearer\s+([0-9a-f]{32,})\b"),
    "terminal key": re.compile(r"Api-Key\s+([A-Za-z0-9]{8}\.[A-Za-z0-9]{32})\b"),
}


def repository_files() -> list[str]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted({name for name in listed.split("\0") if name})


def findings(path: str, text: str) -> list[tuple[str, str, int, str]]:
    """Every (path, pattern, line, value) in ``text`` that ``ALLOWED`` doesn't name."""
    found = []
    for name, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            value = next((g for g in match.groups() if g), match.group(0))
            if (path, value) in ALLOWED:
                continue
            line = text.count("\n", 0, match.start()) + 1
            found.append((path, name, line, value[:12] + "…"))
    return found


def test_no_file_of_secrets_is_in_the_repository():
    """No .env, key store, private key or local data folder is tracked or addable."""
    assert [f for f in repository_files() if SECRET_FILES.search(f)] == []


def test_the_files_that_hold_secrets_are_ignored_by_git():
    """An .env beside docker-compose.yml and the local secret key stay out of git."""
    for path in (".env", ".env.production", ".data/secret_key"):
        ignored = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, check=False
        )
        assert ignored.returncode == 0, f"{path} is not ignored by .gitignore"


def test_no_key_token_or_password_is_written_in_a_file():
    """Private keys, tokens, passwords and a SECRET_KEY are read from the
    environment, never written in the repository's files."""
    found = []
    for path in repository_files():
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary files (images), or deleted since listed
        found += findings(path, text)
    assert found == []


# Samples of each kind of secret; the "~" keeps this file itself clean and is
# taken out before the patterns look at them.
SAMPLES = [
    'SECRET_KEY~ = "k3y-from-a-tutorial"',
    "SECRET_KEY~=k3y-from-a-tutorial",
    '    "SECRET_KEY"~: "k3y-from-a-tutorial",',
    "SECRET_KEY~ = 'django-~insecure-abc123'",
    'ADMIN_PASSWORD~ = "Kasino-2026!"',
    '{"password"~: "Kasino-2026!"}',
    "manage.py create_staff anna --role cashier --password~ Kasino-2026!",
    "DATABASE_URL=postgres:~//cardroom:Kasino-2026@db:5432/cardroom",
    "-----BEGIN RSA PRIVATE~ KEY-----",
    "-----BEGIN OPENSSH PRIVATE~ KEY-----",
    "aws_access_key_id = AKIA~IOSFODNN7EXAMPLE",
    "token ghp_" + "a" * 36,
    "Authorization: Bearer " + "0123456789abcdef" * 4,
    "Authorization: Api-Key AbCd1234." + "x" * 32,
]


@pytest.mark.parametrize("line", SAMPLES)
def test_the_patterns_catch_what_they_look_for(line):
    """Each kind of secret above is found (so a silent pattern can't pass)."""
    assert findings("anywhere.py", line.replace("~", "")), line


@pytest.mark.parametrize(
    "line",
    [
        'SECRET_KEY = env.str("SECRET_KEY", default="") or _local_secret_key()',
        '"SECRET_KEY": secrets.token_urlsafe(64),',
        "SECRET_KEY: ${SECRET_KEY:?set SECRET_KEY}",
        "DEBUG=false SECRET_KEY=$$($(PY) -c 'import secrets')",
        "password = secrets.token_urlsafe(9)",
        '"password": "nope"',
        "DATABASE_URL: postgres://cardroom:${POSTGRES_PASSWORD:?set it}@postgres/x",
        'parser.add_argument("--password", help="Prompted for when not given.")',
    ],
)
def test_reading_secrets_from_elsewhere_is_not_flagged(line):
    """Secrets read from the environment or generated at run time are fine."""
    assert findings("anywhere.py", line) == [], line
