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
