"""The fourth held-out set: 20 multi-session cases written blind on 2026-12-04 (without reading
wikimem's dream or recall code, any evaluation output or any baseline) to measure whether
wikimem's judgment generalises to sentences nobody tuned for. Run them once, for the final
measurement; that one run is their only figure.

Same format, projects, calendar and clients as `cases.py` (read its docstring for what `expect`,
`claims`, `old`, `foreign`, `junk` and `keys` mean), with subjects, values, tools and sentences
found in none of the earlier sets, in the eight classes of the second and third held-out sets
(two or three cases each):

  - same subject only: a later statement about the same tool or file as an earlier rule (a
    package bump that renames a macro, a rotated encryption recipient, a library's new import
    style) must not remove that rule;
  - change of value: the same subject changed in a fresh phrasing ("X retired their … host, the
    replacement is …", "platform flipped … over to …"), asked once in Cursor;
  - across repositories: "that's a me thing, not a this-repo thing", "same deal in all my python
    stuff", "goes for everything i work on", said in one project and asked in another, once
    changed from a third;
  - stays in its project: a habit ("in here i never …") and a dated plan of one repository must
    not reach another;
  - agent and tool findings: the agent's final message reports what a grep, `terraform output`
    or `kafka-topics --describe` showed, once correcting what the person said; asked twice in
    Cursor (session start only);
  - everyday retraction: "you can quit the … dance, that rule died with …", "the whole … thing
    is history", "gave it back to us, so it's fair game again"; the request that follows is not
    a fact (`junk`);
  - noise: a long load-testing session with per-run variants and a rule said in passing; a long
    template-debugging session in Cursor with single-test runs and a rule mid-request;
  - terse preference: "nope. no type: ignore evr", "dont regen lockfiles unles i ask", asked in
    another project.

Run them with `python bench/memory_eval.py --set heldout4`, once, for the final measurement.

Do not edit a case to make it pass. A case that is itself wrong (a typo in the scenario, an
expectation a careful user would not hold) is reported next to the figure, not silently fixed.
"""

from __future__ import annotations

from wikimem.evaluate.cases import Case, Drop, Put, Query, S, T, one
from wikimem.evaluate.clients import Edit, Run, Step

# -- long sessions ---------------------------------------------------------------------------------


def loadtest_steps(n: int, seed: int, failing_every: int = 0) -> tuple[Step, ...]:
    """`n` tool calls of load testing the search endpoint: k6 runs at varying VU counts and
    durations (one-off variants), reading result files, script edits, pod resource checks,
    log tails and a threshold lookup."""
    out: list[Step] = []
    scenarios = ("search", "search_facets", "search_paging", "search_typeahead")
    for i in range(n):
        k = (i * 5 + seed) % 6
        vus = 10 + (i * 7 + seed) % 12 * 10
        run = f"{(i * 3 + seed) % 90 + 10:03d}"
        if k == 0:
            ok = not (failing_every and i % failing_every == 3)
            out.append(
                Run(
                    f"k6 run --vus {vus} --duration {i % 4 + 1}m "
                    f"--out json=results/run_{run}.json scripts/load/search.js",
                    ok,
                    f"http_req_duration..: avg={120 + vus}ms p(95)={300 + vus * 9}ms\n"
                    "http_req_failed....: 0.31%"
                    if ok
                    else "ERRO[0302] thresholds on metrics 'http_req_duration' have been crossed",
                )
            )
        elif k == 1:
            out.append(
                Run(
                    f"jq '.metrics.http_req_duration.values[\"p(95)\"]' results/run_{run}.json",
                    True,
                    f"{300 + vus * 9}.4",
                )
            )
        elif k == 2:
            out.append(Edit(f"scripts/load/{scenarios[i % 4]}.js"))
        elif k == 3:
            out.append(
                Run(
                    "kubectl -n loadtest top pods -l app=api",
                    True,
                    "NAME                   CPU(cores)   MEMORY(bytes)\n"
                    f"api-6d8f7b9c4-2xkqp   {700 + i * 9 % 300}m         1311Mi",
                )
            )
        elif k == 4:
            out.append(
                Run(
                    f"tail -n {20 + i % 5 * 10} results/run_{run}.log",
                    True,
                    'WARN[0187] Request Failed  error="context deadline exceeded"',
                )
            )
        else:
            out.append(
                Run(
                    "rg -n thresholds scripts/load",
                    True,
                    "scripts/load/search.js:6:  thresholds: { http_req_duration: ['p(95)<800'] },",
                )
            )
    return tuple(out)


def template_steps(n: int, seed: int, failing_every: int = 0) -> tuple[Step, ...]:
    """`n` tool calls of debugging an invoice template: single-test runs (one-off variants),
    renders of one invoice at a time, partial edits, reading the template, diffs and a search."""
    out: list[Step] = []
    partials = ("totals", "vat", "header", "footer")
    for i in range(n):
        k = (i * 5 + seed) % 6
        if k == 0:
            ok = not (failing_every and i % failing_every == 3)
            test = f"tests/render/test_credit_note.py::test_render_reverse_charge_{i % 7}"
            out.append(
                Run(
                    f"pytest {test} -q",
                    ok,
                    "1 passed in 0.84s"
                    if ok
                    else f"FAILED {test} - AssertionError: VAT line rendered 2 times",
                )
            )
        elif k == 1:
            out.append(
                Run(
                    f"python -m billing.render --invoice INV-2026-{(i * 37 + seed) % 900 + 100:04d} "
                    "--out /tmp/cn.pdf",
                    True,
                    "wrote /tmp/cn.pdf (2 pages)",
                )
            )
        elif k == 2:
            out.append(Edit(f"templates/partials/{partials[i % 4]}.html"))
        elif k == 3:
            start = i % 5 * 20 + 1
            out.append(
                Run(
                    f"sed -n '{start},{start + 39}p' templates/credit_note.html",
                    True,
                    "{% include 'partials/totals.html' %}\n{% include 'partials/vat.html' %}",
                )
            )
        elif k == 4:
            out.append(Run("git diff --stat", True, " templates/credit_note.html | 4 +---"))
        else:
            out.append(
                Run(
                    'rg -n "reverse_charge" billing templates',
                    True,
                    "billing/tax/vat.py:31:    if customer.reverse_charge:",
                )
            )
    return tuple(out)


def build_heldout4_cases() -> list[Case]:
    c: list[Case] = []

    # -- same subject only: a later fact about the same tool or file does not replace the rule -----
    c.append(
        Case(
            "h4-same-dbt-tests",
            "same subject only",
            "a test rule for every mart model, then a dbt_utils bump that renames a macro",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "every model under models/marts gets a unique + not_null test on its "
                        "primary key in the schema.yml next to it, no exceptions - the finance "
                        "dashboards join on those keys and a dup silently doubles revenue. add "
                        "them for fct_orders, its missing both",
                        Edit("models/marts/finance/schema.yml"),
                        Run(
                            "dbt test --select fct_orders",
                            True,
                            "Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2",
                        ),
                        answer="fct_orders has unique and not_null tests on order_id in "
                        "models/marts/finance/schema.yml; both pass.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"models/marts|not_null",
                                "Every model under models/marts has a unique and a not_null test "
                                "on its primary key in the schema.yml next to it (the finance "
                                "dashboards join on those keys).",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "pipeline",
                    3,
                    T(
                        "dbt compile is broken since dbt_utils went to 1.3 in packages.yml, "
                        "surrogate_key is gone, its generate_surrogate_key now. swap the calls in "
                        "models/staging and make sure compile passes",
                        Run(
                            "dbt compile",
                            False,
                            "Compilation Error in model stg_payments "
                            "(models/staging/stg_payments.sql)\n  'dbt_utils' has no attribute "
                            "'surrogate_key'",
                        ),
                        Edit("models/staging/stg_payments.sql"),
                        Edit("models/staging/stg_refunds.sql"),
                        Run(
                            "dbt compile",
                            True,
                            "Found 84 models, 212 data tests, 31 sources\nConcurrency: 8 threads",
                        ),
                        answer="stg_payments and stg_refunds call "
                        "dbt_utils.generate_surrogate_key; dbt compile passes.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"dbt_utils|surrogate_key",
                                "dbt_utils is on 1.3 (packages.yml): the macro is "
                                "`dbt_utils.generate_surrogate_key`; `surrogate_key` no longer "
                                "exists.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "pipeline",
                "add a mart for weekly active customers, keyed on customer_id + week_start",
            ),
            expect=one("not_null"),
            claims=(("not_null",), ("generate_surrogate_key",)),
            keys=("not_null", "models/marts", "dbt_utils", "surrogate_key"),
        )
    )
    c.append(
        Case(
            "h4-same-sops",
            "same subject only",
            "'secrets here are sops-encrypted w/ age … nothing decrypted ever gets committed' in "
            "Gemini CLI, then a rotated staging recipient in .sops.yaml",
            (
                S(
                    "gemini",
                    "infra",
                    1,
                    T(
                        "secrets here are sops-encrypted w/ age, recipients live in .sops.yaml. "
                        "nothing decrypted ever gets committed, not even on a branch for a minute - "
                        "the repo is mirrored to the vendor. add the pagerduty integration key to "
                        "secrets/prod/alerting.enc.yaml, its in 1pass under 'pd prod integration', "
                        "get it with op read",
                        Run(
                            "op read 'op://infra/pd prod integration/credential' | sops set "
                            "--value-stdin secrets/prod/alerting.enc.yaml '[\"pagerduty_key\"]'",
                            True,
                            "",
                        ),
                        Run(
                            "git status --short",
                            True,
                            " M secrets/prod/alerting.enc.yaml",
                        ),
                        answer="Added pagerduty_key to secrets/prod/alerting.enc.yaml with sops; "
                        "only the encrypted file changed.",
                        model=(
                            Put(
                                "P/secrets.md",
                                r"\bsops\b.*(encrypt|age)|decrypted",
                                "Secrets are encrypted with sops and age (recipients in "
                                ".sops.yaml); nothing decrypted is ever committed, not even "
                                "briefly on a branch (the repo is mirrored to a vendor).",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "infra",
                    3,
                    T(
                        "we rotated the staging age key, new recipient is "
                        "age1q7k3vz0m5c2l8n4t9p6w3x8s2d5f7h0j4k6m9r2u5y8a3e6g9c0vwl2q "
                        "(old one was on the laptop that died). swap it into the staging rule in "
                        ".sops.yaml and run updatekeys over secrets/staging",
                        Edit(".sops.yaml"),
                        Run(
                            'for f in secrets/staging/*.enc.yaml; do sops updatekeys -y "$f"; done',
                            True,
                            "File secrets/staging/db.enc.yaml synced with new keys\n"
                            "File secrets/staging/alerting.enc.yaml synced with new keys",
                        ),
                        answer="The staging creation rule in .sops.yaml uses the new age "
                        "recipient; both files under secrets/staging are re-encrypted for it.",
                        model=(
                            Put(
                                "P/secrets.md",
                                r"staging (age )?(key|recipient)",
                                "Staging secrets are encrypted for the age recipient "
                                "age1q7k3vz0m5c2l8n4t9p6w3x8s2d5f7h0j4k6m9r2u5y8a3e6g9c0vwl2q (the "
                                "staging rule in .sops.yaml, rotated 2026-03-04).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "infra",
                "need to put the new datadog api key into the prod secrets, walk me through it",
            ),
            expect=(("sops",), ("decrypted", "plaintext", "unencrypted")),
            claims=(
                ("decrypted", "plaintext", "unencrypted"),
                ("age1q7k3vz0m5c2l8n4t9p6w3x8s2d5",),
            ),
            keys=("sops", "age1q7k3", "decrypted"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h4-same-date-format",
            "same subject only",
            "'dates in the ui always go through formatDate() …' in Cursor, then a date-fns v4 "
            "import fix in the same file",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "dates in the ui always go through formatDate() in src/lib/dates.ts "
                        "(date-fns under the hood), never toLocaleDateString — node on ci and the "
                        "browsers disagree on the locale data and the snapshot tests flip. the "
                        "order history page uses toLocaleDateString, fix that",
                        Edit("src/pages/OrderHistory.tsx"),
                        Run(
                            "npx vitest run src/pages/OrderHistory.test.tsx",
                            True,
                            " Test Files  1 passed (1)\n      Tests  4 passed (4)",
                        ),
                        answer="OrderHistory formats its dates with formatDate() from "
                        "src/lib/dates.ts; its tests pass.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"formatdate|tolocaledatestring",
                                "Dates in the UI go through formatDate() in src/lib/dates.ts "
                                "(date-fns), never toLocaleDateString(): CI's Node and the "
                                "browsers disagree on locale data and snapshot tests flip.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    2,
                    T(
                        "dependabot bumped date-fns to v4 and the build dies in src/lib/dates.ts "
                        "with `TS1192: Module '\"date-fns/locale/de\"' has no default export`. v4 "
                        "only has named locale exports afaik, "
                        "`import { de } from 'date-fns/locale'`. fix it - german is the only "
                        "locale we ship so dont pull in the rest",
                        Run(
                            "npx tsc --noEmit",
                            False,
                            "src/lib/dates.ts(2,8): error TS1192: Module "
                            "'\"date-fns/locale/de\"' has no default export.",
                        ),
                        Edit("src/lib/dates.ts"),
                        Run("npx tsc --noEmit", True, ""),
                        answer="src/lib/dates.ts imports the German locale as a named export from "
                        "date-fns/locale (v4 has no default locale exports); the type check "
                        "passes.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"date-fns (v4|is on)|locale import",
                                "date-fns is on v4: locales are named imports (`import { de } "
                                "from 'date-fns/locale'`); German is the only locale shipped.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "web", "show when each invoice was paid in the billing history table"),
            expect=one("formatDate"),
            claims=(("formatDate",), ("date-fns/locale", "named import", "named imports")),
            keys=("formatdate", "tolocaledatestring", "date-fns"),
        )
    )

    # -- change of value: the same subject, a fresh phrasing ---------------------------------------
    c.append(
        Case(
            "h4-change-paywave-test-api",
            "change of value",
            "a payment provider's test API in Codex, 'paywave retired … the replacement test env "
            "is …' in Claude Code; asked in Cursor",
            (
                S(
                    "codex",
                    "billing",
                    1,
                    T(
                        "paywave's test api is https://test.paywave.io/v2, our merchant id there "
                        "is mch_test_4471. the refund integration test is somehow hitting the prod "
                        "url, point it at the test api",
                        Run(
                            "rg -n paywave tests/integration",
                            True,
                            'tests/integration/test_refunds.py:9:BASE = "https://api.paywave.io/v2"',
                        ),
                        Edit("tests/integration/test_refunds.py"),
                        Run(
                            "pytest tests/integration/test_refunds.py -q",
                            True,
                            "6 passed in 4.02s",
                        ),
                        answer="test_refunds.py uses https://test.paywave.io/v2 with merchant "
                        "mch_test_4471; the 6 tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"paywave.*test",
                                "Paywave's test API is https://test.paywave.io/v2; our merchant "
                                "id there is mch_test_4471.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "billing",
                    3,
                    T(
                        "paywave retired test.paywave.io over the weekend (status page says so, "
                        "the host just 404s), the replacement test env is "
                        "https://uat.paywave.com/v2 and our merchant id carried over. swap it into "
                        "tests/integration/settings.py and .env.example",
                        Edit("tests/integration/settings.py"),
                        Edit(".env.example"),
                        Run("pytest tests/integration -q", True, "19 passed in 9.77s"),
                        answer="The integration settings and .env.example point at "
                        "https://uat.paywave.com/v2; the 19 integration tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"paywave.*test",
                                "Paywave's test environment is https://uat.paywave.com/v2 since "
                                "2026-03-04 (was https://test.paywave.io/v2 until then); our "
                                "merchant id there is mch_test_4471.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "which paywave url should the integration tests call?"),
            expect=one("uat.paywave.com"),
            old=("test.paywave.io",),
            keys=("paywave",),
        )
    )
    c.append(
        Case(
            "h4-change-dag-branch",
            "change of value",
            "'airflow only picks up dags from release/dags' in Gemini CLI, 'platform flipped "
            "git-sync over to …' in Codex, with a doc edit after it",
            (
                S(
                    "gemini",
                    "pipeline",
                    2,
                    T(
                        "context for anything dag related: airflow only picks up dags from the "
                        "release/dags branch (git-sync), merging to main does nothing by itself, "
                        "so after a fix we cherry-pick onto release/dags. the fix today: "
                        "partner_export has the wrong schedule, 0 5 * * * instead of 0 6 * * *",
                        Edit("dags/partner_export.py"),
                        Run(
                            'git commit -am "partner_export: run at 06:00"',
                            True,
                            "[main 8c41e0a] partner_export: run at 06:00",
                        ),
                        Run(
                            "git switch release/dags && git cherry-pick -x 8c41e0a",
                            True,
                            "[release/dags 2f9a7d1] partner_export: run at 06:00",
                        ),
                        answer="partner_export runs at 06:00; the fix is on main and "
                        "cherry-picked onto release/dags.",
                        model=(
                            Put(
                                "P/deploy.md",
                                r"git-sync|picks up dags",
                                "Airflow picks up DAGs via git-sync from the release/dags branch "
                                "only; a merge to main does nothing until it is cherry-picked "
                                "onto release/dags.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "pipeline",
                    4,
                    T(
                        "platform flipped git-sync over to the prod-dags branch yesterday, "
                        "release/dags is frozen read-only and gets deleted end of month. prod-dags "
                        "is fast-forwarded from main by the release job so no more cherry-picks. "
                        "can u take the cherry-pick section out of CONTRIBUTING.md",
                        Edit("CONTRIBUTING.md"),
                        answer="Removed the cherry-pick section from CONTRIBUTING.md.",
                        model=(
                            Put(
                                "P/deploy.md",
                                r"git-sync|picks up dags",
                                "Airflow picks up DAGs via git-sync from the prod-dags branch "
                                "since 2026-03-04 (was release/dags until then, which is frozen); "
                                "the release job fast-forwards prod-dags from main, no "
                                "cherry-picks.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "merged my dag fix to main, how does it get to airflow?"),
            expect=one("prod-dags"),
            old=("release/dags",),
            junk=("cherry-pick section",),
            keys=("git-sync", "release/dags", "prod-dags"),
            needs_client="gemini",
        )
    )

    # -- across repositories: a cue meaning "all my code", asked in another project -----------------
    c.append(
        Case(
            "h4-scope-todo-owner",
            "across repositories",
            "'that's a me thing btw, not a this-repo thing - TODOs always get an owner and a "
            "date' in web, asked in pipeline",
            (
                S(
                    "claude",
                    "web",
                    1,
                    T(
                        "that's a me thing btw, not a this-repo thing - TODOs always get an owner "
                        "and a date, `TODO(kw 2026-03): ...`, bare TODOs just rot. anyway the "
                        "debounce todo in src/search/SearchBox.tsx is bare, fix it up and actually "
                        "do the debounce while ur in there",
                        Edit("src/search/SearchBox.tsx"),
                        Run(
                            "npx vitest run src/search",
                            True,
                            " Test Files  2 passed (2)\n      Tests  9 passed (9)",
                        ),
                        answer="SearchBox debounces input by 250 ms, so the TODO is gone; the "
                        "search tests pass.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\btodo",
                                "In all of their code: TODO comments carry an owner and a date, "
                                "e.g. `TODO(kw 2026-03): …`; no bare TODOs.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "pipeline",
                "the loader skips malformed rows silently, leave a todo there so i remember to add "
                "a dead-letter table later",
            ),
            expect=one("owner and a date", "owner and date", "TODO(kw"),
            keys=("todo",),
        )
    )
    c.append(
        Case(
            "h4-scope-pins",
            "across repositories",
            "'pin it exact (==), same deal in all my python stuff' in api, changed 'for all my "
            "python stuff' from dotfiles; asked in pipeline",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "add tenacity for the retry in the webhook sender. and pin it exact (==), "
                        "same deal in all my python stuff, no >= or ~= ranges — got burned by a "
                        "minor release once",
                        Run(
                            "uv add 'tenacity==9.0.0'",
                            True,
                            "Resolved 48 packages in 310ms\nInstalled 1 package in 6ms\n"
                            " + tenacity==9.0.0",
                        ),
                        Edit("src/webhooks/sender.py"),
                        answer="Added tenacity==9.0.0 and wrapped the webhook send in a retry with "
                        "exponential backoff.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\bpins?\b|version ranges?",
                                "In every Python project: exact pins (==) for dependencies, no >= "
                                "or ~= ranges.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "dotfiles",
                    3,
                    T(
                        "rethinking the exact pins thing, for all my python stuff: "
                        "compatible-release pins (~=) from here on, exact pins meant the bot "
                        "opened a pr for every patch release. loosen the ones in this repo's "
                        "pyproject",
                        Edit("pyproject.toml"),
                        Run("uv lock", True, "Resolved 12 packages in 95ms"),
                        answer="The pins in pyproject.toml are compatible-release (~=) pins; the "
                        "lock resolves.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\bpins?\b|version ranges?",
                                "In every Python project: compatible-release pins (~=) for "
                                "dependencies since 2026-03-04 (was exact == pins until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "pipeline", "add pyarrow to the deps, the parquet writer needs it"),
            expect=one("compatible-release", "compatible release"),
            old=("exact pins", "pin it exact"),
            keys=("pins", "compatible-release", "pin it exact"),
        )
    )
    c.append(
        Case(
            "h4-scope-licenses",
            "across repositories",
            "'goes for everything i work on, not only infra: … tell me its license first' in "
            "Gemini CLI, asked in web",
            (
                S(
                    "gemini",
                    "infra",
                    2,
                    T(
                        "goes for everything i work on, not only infra: before you add any "
                        "dependency tell me its license first, and anything gpl/agpl is a hard no "
                        "(mit/apache/bsd are fine). ok now add checkov to the ci image",
                        Run(
                            "pip show checkov | grep -i '^license'",
                            True,
                            "License: Apache License 2.0",
                        ),
                        Edit("ci/Dockerfile"),
                        answer="checkov is Apache-2.0, so I added it to ci/Dockerfile.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"licen[cs]e",
                                "In every project: a dependency's license is stated before adding "
                                "it; GPL/AGPL is never acceptable (MIT, Apache, BSD are fine).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "web",
                "we need a markdown renderer for the help pages, pick one and add it",
            ),
            expect=(("license", "licence"), ("GPL", "AGPL")),
            keys=("license", "gpl"),
            needs_client="gemini",
        )
    )

    # -- stays in its project: a habit and a dated plan of one repository --------------------------
    c.append(
        Case(
            "h4-local-sandbox",
            "stays in its project",
            "'in here i never try install.sh on my actual machine first, make sandbox …' in "
            "dotfiles, asked in web",
            (
                S(
                    "codex",
                    "dotfiles",
                    2,
                    T(
                        "in here i never try install.sh on my actual machine first, `make sandbox` "
                        "boots a throwaway debian distrobox with the repo mounted and i run it in "
                        "there. do that with the new neovim plugin bootstrap and tell me if it "
                        "blows up",
                        Run(
                            "make sandbox",
                            True,
                            "distrobox: created dotfiles-sandbox (debian:12)",
                        ),
                        Run(
                            "distrobox enter dotfiles-sandbox -- ./install.sh --only nvim",
                            True,
                            "nvim: 23 plugins installed",
                        ),
                        answer="The nvim bootstrap runs cleanly in the sandbox: 23 plugins "
                        "installed, no errors.",
                        model=(
                            Put(
                                "P/commands.md",
                                r"make sandbox|distrobox",
                                "install.sh is tried first in a throwaway Debian distrobox "
                                "(`make sandbox`, repo mounted), never on the real machine.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "web",
                "i want to try the new service worker without wrecking my real browser profile, "
                "how?",
            ),
            foreign=("make sandbox", "distrobox"),
            keys=("sandbox", "distrobox"),
        )
    )
    c.append(
        Case(
            "h4-local-rebrand-cutoff",
            "stays in its project",
            "'planning note for this app: no feature merges after march 20, the rebrand …' in web "
            "(Cursor), asked in api",
            (
                S(
                    "cursor",
                    "web",
                    3,
                    T(
                        "planning note for this app: no feature merges after march 20, the rebrand "
                        "goes live on the 27th and design wants a stable base, only copy + colour "
                        "fixes in between. for today just swap the logo svg in src/assets",
                        Edit("src/assets/logo.svg"),
                        answer="Swapped src/assets/logo.svg for the new logo.",
                        model=(
                            Put(
                                "P/schedule.md",
                                r"rebrand|feature merges",
                                "No feature merges after 2026-03-20: the rebrand launches on "
                                "2026-03-27; only copy and colour fixes in between.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "can i still merge the bulk export endpoint later this month?"),
            foreign=("rebrand", "march 20", "2026-03-20"),
            keys=("rebrand",),
        )
    )

    # -- agent and tool findings: the fact comes from what the agent read or ran -------------------
    c.append(
        Case(
            "h4-found-session-ttl",
            "agent and tool findings",
            "the person says sessions last 24h; two days later a grep of the settings shows 12 "
            "hours and the agent says so; asked in Cursor",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "login sessions last 24h, so the nightly cleanup can just delete sessions "
                        "older than a day. write that cleanup as a management command",
                        Edit("src/sessions/management/commands/purge_sessions.py"),
                        Run("pytest tests/sessions -q", True, "8 passed in 0.55s"),
                        answer="purge_sessions deletes sessions older than 24 hours; the session "
                        "tests pass.",
                        model=(
                            Put(
                                "P/auth.md",
                                r"login sessions?|session_ttl",
                                "Login sessions last 24 hours; the nightly purge_sessions "
                                "command deletes older ones.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "support has a pile of tickets about people getting logged out way before "
                        "a day is up?? look into it",
                        Run(
                            "rg -n SESSION_TTL src/settings",
                            True,
                            "src/settings/base.py:88:SESSION_TTL_SECONDS = 60 * 60 * 12  # "
                            "security review 2025-11",
                        ),
                        Run(
                            "git log -1 --format='%h %an %s' -S SESSION_TTL_SECONDS -- "
                            "src/settings/base.py",
                            True,
                            "a41c9e2 Dana Okafor Shorten session TTL to 12h after security review",
                        ),
                        Edit("src/sessions/management/commands/purge_sessions.py"),
                        Run("pytest tests/sessions -q", True, "8 passed in 0.61s"),
                        answer="Sessions expire after 12 hours, not 24: SESSION_TTL_SECONDS is "
                        "60 * 60 * 12 in src/settings/base.py (line 88), shortened in a41c9e2 "
                        "after a security review, so the logouts are expected behaviour. I "
                        "pointed purge_sessions at SESSION_TTL_SECONDS so the cleanup and the "
                        "setting cannot drift apart; the session tests pass.",
                        model=(
                            Put(
                                "P/auth.md",
                                r"login sessions?|session_ttl",
                                "Login sessions expire after 12 hours (SESSION_TTL_SECONDS in "
                                "src/settings/base.py, shortened after a security review; it was "
                                "thought to be 24 hours); purge_sessions uses the same setting.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "api", "how long does a login session stay valid?"),
            expect=one("12 hours", "12h", "60 * 60 * 12", "43200"),
            old=("24 hours", "24h"),
            keys=("login session", "session_ttl", "purge_sessions"),
        )
    )
    c.append(
        Case(
            "h4-found-nat-ips",
            "agent and tool findings",
            "`terraform output` prints the egress IPs and the agent reports them; asked in Cursor",
            (
                S(
                    "codex",
                    "infra",
                    2,
                    T(
                        "a partner (ledgerline) wants our egress ips for their firewall allowlist. "
                        "what are they? dont guess, get them out of terraform",
                        Run(
                            "terraform -chdir=envs/prod output -json nat_public_ips",
                            True,
                            '["52.29.114.7","3.121.40.88"]',
                        ),
                        Run(
                            "rg -n -A1 'aws_nat_gateway' envs/prod/network.tf",
                            True,
                            'envs/prod/network.tf:41:resource "aws_nat_gateway" "az" {\n'
                            "envs/prod/network.tf-42-  count = 2",
                        ),
                        answer="Prod traffic leaves through two NAT gateways, one per "
                        "availability zone, with the public IPs 52.29.114.7 and 3.121.40.88 "
                        "(terraform output nat_public_ips in envs/prod). Ledgerline needs to "
                        "allowlist both.",
                        model=(
                            Put(
                                "P/network.md",
                                r"egress|nat gateways?|nat_public_ips",
                                "Prod egress leaves through two NAT gateways with the public IPs "
                                "52.29.114.7 and 3.121.40.88 (`terraform output nat_public_ips` "
                                "in envs/prod); partners allowlist both.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "infra", "which source ips will a partner see from our prod traffic?"),
            expect=(("52.29.114.7",), ("3.121.40.88",)),
            keys=("egress", "nat_public_ips", "52.29.114.7"),
        )
    )
    c.append(
        Case(
            "h4-found-kafka-partitions",
            "agent and tool findings",
            "a scaling question answered from `kafka-topics --describe`; the partition count is "
            "only in the tool output and the agent's final message",
            (
                S(
                    "claude",
                    "pipeline",
                    3,
                    T(
                        "im thinking of scaling the clickstream consumer to 64 replicas to eat the "
                        "backlog, will that actually help",
                        Run(
                            "kafka-topics.sh --bootstrap-server kafka-1.globex.internal:9092 "
                            "--describe --topic clickstream.raw | head -n 2",
                            True,
                            "Topic: clickstream.raw\tTopicId: 9vQx2bLwR1e6mJ0aTq3Hkg\t"
                            "PartitionCount: 24\tReplicationFactor: 3\tConfigs: "
                            "retention.ms=604800000\n\tTopic: clickstream.raw\tPartition: 0\t"
                            "Leader: 3\tReplicas: 3,1,2\tIsr: 3,1,2",
                        ),
                        Run(
                            "kafka-consumer-groups.sh --bootstrap-server "
                            "kafka-1.globex.internal:9092 --describe --group clickstream-sink "
                            "| sort -k6 -n | tail -n 1",
                            True,
                            "clickstream-sink clickstream.raw 21 88120311 88734020 613709",
                        ),
                        answer="Not past 24: clickstream.raw has 24 partitions (PartitionCount "
                        "in kafka-topics --describe) and a consumer group gives each partition "
                        "to at most one consumer, so replicas 25 to 64 would sit idle. Scaling "
                        "up to 24 helps; the worst lag is partition 21 at about 614k messages. "
                        "Going further needs more partitions on the topic first.",
                        model=(
                            Put(
                                "P/streaming.md",
                                r"clickstream\.raw|partitions",
                                "The clickstream.raw topic has 24 partitions (replication factor "
                                "3), so the clickstream-sink consumer group can use at most 24 "
                                "consumers.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "pipeline",
                "what's the most replicas the clickstream consumer can usefully run?",
            ),
            expect=one("24 partitions", "PartitionCount: 24", "at most 24", "24 consumers"),
            keys=("clickstream",),
        )
    )

    # -- everyday retraction: no stock phrase; the request after it is not a fact ------------------
    c.append(
        Case(
            "h4-retract-db-oncall",
            "everyday retraction",
            "a sign-off in #db-oncall before staging migrations, then 'you can quit the "
            "#db-oncall dance …, that rule died with the shared staging db' and a version bump",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "before any migration runs on staging, post in #db-oncall and wait for a "
                        "thumbs up from whoever's on call, staging shares its db with the data "
                        "team's dashboards. for now just write the migration for the new "
                        "order_notes table, dont run it",
                        Edit("migrations/versions/3f2a_order_notes.py"),
                        Run("pytest tests/db/test_migrations.py -q", True, "3 passed in 1.12s"),
                        answer="Wrote the order_notes migration without running it; staging "
                        "waits for a thumbs-up in #db-oncall.",
                        model=(
                            Put(
                                "P/process.md",
                                r"db-oncall|migrations? (run )?on staging|staging migrations?",
                                "Migrations on staging need a thumbs-up from the on-call in "
                                "#db-oncall first: staging shares its database with the data "
                                "team's dashboards.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "you can quit the #db-oncall dance for staging migrations, that rule died "
                        "with the shared staging db — every branch gets its own neon db now and "
                        "the dashboards read a nightly snapshot. so run the order_notes migration "
                        "on staging, then bump the api minor version in pyproject",
                        Run(
                            "python -m api.db upgrade head --env staging",
                            True,
                            "upgrade 9b1e -> 3f2a, order_notes",
                        ),
                        Edit("pyproject.toml"),
                        answer="Ran the order_notes migration on staging and bumped the version "
                        "to 2.14.0.",
                        model=(
                            Drop("P/process.md", r"db-oncall"),
                            Put(
                                "P/environment.md",
                                r"neon|own (branch )?database",
                                "Every branch gets its own Neon database on staging and the "
                                "dashboards read a nightly snapshot, so staging migrations need "
                                "no sign-off.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "gemini",
                "api",
                "got another migration for staging, anything i need to do before running it?",
            ),
            expect=one("neon"),
            old=("db-oncall",),
            junk=("bump the api minor version",),
            keys=("db-oncall", "neon", "staging migration"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h4-retract-bash32",
            "everyday retraction",
            "'keep everything in bin/ runnable on bash 3.2' in Gemini CLI, then 'the whole bash "
            "3.2 thing is history' and a rewrite request; asked in Cursor",
            (
                S(
                    "gemini",
                    "dotfiles",
                    1,
                    T(
                        "keep everything in bin/ runnable on bash 3.2, the work mac is still on the "
                        "system bash. so no associative arrays, no mapfile, no ${var,,}. the new "
                        "dots-doctor script uses declare -A, rewrite that bit",
                        Edit("bin/dots-doctor"),
                        Run(
                            "/bin/bash --version | head -n 1",
                            True,
                            "GNU bash, version 3.2.57(1)-release (arm64-apple-darwin23)",
                        ),
                        Run("/bin/bash -n bin/dots-doctor && shellcheck bin/dots-doctor", True, ""),
                        answer="dots-doctor uses two indexed arrays instead of declare -A; it "
                        "parses under bash 3.2.57 and shellcheck is clean.",
                        model=(
                            Put(
                                "P/scripts.md",
                                r"bash (3\.2|4|5)|associative arrays",
                                "Scripts in bin/ must run on bash 3.2 (the work Mac's system "
                                "bash): no associative arrays, no mapfile, no ${var,,}.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "dotfiles",
                    4,
                    T(
                        "work finally swapped the mac for a linux box w/ bash 5.2, so the whole "
                        "bash 3.2 thing is history, anything bash 4+ is fine in bin/. first thing: "
                        "put dots-doctor back on a proper declare -A map, the parallel arrays are "
                        "ugly",
                        Edit("bin/dots-doctor"),
                        Run("shellcheck bin/dots-doctor", True, ""),
                        answer="dots-doctor uses an associative array again; shellcheck is clean.",
                        model=(
                            Put(
                                "P/scripts.md",
                                r"bash (3\.2|4|5)|associative arrays",
                                "Scripts in bin/ may use bash 4+ features (every machine has "
                                "bash 5.2) since 2026-03-05 (had to run on bash 3.2 until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor", "dotfiles", "can the new backup script read its file list with mapfile?"
            ),
            expect=one("bash 5", "bash 4", "bash 4+"),
            old=("bash 3.2",),
            junk=("parallel arrays are ugly", "put dots-doctor back"),
            keys=("bash 3.2", "bash 5", "bash 4", "associative arrays", "mapfile"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h4-retract-legacy-vpc",
            "everyday retraction",
            "'hands off modules/legacy-vpc for now, the network team owns it …', then '… gave "
            "legacy-vpc back to us, so it's fair game again' and a cleanup request",
            (
                S(
                    "claude",
                    "infra",
                    1,
                    T(
                        "hands off modules/legacy-vpc for now, the network team owns it while they "
                        "migrate the peering and any plan that touches it gets reverted. tag the "
                        "new rds subnet group with cost-center=payments",
                        Edit("modules/rds/main.tf"),
                        Run(
                            "terraform -chdir=envs/prod plan -target=module.rds",
                            True,
                            "Plan: 0 to add, 1 to change, 0 to destroy.",
                        ),
                        answer="The RDS subnet group carries cost-center=payments; the targeted "
                        "plan changes 1 resource and leaves legacy-vpc alone.",
                        model=(
                            Put(
                                "P/ownership.md",
                                r"legacy-vpc",
                                "modules/legacy-vpc belongs to the network team during their "
                                "peering migration: hands off, any plan touching it gets "
                                "reverted.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "infra",
                    3,
                    T(
                        "network team wrapped up the peering migration and gave legacy-vpc back to "
                        "us, so it's fair game again. start by deleting the unused security group "
                        "rules in modules/legacy-vpc/sg.tf and show me the plan",
                        Edit("modules/legacy-vpc/sg.tf"),
                        Run(
                            "terraform -chdir=envs/prod plan",
                            True,
                            "Plan: 0 to add, 0 to change, 4 to destroy.",
                        ),
                        answer="Removed the four unused security group rules from "
                        "modules/legacy-vpc/sg.tf; the plan destroys exactly those 4 rules.",
                        model=(
                            Put(
                                "P/ownership.md",
                                r"legacy-vpc",
                                "modules/legacy-vpc is ours again since 2026-03-04 (the network "
                                "team finished the peering migration); changing it is fine.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "infra", "i want to rename a few resources in modules/legacy-vpc, ok?"),
            expect=one(
                "fair game",
                "ours again",
                "back to us",
                "owned by us",
                "handed back",
                "changing it is fine",
            ),
            old=("hands off", "gets reverted"),
            junk=("unused security group rules", "show me the plan"),
            keys=("legacy-vpc",),
        )
    )

    # -- noise: long sessions, one-off variants, read-only commands, a rule said in passing -------
    c.append(
        Case(
            "h4-noise-loadtest",
            "noise",
            "91 load-testing calls in Claude Code with per-run VU variants; 'oh and since this "
            "keeps coming up: load tests only ever go against …' glued onto a follow-up",
            (
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "search p95 regressed after the ranking change. load test it at a few vu "
                        "levels and find where it falls over",
                        *loadtest_steps(40, 1),
                        answer="p95 stays under 450 ms up to 70 VUs and climbs past 2 s at 100 "
                        "VUs; the API pods hit their CPU limit first.",
                    ),
                    T(
                        "ok bump the cpu limit in deploy/api/values-loadtest.yaml to 2 cores and "
                        "rerun the heavy ones. oh and since this keeps coming up: load tests only "
                        "ever go against loadtest.acme.dev, never prod or staging, the WAF bans "
                        "the office range for an hour if k6 hits them",
                        Edit("deploy/api/values-loadtest.yaml"),
                        *loadtest_steps(38, 2, failing_every=8),
                        answer="With 2 cores per pod, p95 stays under 600 ms up to 110 VUs; two "
                        "runs at 120 VUs crossed the 800 ms threshold.",
                        model=(
                            Put(
                                "P/testing.md",
                                r"load tests?|loadtest\.acme\.dev",
                                "Load tests go only against loadtest.acme.dev, never prod or "
                                "staging: the WAF bans the office IP range for an hour when k6 "
                                "hits them.",
                            ),
                        ),
                    ),
                    T(
                        "compare the before/after p95s for me in a table",
                        *loadtest_steps(12, 3),
                        answer="| VUs | p95 before | p95 after |\n|---|---|---|\n| 70 | 440 ms "
                        "| 310 ms |\n| 100 | 2.1 s | 480 ms |",
                    ),
                ),
            ),
            Query(
                "codex", "api", "load test the new /orders/export endpoint with 50 vus for 5 min"
            ),
            expect=one("loadtest.acme.dev"),
            junk=("results/run_", "top pods -l app=api"),
            keys=("loadtest", "k6", "load test"),
        )
    )
    c.append(
        Case(
            "h4-noise-golden-pdfs",
            "noise",
            "77 template-debugging calls in Cursor with single-test runs and one-invoice renders; "
            "'they're generated, regenerate them with make golden' mid-request",
            (
                S(
                    "cursor",
                    "billing",
                    4,
                    T(
                        "the credit note template renders the vat line twice for reverse-charge "
                        "customers, track it down",
                        *template_steps(36, 1, failing_every=5),
                        answer="The VAT block is included twice: once by templates/credit_note.html "
                        "and once by partials/totals.html.",
                    ),
                    T(
                        "ok drop it from credit_note.html. the golden pdfs under tests/golden/ will "
                        "change after this — they're generated, regenerate them with `make golden` "
                        "and never hand-edit them, the byte diff is how we catch font regressions. "
                        "then rerun the render tests",
                        Edit("templates/credit_note.html"),
                        Run("make golden", True, "regenerated 37 golden files in tests/golden/"),
                        *template_steps(26, 2),
                        answer="credit_note.html no longer includes the VAT partial; the golden "
                        "files are regenerated and the render tests pass.",
                        model=(
                            Put(
                                "P/testing.md",
                                r"golden",
                                "The golden PDFs under tests/golden/ are generated: they are "
                                "regenerated with `make golden`, never edited by hand (their byte "
                                "diff catches font regressions).",
                            ),
                        ),
                    ),
                    T(
                        "whats the last few template commits",
                        Run(
                            "git log --oneline -n 8 -- templates/",
                            True,
                            "d81e0f3 Credit note: include the VAT block once\n"
                            "7a2c941 Totals partial: show the reverse-charge note",
                        ),
                        *template_steps(12, 3),
                        answer="The last two template commits are d81e0f3 (the VAT fix) and "
                        "7a2c941 (the reverse-charge note in the totals partial).",
                    ),
                ),
            ),
            Query(
                "claude",
                "billing",
                "changed the invoice footer and now `AssertionError: tests/golden/invoice_eu.pdf "
                "differs at byte 18233`, what do i do",
            ),
            expect=one("make golden"),
            junk=("test_render_reverse_charge_", "--invoice INV-2026-"),
            keys=("golden",),
        )
    )

    # -- terse preference: short forms with typos, asked elsewhere ---------------------------------
    c.append(
        Case(
            "h4-terse-type-ignore",
            "terse preference",
            "'nope. no type: ignore evr, fix the actual type' after the agent silenced mypy, in "
            "billing (Codex); asked in api",
            (
                S(
                    "codex",
                    "billing",
                    2,
                    T(
                        "mypy's red on the ledger module, get it green",
                        Run(
                            "mypy billing/ledger",
                            False,
                            'billing/ledger/post.py:57: error: Item "None" of "Account | None" has '
                            'no attribute "currency"  [union-attr]\nFound 1 error in 1 file '
                            "(checked 14 source files)",
                        ),
                        Edit("billing/ledger/post.py"),
                        Run(
                            "mypy billing/ledger",
                            True,
                            "Success: no issues found in 14 source files",
                        ),
                        answer="mypy is green: I added `# type: ignore[union-attr]` on "
                        "billing/ledger/post.py line 57.",
                    ),
                    T(
                        "nope. no type: ignore evr, fix the actual type",
                        Edit("billing/ledger/post.py"),
                        Run(
                            "mypy billing/ledger",
                            True,
                            "Success: no issues found in 14 source files",
                        ),
                        answer="Removed the ignore; post() raises when the account is missing, so "
                        "the type narrows and mypy passes.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"type: ?ignore",
                                "Wants type errors fixed for real, never silenced with "
                                "`# type: ignore`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "api",
                "mypy says the pagination cursor can be None in list_orders, sort it out",
            ),
            expect=one("type: ignore", "type ignore"),
            keys=("type: ignore", "type ignore"),
        )
    )
    c.append(
        Case(
            "h4-terse-lockfiles",
            "terse preference",
            "'dont regen lockfiles unles i ask, i do those myself in a seperate pr' after a "
            "1184-line lock diff, in pipeline; asked in web (Cursor)",
            (
                S(
                    "claude",
                    "pipeline",
                    2,
                    T(
                        "bump polars to 1.9 in pyproject",
                        Edit("pyproject.toml"),
                        Run(
                            "poetry lock",
                            True,
                            "Resolving dependencies... (14.2s)\n\nWriting lock file",
                        ),
                        Run(
                            "git diff --stat",
                            True,
                            " poetry.lock    | 1184 +++++++++++++++++-------------\n"
                            " pyproject.toml |    2 +-",
                        ),
                        answer="polars is at 1.9 in pyproject.toml and poetry.lock is regenerated.",
                    ),
                    T(
                        "1184 lines lol. dont regen lockfiles unles i ask, i do those myself in a "
                        "seperate pr",
                        Run("git checkout -- poetry.lock", True, ""),
                        answer="Reverted poetry.lock; only pyproject.toml changes.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"lock ?files?",
                                "Wants lockfiles regenerated only when asked; does lockfile "
                                "updates in a separate PR.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor", "web", "add zod to the checkout package for the address form validation"
            ),
            expect=one("lockfile", "lockfiles", "lock file", "lock files"),
            keys=("lockfile", "lock file"),
        )
    )
    return c
