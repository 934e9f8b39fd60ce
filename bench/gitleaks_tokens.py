"""Generate tokens for every rule of gitleaks' default configuration: the outside oracle for
wikimem's secret redaction.

gitleaks (github.com/gitleaks/gitleaks) keeps its default rules in `config/gitleaks.toml`: one
regular expression per token format. This script reads that file (its path is the argument, so
CI never needs the network), and for every rule draws tokens that match the rule's expression,
from a fixed seed, and writes them to a data file: no code or expression of gitleaks is copied
into this repository, only tokens generated from it. bench/secrets_oracle.py scores redaction on
them, in several surroundings.

Each rule is put in one category:
- `token`: the expression describes the token itself (a prefix, a fixed structure): the
  detector should know it wherever it stands, bare in prose included;
- `context`: the value is known only by a vendor's name beside it (`adafruit … = <32 chars>`):
  scored as such a name would set it;
- `syntax`: the value is known by the syntax of a tool (`curl -u`, a NuGet config, a Kubernetes
  Secret): scored in the line the expression matches;
- `generic`: the generic API-key heuristic; `none`: the rule has no expression (a file name).

Tokens are drawn by walking the parsed expression with a seeded random source (uniform choices
inside each character class, repeat counts near the minimum), kept only when they match the
rule's own expression, reach its entropy threshold and are not on its allowlist; a character
class under `(?i)` draws mixed case for one sample in three, as real tokens of such formats
are. Go's syntax is translated where Python's differs (`(?i)` inside an expression, `[:alnum:]`,
`\\z`).

Regenerate (the oracle's commit is recorded in the data file):

    git clone https://github.com/gitleaks/gitleaks /tmp/gitleaks   # or any checkout
    python bench/gitleaks_tokens.py /tmp/gitleaks/config/gitleaks.toml \\
        --commit "$(git -C /tmp/gitleaks rev-parse HEAD)"
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tomllib
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as c
    import sre_parse

OUT = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "gitleaks_tokens.json"
SAMPLES = 3
SEED = 20261205
ASSIGNMENT = r"(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)"  # how gitleaks' keyword rules spell "is set to"
GENERIC = {"generic-api-key"}
# Rules whose expression describes a tool's syntax around the secret, not the secret.
SYNTAX = {
    "curl-auth-header",
    "curl-auth-user",
    "kubernetes-secret-yaml",
    "nuget-config-password",
    "freemius-secret-key",
}
TYPICAL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def translate(go: str) -> str:
    """A Go (RE2) expression as Python reads it."""
    py = go.replace("[[:alnum:]]", "[a-zA-Z0-9]").replace("[:alnum:]", "a-zA-Z0-9")
    py = py.replace(r"\z", r"\Z")
    # `(?i)` after the start applies to the rest of its group in Go; Python wants it scoped.
    while True:
        at = py.find("(?i)", 1)
        if at == -1:
            return py
        depth, i, in_class = 0, at + 4, False
        while i < len(py):
            ch = py[i]
            if ch == "\\":
                i += 2
                continue
            if in_class:
                in_class = ch != "]"
            elif ch == "[":
                in_class = True
                if py[i + 1 : i + 2] == "]":
                    i += 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    break
                depth -= 1
            i += 1
        py = py[:at] + "(?i:" + py[at + 4 : i] + ")" + py[i:]


class Drawer:
    def __init__(self, rng: random.Random, mixed_case: bool) -> None:
        self.rng = rng
        self.mixed = mixed_case

    def draw(self, pattern: Any, icase: bool = False) -> str:
        return "".join(self.item(op, av, icase) for op, av in pattern)

    def count(self, lo: int, hi: int) -> int:
        hi = min(hi, lo + (12 if lo >= 8 else 6))
        return self.rng.randint(lo, hi)

    def item(self, op: Any, av: Any, icase: bool) -> str:
        rng = self.rng
        if op is c.LITERAL:
            return chr(av)
        if op is c.NOT_LITERAL:
            return rng.choice([ch for ch in TYPICAL if ord(ch) != av])
        if op is c.ANY:
            return "."  # in these expressions `.` mostly stands for a dot (`hooks.slack.com`)
        if op is c.IN:
            return self.member(av, icase)
        if op is c.BRANCH:
            # a boundary alternative (`(?:$|[\s;'"])`) is taken as the boundary itself
            empty = [b for b in av[1] if all(o is c.AT for o, _ in b)]
            return self.draw(empty[0] if empty else rng.choice(av[1]), icase)
        if op is c.SUBPATTERN:
            _group, add, remove, sub = av
            flags = (icase or bool(add & re.IGNORECASE)) and not (remove & re.IGNORECASE)
            return self.draw(sub, flags)
        if op is c.MIN_REPEAT:  # lazy: as few as it takes (`[\w.-]{0,50}?` before a name)
            lo, _, sub = av
            return "".join(self.draw(sub, icase) for _ in range(lo))
        if op in (c.MAX_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            lo, hi, sub = av
            hi = lo + 16 if hi is c.MAXREPEAT else hi
            if len(sub) == 1 and sub[0][0] is c.ANY:  # `.{8,}`: any characters, not dots
                return "".join(rng.choice(TYPICAL) for _ in range(self.count(lo, hi)))
            return "".join(self.draw(sub, icase) for _ in range(self.count(lo, hi)))
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            return ""
        if op is c.CATEGORY:
            return self.member([(op, av)], icase)
        raise ValueError(f"unsupported: {op}")

    def member(self, items: Any, icase: bool) -> str:
        chars: set[str] = set()
        negate = False
        for op, av in items:
            if op is c.NEGATE:
                negate = True
            elif op is c.LITERAL:
                chars.add(chr(av))
            elif op is c.RANGE:
                chars.update(chr(x) for x in range(av[0], av[1] + 1))
            elif op is c.CATEGORY:
                chars.update(
                    {
                        c.CATEGORY_DIGIT: "0123456789",
                        c.CATEGORY_WORD: TYPICAL[:-2] + "_",
                        c.CATEGORY_SPACE: " ",
                        c.CATEGORY_NOT_SPACE: TYPICAL,
                        c.CATEGORY_NOT_WORD: "-.",
                        c.CATEGORY_NOT_DIGIT: TYPICAL[:-12],
                    }.get(av, TYPICAL)
                )
        if negate:
            chars = {chr(x) for x in range(32, 127)} - chars
        typical = sorted(ch for ch in chars if ch in TYPICAL or ch in "_-.=") or sorted(chars)
        if icase and self.mixed:
            typical = sorted({x for ch in typical for x in (ch.lower(), ch.upper())})
        return self.rng.choice(typical)


def entropy(s: str) -> float:
    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(k / len(s) * math.log2(k / len(s)) for k in counts.values()) if s else 0.0


def category(rule: dict[str, Any]) -> str:
    if "regex" not in rule:
        return "none"
    if rule["id"] in GENERIC:
        return "generic"
    if rule["id"] in SYNTAX:
        return "syntax"
    if ASSIGNMENT in rule["regex"]:
        return "context"
    return "token"


def allowed(rule: dict[str, Any], glob: dict[str, Any], secret: str, match: str) -> bool:
    """Whether gitleaks would let this draw pass unreported (its allowlists)."""
    lists = [*rule.get("allowlists", []), glob]
    for al in lists:
        target = match if al.get("regexTarget") == "match" else secret
        if any(re.search(translate(r), target) for r in al.get("regexes", [])):
            return True
        if any(w.lower() in secret.lower() for w in al.get("stopwords", [])):
            return True
    return False


def secret_of(m: re.Match[str], rule: dict[str, Any]) -> str:
    group = rule.get("secretGroup")
    if group:
        return m.group(group) or ""
    for g in m.groups():
        if g:
            return g
    return m.group(0)


def samples(rule: dict[str, Any], glob: dict[str, Any], rng: random.Random) -> list[dict[str, str]]:
    """`token` rules: the token whole (the expression's match, without the boundary around it);
    other rules: the line as the expression matches it, and the secret in it."""
    expr = translate(rule["regex"])
    compiled = re.compile(expr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        parsed = sre_parse.parse(expr)
    out: list[dict[str, str]] = []
    for k in range(SAMPLES):
        for _ in range(400):
            text = Drawer(rng, mixed_case=k == 1).draw(parsed)
            m = compiled.search(text)
            if m is None:
                continue
            secret = secret_of(m, rule)
            if entropy(secret) < rule.get("entropy", 0) or allowed(rule, glob, secret, m.group(0)):
                continue
            if not (secret.strip() and secret.isprintable()):
                continue
            if category(rule) == "token":
                token = m.group(0).strip(" \t\r\n;'\"`")
                if not token.isprintable():
                    continue
                sample = {"token": token}
                if secret.strip() != token and secret.strip() in token and len(secret) >= 12:
                    sample["secret"] = secret  # what gitleaks reports of it (a URL's credentials)
                out.append(sample)
            else:
                out.append({"match": m.group(0).strip(), "secret": secret})
            break
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("toml", help="path of gitleaks' config/gitleaks.toml")
    ap.add_argument("--commit", default="", help="the gitleaks commit the file was read at")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    config = tomllib.loads(Path(args.toml).read_text(encoding="utf-8"))
    rng = random.Random(SEED)
    rules = []
    for rule in config["rules"]:
        kind = category(rule)
        entry: dict[str, Any] = {
            "id": rule["id"],
            "category": kind,
            "keywords": rule.get("keywords", []),
        }
        if kind != "none":
            entry["samples"] = samples(rule, config.get("allowlist", {}), rng)
            if not entry["samples"]:
                print(f"no sample drawn for {rule['id']}", file=sys.stderr)
        rules.append(entry)
    data = {
        "source": "gitleaks/gitleaks config/gitleaks.toml",
        "commit": args.commit,
        "seed": SEED,
        "generated_by": "bench/gitleaks_tokens.py",
        "rules": rules,
    }
    Path(args.out).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    counts: dict[str, int] = {}
    for r in rules:
        counts[r["category"]] = counts.get(r["category"], 0) + 1
    print(f"{len(rules)} rules: {counts}; written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
