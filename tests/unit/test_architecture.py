"""The shape issue 17 set for the code: money moves in one place, services by use
case, errors without HTTP. Static checks over the source, no database."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "accounting",
    "cardroom",
    "core",
    "jackpots",
    "reports",
    "simulation",
    "staff",
    "tournaments",
    "terminal",
    "waitlist",
)
MAX_FUNCTION = 80
MAX_SERVICES_MODULE = 600


def sources(*folders: str) -> list[Path]:
    found = []
    for folder in folders:
        found += [
            p for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts
        ]
    return sorted(found)


def services_modules() -> list[Path]:
    return [
        p for p in sources(*APPS) if p.relative_to(ROOT).parts[1].startswith("services")
    ]


def test_no_services_module_is_over_600_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in services_modules()
        if (n := len(p.read_text().splitlines())) > MAX_SERVICES_MODULE
    }
    assert services_modules()
    assert long == {}


def test_no_function_of_the_apps_is_over_80_lines():
    long = {}
    for path in sources(*APPS):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > MAX_FUNCTION:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = lines
    assert long == {}


def test_only_the_ledger_builds_legs():
    """Services post plans of (account code, cents); the ledger makes the legs."""
    allowed = {"accounting/services/ledger.py", "accounting/services/posting.py"}
    builders = sorted(
        str(p.relative_to(ROOT))
        for p in sources(*APPS)
        if re.search(r"\bLeg\(", p.read_text())
    )
    assert set(builders) <= allowed, builders


@pytest.mark.parametrize(
    "pattern", ["*/services*", "*/domain", "*/models.py", "*/models"]
)
def test_services_models_and_domain_know_nothing_of_http(pattern):
    paths = [
        p
        for match in ROOT.glob(pattern)
        for p in ([match] if match.is_file() else match.rglob("*.py"))
        if match.relative_to(ROOT).parts[0] in APPS
    ]
    assert paths
    speaking = sorted(
        str(p.relative_to(ROOT))
        for p in paths
        if re.search(r"core\.api\.errors|rest_framework", p.read_text())
    )
    assert speaking == []


# Names and imports: a private name stays in its module; no module of the project
# imports itself back through others (an import inside a function included).

PROJECT = (*APPS, "config")


def private_imports(path: Path) -> list[str]:
    """Each private name ``path`` imports from a module of the project (``from
    x import _y``, ``from .x import _y``, ``from . import _y``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0 and (node.module or "").split(".")[0] not in PROJECT:
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        found += [
            f"{where} {alias.name}"
            for alias in node.names
            if alias.name.startswith("_") and not alias.name.startswith("__")
        ]
    return found


def test_no_module_imports_a_private_name_of_another():
    """A name with a leading underscore belongs to its module; a name another
    module needs is public, in the module that owns it."""
    crossing = [found for p in sources(*PROJECT) for found in private_imports(p)]
    assert crossing == []


def import_cycles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without
    recursion): each is a cycle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            module, i = work.pop()
            if i == 0:
                index[module] = low[module] = len(index)
                stack.append(module)
                on_stack.add(module)
            deeper = next(
                (
                    j
                    for j in range(i, len(edges[module]))
                    if edges[module][j] not in index
                ),
                None,
            )
            for other in edges[module][i : deeper if deeper is not None else None]:
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            if deeper is not None:
                work += [(module, deeper + 1), (edges[module][deeper], 0)]
                continue
            if low[module] == index[module]:
                group = []
                while True:
                    other = stack.pop()
                    on_stack.discard(other)
                    group.append(other)
                    if other == module:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
    return cycles


def test_import_cycles_are_found():
    edges = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e"]}
    assert import_cycles(edges) == [["a", "b", "c"]]


def test_no_modules_import_each_other_round():
    """No cycle of imports among the project's modules, none hidden by an import
    inside a function (the graph counts those): a name two modules both need
    lives below both, or the two are one."""
    import grimp

    graph = grimp.build_graph(
        *PROJECT, exclude_type_checking_imports=True, cache_dir=None
    )
    modules = {m for m in graph.modules if m.split(".")[0] in PROJECT}
    edges = {
        m: sorted(graph.find_modules_directly_imported_by(m) & modules) for m in modules
    }
    assert import_cycles(edges) == []


# --- The staff screens: one app on top, one package a role (staff/) -----------------

STAFF_ROLES = ("cage", "floor", "manager", "auditor")
# A template of the staff screens named in code: "staff/…html" or an f-string.
STAFF_TEMPLATE = re.compile(r"""(?<![\w`])f?["']staff/[\w/{}.-]*(\.html)?["']""")
# The project's error handlers (core.api.errors, named by config.urls' handler404
# and the others) render the staff screens' error pages by name: core may not
# import staff, and an error page is no screen.
STAFF_ERROR_PAGES = "staff/errors/"
# What an admin may add beside its lists and forms: one record's printout or file,
# not a screen (a screen of the night's work belongs in staff/).
ADMIN_RECORD_PAGES = {
    "accounting_shift_report",
    "accounting_receipt_print",
    "reports_report_file",
}


def test_each_role_has_its_package_with_its_urls():
    """The cage's, the floor's, the manager's and the auditor's screens each in
    their package with its urls.py, all composed by staff/urls.py."""
    composed = ast.parse((ROOT / "staff" / "urls.py").read_text())
    imported = {
        f"{node.module}.{alias.name}"
        for node in ast.walk(composed)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    for role in (*STAFF_ROLES, "common"):
        assert (ROOT / "staff" / role / "__init__.py").is_file(), role
        assert (ROOT / "staff" / role / "urls.py").is_file(), role
        assert f"staff.{role}.urls" in imported, role


def test_url_modules_of_the_staff_screens_are_urls_py():
    """A module of the staff screens that lists URLs is a package's urls.py; the
    old addresses are staff.redirects', none left in tournaments/."""
    lists_urls = [
        str(p.relative_to(ROOT))
        for p in sources("staff")
        if re.search(r"^urlpatterns\b", p.read_text(), re.M) and p.name != "urls.py"
    ]
    assert lists_urls == []
    assert not (ROOT / "tournaments" / "cage_urls.py").exists()
    assert not (ROOT / "tournaments" / "floor_urls.py").exists()


def test_no_module_outside_staff_renders_a_staff_screen():
    """No view of another app renders a template of the staff screens, no other
    app's template extends or includes one, and no other app keeps templates
    under staff/: a staff screen lives in staff/ (its error pages aside)."""
    named = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in sources(*(a for a in APPS if a != "staff"), "config")
        for m in STAFF_TEMPLATE.finditer(p.read_text())
        if STAFF_ERROR_PAGES not in m.group(0)
    ]
    assert named == []
    elsewhere = [
        str(t.relative_to(ROOT))
        for app in APPS
        if app != "staff"
        for t in (ROOT / app).rglob("*.html")
        if re.search(r"{%\s*(extends|include)\s+[\"']staff/", t.read_text())
        or "staff" in t.relative_to(ROOT / app).parts[1:2]
    ]
    assert elsewhere == []


def admin_pages(path: Path) -> list[str]:
    """The names of the URLs an admin module's ``get_urls`` adds."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef) and node.name == "get_urls":
            names += [
                str(keyword.value.value)
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
                for keyword in call.keywords
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant)
            ]
            names += ["(unnamed)"] * sum(
                1
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
                and getattr(call.func, "id", "") in {"path", "re_path"}
                and not any(k.arg == "name" for k in call.keywords)
            )
    return names


def test_no_admin_adds_a_screen():
    """The admin keeps the reference data, the configuration and the records;
    its get_urls add no screen, only a record's printout or file (the waiting
    lists' floor page was one: it is the floor's staff screen now)."""
    added = {
        f"{p.relative_to(ROOT)}: {name}"
        for p in sources(*APPS)
        if p.name == "admin.py" or "admin" in p.parts[:-1]
        for name in admin_pages(p)
        if name not in ADMIN_RECORD_PAGES
    }
    assert added == set()


def test_the_admin_check_finds_a_screen_added(tmp_path):
    screen = tmp_path / "admin.py"
    screen.write_text(
        "class A:\n"
        "    def get_urls(self):\n"
        "        return [path('<int:pk>/floor/', self.floor_view, name='x_floor'),\n"
        "                path('other/', self.other)]\n"
    )
    assert admin_pages(screen) == ["x_floor", "(unnamed)"]
    assert STAFF_TEMPLATE.search('return render(request, "staff/floor/home.html")')
    assert STAFF_TEMPLATE.search('loader.get_template(f"staff/{role}/x.html")')
    assert not STAFF_TEMPLATE.search("renders ``staff/errors/*.html`` pages")


# --- Every app's skeleton (docs/architecture.md, "The skeleton of an app") ----------

SKELETON_APPS = (
    "accounting",
    "cardroom",
    "jackpots",
    "waitlist",
    "tournaments",
    "reports",
)
MAX_MODELS_MODULE = 1_000
# Every app with the skeleton keeps its rules pure in a domain package (reports':
# the day's digest, its Merkle tree and proofs, reports/domain/).
NO_DOMAIN: dict[str, str] = {}


def package(path: Path) -> bool:
    return (path / "__init__.py").is_file()


def module_or_package(app: str, name: str) -> bool:
    return (ROOT / app / f"{name}.py").is_file() or package(ROOT / app / name)


@pytest.mark.parametrize("app", SKELETON_APPS)
def test_every_app_has_the_skeleton(app):
    """models (a module, or a package of one module an aggregate), services/ (a
    package), selectors (a module or a package), api/ and domain/ (the rules)."""
    folder = ROOT / app
    assert module_or_package(app, "models"), app
    assert not ((folder / "models.py").is_file() and (folder / "models").is_dir())
    assert package(folder / "services") and not (folder / "services.py").exists()
    assert module_or_package(app, "selectors"), app
    assert not ((folder / "selectors.py").is_file() and (folder / "selectors").is_dir())
    assert package(folder / "api"), app
    if app in NO_DOMAIN:
        assert package(folder / NO_DOMAIN[app]), app
    else:
        assert package(folder / "domain"), app


def test_no_models_module_is_over_1000_lines():
    """A models module past 1,000 lines is split by aggregate into a package."""
    long = {
        str(p.relative_to(ROOT)): n
        for app in SKELETON_APPS
        for p in [
            ROOT / app / "models.py",
            *sorted((ROOT / app / "models").glob("*.py")),
        ]
        if p.is_file() and (n := len(p.read_text().splitlines())) > MAX_MODELS_MODULE
    }
    assert long == {}


def test_accounting_keeps_no_module_beside_its_skeleton():
    """The ledger's and the cage's services are accounting.services' (ledger,
    posting, bulk, cage/), their reads accounting.selectors', the request's
    middleware accounting.middleware: no module at the paths they left. The chart's
    accounts by name (accounting.chart) sit beside the skeleton, as tournaments'."""
    assert (ROOT / "accounting" / "chart.py").exists()
    left = [
        name
        for name in ("services.py", "posting.py", "bulk.py", "selectors.py")
        if (ROOT / "accounting" / name).exists()
    ]
    assert left == []
    assert not (ROOT / "accounting" / "cage").exists()
