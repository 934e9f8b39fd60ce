"""Replaying the cases into ONE home and asking the questions.

Everything goes through the installed forms: the hook command `wikimem install` writes
(`python -I -S …/wikimem/hookentry.py <client> --home H`, run in the project's directory with a
payload on stdin), and the `wikimem` command line (`init`, `remember`, `forget`, `dream`), both
this same wikimem. The evaluation reads only what a user could read: the hooks' stdout, memory/
on disk, state/errors.log. The home, the repositories and the HOME the commands see all live
under the work directory the caller gives; nothing else is read or written.

Two liberties, both stated in the report:
  - the hook stamps records with the wall clock; after each scripted day the evaluation rewrites
    the day's new records' `ts` in place (same length, order kept) to that day of a fixed
    calendar, so relative dates have a known anchor and the results do not depend on today;
  - hooks run with `WIKIMEM_TODAY` set to the calendar's day (what a temporary state's end date
    is read against), and with `WIKIMEM_HOOK_DEADLINE=5` so a busy machine cannot cut an injection short and
    change the scores; hooks slower than the default deadline (0.75 s) are counted and reported.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wikimem import gitrun
from wikimem.evaluate.cases import Case, Cli, Session, World
from wikimem.evaluate.clients import CLIENTS, Turn
from wikimem.progress import Progress, quiet

# The directory holding this wikimem package: the commands replayed run this same code.
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DEADLINE = 0.75
_TS = re.compile(rb'(?m)^(\{"v":\d+,"ts":)"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"')


@dataclass
class Answer:
    """What the question's session was given."""

    start: str = ""
    prompt: str = ""

    @property
    def text(self) -> str:
        return "\n".join(t for t in (self.start, self.prompt) if t)


@dataclass
class Run:
    home: str
    slugs: dict[str, str]
    answers: dict[str, Answer] = field(default_factory=dict)
    hook_calls: int = 0
    slow_hooks: int = 0
    hook_seconds: float = 0.0
    dreams: list[dict[str, Any]] = field(default_factory=list)
    cli_errors: list[str] = field(default_factory=list)
    errors_log: list[str] = field(default_factory=list)


def save_run(run: Run, path: Path) -> None:
    data = dict(run.__dict__)
    data["answers"] = {k: a.__dict__ for k, a in run.answers.items()}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))


def load_run(path: Path) -> Run:
    data = json.loads(path.read_text())
    data["answers"] = {k: Answer(**a) for k, a in data["answers"].items()}
    return Run(**data)


def _wikimem_env(work: Path, home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(work / "userhome"),
        "LANG": "C.UTF-8",
        "WIKIMEM_HOME": home,
        "PYTHONPATH": str(PACKAGE_ROOT),
        "GIT_CONFIG_NOSYSTEM": "1",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    if extra:
        env.update(extra)
    return env


class Replayer:
    def __init__(
        self,
        work: Path,
        cases: list[Case],
        dream_args: list[str],
        dream_env: dict[str, str],
        dream_settings: dict[str, str | int] | None = None,
        world: World | None = None,
    ) -> None:
        self.work = work
        self.world = world or World()
        self.cases = cases
        self.dream_args = dream_args
        self.dream_env = dream_env
        self.dream_settings = dream_settings or {}
        self.home = str(work / "home")
        self.repos: dict[str, Path] = {}
        self.counter = 0
        self.run = Run(self.home, {})
        self.today = ""  # the calendar's day being replayed ("" before the first)
        self.progress: Progress = quiet
        self.steps = (0, 0)  # (done, total): sessions and commands replayed, dreams, questions

    def _step(self, what: str) -> None:
        done, total = self.steps
        self.steps = (done + 1, total)
        self.progress(what, done + 1, total)

    # -- setup -----------------------------------------------------------------------------------

    def setup(self) -> None:
        for p in self.world.projects:
            self.add_project(p.key, p.directory, p.remote)
        self.init_home()

    def add_project(self, key: str, directory: str, remote: str | None = None) -> Path:
        """A git repository under the work directory, known as `key` to the other methods."""
        from wikimem.capture.project import project_slug

        repo = self.work / "repos" / directory
        repo.mkdir(parents=True, exist_ok=True)
        made = [gitrun.run(str(repo), "init", "-q")]
        if remote:
            made.append(gitrun.run(str(repo), "remote", "add", "origin", remote))
        for proc in made:
            if proc.returncode != 0:
                raise RuntimeError(f"git in {repo}: {proc.stderr.decode(errors='replace')}")
        self.repos[key] = repo
        self.run.slugs[key] = project_slug(str(repo))
        return repo

    def init_home(self) -> None:
        """`wikimem init` the home, with the automatic dream off (the replay dreams itself)."""
        (self.work / "userhome").mkdir(parents=True, exist_ok=True)
        self.cli(None, ["init", "--home", self.home])
        config = Path(self.home) / "config.toml"
        text = config.read_text() if config.exists() else ""
        if re.search(r"(?m)^# auto = true.*$", text):
            text = re.sub(r"(?m)^# auto = true.*$", "auto = false", text, count=1)
        else:
            text = "[dream]\nauto = false\n"
        if self.dream_settings:
            # json.dumps writes a string as a valid TOML basic string
            lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in self.dream_settings.items())
            text = text.replace("[dream]\n", "[dream]\n" + lines, 1)
        config.write_text(text)

    def fill(self, text: str) -> str:
        return re.sub(r"\{\{(\w+)\}\}", lambda m: self.run.slugs[m.group(1)], text)

    # -- the installed commands ----------------------------------------------------------------

    def cli(
        self, project: str | None, args: list[str], extra_env: dict[str, str] | None = None
    ) -> str:
        cwd = self.repos[project] if project else self.work
        proc = subprocess.run(
            [sys.executable, "-m", "wikimem", *args],
            cwd=cwd,
            env=_wikimem_env(self.work, self.home, extra_env),
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            self.run.cli_errors.append(
                f"wikimem {' '.join(args)} (exit {proc.returncode}): {proc.stderr.strip()[-500:]}"
            )
        return proc.stdout

    def hook(self, client: str, project: str, payload: dict[str, Any]) -> str:
        from wikimem.home import Home
        from wikimem.setup.install import hook_command

        command = shlex.split(hook_command(client, Home(self.home)))
        extra = {"WIKIMEM_HOOK_DEADLINE": "5"}
        if self.today:
            extra["WIKIMEM_TODAY"] = self.today  # what injection takes as today: the calendar's
        env = _wikimem_env(self.work, self.home, extra)
        env.pop("WIKIMEM_HOME")  # the installed command names its home itself
        start = time.perf_counter()
        proc = subprocess.run(
            command,
            input=json.dumps(payload).encode(),
            capture_output=True,
            cwd=self.repos[project],
            env=env,
            timeout=30,
        )
        took = time.perf_counter() - start
        self.run.hook_calls += 1
        self.run.hook_seconds += took
        self.run.slow_hooks += took > DEFAULT_DEADLINE
        if proc.returncode != 0:
            raise RuntimeError(f"hook {client} exited {proc.returncode}: {proc.stderr[-300:]!r}")
        return proc.stdout.decode("utf-8", "replace")

    def next_id(self, client: str) -> str:
        self.counter += 1
        return CLIENTS[client].session_id(self.counter)

    # -- days --------------------------------------------------------------------------------------

    def replay_turns(self, client: str, project: str, turns: Sequence[Turn]) -> None:
        """One whole session of `client` in `project` through the hook."""
        spec = CLIENTS[client]
        for payload in spec.session(self.next_id(client), str(self.repos[project]), turns):
            self.hook(client, project, payload)

    def replay_session(self, s: Session) -> None:
        turns = [Turn(self.fill(t.prompt), t.steps, t.answer, t.model) for t in s.turns]
        self.replay_turns(s.client, s.project, turns)

    def open_session(self, client: str, project: str, prompt: str) -> Answer:
        """A new session whose first prompt is `prompt`: what session start and the prompt
        hook gave the agent."""
        spec = CLIENTS[client]
        payloads = spec.opening(self.next_id(client), str(self.repos[project]), prompt)
        answer = Answer()
        answer.start = spec.injected(self.hook(client, project, payloads[0]))
        out = self.hook(client, project, payloads[1])
        answer.prompt = spec.injected(out) if spec.prompt_injects else ""
        return answer

    def dream(self, day: str) -> dict[str, Any]:
        """`wikimem dream --json` with the replay's backend; its result is kept in the run."""
        out = self.cli(None, ["dream", "--json", *self.dream_args], self.dream_env)
        try:
            result = json.loads(out) if out.strip() else {}
        except ValueError:
            result = {"unparsed": out[-500:]}
        result["day"] = day
        self.run.dreams.append(result)
        return result

    @contextmanager
    def dated(self, day: str) -> Iterator[None]:
        """The records the hooks append inside the block are re-dated to `day` after it."""
        before = self._event_sizes()
        self.today = day
        yield
        self._redate(before, day)

    def day(self, day: int) -> None:
        when = self.world.days[day]
        with self.dated(when):
            for case in self.cases:
                for item in case.history:
                    if item.day != day:
                        continue
                    if isinstance(item, Session):
                        self.replay_session(item)
                    elif isinstance(item, Cli):
                        self.cli(item.project, [self.fill(a) for a in item.args])
                    self._step(f"replaying day {day} ({when}): sessions and commands")
        self.progress(f"dreaming day {day} ({when})", *self.steps)
        self.dream(when)
        self._step(f"dreaming day {day} ({when})")

    def ask(self) -> None:
        with self.dated(self.world.question_day):
            for case in self.cases:
                q = case.query
                self.run.answers[case.id] = self.open_session(
                    q.client, q.project, self.fill(q.prompt)
                )
                self._step("asking the questions")

    def finish(self) -> Run:
        """The run, with the home's error log read in."""
        errors = Path(self.home) / "state" / "errors.log"
        if errors.exists():
            self.run.errors_log = errors.read_text(errors="replace").splitlines()
        return self.run

    def replay(self, progress: Progress = quiet) -> Run:
        """Replay every case's history day by day, a dream after each day, then ask; `progress`
        counts the steps (each session or command replayed, each dream, each question)."""
        self.progress = progress
        progress("setting up the repositories", 0, None)
        self.setup()
        days = sorted({item.day for c in self.cases for item in c.history})
        items = sum(len(c.history) for c in self.cases)
        self.steps = (0, items + len(days) + len(self.cases))
        for d in days:
            self.day(d)
        self.ask()
        return self.finish()

    # -- the calendar ------------------------------------------------------------------------------

    def _event_sizes(self) -> dict[str, int]:
        events = Path(self.home) / "events"
        if not events.is_dir():
            return {}
        return {p.name: p.stat().st_size for p in events.glob("*.jsonl")}

    def _redate(self, before: dict[str, int], day: str) -> None:
        """Give the records appended since `before` timestamps on `day`, one second apart, in
        their append order (same length: byte offsets, and so the watermark, stay valid)."""
        events = Path(self.home) / "events"
        seconds = 9 * 3600
        for path in sorted(events.glob("*.jsonl")):
            start = before.get(path.name, 0)
            with open(path, "r+b") as fh:
                fh.seek(start)
                data = fh.read()

                def stamp(m: re.Match[bytes]) -> bytes:
                    nonlocal seconds
                    h, rest = divmod(seconds, 3600)
                    mi, s = divmod(rest, 60)
                    seconds += 1
                    return m.group(1) + f'"{day}T{h:02d}:{mi:02d}:{s:02d}.000000Z"'.encode()

                new, found = _TS.subn(stamp, data)
                records = data.count(b"\n")
                if found != records or len(new) != len(data):
                    raise RuntimeError(
                        f"cannot re-date {path.name}: {found} timestamps in {records} records "
                        "(has the record format changed?)"
                    )
                fh.seek(start)
                fh.write(new)
