"""Configuration as plain data: the defaults, the merge with `config.toml`, and a JSON cache.

Contract: `config.toml` is the user's file; what it omits takes the defaults below.
The hook path reads settings through `load_raw`, which uses `state/config.cache.json` while it
matches config.toml's size and mtime: parsing TOML means importing tomllib, which costs about as
much as the interpreter's own start-up, and the hook has a budget of 1.6x that start-up. The typed
view for everything else is `wikimem.config`.

Hook-path module: standard library only.
"""

from __future__ import annotations

import os

from wikimem import boundedfile
from wikimem.capture import fastjson
from wikimem.errors import WikimemError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from wikimem.home import Home

DEFAULTS: dict[str, dict[str, Any]] = {
    "inject": {"session_start_chars": 8000, "prompt_chars": 3000, "min_score": 0.0},
    "dream": {
        "backend": "auto",
        "model": "",
        "base_url": "",
        "api_key_env": "",
        "auto": True,
        "min_new_events": 50,
        "min_interval_minutes": 180,
        "chunk_chars": 24000,
        "max_tokens": 8192,
        "max_retries": 4,
        "index_chars": 6000,
        "related_notes": 12,
        "notes_chars": 24000,
        "max_calls_per_day": 100,
        "max_tokens_per_day": 2000000,
        "timeout_seconds": 300,
    },
    "events": {"max_output_bytes": 4096, "max_prompt_bytes": 16384, "retention_days": 90},
    "export": {"max_chars": 4000, "project_notes": ["conventions", "commands"]},
    "gate": {
        "secrets": "redact",
        "max_note_bytes": 20000,
        "protected": [],
        "person_notes": "protect",
        "pre_write": [],
        "post_write": [],
        "timeout_seconds": 10,
    },
    "git": {"author_name": "wikimem", "author_email": "wikimem@localhost"},
    "sync": {
        "remote": "",
        "auto": False,
        "share_profile": True,
        "profile_remote": "",
        "machine": "",
    },
}

CACHE_NAME = "config.cache.json"


class ConfigError(WikimemError):
    """config.toml cannot be read or has a value of the wrong type."""


def merge(user: dict[str, Any]) -> dict[str, Any]:
    """DEFAULTS overlaid with the user's tables; unknown keys and wrong types are refused."""
    out: dict[str, Any] = {}
    for table, defaults in DEFAULTS.items():
        given = user.get(table, {})
        if not isinstance(given, dict):
            raise ConfigError(f"[{table}] must be a table")
        section = dict(defaults)
        for key, value in given.items():
            if key not in defaults:
                raise ConfigError(f"[{table}] has no setting {key!r}")
            expected = type(defaults[key])
            ok = isinstance(value, expected) or (expected is float and isinstance(value, int))
            if expected is int and isinstance(value, bool):
                ok = False
            if not ok:
                raise ConfigError(
                    f"[{table}] {key} must be {expected.__name__}, not {type(value).__name__}"
                )
            section[key] = value
        out[table] = section
    for table, value in user.items():
        if table not in out:
            out[table] = value
    return out


def parse_toml(path: str) -> dict[str, Any]:
    """config.toml merged over the defaults; a missing file means all defaults."""
    try:
        data = boundedfile.read_bytes(path)
    except FileNotFoundError:
        return merge({})
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from exc
    import tomllib  # deliberately late: expensive, and the hook usually hits the cache

    try:
        user = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from exc
    return merge(user)


def _stamp(path: str) -> list[int]:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return [0, 0]
    return [st.st_mtime_ns, st.st_size]


def load_raw(home: Home, *, write_cache: bool = True) -> dict[str, Any]:
    """The merged settings, through the cache when it is fresh."""
    cache_path = home.state(CACHE_NAME)
    stamp = _stamp(home.config_path)
    try:
        cached = fastjson.loads(boundedfile.read_text(cache_path))
        if cached.get("stamp") == stamp and isinstance(cached.get("config"), dict):
            config: dict[str, Any] = cached["config"]
            return config
    except (OSError, ValueError):
        pass
    config = parse_toml(home.config_path)
    if write_cache:
        _write_cache(cache_path, stamp, config)
    return config


def _write_cache(cache_path: str, stamp: list[int], config: dict[str, Any]) -> None:
    try:
        # TOML has dates and times, JSON does not: such a config (in a table of the user's own)
        # is simply not cached, and parsed each time instead.
        text = fastjson.dumps({"stamp": stamp, "config": config})
    except (TypeError, ValueError):
        return
    tmp = f"{cache_path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, cache_path)
    except BaseException as exc:  # the hook's alarm included: no temp file is left behind
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not isinstance(exc, OSError):
            raise
