"""``tournaments.services`` names every public service of its modules."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import tournaments.services as services


def test_every_public_service_is_named_by_the_package():
    """A use case added in a module is reached as ``tournaments.services.<name>``."""
    missing = []
    for module in pkgutil.iter_modules(services.__path__):
        if module.name.startswith("_"):
            continue
        found = importlib.import_module(f"tournaments.services.{module.name}")
        for name, value in vars(found).items():
            if (
                inspect.isfunction(value)
                and value.__module__ == found.__name__
                and not name.startswith("_")
                and name not in services.__all__
            ):
                missing.append(f"{module.name}.{name}")
    assert not missing
    assert all(hasattr(services, name) for name in services.__all__)
