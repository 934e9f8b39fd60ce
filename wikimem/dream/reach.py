"""Can a model's API be reached at all? Asked once per dream, before the first model call.

Contract: `unreachable(url, timeout)` returns None when a TCP connection to the URL's host and
port opens within `timeout` seconds (name lookup included), else a one-line reason ("no route:
name lookup failed", "connection refused", "no answer within 3 s"). It sends nothing: it opens
the connection and closes it.

Why: the agent CLIs and the SDKs retry a failed connection for a minute or more (Codex CLI and
Gemini CLI keep trying for over two minutes with the network gone), so a dream on a laptop
offline would sit there before it could fall back. A refused or silent host is known in seconds.
"""

from __future__ import annotations

import socket
import threading
from urllib.parse import urlsplit

PROBE_SECONDS = 3.0


def host_port(url: str) -> tuple[str, int] | None:
    """The host and port a base URL points at (None: not a URL with a host)."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    if not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    return parts.hostname, port or (80 if parts.scheme == "http" else 443)


def unreachable(url: str, timeout: float = PROBE_SECONDS) -> str | None:
    where = host_port(url)
    if where is None:
        return f"{url!r} is not a URL with a host"
    host, port = where
    outcome: list[str | None] = []

    def attempt() -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                outcome.append(None)
        except socket.gaierror:
            outcome.append(f"{host}: name lookup failed (no network?)")
        except ConnectionRefusedError:
            outcome.append(f"{host}:{port}: connection refused")
        except TimeoutError:
            outcome.append(f"{host}:{port}: no answer within {timeout:g} s")
        except OSError as exc:
            outcome.append(f"{host}:{port}: {exc.strerror or exc}")

    # Name lookup has no timeout of its own (a dead resolver can take 10 s and more): the
    # attempt runs in a daemon thread and is abandoned at the deadline.
    thread = threading.Thread(target=attempt, name="wikimem-reach", daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    if not outcome:
        return f"{host}: no answer within {timeout:g} s"
    return outcome[0]
