"""A case set written as data: one JSON file with its own repositories, calendar and cases.

Written by someone who need not read Python (the blind sets are written that way). The file
is parsed once, strictly, into the same `Case`s the Python sets build; a mistake is refused
with where it is, never half-read. Format (docs/eval.md has the whole of it):

    {"name": "...", "written": "YYYY-MM-DD",
     "projects": [{"key": "api", "directory": "api", "remote": "git@…" | null}, …],
     "days": {"1": "2026-03-02", …}, "question_day": "2026-03-12",
     "cases": [{"id", "category", "what", "history": [{"session": {"client", "project", "day",
                "turns": [{"prompt", "steps": [{"run", "ok", "output"} | {"edit"}], "answer"}]}}
                | {"cli": {"project", "day", "args": [...]}}],
                "query": {"client", "project", "prompt"},
                "expect", "claims", "old", "foreign", "junk", "keys", "same_line",
                "also_visible"}]}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wikimem.evaluate.cases import Case, Cli, Project, Query, Session, Values, World
from wikimem.evaluate.clients import CLIENTS, Edit, Run, Turn


class SetFileError(ValueError):
    """A case-set file that does not follow the format (the message says where)."""


def load(path: Path) -> tuple[World, list[Case], str]:
    """(its world, its cases, its name) of the case-set file at `path`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SetFileError(f"{path}: {exc}") from exc
    return parse(data, str(path))


def parse(data: Any, where: str = "set") -> tuple[World, list[Case], str]:
    top = _obj(data, where)
    projects = tuple(
        _project(p, f"{where}.projects[{i}]") for i, p in enumerate(_list(top, "projects", where))
    )
    keys = {p.key for p in projects}
    if len(keys) != len(projects):
        raise SetFileError(f"{where}.projects: two repositories share a key")
    days_raw = _obj(top.get("days"), f"{where}.days")
    days: dict[int, str] = {}
    for k, v in days_raw.items():
        if not k.isdigit() or not isinstance(v, str) or not _is_day(v):
            raise SetFileError(f"{where}.days: {k!r}: {v!r} is not a day number and a YYYY-MM-DD")
        days[int(k)] = v
    question_day = _str(top, "question_day", where)
    if not _is_day(question_day) or any(question_day <= d for d in days.values()):
        raise SetFileError(f"{where}.question_day: a YYYY-MM-DD after every day")
    world = World(projects, days, question_day)
    cases = [
        _case(c, f"{where}.cases[{i}]", keys, days)
        for i, c in enumerate(_list(top, "cases", where))
    ]
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise SetFileError(f"{where}.cases: two cases share an id")
    return world, cases, str(top.get("name") or Path(where).stem)


def _case(c: Any, where: str, keys: set[str], days: dict[int, str]) -> Case:
    obj = _obj(c, where)
    history: list[Session | Cli] = []
    for i, item in enumerate(_list(obj, "history", where)):
        at = f"{where}.history[{i}]"
        entry = _obj(item, at)
        if set(entry) == {"session"}:
            history.append(_session(entry["session"], f"{at}.session", keys, days))
        elif set(entry) == {"cli"}:
            cli = _obj(entry["cli"], f"{at}.cli")
            args = cli.get("args")
            if not isinstance(args, list) or not args or not all(isinstance(a, str) for a in args):
                raise SetFileError(f"{at}.cli.args: a non-empty list of strings")
            history.append(Cli(_key(cli, "project", at, keys), _day(cli, at, days), tuple(args)))
        else:
            raise SetFileError(f"{at}: one of {{'session': …}} or {{'cli': …}}")
    q = _obj(obj.get("query"), f"{where}.query")
    query = Query(
        _client(q, f"{where}.query"),
        _key(q, "project", f"{where}.query", keys),
        _str(q, "prompt", f"{where}.query"),
    )
    claims = obj.get("claims")
    also = tuple(_strings(obj, "also_visible", where))
    for k in also:
        if k not in keys:
            raise SetFileError(f"{where}.also_visible: {k!r} is not a repository of the set")
    return Case(
        id=_str(obj, "id", where),
        category=_str(obj, "category", where),
        what=_str(obj, "what", where),
        history=tuple(history),
        query=query,
        expect=_values(obj.get("expect", []), f"{where}.expect"),
        claims=None if claims is None else _values(claims, f"{where}.claims"),
        old=tuple(_strings(obj, "old", where)),
        foreign=tuple(_strings(obj, "foreign", where)),
        junk=tuple(_strings(obj, "junk", where)),
        keys=tuple(_strings(obj, "keys", where)),
        same_line=bool(obj.get("same_line", False)),
        also_visible=also,
    )


def _session(s: Any, where: str, keys: set[str], days: dict[int, str]) -> Session:
    obj = _obj(s, where)
    turns = []
    for i, t in enumerate(_list(obj, "turns", where)):
        at = f"{where}.turns[{i}]"
        turn = _obj(t, at)
        steps: list[Run | Edit] = []
        for j, st in enumerate(turn.get("steps") or []):
            step = _obj(st, f"{at}.steps[{j}]")
            if "run" in step:
                steps.append(
                    Run(
                        _str(step, "run", at),
                        bool(step.get("ok", True)),
                        str(step.get("output") or ""),
                    )
                )
            elif "edit" in step:
                steps.append(Edit(_str(step, "edit", at)))
            else:
                raise SetFileError(f"{at}.steps[{j}]: a {{'run': …}} or an {{'edit': …}}")
        turns.append(
            Turn(_str(turn, "prompt", at), tuple(steps), str(turn.get("answer") or "Done."))
        )
    if not turns:
        raise SetFileError(f"{where}.turns: at least one turn")
    return Session(
        _client(obj, where), _key(obj, "project", where, keys), _day(obj, where, days), tuple(turns)
    )


def _values(v: Any, where: str) -> Values:
    if not isinstance(v, list) or not all(
        isinstance(g, list) and g and all(isinstance(a, str) and a.strip() for a in g) for g in v
    ):
        raise SetFileError(f"{where}: a list of non-empty lists of strings")
    return tuple(tuple(g) for g in v)


def _obj(v: Any, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise SetFileError(f"{where}: an object")
    return v


def _list(obj: dict[str, Any], name: str, where: str) -> list[Any]:
    v = obj.get(name)
    if not isinstance(v, list):
        raise SetFileError(f"{where}.{name}: a list")
    return v


def _str(obj: dict[str, Any], name: str, where: str) -> str:
    v = obj.get(name)
    if not isinstance(v, str) or not v.strip():
        raise SetFileError(f"{where}.{name}: a non-empty string")
    return v


def _strings(obj: dict[str, Any], name: str, where: str) -> list[str]:
    v = obj.get(name, [])
    if not isinstance(v, list) or not all(isinstance(s, str) and s.strip() for s in v):
        raise SetFileError(f"{where}.{name}: a list of non-empty strings")
    return v


def _key(obj: dict[str, Any], name: str, where: str, keys: set[str]) -> str:
    v = _str(obj, name, where)
    if v not in keys:
        raise SetFileError(f"{where}.{name}: {v!r} is not a repository of the set")
    return v


def _client(obj: dict[str, Any], where: str) -> str:
    v = _str(obj, "client", where)
    if v not in CLIENTS:
        raise SetFileError(f"{where}.client: {v!r}, not one of {', '.join(CLIENTS)}")
    return v


def _day(obj: dict[str, Any], where: str, days: dict[int, str]) -> int:
    v = obj.get("day")
    if not isinstance(v, int) or isinstance(v, bool) or v not in days:
        raise SetFileError(f"{where}.day: one of the set's day numbers")
    return v


def _is_day(text: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _project(p: Any, where: str) -> Project:
    obj = _obj(p, where)
    remote = obj.get("remote")
    if remote is not None and (not isinstance(remote, str) or not remote.strip()):
        raise SetFileError(f"{where}.remote: a URL or null")
    directory = _str(obj, "directory", where)
    if "/" in directory or directory.startswith("."):
        raise SetFileError(f"{where}.directory: a plain folder name")
    return Project(_str(obj, "key", where), directory, remote)
