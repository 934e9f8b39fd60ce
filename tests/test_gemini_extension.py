"""The Gemini CLI extension (integrations/gemini): a manifest Gemini accepts, hooks that match
what `wikimem install gemini` wires, and the repository's hooks/wikimem-hook behind them.

It lives in its own folder because Gemini reads an extension's hooks from exactly
`<extension>/hooks/hooks.json`, while the repository root's hooks/hooks.json belongs to the
Claude Code plugin (a different format)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

from tests.conftest import REPO
from wikimem.setup.wiring import GEMINI_HOOK_NAME, WIRING

EXTENSION = REPO / "integrations" / "gemini"


def test_manifest_shape() -> None:
    manifest = json.loads((EXTENSION / "gemini-extension.json").read_text())
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert manifest["name"] == "wikimem" and manifest["version"] == version
    # the wrapper runs the installed `wikimem mcp` (as the Claude Code plugin's .mcp.json does)
    assert manifest["mcpServers"] == {
        "wikimem": {"command": "${extensionPath}/hooks/wikimem-hook", "args": ["mcp"]}
    }
    from wikimem.setup.mcpconfig import is_ours

    assert is_ours(manifest["mcpServers"]["wikimem"])
    assert set(manifest) <= {"name", "version", "description", "mcpServers", "contextFileName"}


def test_hooks_match_what_install_wires() -> None:
    doc = json.loads((EXTENSION / "hooks" / "hooks.json").read_text())
    assert set(doc) == {"hooks"}
    wired = {e: (m, t * 1000) for e, m, t in WIRING["gemini"]}
    assert set(doc["hooks"]) == set(wired)
    for event, [group] in doc["hooks"].items():
        matcher, timeout = wired[event]
        assert group.get("matcher") == matcher
        [handler] = group["hooks"]
        assert handler == {
            "name": GEMINI_HOOK_NAME,
            "type": "command",
            # Gemini fills in ${extensionPath} when it loads the extension
            "command": '"${extensionPath}/hooks/wikimem-hook" gemini',
            "timeout": timeout,
        }


def test_the_wrapper_is_the_repositorys() -> None:
    wrapper = EXTENSION / "hooks" / "wikimem-hook"
    # a link, not a copy: one wrapper to maintain. `gemini extensions link` uses it in place;
    # `gemini extensions install <dir>` copies it as an absolute link into this checkout.
    assert wrapper.is_symlink() and not os.path.isabs(os.readlink(wrapper))
    assert wrapper.resolve() == (REPO / "hooks" / "wikimem-hook").resolve()
    assert os.access(wrapper, os.X_OK)


def test_repository_root_is_not_a_gemini_extension() -> None:
    # Gemini would read the root hooks/hooks.json (Claude Code's) as its own
    assert not (REPO / "gemini-extension.json").exists()
    assert Path(EXTENSION / "README.md").exists()
