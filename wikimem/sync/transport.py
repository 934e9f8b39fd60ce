"""A git command that talks to a remote (fetch, push), bounded in time and cleaned up after.

Contract: `run_bounded(cmd, env, stall=…, total=…, own_group=…)` runs `cmd` and returns its
`CompletedProcess` (text, surrogateescape), or raises `Stalled` when it printed nothing for
`stall` seconds (None: no such limit), or `TimedOut` after `total` seconds. Either way git and
everything it started (the ssh or credential helper a hung transport leaves behind) is
killed before the exception is raised: with `own_group`, the process group git leads; without
it (a command that must keep the terminal, to ask for a passphrase), git's descendants as
`/proc` lists them. Callers pass `--progress` so that a slow transfer keeps printing and only a
transport that hangs is silent.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence

GRACE = 2.0  # seconds between asking politely (SIGTERM) and insisting (SIGKILL)


class TransportTimeout(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class Stalled(TransportTimeout):
    """Nothing came back for `seconds`: a transport that connected and hangs, or never did."""


class TimedOut(TransportTimeout):
    """The command ran past its total limit."""


def run_bounded(
    cmd: Sequence[str],
    env: Mapping[str, str],
    *,
    stall: float | None,
    total: float,
    own_group: bool,
    stdin: int | None = subprocess.DEVNULL,
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(
        list(cmd),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env),
        start_new_session=own_group,
    )
    assert proc.stdout is not None and proc.stderr is not None
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    start = last = time.monotonic()
    with selectors.DefaultSelector() as sel:
        for fh in (proc.stdout, proc.stderr):
            os.set_blocking(fh.fileno(), False)
            sel.register(fh.fileno(), selectors.EVENT_READ)
        try:
            while sel.get_map():
                now = time.monotonic()
                if now - start >= total:
                    raise TimedOut(total)
                if stall is not None and now - last >= stall:
                    raise Stalled(stall)
                wait = total - (now - start)
                if stall is not None:
                    wait = min(wait, stall - (now - last))
                for key, _ in sel.select(max(wait, 0.01)):
                    fd = int(key.fd)
                    try:
                        data = os.read(fd, 65536)
                    except BlockingIOError:
                        continue
                    if not data:
                        sel.unregister(fd)
                        continue
                    chunks[fd].append(data)
                    last = time.monotonic()
            code = proc.wait(timeout=max(total - (time.monotonic() - start), 0.01))
        except (TransportTimeout, subprocess.TimeoutExpired) as exc:
            _kill(proc, own_group)
            if isinstance(exc, subprocess.TimeoutExpired):
                raise TimedOut(total) from None
            raise
        finally:
            proc.stdout.close()
            proc.stderr.close()

    def text(fd: int) -> str:
        return b"".join(chunks[fd]).decode("utf-8", "surrogateescape")

    return subprocess.CompletedProcess(list(cmd), code, text(out_fd), text(err_fd))


def _kill(proc: subprocess.Popen[bytes], own_group: bool) -> None:
    """Git and whatever it started, gone: SIGTERM, then SIGKILL for what is left."""
    targets = [] if own_group else _descendants(proc.pid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if own_group:
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        else:
            for pid in [proc.pid, *targets]:
                try:
                    os.kill(pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
        try:
            proc.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:
            continue
        if own_group and _group_alive(proc.pid):
            continue  # git is gone, its children may not be
        if not own_group and any(_alive(p) for p in targets):
            continue
        return
    try:
        proc.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        pass


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            raw = fh.read()
    except OSError:
        return None
    # the command name, in parentheses, may hold spaces: the fields after it are fixed
    return raw[raw.rfind(")") + 2 :].split()


def _alive(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _descendants(root: int) -> list[int]:
    """Every process below `root` (Linux `/proc`; elsewhere none are found)."""
    try:
        pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return []
    children: dict[int, list[int]] = {}
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None and len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(pid)
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    # a zombie still counts for killpg: look at the members' states where /proc says
    try:
        pids = [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return True
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None and len(fields) > 3 and int(fields[2]) == pgid and _alive(pid):
            return True
    return False
