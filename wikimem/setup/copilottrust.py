"""GitHub Copilot CLI folder trust (as seen with the real Copilot CLI 1.0.102).

Copilot CLI runs repository hooks (`<repo>/.github/hooks/*.json`) only in a folder the user
trusts, and skips them silently elsewhere: no warning, exit 0, nothing recorded. User hooks
(`~/.copilot/hooks/*.json`) always run. Trust is the list `"trustedFolders"` in
`$COPILOT_HOME/config.json` (default `~/.copilot/config.json`; settings.json is not read for
it); a folder is trusted when it or a folder above it is listed (seen with the real client).
`--trust-folder` trusts one session's folder, `COPILOT_ALLOW_ALL=true` every folder. Copilot
writes config.json itself and starts it with `//` comment lines, which are kept.

wikimem records trust only with the user's explicit consent (`wikimem install copilot --scope
project --trust`), never for the home directory or `/` (that would trust every folder below);
`wikimem doctor` reports a project whose wikimem hooks Copilot would skip.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from wikimem import boundedfile
from wikimem.setup.geminitrust import refuse_reason, strip_comments

__all__ = [
    "Trust",
    "TrustFileError",
    "config_path",
    "folder_trust",
    "real",
    "refuse_reason",
    "with_trust",
    "without_trust",
]


class TrustFileError(ValueError):
    """config.json cannot be read as Copilot would."""


@dataclass(frozen=True)
class Trust:
    trusted: bool
    why: str


def copilot_home() -> str:
    """Copilot CLI's own folder (`COPILOT_HOME` moves it)."""
    return os.environ.get("COPILOT_HOME") or os.path.join(os.path.expanduser("~"), ".copilot")


def config_path() -> str:
    return os.path.join(copilot_home(), "config.json")


def split_header(text: str) -> tuple[str, str]:
    """(the leading `//` comment lines, the JSON after them)."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and (lines[n].lstrip().startswith("//") or not lines[n].strip()):
        n += 1
    return "".join(lines[:n]), "".join(lines[n:])


def read_config(path: str | None = None) -> tuple[str, dict[str, Any]]:
    """(header comment lines, document) of config.json; an absent file is ({}, "")."""
    path = path or config_path()
    try:
        text = boundedfile.read_text(path)
    except FileNotFoundError:
        return "", {}
    except OSError as exc:
        raise TrustFileError(f"cannot read {path}: {exc.strerror}") from exc
    return read_config_text(text, path)


def read_config_text(text: str, path: str = "config.json") -> tuple[str, dict[str, Any]]:
    """(header comment lines, document) of the text of a config.json."""
    header, body = split_header(text)
    if not body.strip():
        return header, {}
    try:
        doc = json.loads(body)
    except ValueError:
        if strip_comments(body) != body:
            raise TrustFileError(
                f"{path} has comments after its first lines, which rewriting it would lose"
            ) from None
        raise TrustFileError(f"{path} is not valid JSON") from None
    if not isinstance(doc, dict):
        raise TrustFileError(f"{path} does not hold a JSON object")
    return header, doc


def real(path: str) -> str:
    """The absolute, symlink-free path wikimem lists in trustedFolders."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(path)))


_real = real


def folder_trust(folder: str, path: str | None = None) -> Trust:
    """Whether Copilot CLI runs repository hooks in `folder`, by its own rules."""
    if os.environ.get("COPILOT_ALLOW_ALL", "").lower() in ("1", "true"):
        return Trust(True, "COPILOT_ALLOW_ALL is set")
    _, doc = read_config(path)
    folders = doc.get("trustedFolders")
    target = _real(folder)
    for entry in folders if isinstance(folders, list) else []:
        if not isinstance(entry, str) or not entry:
            continue
        trusted = _real(entry)
        if target == trusted or target.startswith(trusted.rstrip(os.sep) + os.sep):
            return Trust(True, f"{entry} is in trustedFolders of {path or config_path()}")
    return Trust(
        False, f"neither it nor a folder above it is in trustedFolders of {path or config_path()}"
    )


def with_trust(text: str, folder: str) -> str:
    """config.json's text with `folder` added to trustedFolders (everything else kept, its
    leading comment lines too)."""
    header, body = split_header(text)
    doc: Any = json.loads(body) if body.strip() else {}
    if not isinstance(doc, dict):
        raise TrustFileError("config.json does not hold a JSON object")
    folders = doc.get("trustedFolders")
    if folders is None:
        folders = []
    if not isinstance(folders, list):
        raise TrustFileError('"trustedFolders" in config.json is not a list')
    target = _real(folder)
    if target not in folders:
        doc["trustedFolders"] = [*folders, target]
    return header + json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def without_trust(text: str, entry: str) -> str | None:
    """config.json's text with the trustedFolders entry wikimem added taken back (an emptied
    list goes too); None when the entry is no longer there."""
    header, doc = read_config_text(text)
    folders = doc.get("trustedFolders")
    if not isinstance(folders, list) or entry not in folders:
        return None
    rest = [f for f in folders if f != entry]
    if rest:
        doc["trustedFolders"] = rest
    else:
        del doc["trustedFolders"]
    return header + json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
