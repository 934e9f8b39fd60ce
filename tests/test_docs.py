"""The documentation keeps up with the code: every setting is in the configuration reference,
and every page the README and docs/ link to exists."""

from __future__ import annotations

import re

from tests.conftest import REPO
from wikimem.rawconfig import DEFAULTS


def test_every_config_key_is_documented() -> None:
    reference = (REPO / "docs" / "configuration.md").read_text()
    for table, keys in DEFAULTS.items():
        assert f"## `[{table}]`" in reference, table
        for key in keys:
            documented = f"`{key}`" in reference or f"`[[{table}.{key}]]`" in reference
            assert documented, f"[{table}] {key} is missing from docs/configuration.md"


def test_links_between_pages_resolve() -> None:
    # a page another engineer writes in parallel (Gemini CLI) is linked before it lands
    pending = {"harness-gemini.md"}
    for page in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+\.md)\)", page.read_text()):
            if target.rsplit("/", 1)[-1] in pending:
                continue
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
