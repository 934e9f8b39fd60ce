"""Who and which machine wrote a change, as commits say it to everyone sharing the remote.

Contract: `machine_name(config)` is `[sync] machine`, else this host's short name; every gated
commit carries it in a `Wikimem-Machine:` trailer. `person(repo, config)` is the author of the
commits sync makes (merges, exports to a team's remote): the user's own git identity
(`user.name`/`user.email` as git resolves them in memory/), else `[git]` from config.toml.
"""

from __future__ import annotations

import re
import socket

from wikimem import gitrun
from wikimem.config import Config

TRAILER = "Wikimem-Machine"


def machine_name(config: Config) -> str:
    name = config.sync.machine.strip() or socket.gethostname().split(".", 1)[0] or "unknown"
    return re.sub(r"\s+", " ", name)[:80]


def person(repo: str, config: Config) -> tuple[str, str]:
    """(name, email) to author sync's own commits."""
    values = []
    for key in ("user.name", "user.email"):
        try:
            proc = gitrun.run_text(repo, "config", "--get", key)
            values.append(proc.stdout.strip() if proc.returncode == 0 else "")
        except OSError:
            values.append("")
    name, email = values
    if name and email:
        return name, email
    return config.git.author_name, config.git.author_email
