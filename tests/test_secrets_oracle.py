"""Redaction against the outside oracle: tokens drawn from every rule of gitleaks' default
configuration (tests/corpus/gitleaks_oracle.py). The first run, on the unchanged detector
(04af5e7), is in bench/secrets_oracle.py; these are the figures reached since."""

from __future__ import annotations

import json

from tests.corpus.gitleaks_oracle import ORACLE, RULES, score
from tests.corpus.ordinary import ORDINARY
from wikimem.capture.redact import redact

TOKEN_RULES_CAUGHT = 114  # of 115 (first run: 57)
CONTEXT_RULES_CAUGHT = 80  # of 100 (first run: 80)


def test_the_oracle_data_is_generated_data_with_its_source() -> None:
    assert ORACLE["commit"] and ORACLE["generated_by"] == "bench/gitleaks_tokens.py"
    cats = [r["category"] for r in RULES]
    assert (cats.count("token"), cats.count("context"), len(RULES)) == (115, 100, 222)
    assert all(r["samples"] for r in RULES if r["category"] != "none")
    json.dumps(ORACLE)


def test_the_token_rules_of_the_oracle_are_caught() -> None:
    result = score(redact)
    assert result.caught.get("token", 0) >= TOKEN_RULES_CAUGHT, result.missed.get("token")
    assert result.caught.get("context", 0) >= CONTEXT_RULES_CAUGHT, result.missed.get("context")
    assert [t for _, t in ORDINARY if redact(t)[1]] == []


def test_more_formats_compile_no_pattern_for_an_ordinary_hook_payload() -> None:
    """Each format is looked for by a literal trigger first; on an ordinary PostToolUse (its
    keys include `transcript_path`, which holds the Airtable trigger `pat`, and its folder
    `-home-user-…` the Mailchimp trigger `-us`) no pattern is compiled: the hook's time stays
    what it was."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    code = (
        f"import sys; sys.path[:0] = [{str(repo)!r}, {str(repo / 'bench')!r}]\n"
        "from hook_latency import PAYLOAD\n"
        "from wikimem.capture import redact\n"
        "redact.redact_value(PAYLOAD)\n"
        "assert not redact._compiled, sorted(map(str, redact._compiled))\n"
    )
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
