"""`wikimem doctor`'s checks for Gemini CLI: is the project folder trusted, are hooks on?

Gemini CLI runs no hook in a folder it does not trust (user-scope hooks included), and
`hooksConfig.enabled: false` or a `hooksConfig.disabled` entry naming our hooks switches them off
without a word. Each problem comes with its one-line fix; nothing is changed.
"""

from __future__ import annotations

import json
import os

from wikimem import boundedfile
from wikimem.checks import Check
from wikimem.harness import is_wikimem_command
from wikimem.setup import geminitrust
from wikimem.setup.wiring import GEMINI_HOOK_NAME, config_path


def _settings(path: str, within: str | None = None) -> dict[str, object]:
    try:
        doc = json.loads(geminitrust.strip_comments(boundedfile.read_text(path, within=within)))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def extension_dir() -> str | None:
    """Where Gemini CLI keeps the wikimem extension, when it is installed or linked."""
    path = os.path.join(geminitrust.gemini_dir(), "extensions", "wikimem")
    markers = ("gemini-extension.json", ".gemini-extension-install.json")
    return path if any(os.path.exists(os.path.join(path, m)) for m in markers) else None


def gemini_checks(project_dir: str | None, wired: bool) -> list[Check]:
    """Nothing when wikimem reaches Gemini neither through settings (`wired`) nor the extension."""
    extension = extension_dir()
    if not wired and extension is None:
        return []
    folder = os.path.abspath(project_dir or os.getcwd())
    user_path = geminitrust.user_settings_path()
    user = _settings(user_path)
    out = []
    if extension is not None:
        both = "; with `wikimem install gemini` too, each event is still recorded once"
        out.append(
            Check(
                "gemini",
                "info" if wired else "ok",
                f"the wikimem Gemini CLI extension is installed ({extension}){both if wired else ''}",
            )
        )
    paths = [user_path]
    if project_dir is not None:
        paths.append(config_path("gemini", "project", project_dir))
    for path in dict.fromkeys(paths):
        doc = user if path == user_path else _settings(path, folder)
        cfg = doc.get("hooksConfig")
        if not isinstance(cfg, dict):
            continue
        if cfg.get("enabled") is False:
            out.append(
                Check(
                    "gemini",
                    "fail",
                    f'{path} sets "hooksConfig.enabled": false; Gemini CLI runs no hook',
                    f"remove hooksConfig.enabled from {path}",
                )
            )
        disabled = cfg.get("disabled")
        if isinstance(disabled, list) and any(
            d == GEMINI_HOOK_NAME or is_wikimem_command(d, "gemini") for d in disabled
        ):
            out.append(
                Check(
                    "gemini",
                    "fail",
                    f"{path} lists wikimem's hooks in hooksConfig.disabled",
                    "enable them in Gemini's /hooks panel, or remove the entry",
                )
            )
    if geminitrust.refuse_reason(folder) is not None:
        return [
            *out,
            Check(
                "gemini trust",
                "info",
                f"Gemini CLI trusts folders one by one; run `wikimem doctor` in a project "
                f"(not {folder}) to check one",
            ),
        ]
    try:
        trust = geminitrust.folder_trust(folder, user)
    except geminitrust.TrustFileError as exc:
        return [*out, Check("gemini trust", "fail", str(exc), "fix it; Gemini refuses it too")]
    if trust.trusted:
        out.append(Check("gemini trust", "ok", f"Gemini CLI trusts {folder} ({trust.why})"))
    else:
        fix = (
            "open Gemini CLI there and trust the folder when it asks, or run "
            f"`wikimem install gemini --trust --project-dir {folder}`"
        )
        out.append(
            Check(
                "gemini trust",
                "fail",
                f"Gemini CLI runs no hooks in {folder}: the folder is not trusted ({trust.why}); "
                "nothing is recorded or injected there",
                fix,
            )
        )
    return out
