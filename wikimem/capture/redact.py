"""Secret redaction: every string bound for disk passes here first.

Contract: `redact(text)` returns the text with each secret replaced by `[REDACTED:<kind>]` and
the kinds found. Covered: API keys of the major model providers and clouds (Anthropic, OpenAI,
AWS, Google, Stripe, Hugging Face, SendGrid, npm, PyPI), GitHub/GitLab/Slack tokens, private key
blocks, JWTs, passwords in URLs, secret-looking assignments (`GITHUB_TOKEN=...` env lines,
`"password": "..."` fields) and bearer/basic authorization headers. Ordinary code, hashes, UUIDs
and paths pass unchanged.

Hook-path module: standard library only. A pattern is compiled lazily, and only when a cheap
literal trigger for it occurs in the text: compiling every regex at each hook start would cost a
large share of the hook's time budget.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

# A name whose value is a secret must END in one of these words, optionally plural
# (GITHUB_TOKEN, db_password, "client_secret"), so TOKEN_TTL, tokenizer or password_hash are
# left alone.
_NAME_ENDINGS = (
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "TOKEN",
    "APIKEY",
    "API_KEY",
    "ACCESSKEY",
    "ACCESS_KEY",
    "PRIVATEKEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
    "AUTHKEY",
    "AUTH_KEY",
    "SESSIONKEY",
    "SESSION_KEY",
    "SECRET_KEY_BASE",
    "DATABASE_URL",
    "DSN",
)
_NAME = r"[A-Za-z0-9_.-]*?(?:" + "|".join(_NAME_ENDINGS) + ")S?"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
# A value worth hiding: 4+ characters, not all digits (MAX_TOKENS=4096), not a boolean.
_VALUE = r"(?![0-9]+\b)(?!(?i:true|false|null|none|yes|no)\b)"

# (kind, literal triggers: the pattern runs only if one occurs, pattern, group of the secret)
# Specific provider formats come before the generic assignment rules.
_RULES: tuple[tuple[str, tuple[str, ...], str, int], ...] = (
    (
        "private_key",
        ("PRIVATE KEY",),
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        0,
    ),
    (
        # the tail of a key whose BEGIN line was cut off before it reached us
        "private_key",
        ("PRIVATE KEY",),
        r"(?:^[A-Za-z0-9+/=]{16,}\r?\n)+-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
        0,
    ),
    ("anthropic_key", ("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_-]{16,}", 0),
    ("openai_key", ("sk-",), r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", 0),
    ("aws_access_key", ("AKIA", "ASIA"), r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0),
    (
        "aws_secret_key",
        ("aws_secret", "AWS_SECRET", "SecretAccessKey", "secret_access_key"),
        r"(?i)(?:aws_secret_access_key|secretaccesskey)[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})",
        1,
    ),
    ("google_api_key", ("AIza",), r"\bAIza[0-9A-Za-z_-]{35}", 0),
    ("google_oauth_token", ("ya29.",), r"\bya29\.[0-9A-Za-z_-]{20,}", 0),
    ("github_token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"\bgh[pousr]_[A-Za-z0-9]{30,}", 0),
    ("github_token", ("github_pat_",), r"\bgithub_pat_[A-Za-z0-9_]{22,}", 0),
    ("gitlab_token", ("glpat-", "gldt-", "glrt-"), r"\bgl(?:pat|dt|rt)-[A-Za-z0-9_-]{20,}", 0),
    ("slack_token", ("xox",), r"\bxox[abposre]-[A-Za-z0-9-]{10,}", 0),
    (
        "slack_webhook",
        ("hooks.slack.com",),
        r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]+",
        0,
    ),
    (
        "stripe_key",
        ("sk_live", "sk_test", "rk_live", "rk_test"),
        r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}",
        0,
    ),
    ("huggingface_token", ("hf_",), r"\bhf_[A-Za-z0-9]{30,}", 0),
    ("sendgrid_key", ("SG.",), r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", 0),
    ("npm_token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    ("pypi_token", ("pypi-",), r"\bpypi-AgE[A-Za-z0-9_-]{50,}", 0),
    ("jwt", ("eyJ",), r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", 0),
    ("url_password", ("://",), r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@'\"]+:([^/\s@'\"]+)@", 1),
    (
        "authorization",
        ("earer", "EARER"),
        r"(?i)\bbearer\s+((?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{16,})",
        1,
    ),
    (
        "authorization",
        ("uthorization", "UTHORIZATION"),
        r"(?i)\bauthorization[\"']?\s*[:=]\s*[\"']?basic\s+([A-Za-z0-9+/=]{8,})",
        1,
    ),
    (
        # Shell and .env style: upper-case name, `=`, an unquoted or quoted value.
        "env_secret",
        ("=",),
        r"(?<![A-Za-z0-9_])(?:export\s+)?"
        + _NAME.replace("a-z", "")
        + r"\s*=\s*([\"']?)"
        + _VALUE
        + r"([^\s\"'`$(){}\[\]<>;,]{4,})\1(?=[\s;,\"'`]|$)",
        2,
    ),
    (
        # YAML, INI, TOML, docker-compose: a line `name: value` or `name = value`, unquoted.
        "config_secret",
        (":", "="),
        r"(?im)^[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?[\"']?"
        + _NAME
        + r"[\"']?[ \t]*[:=][ \t]*"
        + _VALUE
        + r"(?![A-Za-z_]\w*\.[A-Za-z_])([^\s\"'`#$(){}\[\]<>;,]{4,})[ \t]*(?:#.*)?$",
        1,
    ),
    (
        "url_password",
        ("curl", "wget", "http"),
        r"(?i)\b(?:curl|wget|http)\b[^\n]*?\s(?:-u|--user|--http-password=?|--password=?)\s*"
        r"[\"']?(?:[^\s:\"']+:)?([^\s\"']{4,})",
        1,
    ),
    (
        "password",
        ("mysql", "mariadb"),
        r"\b(?:mysql|mysqldump|mariadb)\b[^\n]*?\s-p([^\s-][^\s]{2,})",
        1,
    ),
    (
        "password",
        ("password",),
        r"(?im)^[ \t]*(?:machine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+)?password[ \t]+(\S{4,})[ \t]*$",
        1,
    ),
    (
        # JSON, YAML, TOML and code: any-case name, a quoted value.
        "password_field",
        ("'", '"'),
        r"(?i)(?<![A-Za-z0-9_])[\"']?"
        + _NAME
        + r"[\"']?\s*[:=]\s*([\"'])"
        + _VALUE
        + r"([^\"'\s]{4,})\1",
        2,
    ),
)
_ASSIGNMENT_KINDS = ("env_secret", "config_secret", "password_field")

_compiled: dict[int, re.Pattern[str]] = {}


def _pattern(i: int) -> re.Pattern[str]:
    pat = _compiled.get(i)
    if pat is None:
        import re  # late: importing re costs ~7 ms, and most hook payloads never need it

        pat = _compiled[i] = re.compile(_RULES[i][2], re.MULTILINE)
    return pat


def _assignments(text: str) -> tuple[bool, bool, bool]:
    """Whether `text` may hold (a NAME=value, a `name: value` line, a quoted `name: "value"`)
    whose name ends in a secret word: a scan with str.find, so the regexes run only where they
    can match."""
    upper = text.upper()
    env = field = config = False
    for word in (
        "SECRET",
        "PASSW",
        "PASSPHRASE",
        "TOKEN",
        "KEY",
        "CREDENTIAL",
        "DATABASE_URL",
        "DSN",
    ):
        start = upper.find(word)
        while start != -1:
            i = start + len(word)
            while i < len(upper) and upper[i] in _NAME_CHARS and i - start < 40:
                i += 1
            while i < len(upper) and upper[i] in "\"' \t":
                i += 1
            if i < len(upper) and upper[i] in ":=":
                operator = upper[i]
                i += 1
                while i < len(upper) and upper[i] in " \t":
                    i += 1
                if i < len(upper):
                    quoted = upper[i] in "\"'"
                    field = field or quoted
                    env = env or operator == "="
                    config = config or not quoted
            if env and field and config:
                return True, True, True
            start = upper.find(word, start + 1)
    return env, config, field  # in the order of _ASSIGNMENT_KINDS


def _replacer(kind: str, group: int, found: list[str]) -> Callable[[re.Match[str]], str]:
    mark = f"[REDACTED:{kind}]"

    def sub(m: re.Match[str]) -> str:
        secret = m.group(group)
        if not secret or secret.startswith("[REDACTED:"):
            return m.group(0)
        found.append(kind)
        start, end = m.span(group)
        base = m.start(0)
        whole = m.group(0)
        return whole[: start - base] + mark + whole[end - base :]

    return sub


def redact(text: str) -> tuple[str, list[str]]:
    """(text with secrets replaced, kinds found in order of the rules)."""
    found: list[str] = []
    if len(text) < 8:
        return text, found
    candidates: tuple[bool, bool, bool] | None = None
    for i, (kind, triggers, _, group) in enumerate(_RULES):
        if not any(t in text for t in triggers):
            continue
        if kind in _ASSIGNMENT_KINDS:
            if candidates is None:
                candidates = _assignments(text)
            if not candidates[_ASSIGNMENT_KINDS.index(kind)]:
                continue
        text = _pattern(i).sub(_replacer(kind, group, found), text)
    return text, found


def _secret_key(key: str) -> bool:
    """Whether a dict key names a secret, by the same rule as `_NAME` (no regex needed)."""
    if not key or len(key) > 100 or not all(c in _NAME_CHARS for c in key):
        return False
    upper = key.upper()
    if upper.endswith("S"):
        upper_singular = upper[:-1]
        return any(upper.endswith(w) or upper_singular.endswith(w) for w in _NAME_ENDINGS)
    return any(upper.endswith(w) for w in _NAME_ENDINGS)


def _secret_value(value: str) -> bool:
    return (
        len(value) >= 4
        and not value.isdigit()
        and value.lower() not in ("true", "false", "null", "none", "yes", "no")
        and not value.startswith("[REDACTED:")
    )


def redact_value(value: object) -> tuple[object, list[str]]:
    """Redact every string inside a JSON-like value; a string under a secret-named key is
    replaced whole (`{"GITHUB_TOKEN": "..."}` carries no marker the text rules could see)."""
    found: list[str] = []

    def walk(v: object) -> object:
        if isinstance(v, str):
            out, kinds = redact(v)
            found.extend(kinds)
            return out
        if isinstance(v, dict):
            result: dict[object, object] = {}
            for k, x in v.items():
                if (
                    isinstance(k, str)
                    and isinstance(x, str)
                    and _secret_key(k)
                    and _secret_value(x)
                ):
                    found.append("env_secret")
                    result[k] = "[REDACTED:env_secret]"
                    continue
                result[walk(k) if isinstance(k, str) else k] = walk(x)
            return result
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return walk(value), found
