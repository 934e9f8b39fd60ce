"""Running an agent CLI for one dream request, sealed off and bounded in time.

Contract: `run(argv, stdin, cwd, env, timeout)` runs the command in its own session (process
group) with `stdin` as UTF-8 text, and returns (exit status, stdout, stderr) decoded as UTF-8
(the CLIs speak it whatever the locale). Past `timeout` seconds the whole process group is
killed (an npm-installed CLI is a node wrapper around the real binary: killing the wrapper alone
would leave the binary running) and `TimeoutError` is raised; a binary that cannot start raises
`OSError`. `scratch()` is an empty temporary directory to run in, so no project's instructions
or settings reach the model.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from contextlib import AbstractContextManager


def scratch() -> AbstractContextManager[str]:
    return tempfile.TemporaryDirectory(prefix="wikimem-dream-", ignore_cleanup_errors=True)


def run(
    argv: list[str], stdin: str, cwd: str, env: Mapping[str, str], timeout: float
) -> tuple[int, str, str]:
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=dict(env),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise TimeoutError(f"no answer within {timeout:g} s") from None
    except BaseException:
        _kill_group(proc)
        raise
    return (
        proc.returncode,
        out.decode("utf-8", errors="replace"),
        err.decode("utf-8", errors="replace"),
    )


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    try:
        proc.communicate(timeout=5)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        pass
