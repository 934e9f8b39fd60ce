"""The dependency policy (docs/dependencies.md) holds: every dependency has a lower bound,
constraints/lowest.txt pins each one to exactly that bound (so `WIKIMEM_DEPS=lowest` tests what
pyproject.toml promises), and constraints/locked.txt pins each one to a version the bounds allow.

A dependency added to pyproject.toml without its lowest pin and a refreshed lock fails here, in
the README's test command, rather than silently going untested.
"""

from __future__ import annotations

import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.conftest import REPO

CONSTRAINTS = REPO / "constraints"


def direct_requirements() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        specs += extra
    return [Requirement(s) for s in specs]


def pins(name: str) -> dict[str, Version]:
    """`name==version` lines of a constraints file, by canonical name (comments skipped)."""
    out: dict[str, Version] = {}
    for raw in (CONSTRAINTS / name).read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        req = Requirement(line)
        [spec] = list(req.specifier)
        assert spec.operator == "==", f"{name}: {line!r} is not an exact pin"
        out[canonicalize_name(req.name)] = Version(spec.version)
    return out


def lower_bound(req: Requirement) -> Version | None:
    bounds = [Version(s.version) for s in req.specifier if s.operator in (">=", "==", "~=")]
    return max(bounds) if bounds else None


def test_every_direct_dependency_has_a_lower_bound_that_lowest_txt_pins() -> None:
    lowest = pins("lowest.txt")
    expected = {}
    for req in direct_requirements():
        bound = lower_bound(req)
        assert bound is not None, f"{req} has no lower bound (docs/dependencies.md)"
        expected[canonicalize_name(req.name)] = bound
    assert lowest == expected, (
        "constraints/lowest.txt must pin every direct dependency to its lower bound in "
        "pyproject.toml, and nothing else"
    )


def test_the_lock_pins_every_direct_dependency_within_its_bounds() -> None:
    locked = pins("locked.txt")
    for req in direct_requirements():
        name = canonicalize_name(req.name)
        assert name in locked, (
            f"{req.name} is not in constraints/locked.txt: refresh the lock (docs/dependencies.md)"
        )
        assert req.specifier.contains(locked[name], prereleases=True), (
            f"constraints/locked.txt pins {req.name}=={locked[name]}, outside {req.specifier}"
        )


def test_every_upper_bound_or_exclusion_is_explained_in_the_docs() -> None:
    doc = (REPO / "docs" / "dependencies.md").read_text(encoding="utf-8")
    for req in direct_requirements():
        if any(s.operator in ("<", "<=", "!=", "~=") for s in req.specifier):
            assert f"`{req.name}" in doc, f"{req} caps a version: say why in docs/dependencies.md"
