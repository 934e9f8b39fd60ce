"""Held-out cases: written after the product's heuristics were tuned on the main set, never used
for tuning, so their score estimates how much the main set's score owes to overfitting.

Same format, categories, projects, calendar and clients as the main set (`cases.py` says what
`expect`, `old`, `foreign`, `junk` and `keys` mean), but different subjects, phrasing and
sentence shapes: facts in parentheses or in the agent's answer, "scratch that", "never mind",
"as of last Friday", a `wikimem remember --path` retracted later in a session. Run them with
`wikimem eval --set heldout` (or `python bench/memory_eval.py --heldout`).

Do not edit a case to make it pass; fix only a case that is itself wrong, and say so in the
commit message.
"""

from __future__ import annotations

from wikimem.evaluate.cases import DAYS, Case, Cli, Drop, Put, Query, S, T, dates, one
from wikimem.evaluate.clients import Edit, Run


def build_heldout_cases() -> list[Case]:
    c: list[Case] = []

    # -- first mention ---------------------------------------------------------------------------
    c.append(
        Case(
            "ho-first-staging-db",
            "first mention",
            "'heads up, staging DB lives on … now' before a CI question; the old host in the answer",
            (
                S(
                    "claude",
                    "infra",
                    1,
                    T(
                        "heads up, staging DB lives on db-stg-2 now. the migrate job in CI keeps "
                        "timing out against it, can you see why?",
                        Run(
                            "grep -rn DATABASE_HOST ci/",
                            True,
                            "ci/migrate.yml:14:  DATABASE_HOST: db-stg-1",
                        ),
                        Edit("ci/migrate.yml"),
                        answer="ci/migrate.yml still had DATABASE_HOST=db-stg-1; I pointed it at "
                        "db-stg-2, so the migrate job can connect again.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"staging (db|database)",
                                "The staging database lives on db-stg-2 (stated 2026-03-02).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "infra", "which host is the staging database on?"),
            expect=one("db-stg-2"),
            old=("db-stg-1",),
            keys=("db-stg", "staging db", "staging database"),
        )
    )
    c.append(
        Case(
            "ho-first-airflow-url",
            "first mention",
            "a URL in a parenthesis after the task, in Cursor",
            (
                S(
                    "cursor",
                    "pipeline",
                    2,
                    T(
                        "Add exponential backoff to the S3 upload task in dags/export.py. (Airflow "
                        "UI is at https://airflow.globex.io:8443 if you want to check past runs, "
                        "SSO login.)",
                        Edit("dags/export.py"),
                        Run("python -m pytest tests/dags/test_export.py -q", True, "6 passed"),
                        answer="The upload task now retries with exponential backoff (base 2 s, "
                        "at most 5 tries); the DAG tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"airflow",
                                "The Airflow UI is at https://airflow.globex.io:8443 (SSO login).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "where can I look at past airflow runs?"),
            expect=one("airflow.globex.io"),
            keys=("airflow",),
        )
    )
    c.append(
        Case(
            "ho-first-sentry-project",
            "first mention",
            "'oh and …' in Gemini CLI, asked in Codex",
            (
                S(
                    "gemini",
                    "web",
                    1,
                    T(
                        "oh and the Sentry project for this app is called web-frontend under the "
                        "acme org. wire the source map upload into the build so stack traces are "
                        "readable",
                        Edit("vite.config.ts"),
                        Run("npm run build", True, "sentry-vite-plugin: uploaded 38 source maps"),
                        answer="The build uploads source maps to Sentry (acme/web-frontend) now; "
                        "the test build uploaded 38 maps.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"sentry",
                                "Errors go to the Sentry project web-frontend in the acme org; "
                                "the build uploads source maps.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "web", "what's our sentry project called?"),
            expect=one("web-frontend"),
            keys=("sentry",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "ho-first-ci-python",
            "first mention",
            "the fact is found by the agent and stated only in its answer",
            (
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "what python does CI actually run? I keep getting different answers",
                        Run(
                            "grep -n python-version .github/workflows/ci.yml",
                            True,
                            "23:          python-version: '3.12.3'",
                        ),
                        answer="CI runs Python 3.12.3; it is pinned as python-version in "
                        ".github/workflows/ci.yml.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"\bci\b.*python|python.*\bci\b",
                                "CI runs Python 3.12.3 (pinned in .github/workflows/ci.yml).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "which python version does the CI pipeline use?"),
            expect=one("3.12"),
            keys=("python-version", "python 3.12"),
        )
    )

    # -- correction ------------------------------------------------------------------------------
    c.append(
        Case(
            "ho-correct-webhook-env",
            "correction",
            "an env var name, then 'scratch that …, I misremembered' two days later",
            (
                S(
                    "claude",
                    "billing",
                    1,
                    T(
                        "the stripe webhook secret comes from STRIPE_WH_SECRET in the environment. "
                        "add a startup check that fails loudly if it's missing",
                        Edit("billing/settings.py"),
                        Run("pytest tests/test_settings.py -q", True, "4 passed in 0.31s"),
                        answer="billing/settings.py now refuses to start without STRIPE_WH_SECRET.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"webhook secret",
                                "The Stripe webhook secret is read from the STRIPE_WH_SECRET "
                                "environment variable.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "billing",
                    3,
                    T(
                        "scratch that about the webhook secret var, I misremembered: it's "
                        "STRIPE_WEBHOOK_SIGNING_SECRET everywhere (helm chart, .env). fix the "
                        "startup check",
                        Edit("billing/settings.py"),
                        Run("grep -rn STRIPE_WH_SECRET billing deploy", True, ""),
                        answer="The startup check reads STRIPE_WEBHOOK_SIGNING_SECRET now; nothing "
                        "references the old name any more.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"webhook secret",
                                "The Stripe webhook secret is read from the "
                                "STRIPE_WEBHOOK_SIGNING_SECRET environment variable (corrected "
                                "2026-03-04; STRIPE_WH_SECRET was a mistake).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor",
                "billing",
                "which environment variable does the stripe webhook secret come from?",
            ),
            expect=one("STRIPE_WEBHOOK_SIGNING_SECRET"),
            old=("STRIPE_WH_SECRET",),
            keys=("webhook secret", "stripe_wh", "stripe_webhook"),
        )
    )
    c.append(
        Case(
            "ho-correct-flag-service",
            "correction",
            "a service named in Cursor; 'we've migrated … off X to Y this week' in Claude Code",
            (
                S(
                    "cursor",
                    "api",
                    1,
                    T(
                        "feature flags are served by Unleash at https://flags.acme.dev/api. turn "
                        "new_checkout off for staging in the seed file",
                        Edit("deploy/flags/staging.yaml"),
                        answer="new_checkout is off for staging in deploy/flags/staging.yaml.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"feature flags?",
                                "Feature flags are served by Unleash at https://flags.acme.dev/api.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "api",
                    4,
                    T(
                        "we've migrated feature flags off Unleash to LaunchDarkly this week, "
                        "flags.acme.dev is being shut down. swap the client in src/flags.py",
                        Edit("src/flags.py"),
                        Run("pytest tests/test_flags.py -q", True, "7 passed in 0.44s"),
                        answer="src/flags.py uses the LaunchDarkly SDK now; the flag tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"feature flags?",
                                "Feature flags are served by LaunchDarkly since the week of "
                                "2026-03-02 (was Unleash at https://flags.acme.dev/api until "
                                "then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "what do we use for feature flags?"),
            expect=one("LaunchDarkly"),
            old=("Unleash", "flags.acme.dev"),
            keys=("feature flag", "unleash", "launchdarkly"),
        )
    )

    # -- preference change -----------------------------------------------------------------------
    c.append(
        Case(
            "ho-pref-commit-style",
            "preference change",
            "Conventional Commits in one repo, 'I've given up on …' in another; asked in a third",
            (
                S(
                    "codex",
                    "billing",
                    1,
                    T(
                        "commit this with a conventional commits message, that's how I like all "
                        "my commits (feat:, fix:, chore: and so on)",
                        Run(
                            'git commit -am "fix(invoices): round tax per line item"',
                            True,
                            "[main 4e1a2b0] fix(invoices): round tax per line item",
                        ),
                        answer='Committed as "fix(invoices): round tax per line item".',
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"style of commit messages|conventional commits",
                                "Writes commit messages in the Conventional Commits format "
                                "(feat:, fix:, chore:).",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "web",
                    3,
                    T(
                        "I've given up on conventional commits, the prefixes were just noise. plain "
                        "imperative subject lines from now on, like 'Add cart badge'. commit what "
                        "we have",
                        Run(
                            'git commit -am "Add cart badge"', True, "[main 91c0d3e] Add cart badge"
                        ),
                        answer='Committed as "Add cart badge".',
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"style of commit messages|conventional commits",
                                "Writes commit messages as plain imperative subject lines (e.g. "
                                "'Add cart badge') since 2026-03-04 (was Conventional Commits "
                                "until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "infra", "write a commit message for these changes"),
            expect=one("imperative"),
            old=("Conventional Commits",),
            keys=("commit message", "conventional commits"),
        )
    )
    c.append(
        Case(
            "ho-pref-python-manager",
            "preference change",
            "pyenv, then 'we've moved off pyenv, uv handles my pythons now'",
            (
                S(
                    "cursor",
                    "dotfiles",
                    2,
                    T(
                        "I manage my Python installs with pyenv, so set the repo's local version "
                        "to 3.12 with it",
                        Run("pyenv local 3.12.4", True, ""),
                        answer="Wrote .python-version with 3.12.4 via pyenv local.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"pyenv|\buv\b|python (installs|installations|versions)",
                                "Manages Python installations with pyenv.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "pipeline",
                    4,
                    T(
                        "we've moved off pyenv, uv handles my pythons now (pyenv is uninstalled). "
                        "pin this repo to 3.13 with uv",
                        Run("uv python pin 3.13", True, "Pinned `.python-version` to `3.13`"),
                        answer="Pinned the repository to Python 3.13 with `uv python pin`.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"pyenv|\buv\b|python (installs|installations|versions)",
                                "Manages Python installations with uv since 2026-03-05 (was pyenv "
                                "until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "set up python 3.13 for this repo"),
            expect=one("uv"),
            old=("pyenv",),
            keys=("pyenv", "uv python"),
        )
    )

    # -- retraction ------------------------------------------------------------------------------
    c.append(
        Case(
            "ho-retract-react-pin",
            "retraction",
            "'careful: … has to stay on React 17', then 'never mind the React 17 thing'",
            (
                S(
                    "codex",
                    "web",
                    1,
                    T(
                        "careful with upgrades: the checkout page has to stay on React 17, the "
                        "payment widget breaks on 18. bump everything else in package.json",
                        Edit("package.json"),
                        Run("npm install", True, "added 12 packages, changed 48 packages in 9s"),
                        answer="Bumped every dependency except the checkout page's React 17 pin.",
                        model=(
                            Put(
                                "P/dependencies.md",
                                r"react 17|checkout.*react|react.*checkout",
                                "The checkout page has to stay on React 17: the payment widget "
                                "breaks on React 18.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    3,
                    T(
                        "never mind the React 17 thing for checkout, the widget vendor shipped an "
                        "18-compatible build this morning. it can go up with everything else",
                        Edit("apps/checkout/package.json"),
                        answer="The checkout page is on React 18 now, like the rest of the app.",
                        model=(
                            Put(
                                "P/dependencies.md",
                                r"react 17|checkout.*react|react.*checkout",
                                "The checkout page runs React 18 like the rest of the app (its "
                                "React 17 pin was lifted on 2026-03-04).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "web", "can the checkout page be upgraded to React 18?"),
            old=("stay on React 17",),
            keys=("react 17", "checkout"),
        )
    )
    c.append(
        Case(
            "ho-retract-dedupe-order",
            "retraction",
            "'for future reference …', then 'turns out … was wrong'",
            (
                S(
                    "claude",
                    "pipeline",
                    2,
                    T(
                        "for future reference, the dedupe job must run before the aggregates job "
                        "or the daily counts come out doubled. add that dependency to the DAG",
                        Edit("dags/daily.py"),
                        answer="dags/daily.py now runs dedupe before aggregates.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"dedupe",
                                "The dedupe job must run before the aggregates job, otherwise "
                                "daily counts are doubled.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "pipeline",
                    4,
                    T(
                        "turns out the dedupe-before-aggregates thing was wrong, aggregates dedupe "
                        "on their own since the v3 refactor. drop that dependency, the two jobs "
                        "can run in any order",
                        Edit("dags/daily.py"),
                        answer="Removed the dedupe -> aggregates dependency; the two jobs run in "
                        "parallel now.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"dedupe",
                                "The dedupe and aggregates jobs can run in any order (aggregates "
                                "dedupe on their own since the v3 refactor).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex", "pipeline", "does dedupe have to finish before the aggregates job starts?"
            ),
            expect=one("any order", "in parallel", "dedupe on their own"),
            old=("must run before",),
            keys=("dedupe",),
        )
    )

    # -- pitfall and fix -------------------------------------------------------------------------
    c.append(
        Case(
            "ho-pitfall-port-5432",
            "pitfall and fix",
            "compose fails on a taken port; diagnosis and fix in the agent's second sentence",
            (
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "bring up the local stack",
                        Run(
                            "docker compose up -d",
                            False,
                            "Error response from daemon: driver failed programming external "
                            "connectivity on endpoint api-db-1: Bind for 0.0.0.0:5432 failed: port "
                            "is already allocated",
                        ),
                        Run(
                            "sudo ss -ltnp 'sport = :5432'",
                            True,
                            'LISTEN 0 244 127.0.0.1:5432 users:(("postgres",pid=911))',
                        ),
                        Run("sudo systemctl stop postgresql", True, ""),
                        Run(
                            "docker compose up -d",
                            True,
                            "Container api-db-1  Started\nContainer api-web-1  Started",
                        ),
                        answer="The stack is up. A PostgreSQL installed on the host was already "
                        "listening on 5432, so the db container could not bind the port; I "
                        "stopped it with `sudo systemctl stop postgresql`. `sudo systemctl "
                        "disable postgresql` would keep it from starting at boot.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"5432|port is already allocated",
                                "`docker compose up` fails with 'Bind for 0.0.0.0:5432 failed: "
                                "port is already allocated' when the host's own PostgreSQL is "
                                "running: stop it with `sudo systemctl stop postgresql`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex", "api", "docker compose up -d dies with port is already allocated on 5432"
            ),
            expect=one("systemctl stop postgresql"),
            keys=("5432",),
        )
    )
    c.append(
        Case(
            "ho-pitfall-mypy-stubs",
            "pitfall and fix",
            "a red typecheck job; the fix is the agent's FIRST sentence, the cause its second",
            (
                S(
                    "codex",
                    "billing",
                    3,
                    T(
                        "CI is red on the typecheck job, get it green",
                        Run(
                            "mypy billing",
                            False,
                            'billing/fx.py:3: error: Library stubs not installed for "requests"  '
                            "[import-untyped]\nFound 1 error in 1 file (checked 48 source files)",
                        ),
                        Edit("pyproject.toml"),
                        Run(
                            "pip install -e '.[dev]'",
                            True,
                            "Successfully installed types-requests-2.32.0.20240914",
                        ),
                        Run("mypy billing", True, "Success: no issues found in 48 source files"),
                        answer="Adding types-requests to the dev extras in pyproject.toml fixes "
                        "it. mypy failed with 'Library stubs not installed for \"requests\"' "
                        "because the stubs package was never declared. The typecheck passes "
                        "locally now.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"stubs|types-requests",
                                "mypy fails with 'Library stubs not installed for \"requests\"' "
                                "unless `types-requests` is in the dev extras of pyproject.toml.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "mypy complains: Library stubs not installed for requests"),
            expect=one("types-requests"),
            keys=("types-requests", "stubs"),
        )
    )

    # -- two projects, opposite conventions --------------------------------------------------------
    snake = ("snake_case", "snake case")
    camel = ("camelCase", "camel case")
    c.append(
        Case(
            "ho-conv-json-api",
            "opposite conventions",
            "snake_case response keys in acme/api, stated in Gemini CLI",
            (
                S(
                    "gemini",
                    "api",
                    2,
                    T(
                        "response bodies use snake_case keys, the mobile apps deserialize them "
                        "as-is. the new /orders/summary endpoint has to follow that",
                        Edit("src/api/orders.py"),
                        Run("pytest tests/api/test_orders_summary.py -q", True, "3 passed"),
                        answer="The /orders/summary response uses snake_case keys (order_count, "
                        "total_cents); its tests pass.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"json key casing|snake_case|camelcase",
                                "API response bodies use snake_case keys (the mobile apps "
                                "deserialize them as-is).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "what casing should JSON keys in responses use?"),
            expect=(snake,),
            foreign=camel,
            keys=("snake_case", "camelcase"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "ho-conv-json-billing",
            "opposite conventions",
            "camelCase payload keys in initech/billing",
            (
                S(
                    "codex",
                    "billing",
                    2,
                    T(
                        "payload keys are camelCase all the way through, they map 1:1 onto the "
                        "frontend's TypeScript types. rename the fields in the refund serializer "
                        "to match",
                        Edit("billing/serializers/refund.py"),
                        answer="The refund serializer emits refundId, amountCents and createdAt.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"json key casing|snake_case|camelcase",
                                "JSON payload keys are camelCase throughout, matching the "
                                "frontend's TypeScript types.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "what key casing do our JSON payloads use?"),
            expect=(camel,),
            foreign=snake,
            keys=("snake_case", "camelcase"),
        )
    )

    # -- since when ------------------------------------------------------------------------------
    c.append(
        Case(
            "ho-since-load-balancer",
            "since when",
            "'since Tuesday …' said on Thursday",
            (
                S(
                    "cursor",
                    "infra",
                    4,
                    T(
                        "since Tuesday all prod traffic goes through lb-prod-02, the old balancer "
                        "only serves the status page. redraw the runbook diagram",
                        Edit("docs/runbook/traffic.md"),
                        answer="The runbook diagram routes production traffic through lb-prod-02.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"load balancer|lb-prod",
                                "All production traffic goes through the load balancer lb-prod-02 "
                                "since 2026-03-03; the old balancer only serves the status page.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "infra", "since when does prod traffic go through lb-prod-02?"),
            expect=(dates(DAYS[2]), ("lb-prod-02",)),
            same_line=True,
            keys=("lb-prod",),
        )
    )
    c.append(
        Case(
            "ho-since-parquet",
            "since when",
            "'as of last Friday …' said on a Tuesday (a date before the calendar starts)",
            (
                S(
                    "codex",
                    "pipeline",
                    2,
                    T(
                        "as of last Friday the exporter writes parquet instead of CSV, so the "
                        "downstream reader in reports/ has to change too",
                        Edit("reports/reader.py"),
                        answer="reports/reader.py reads the Parquet exports now.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"parquet",
                                "The exporter writes Parquet instead of CSV since 2026-02-27.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "since when does the exporter write parquet?"),
            expect=(dates("2026-02-27"), ("parquet",)),
            same_line=True,
            keys=("parquet",),
        )
    )

    # -- remember / forget -----------------------------------------------------------------------
    c.append(
        Case(
            "ho-remember-issuer",
            "remember/forget",
            "`wikimem remember` of an infra rule, asked in Gemini CLI",
            (
                Cli(
                    "infra",
                    1,
                    (
                        "remember",
                        "TLS certificates for *.acme.dev are issued by cert-manager through the "
                        "ClusterIssuer letsencrypt-prod; never create certificates by hand.",
                    ),
                ),
            ),
            Query("gemini", "infra", "which cluster issuer signs our certs?"),
            expect=one("letsencrypt-prod"),
            keys=("letsencrypt", "cert-manager"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "ho-remember-then-unsay",
            "remember/forget",
            "`wikimem remember --path`, then 'forget what you know about …' in a session",
            (
                Cli(
                    "dotfiles",
                    1,
                    (
                        "remember",
                        "--path",
                        "projects/{{dotfiles}}/hosts.md",
                        "The NAS is at 192.168.1.20 and the sync script mounts it over NFS.",
                    ),
                ),
                S(
                    "claude",
                    "dotfiles",
                    3,
                    T(
                        "forget what you know about the NAS address, I re-addressed the whole LAN "
                        "and haven't settled on the new IPs yet. just make the sync script read "
                        "NAS_HOST from the env",
                        Edit("sync.sh"),
                        answer="sync.sh reads the NAS address from NAS_HOST now.",
                        model=(Drop("P/hosts.md", r"\bnas\b"),),
                    ),
                ),
            ),
            Query("codex", "dotfiles", "what's the IP of the NAS?"),
            old=("192.168.1.20",),
            keys=("nas",),
        )
    )

    # -- not about the person --------------------------------------------------------------------
    c.append(
        Case(
            "ho-notme-rush",
            "not about the person",
            "'I'm in a rush today, just give me the diff' must not become a profile fact",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "I'm in a rush today, just give me the diff for the retry fix, no "
                        "explanation",
                        Edit("pipeline/retry.py"),
                        answer="pipeline/retry.py: max_attempts 3 -> 5, backoff now jittered.",
                    ),
                ),
            ),
            Query("claude", "web", "what do you know about how I like to work?"),
            junk=("in a rush",),
            keys=("rush",),
        )
    )
    c.append(
        Case(
            "ho-notme-tethered",
            "not about the person",
            "'I'm tethered to my phone right now' (a passing circumstance)",
            (
                S(
                    "claude",
                    "billing",
                    2,
                    T(
                        "I'm tethered to my phone right now so the connection is awful. skip the "
                        "docker pull and just run the unit tests",
                        Run("pytest tests/unit -q", True, "88 passed in 3.90s"),
                        answer="All 88 unit tests pass.",
                    ),
                ),
            ),
            Query("cursor", "dotfiles", "what should you know about me?"),
            junk=("tethered",),
            keys=("tethered",),
        )
    )
    return c
