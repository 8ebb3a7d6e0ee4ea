"""The daily audit's look at the database itself: are its guards still on?

The ledger's figures can agree while the database that keeps them has been
loosened: a trigger dropped or disabled by someone with the rights to, a trigger
function replaced, a trigger added that moves balances, the app connecting as a
superuser. Each row says what is expected and what was found:

- every guard trigger of :func:`core.db.guards.expected` in place and ``ENABLE
  ALWAYS``, and the guards' event trigger too;
- the role the report runs as (the app's) neither a superuser nor the owner of a
  table;
- the definitions of every trigger of the schema and of its function, as one
  digest, the same as the previous audit's: a release that changes them shows
  here, and so does anyone else who does;
- no change of the schema since the previous audit: the event triggers of
  :mod:`core.db.guards` write each DDL command, and who ran it, where only a
  superuser can change it; the changes are listed in a section of their own.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from core.db import guards
from reports.document import BOOL, INT, Column, Section, rows_of, section_of
from reports.document import said as _
from reports.selectors import Period, previous_audit

KEY = "database_guards"
CHANGES_KEY = "schema_changes"
ALWAYS = "ENABLE ALWAYS"
MAX_LISTED = 500

_DIGEST = """
SELECT md5(coalesce(string_agg(
           c.relname || ' ' || t.tgname || ' ' || t.tgenabled::text || ' '
           || pg_get_triggerdef(t.oid) || ' ' || md5(p.prosrc),
           E'\\n' ORDER BY c.relname, t.tgname), ''))
  FROM pg_trigger t
  JOIN pg_class c ON c.oid = t.tgrelid
  JOIN pg_proc p ON p.oid = t.tgfoid
 WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
"""

_ROLE = """
SELECT current_user, r.rolsuper,
       (SELECT count(*) FROM pg_class c
         WHERE c.relowner = r.oid AND c.relnamespace = 'public'::regnamespace)
  FROM pg_roles r WHERE r.rolname = current_user
"""


def _previous(period: Period) -> tuple[dict[str, str], str] | None:
    """The "found" of each row of the audit of the day before, by item, and its
    name; None when there is none, or it has no such section."""
    report = previous_audit(period=period)
    if report is None:
        return None
    try:
        rows = rows_of(report.data, KEY)
    except KeyError:
        return None
    return {r["item"]: r["found"] for r in rows}, report.period_label


def _schema_changes(
    cursor: Any, previous: tuple[dict[str, str], str] | None
) -> tuple[Section, int | None, int]:
    """The schema's history since the previous audit's last entry.

    Returns the section listing it, the last entry (None: not kept) and how many
    entries came since the previous audit (all of them at the first audit, which
    lists none: they are the install's).
    """
    section = Section(
        key=CHANGES_KEY,
        title=_("Changes of the database's schema"),
        columns=[
            Column("id", _("entry"), INT),
            Column("at", _("at")),
            Column("role", _("role")),
            Column("command", _("command")),
            Column("object_type", _("object type")),
            Column("object", _("object")),
        ],
        note=_(
            "Every DDL command since the previous audit, as the database's event "
            "triggers wrote it where only a superuser can change it: a release's "
            "migrations, or anyone else's. The first audit lists none."
        ),
    )
    after = int(previous[0].get("schema_history") or 0) if previous else 0
    changes = guards.schema_changes(cursor, after=after)
    if changes is None:
        return section, None, 0
    last = changes[-1].id if changes else after
    if previous is not None:
        for c in changes[:MAX_LISTED]:
            section.add(
                id=c.id,
                at=c.at.isoformat(timespec="seconds"),
                role=c.role,
                command=c.command,
                object_type=c.object_type,
                object=c.object,
            )
    return section, last, len(changes)


def _guards_section() -> Section:
    return Section(
        key=KEY,
        title=_("The database's guards"),
        columns=[
            Column("item", _("item")),
            Column("what", _("check")),
            Column("expected", _("expected")),
            Column("found", _("found")),
            Column("agrees", _("agrees"), BOOL),
        ],
        note=_(
            "The triggers that keep the ledger and the records, each in place and "
            "enabled always; the event triggers that keep them on and write the "
            "schema's history; the role the report runs as; a digest of every "
            "trigger's definition and the schema changes, both since the previous "
            "audit (a release changes them too)."
        ),
    )


def database_guards(period: Period) -> list[Section]:
    """The sections of the daily audit on the database: its guards, and the changes
    of its schema since the previous audit."""
    section = _guards_section()
    previous = _previous(period)
    with connection.cursor() as cursor:
        found = guards.inspect(cursor)
        cursor.execute(_ROLE)
        role, superuser, owned = cursor.fetchone()
        cursor.execute(_DIGEST)
        (digest,) = cursor.fetchone()
        changes, last, since = _schema_changes(cursor, previous)
    wrong = len(found.missing) + len(found.not_always)
    section.add(
        item="triggers",
        what=_("guard triggers in place, %(mode)s") % {"mode": ALWAYS},
        expected=str(found.expected),
        found=str(found.expected - wrong),
        agrees=wrong == 0,
    )
    for name in found.missing:
        section.add(
            item="trigger", what=name, expected=ALWAYS, found=_("missing"), agrees=False
        )
    for name in found.not_always:
        section.add(
            item="trigger", what=name, expected=ALWAYS, found=name, agrees=False
        )
    for name, mode in found.event_triggers.items():
        section.add(
            item=f"event_trigger:{name}",
            what=_("event trigger %(name)s") % {"name": name},
            expected=ALWAYS,
            found={"A": ALWAYS, "": _("missing")}.get(mode)
            or _("switched to %(mode)s") % {"mode": mode},
            agrees=mode == "A",
        )
    section.add(
        item="role",
        what=_("the report's role (the app's)"),
        expected=_("no superuser, owner of no table"),
        found=role
        + (" " + _("superuser") if superuser else "")
        + (" " + _("owns %(n)d tables") % {"n": owned} if owned else ""),
        agrees=not superuser and not owned,
    )
    earlier = previous[0] if previous else {}
    section.add(
        item="digest",
        what=_("definitions of the triggers (digest), as in the previous audit"),
        expected=earlier.get("digest") or _("(no previous audit)"),
        found=digest,
        agrees=previous is None or earlier.get("digest") == digest,
    )
    section.add(
        item="schema_changes",
        what=_("schema changes since the previous audit"),
        expected="0" if previous else _("(no previous audit)"),
        found=str(since) if last is not None else _("not kept"),
        agrees=last is not None and (previous is None or since == 0),
    )
    section.add(
        item="schema_history",
        what=_("last entry of the schema's history"),
        expected="",
        found=str(last) if last is not None else "",
        agrees=True,
    )
    return [section, changes]


def failed(data: dict[str, Any]) -> tuple[int, int]:
    """The rows of the guards' section of a stored audit, and those that disagree."""
    try:
        rows = section_of(data, KEY)["rows"]
    except KeyError:
        return 0, 0
    return len(rows), sum(1 for row in rows if not row[-1])
