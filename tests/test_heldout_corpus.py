"""The held-out secrets corpus (tests/corpus/heldout_secrets.py) is what it claims to be.

These tests hold the corpus itself, not the detector: it is big enough, reproducible, and held
out (no format shares a name or a prefix with tests/corpus/secrets.py, the corpus the detector
was written beside); every secret sits in its text; no needle holds a character that JSON
escaping would change (the benchmark looks for needles verbatim in JSON-escaped output, so such a
needle would count as caught without being redacted). The detector's figure on this corpus is
measured by bench/secrets_heldout.py and recorded in tests/corpus/HELDOUT_BASELINE.md.
"""

from __future__ import annotations

import importlib
import re

from tests.corpus import heldout_secrets
from tests.corpus.heldout_secrets import HELDOUT_FORMATS, ORDINARY_PROSE, PROSE_SECRETS
from tests.corpus.secrets import SAMPLES

# The prefixes and fixed shapes of the main corpus's formats, read off tests/corpus/secrets.py.
# A held-out secret starting with one of these would be a format the detector was written beside.
CORPUS_SHAPES = [
    r"sk-ant-",
    r"sk-proj-",
    r"sk-svcacct-",
    r"sk-or-v1-",
    r"sk-[A-Za-z0-9]{48}$",
    r"gsk_",
    r"xai-",
    r"pplx-",
    r"r8_",
    r"hf_",
    r"lsv2_",
    r"AKIA",
    r"ASIA",
    r"FwoGZXIvYXdzE",
    r"AIza",
    r"ya29\.",
    r"GOCSPX-",
    r"dop_v1_",
    r"fm2_",
    r"[A-Za-z0-9]{14}\.atlasv1\.",
    r"pul-",
    r"dapi",
    r"sbp_",
    r"pscale_tkn_",
    r"tskey-",
    r"dp\.pt\.",
    r"AGE-SECRET-KEY-1",
    r"ghp_",
    r"gho_",
    r"ghs_",
    r"github_pat_",
    r"glpat-",
    r"glrt-",
    r"glptt-",
    r"npm_",
    r"pypi-",
    r"sntrys_",
    r"PMAK-",
    r"xoxb-",
    r"xoxp-",
    r"xapp-",
    r"https://hooks\.slack\.com/",
    r"https://discord\.com/api/webhooks/",
    r"[MNO][A-Za-z0-9]{25}\.[A-Za-z0-9_-]{6}\.",
    r"\d{10}:AA",
    r"sk_live_",
    r"rk_live_",
    r"sk_test_",
    r"whsec_",
    r"SK[0-9a-f]{32}$",
    r"SG\.",
    r"key-[0-9a-f]{32}",
    r"[0-9a-f]{32}-us\d",
    r"NRAK-",
    r"glsa_",
    r"shpat_",
    r"ATATT",
    r"lin_api_",
    r"ntn_",
    r"sk\.eyJ",
    r"EAAA",
    r"[A-Za-z0-9_-]{11}:APA91b",
    r"hvs\.",
    r"s\.[A-Za-z0-9]{24}$",
    r"hvb\.",
    r"eyJ[A-Za-z0-9_-]*\.eyJ",
    r"django-insecure-",
]


def test_the_corpus_is_big_enough() -> None:
    assert len(HELDOUT_FORMATS) >= 80
    assert len(PROSE_SECRETS) >= 40
    assert len(ORDINARY_PROSE) >= 100
    assert len({f.name for f in HELDOUT_FORMATS}) == len(HELDOUT_FORMATS)
    assert len(set(ORDINARY_PROSE)) == len(ORDINARY_PROSE)


def test_no_format_is_named_like_one_of_the_main_corpus() -> None:
    main = {s.name.lower() for s in SAMPLES}
    assert [f.name for f in HELDOUT_FORMATS if f.name.lower() in main] == []


def test_no_secret_has_a_prefix_of_the_main_corpus() -> None:
    shapes = [re.compile(p) for p in CORPUS_SHAPES]
    clash = [
        (f.name, p.pattern)
        for f in HELDOUT_FORMATS
        for n in f.needles()
        for p in shapes
        if p.match(n)
    ]
    assert clash == []


def test_the_prefix_check_would_catch_a_format_of_the_main_corpus() -> None:
    # The list above must describe the main corpus: every token of it that has a prefix is
    # matched (the rest are passwords, hex, base64 and UUIDs, held out by service instead).
    shapes = [re.compile(p) for p in CORPUS_SHAPES]
    prefixed = [
        "anthropic api key",
        "openai project key",
        "openai legacy key",
        "groq key",
        "github classic token",
        "gitlab personal token",
        "slack bot token",
        "discord bot token",
        "telegram bot token",
        "stripe secret key",
        "twilio api key",
        "sendgrid key",
        "mailchimp key",
        "vault header",
        "jwt",
        "firebase server key",
        "terraform cloud token",
        "age secret key",
    ]
    by_name = {s.name: s for s in SAMPLES}
    assert [n for n in prefixed if not any(p.match(by_name[n].secret) for p in shapes)] == []


def test_every_secret_sits_in_its_text_and_survives_json_escaping_verbatim() -> None:
    for f in HELDOUT_FORMATS:
        for n in (f.secret, *f.parts):
            assert n in f.text, f.name
            assert n.isascii() and n.isprintable() and '"' not in n and "\\" not in n, f.name
        assert f.needles(), f.name
        assert f.source, f.name
    for p in PROSE_SECRETS:
        assert p.secret in p.text
        assert p.secret.isascii() and '"' not in p.secret and "\\" not in p.secret


def test_no_ordinary_sentence_contains_a_prose_secret() -> None:
    secrets = [p.secret for p in PROSE_SECRETS if len(p.secret) >= 6]
    assert [s for s in ORDINARY_PROSE if any(x in s for x in secrets)] == []


def test_the_values_are_reproducible() -> None:
    before = [(f.name, f.secret) for f in HELDOUT_FORMATS]
    again = importlib.reload(heldout_secrets)
    assert [(f.name, f.secret) for f in again.HELDOUT_FORMATS] == before
