"""Secrets are replaced by [REDACTED:<kind>] before anything touches disk; ordinary text is not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wikimem.capture.redact import redact, redact_value

# Built at run time so that no secret-shaped literal sits in the repository itself.
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
# (kind, text before, the secret, text after): the secret must vanish, the rest must stay.
CASES = [
    (
        "anthropic_key",
        "export ANTHROPIC_API_KEY=",
        "sk-ant-" + "api03-a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT",
        "",
    ),
    ("openai_key", "key: ", "sk-" + "proj-Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf", " end"),
    ("openai_key", "OPENAI=", "sk-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6", ""),
    ("aws_access_key", "aws_access_key_id = ", "AKIA" + "IOSFODNN7EXAMPLE", ""),
    ("aws_secret_key", "aws_secret_access_key = ", AWS_SECRET, ""),
    ("google_api_key", "maps key ", "AIza" + "SyA1234567890abcdefghijklmnopqrstuv", ""),
    ("google_oauth_token", "token ", "ya29." + "a0AfH6SMBx1234567890abcdefghij", ""),
    (
        "github_token",
        "remote https://x:",
        "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789",
        "@github.com",
    ),
    ("github_token", "GH=", "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnop", ""),
    ("gitlab_token", "", "glpat-" + "abcdefghij1234567890", " used"),
    ("slack_token", "", "xoxb-" + "123456789012-1234567890123-abcdefghijklmnop", ""),
    (
        "slack_webhook",
        "post to ",
        "https://hooks.slack.com/services/" + "T000/B000/XXXXXXXXXXXX",
        "",
    ),
    ("stripe_key", "", "sk_live_" + "abcdefghijklmnop1234", ""),
    ("huggingface_token", "", "hf_" + "abcdefghijklmnopqrstuvwxyz12345678", ""),
    ("sendgrid_key", "", "SG." + "abcdefghijklmnop1234.abcdefghijklmnop1234", ""),
    (
        "npm_token",
        "//registry.npmjs.org/:_authToken=",
        "npm_" + "abcdefghijklmnopqrstuvwxyz0123456789",
        "",
    ),
    (
        "private_key",
        "",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        "\nnext",
    ),
    (
        "private_key",
        "",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA",
        " (cut off, and the rest of the text survives)",
    ),
    (
        "jwt",
        "",
        "eyJhbGciOiJIUzI1NiJ9"
        + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "",
    ),
    ("url_password", "DATABASE=postgres://admin:", "hunter2pass", "@db.example.com:5432/app"),
    ("authorization", "curl -H 'Authorization: Bearer ", "abcdef1234567890abcdef", "'"),
    ("authorization", "Authorization: Basic ", "dXNlcjpwYXNzd29yZA==", ""),
    ("env_secret", "DB_PASSWORD=", "s3cr3tvalue", ""),
    ("env_secret", "export GITHUB_TOKEN='", "abc123def456", "'"),
    ("password_field", '{"password": "', "hunter22", '", "user": "bob"}'),
    ("password_field", "client_secret: '", "Zq8vN3xP", "'"),
    ("config_secret", "services:\n  db:\n    POSTGRES_PASSWORD: ", "Pr0d-DB-s3cret-2026", "\n"),
    ("config_secret", "stripe:\n  webhook_secret: ", "whsec_9fk2Lq8vN3xP", " # rotate monthly"),
    ("config_secret", "[default]\napi_key = ", "abc123def456", ""),
    ("url_password", "curl -u alice:", "p4ssw0rd", " https://api.example.com"),
    ("password", "mysql -u root -p", "S3cretDB", " app"),
    ("password", "machine github.com login bob password ", "t0ps3cret", ""),
    (
        "private_key",
        "tail of a key:\n",
        "MIIEpAIBAAKCAQEAxyzxyzxyz\nq2Vb8mN3xP0aLk9Jf7Hc\n-----END RSA PRIVATE KEY-----",
        "\nafter",
    ),
]


@pytest.mark.parametrize(
    "kind,before,secret,after", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_kind_is_redacted(kind: str, before: str, secret: str, after: str) -> None:
    out, found = redact(before + secret + after)
    assert found == [kind]
    assert out == before + f"[REDACTED:{kind}]" + after


def test_private_key_body_is_gone() -> None:
    out, _ = redact(
        "before\n-----BEGIN EC PRIVATE KEY-----\nSECRETBODY\n-----END EC PRIVATE KEY-----\nafter"
    )
    assert "SECRETBODY" not in out and out.startswith("before") and out.endswith("after")


def test_url_keeps_user_and_host() -> None:
    out, _ = redact("git clone https://alice:" + "p4ssw0rd@git.example.com/repo.git")
    assert out == "git clone https://alice:[REDACTED:url_password]@git.example.com/repo.git"


ORDINARY = [
    "const TOKEN_TTL = 3600;",
    "MAX_TOKENS=4096",
    "api_key = os.environ['OPENAI_API_KEY']",
    "token = get_token(session)",
    "tokenizer = 'porter'",
    "password_hash = bcrypt(pw)",
    "commit 3f2b8c1e7d4a4e9b9c215a6f0d8e4b17a9c3d2e1 and sha256 "
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "session 3f2b8c1e-7d4a-4e9b-9c21-5a6f0d8e4b17 in /home/user/.ssh/known_hosts",
    "def key(self): return self._key  # basic key lookup",
    "We have a basic understanding of bearer authentication here.",
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "export PATH=/usr/local/bin:$PATH",
    "the disk-usage task-manager runs sk-learn",
    "https://github.com/acme/api/pull/42",
    "PASS src/auth.test.ts (3 tests)\nFAIL src/token.test.ts",
    "SECRET_FILE=/run/secrets/db",
    "AUTH_ENABLED=true",
    "api_key = config.api_key",
    "token = self._token",
    "password = get_password()",
    "max_tokens: 4096",
    "secret_name: my-secret-name",
    "Forgot your password? Reset it here.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == (text, [])


def test_secret_named_keys_in_structures() -> None:
    value, found = redact_value(
        {"env": {"GITHUB_TOKEN": "abcd1234zz", "TOKEN_TTL": "900", "HOME": "/root"}}
    )
    assert value == {
        "env": {"GITHUB_TOKEN": "[REDACTED:env_secret]", "TOKEN_TTL": "900", "HOME": "/root"}
    }
    assert found == ["env_secret"]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_redact_never_raises_and_is_idempotent(text: str) -> None:
    once, _ = redact(text)
    assert redact(once)[0] == once


@given(
    st.from_regex(
        r"[0-9a-f]{40}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(/[a-z_.]{1,12}){1,6}",
        fullmatch=True,
    )
)
def test_hashes_uuids_and_paths_pass(text: str) -> None:
    assert redact(text) == (text, [])


def test_the_ids_real_clients_send_are_never_taken_for_keys() -> None:
    """Session, message, part and tool-call ids (OpenCode's `ses_…`, `prt_…`, `call_…`,
    Anthropic's `toolu_…`, UUIDs) look random: a shape rule that redacts them loses the session
    a record belongs to."""
    import json
    from pathlib import Path

    roots = [
        Path(__file__).parent / "fixtures",
        Path(__file__).parents[2] / "shared" / "harness-contracts",
    ]
    ids: set[str] = set()

    def walk(value: object, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key.lower().endswith("id") and len(value) >= 12:
            ids.add(value)

    for root in roots:
        for path in root.rglob("*.json"):
            try:
                walk(json.loads(path.read_text()))
            except (ValueError, UnicodeDecodeError):
                continue
    ids |= {
        "ses_dc877c0d5ffe3YqM67PRzAHyE1",
        "prt_dc8772844ffecF3qQpetgpHwCL",
        "toolu_01A09q90qw90lq917835lq9",
    }
    redacted = {i for i in ids if redact(i)[1]}
    assert not redacted


def test_a_note_read_again_is_redacted_as_the_first_time() -> None:
    from wikimem.capture.redact import redact_note

    key = "AKIA" + "IOSFODNN7EXAMPLF"
    secret = f"- deploy key: {key} is in the vault\n- port 8080\n"
    first = redact_note(secret)
    assert key not in first[0] and first[1]
    first[1].clear()  # what a caller does with its list is its own
    again = redact_note(secret)
    assert again[0] == first[0] and again[1] == redact(secret)[1]
    plain = "- port 8080, tests under tests/unit\n"
    assert redact_note(plain) == (plain, []) == redact_note(plain)
