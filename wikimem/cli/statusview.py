"""`wikimem status` for a person: what the home holds, as plain aligned text.

Contract: `render(info)` is the text `wikimem status` prints: the home's rows (`what  value`,
values of several lines indented under the first), then the ten most recent sessions as
columns. Plain text on purpose: it is what a person greps or pastes into an issue, and it costs
no import (rich's console alone would double `status`'s start-up; `bench/cli_startup.py`). The
typer verb and the quick path (`wikimem.cli.quick`) both print this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wikimem.status import Status


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def render(info: Status) -> str:
    by_client = ", ".join(f"{c}: {n}" for c, n in sorted(info.events_by_client.items())) or "none"
    rows: list[tuple[str, str]] = [
        (
            "home",
            info.home + ("" if info.initialised else "  (not initialised: run `wikimem init`)"),
        ),
        ("events", f"{info.events_total} ({by_client})"),
        ("sessions", str(len(info.sessions))),
        ("on disk", ", ".join(f"{k} {human_size(v)}" for k, v in info.disk_bytes.items())),
        *((key, str(value)) for key, value in info.extra.items()),
        ("hooks", "\n".join(f"{h.client} ({h.scope}): {h.path}" for h in info.hooks) or "none"),
    ]
    if info.errors_logged:
        rows.append(("errors", f"{info.errors_logged} lines in state/errors.log"))
    width = max(len(key) for key, _ in rows)
    out = [f"wikimem — {info.home}"]
    for key, value in rows:
        first, *rest = value.split("\n")
        out.append(f"  {key:<{width}}  {first}")
        out.extend(f"  {'':<{width}}  {line}" for line in rest)
    if info.sessions:
        out += ["", "recent sessions"]
        head = ("client", "session", "project", "events", "last event")
        cells = [head] + [
            (s.client, s.session[:12], s.project, str(s.events), s.last)
            for s in info.sessions[-10:]
        ]
        widths = [max(len(row[i]) for row in cells) for i in range(len(head))]
        for row in cells:
            out.append(
                "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            )
    return "\n".join(out) + "\n"
