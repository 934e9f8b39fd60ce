"""Gemini CLI folder trust (as seen with the real Gemini CLI 0.61.0).

Gemini runs hooks — user-scope ones too — only in a trusted folder, and `gemini -p` in an
untrusted one exits 55. Trust lives in `~/.gemini/trustedFolders.json` (`GEMINI_CLI_HOME`
moves `~`, `GEMINI_CLI_TRUSTED_FOLDERS_PATH` moves the file): `{"<abs dir>": "TRUST_FOLDER" |
"TRUST_PARENT" | "DO_NOT_TRUST"}`. The rule with the longest path that contains the folder
wins (TRUST_PARENT stands for the rule path's parent); no rule means not trusted yet (the
interactive CLI asks). `GEMINI_CLI_TRUST_WORKSPACE=true|false` overrides everything, and
`security.folderTrust.enabled: false` in settings turns the check off.

wikimem records trust only with the user's explicit consent (`wikimem install gemini --trust`),
never for the home directory or `/` (that would trust every folder under it), and `wikimem
doctor` says when the project folder is not trusted.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

from wikimem import boundedfile

TRUST_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


class TrustFileError(ValueError):
    """trustedFolders.json cannot be read as Gemini would."""


@dataclass(frozen=True)
class Trust:
    trusted: bool | None  # None: no rule (Gemini asks in interactive mode, -p exits 55)
    why: str


def gemini_home() -> str:
    """The directory holding `.gemini/` (Gemini's own notion of home)."""
    return os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~")


def gemini_dir() -> str:
    return os.path.join(gemini_home(), ".gemini")


def user_settings_path() -> str:
    return os.path.join(gemini_dir(), "settings.json")


def trusted_folders_path() -> str:
    return os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(
        gemini_dir(), "trustedFolders.json"
    )


_COMMENTS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)


def strip_comments(text: str) -> str:
    """JSON with // and /* */ comments (which Gemini accepts in its files) as plain JSON."""
    return _COMMENTS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)


def has_comments(text: str) -> bool:
    return strip_comments(text) != text


def read_rules(path: str | None = None) -> dict[str, str]:
    """The trust rules, as Gemini reads them (comments allowed; invalid file: TrustFileError)."""
    path = path or trusted_folders_path()
    try:
        text = boundedfile.read_text(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise TrustFileError(f"cannot read {path}: {exc.strerror}") from exc
    return read_rules_text(text, path)


def read_rules_text(text: str, path: str = "trustedFolders.json") -> dict[str, str]:
    """The trust rules in the text of a trustedFolders.json (invalid: TrustFileError)."""
    if not text.strip():
        return {}
    try:
        data = json.loads(strip_comments(text))
    except ValueError as exc:
        raise TrustFileError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise TrustFileError(f"{path} does not hold a JSON object")
    bad = [k for k, v in data.items() if v not in TRUST_LEVELS]
    if bad:
        raise TrustFileError(f"{path}: invalid trust level for {bad[0]!r}")
    return {str(k): str(v) for k, v in data.items()}


def real(path: str) -> str:
    """The absolute, symlink-free path Gemini compares rules with (and wikimem records)."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(path)))


_real = real


def _inside(parent: str, child: str) -> bool:
    return child == parent or child.startswith(parent.rstrip(os.sep) + os.sep)


def folder_trust(folder: str, settings: dict[str, Any] | None = None) -> Trust:
    """Whether Gemini CLI treats `folder` as trusted, by its own rules."""
    env = os.environ.get("GEMINI_CLI_TRUST_WORKSPACE")
    if os.environ.get("GEMINI_RESTRICTED_MODE") == "true" or env == "false":
        return Trust(False, "the environment forbids trust (GEMINI_CLI_TRUST_WORKSPACE=false)")
    if env == "true":
        return Trust(True, "GEMINI_CLI_TRUST_WORKSPACE=true")
    security = (settings or {}).get("security")
    folder_trust_cfg = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(folder_trust_cfg, dict) and folder_trust_cfg.get("enabled") is False:
        return Trust(True, "folder trust is turned off in Gemini's settings")
    rules = read_rules()
    target = _real(folder)
    best: tuple[int, str, str] | None = None
    for rule_path, level in rules.items():
        effective = os.path.dirname(rule_path) if level == "TRUST_PARENT" else rule_path
        if _inside(_real(effective), target) and (best is None or len(rule_path) > best[0]):
            best = (len(rule_path), rule_path, level)
    if best is None:
        return Trust(None, f"no rule for it in {trusted_folders_path()}")
    _, rule_path, level = best
    if level == "DO_NOT_TRUST":
        return Trust(False, f"{rule_path} is marked DO_NOT_TRUST in {trusted_folders_path()}")
    return Trust(True, f"{rule_path}: {level}")


def refuse_reason(folder: str) -> str | None:
    """Why trusting `folder` would be too broad (every folder under it would run hooks)."""
    target = _real(folder)
    if target == os.sep or target == _real(os.path.expanduser("~")):
        return (
            f"refusing to trust {target}: that would trust every folder under it; "
            "run from the project or pass --project-dir"
        )
    return None


def with_trust(rules_text: str, folder: str) -> dict[str, Any]:
    """trustedFolders.json's document with `folder` trusted (every other rule kept)."""
    doc: dict[str, Any] = json.loads(strip_comments(rules_text)) if rules_text.strip() else {}
    if not isinstance(doc, dict):
        raise TrustFileError("trustedFolders.json does not hold a JSON object")
    doc[_real(folder)] = "TRUST_FOLDER"
    return doc


def without_trust(rules_text: str, key: str, was: str | None) -> dict[str, Any] | None:
    """trustedFolders.json's document with the TRUST_FOLDER rule wikimem recorded for `key`
    taken back (the rule it replaced, `was`, put back); None when that rule is no longer there
    as wikimem wrote it (someone changed it since: it is theirs now)."""
    doc: Any = json.loads(strip_comments(rules_text)) if rules_text.strip() else {}
    if not isinstance(doc, dict):
        raise TrustFileError("trustedFolders.json does not hold a JSON object")
    if doc.get(key) != "TRUST_FOLDER":
        return None
    if was is None:
        del doc[key]
    else:
        doc[key] = was
    return doc
