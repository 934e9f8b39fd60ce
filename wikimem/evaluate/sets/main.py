"""The main set: the cases the memory's rules were built and tuned on.

First mention, correction, preference change, retraction, pitfall and fix, opposite conventions
in two projects, a noisy session, `wikimem remember`/`forget`, "since when", releases, one-off
command variants, passing states that are not facts about the person, a note longer than a
model prompt shows and more profile notes than it has slots. The format is `cases.py`'s.
"""

from __future__ import annotations

from wikimem.evaluate.cases import DAYS, Case, Cli, Drop, Put, Query, S, T, dates, one
from wikimem.evaluate.clients import Edit, Run


def noisy_steps(n: int, seed: int, failing_every: int = 0) -> tuple[Run | Edit, ...]:
    """`n` tool calls of ordinary work: reads, searches, edits, single-test runs (one-off
    variants on purpose), status checks."""
    out: list[Run | Edit] = []
    for i in range(n):
        k = (i * 7 + seed) % 6
        name = f"route_{(i * 13 + seed) % 97:02d}"
        if k == 0:
            out.append(Run(f"sed -n '1,80p' src/handlers/{name}.py", True, "def handler(req):\n"))
        elif k == 1:
            out.append(Run(f'grep -rn "{name}" src tests', True, f"src/handlers/{name}.py:3"))
        elif k == 2:
            out.append(Edit(f"src/handlers/{name}.py"))
        elif k == 3:
            ok = not (failing_every and i % failing_every == 3)
            out.append(
                Run(
                    f"pytest tests/handlers/test_{name}.py -q",
                    ok,
                    "1 passed in 0.21s"
                    if ok
                    else f"FAILED tests/handlers/test_{name}.py::test_get",
                )
            )
        elif k == 4:
            out.append(Run("git status --short", True, f" M src/handlers/{name}.py"))
        else:
            out.append(Run(f"ls src/handlers | head -n {i % 40 + 3}", True, f"{name}.py"))
    return tuple(out)


def build_cases() -> list[Case]:
    c: list[Case] = []

    # -- first mention, casual phrasing --------------------------------------------------------
    c.append(
        Case(
            "first-staging-host",
            "first mention",
            "a host named in passing, asked about from another client",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "btw the staging box is staging-3.acme.internal, deploys go there before "
                        "prod. Can you check why the health endpoint returns 500?",
                        Run(
                            "curl -s https://staging-3.acme.internal/health",
                            True,
                            '{"status":"error","db":"timeout"}',
                        ),
                        answer="The health endpoint reports a database timeout on staging; the "
                        "app itself is up.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"staging (box|host|server)",
                                "The staging host is staging-3.acme.internal; deploys go there "
                                "before production (stated 2026-03-02).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "what's the hostname of the staging server?"),
            expect=one("staging-3.acme.internal"),
            keys=("staging-3",),
        )
    )
    c.append(
        Case(
            "first-etl-time",
            "first mention",
            "a schedule mentioned with 'fyi' before an unrelated task",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "fyi the nightly ETL kicks off at 02:30 UTC, so never schedule migrations "
                        "around then. Let's look at why the loader is slow.",
                        Run(
                            "python -m pipeline.profile loader", True, "loader: 41.2s (parse 30.1s)"
                        ),
                        answer="Parsing dominates: 30 of the 41 seconds are spent in the CSV parser.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"nightly etl",
                                "The nightly ETL starts at 02:30 UTC; never schedule migrations "
                                "around that time.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "when does the nightly ETL start?"),
            expect=one("02:30"),
            keys=("nightly etl", "02:30"),
        )
    )
    c.append(
        Case(
            "first-design-owner",
            "first mention",
            "an owner named in Cursor, asked about in Claude Code",
            (
                S(
                    "cursor",
                    "web",
                    2,
                    T(
                        "the design system lives in packages/ui and Maria Chen owns it, so ping her "
                        "before changing tokens. Now please bump the button padding to 12px.",
                        Edit("packages/ui/src/button.css"),
                        answer="Bumped the button padding to 12px in packages/ui/src/button.css.",
                        model=(
                            Put(
                                "P/ownership.md",
                                r"design system",
                                "The design system lives in packages/ui and is owned by Maria "
                                "Chen; ask her before changing design tokens.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "who owns the design system?"),
            expect=one("Maria Chen"),
            keys=("maria", "design system"),
        )
    )
    c.append(
        Case(
            "first-pdf-renderer",
            "first mention",
            "a tool version mentioned with 'just so you know'",
            (
                S(
                    "claude",
                    "billing",
                    1,
                    T(
                        "just so you know, the PDF renderer is wkhtmltopdf 0.12.6 and it doesn't "
                        "support CSS grid. Can you fix the invoice layout?",
                        Edit("templates/invoice.css"),
                        Run("python -m billing.render --sample", True, "wrote sample.pdf"),
                        answer="Replaced the grid in templates/invoice.css with floats; the sample "
                        "invoice renders correctly.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"pdf renderer|wkhtmltopdf",
                                "Invoices are rendered to PDF with wkhtmltopdf 0.12.6, which does "
                                "not support CSS grid.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "which PDF renderer do we use for invoices?"),
            expect=one("wkhtmltopdf"),
            keys=("wkhtmltopdf",),
        )
    )
    c.append(
        Case(
            "first-redis-port",
            "first mention",
            "a host and port given while fixing a test; asked in Cursor (session start only)",
            (
                S(
                    "codex",
                    "api",
                    2,
                    T(
                        "The auth service talks to Redis on redis-auth:6380, not the default port, "
                        "that's why your test config failed. Fix the test settings.",
                        Edit("tests/settings.py"),
                        Run("pytest tests/auth -q", True, "14 passed in 2.10s"),
                        answer="Pointed the test settings at redis-auth:6380; the auth tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"redis",
                                "The auth service uses Redis at redis-auth:6380 (not the default "
                                "port 6379).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "api", "the auth tests can't reach redis, which host and port?"),
            expect=one("redis-auth:6380", "6380"),
            keys=("redis",),
        )
    )
    c.append(
        Case(
            "first-raw-bucket",
            "first mention",
            "a bucket named while asking for a change",
            (
                S(
                    "claude",
                    "pipeline",
                    3,
                    T(
                        "our bucket for raw dumps is s3://globex-raw-eu1 now, the old one got "
                        "deleted. Point the exporter there.",
                        Edit("pipeline/export.py"),
                        answer="The exporter now writes to s3://globex-raw-eu1.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"raw dumps|bucket",
                                "Raw dumps go to the S3 bucket s3://globex-raw-eu1.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "pipeline", "which bucket should the exporter write raw dumps to?"),
            expect=one("globex-raw-eu1"),
            keys=("globex-raw",),
        )
    )
    c.append(
        Case(
            "first-rclone-version",
            "first mention",
            "a requirement with 'heads up' in a repository without a remote",
            (
                S(
                    "codex",
                    "dotfiles",
                    1,
                    T(
                        "heads up: the backup script needs rclone 1.66 or newer, older ones choke "
                        "on the crypt remote. Check what we have installed.",
                        Run("rclone version", True, "rclone v1.66.0\n- os/version: debian 12"),
                        answer="rclone 1.66.0 is installed, so the backup script will work.",
                        model=(
                            Put(
                                "P/requirements.md",
                                r"rclone",
                                "The backup script needs rclone 1.66 or newer (older versions fail "
                                "on the crypt remote).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "dotfiles", "what rclone version does the backup script need?"),
            expect=one("1.66"),
            keys=("rclone",),
        )
    )

    # -- correction, a session later, in another client ------------------------------------------
    c.append(
        Case(
            "correct-collector-port",
            "correction",
            "port 9102 in Claude Code, moved to 9300 'on Monday' in Codex two days later",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "by the way, the metrics collector runs on port 9102 here. Add it to the "
                        "prometheus scrape config.",
                        Edit("deploy/prometheus.yml"),
                        answer="Added the collector on :9102 to deploy/prometheus.yml.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"metrics collector",
                                "The metrics collector listens on port 9102.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "the collector was moved to 9300 on Monday, please fix the dashboards",
                        Edit("dashboards/collector.json"),
                        Run("make dashboards-lint", True, "3 dashboards ok"),
                        answer="Updated the dashboards to scrape the collector on port 9300.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"metrics collector",
                                "The metrics collector listens on port 9300 since 2026-03-02 (was "
                                "9102 until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "which port does the metrics collector use?"),
            expect=one("9300"),
            old=("9102",),
            keys=("collector", "9102", "9300"),
        )
    )
    c.append(
        Case(
            "correct-warehouse-host",
            "correction",
            "warehouse host in Codex, migrated 'yesterday' in Cursor",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "the warehouse lives at warehouse-a.globex.io, use the readonly user for "
                        "queries. How many rows does the events table have?",
                        Run(
                            "psql -h warehouse-a.globex.io -U readonly -c 'select count(*) from events'",
                            True,
                            " count\n----------\n 18234411\n(1 row)",
                        ),
                        answer="The events table has 18,234,411 rows.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"warehouse",
                                "The data warehouse is at warehouse-a.globex.io; query it as the "
                                "readonly user.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "pipeline",
                    3,
                    T(
                        "we migrated the warehouse to warehouse-b.globex.io yesterday, update the "
                        "connection strings",
                        Edit("pipeline/settings.py"),
                        answer="The connection strings now point at warehouse-b.globex.io.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"warehouse",
                                "The data warehouse is at warehouse-b.globex.io since 2026-03-03 "
                                "(was warehouse-a.globex.io until then); query it as the readonly "
                                "user.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "what's the warehouse hostname for the connection string?"),
            expect=one("warehouse-b.globex.io"),
            old=("warehouse-a.globex.io",),
            keys=("warehouse",),
        )
    )
    c.append(
        Case(
            "correct-invoice-time",
            "correction",
            "a cron time restated a day later, asked in Cursor (session start only)",
            (
                S(
                    "claude",
                    "billing",
                    1,
                    T(
                        "invoices are generated by the cron job at 06:00 every day. Add a log line "
                        "when it starts.",
                        Edit("billing/cron.py"),
                        answer="The invoice cron job now logs when it starts.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"invoice",
                                "Invoices are generated daily by the cron job at 06:00.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "billing",
                    2,
                    T(
                        "finance asked us to move invoice generation to 07:15, it's already changed "
                        "in the crontab, just update the docs",
                        Edit("docs/operations.md"),
                        answer="docs/operations.md now says invoices are generated at 07:15.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"invoice",
                                "Invoices are generated daily by the cron job at 07:15 since "
                                "2026-03-03 (was 06:00 until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "what time does invoice generation run?"),
            expect=one("07:15"),
            old=("06:00",),
            keys=("invoice", "06:00", "07:15"),
        )
    )
    c.append(
        Case(
            "correct-local-api-url",
            "correction",
            "a local URL in Cursor, changed three days later in Claude Code",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "for local dev the API base URL is http://localhost:4000. Wire the fetch "
                        "client to it.",
                        Edit("src/api/client.ts"),
                        answer="The fetch client reads API_BASE_URL, defaulting to "
                        "http://localhost:4000.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"local (dev|api)|base url",
                                "For local development the API base URL is http://localhost:4000.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    4,
                    T(
                        "local API is on http://localhost:5055 now, 4000 clashed with grafana. "
                        "Update the env example.",
                        Edit(".env.example"),
                        answer="Set API_BASE_URL=http://localhost:5055 in .env.example.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"local (dev|api)|base url",
                                "For local development the API base URL is http://localhost:5055 "
                                "since 2026-03-05 (was port 4000 until then, which clashed with "
                                "Grafana).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "web", "what is the local API base URL?"),
            expect=one("localhost:5055"),
            old=("localhost:4000",),
            keys=("localhost", "base url"),
        )
    )
    c.append(
        Case(
            "correct-backup-target",
            "correction",
            "a backup path in Claude Code, replaced in Cursor two days later",
            (
                S(
                    "claude",
                    "dotfiles",
                    2,
                    T(
                        "the backup script writes to /mnt/backup-old. Make it log the size of each "
                        "run.",
                        Edit("backup.sh"),
                        answer="backup.sh now logs the size of each run.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"backup script writes|backups? go",
                                "The backup script writes to /mnt/backup-old.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "dotfiles",
                    4,
                    T(
                        "backups go to /srv/backups now, the old disk died last night. Fix the "
                        "script and the README.",
                        Edit("backup.sh"),
                        Edit("README.md"),
                        answer="backup.sh and the README now use /srv/backups.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"backup script writes|backups? go",
                                "The backup script writes to /srv/backups since 2026-03-04 (was "
                                "/mnt/backup-old until that disk died).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "dotfiles", "where does the backup script write to?"),
            expect=one("/srv/backups"),
            old=("/mnt/backup-old",),
            keys=("backup",),
        )
    )

    # -- preference change (about the person, across projects) ----------------------------------
    c.append(
        Case(
            "pref-package-manager",
            "preference change",
            "pnpm in one repository, bun two days later in another; asked in a third (Cursor)",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "I always use pnpm for JS stuff, never npm. Install the lint deps.",
                        Run("pnpm add -D eslint", True, "+ eslint 9.12.0"),
                        answer="Installed eslint with pnpm.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\b(pnpm|npm|bun)\b|package manager",
                                "Uses pnpm for JavaScript projects, never npm.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "web",
                    3,
                    T(
                        "We switched to bun for all JS projects, don't use pnpm anymore. "
                        "Reinstall the deps.",
                        Run("bun install", True, "312 packages installed [1.40s]"),
                        answer="Reinstalled the dependencies with bun.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\b(pnpm|npm|bun)\b|package manager",
                                "Uses bun for all JavaScript projects since 2026-03-04 (was pnpm "
                                "until then); never npm.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "install the dependencies for the dashboard"),
            expect=one("bun"),
            old=("pnpm",),
            keys=("pnpm", "bun"),
        )
    )
    c.append(
        Case(
            "pref-merge-style",
            "preference change",
            "squash merges, then rebase merges 'no more squash'",
            (
                S(
                    "codex",
                    "billing",
                    1,
                    T(
                        "I prefer squash merges for my PRs, keep the history flat. Open the PR "
                        "for this branch.",
                        Run(
                            "gh pr create --fill",
                            True,
                            "https://github.com/initech/billing/pull/41",
                        ),
                        answer="Opened PR #41.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"merges?\b",
                                "Prefers squash merges for pull requests (flat history).",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "pipeline",
                    4,
                    T(
                        "I've switched to rebase merges, no more squash. Merge PR 42 that way.",
                        Run("gh pr merge 42 --rebase", True, "Rebased and merged pull request #42"),
                        answer="Merged PR #42 with a rebase.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"merges?\b",
                                "Prefers rebase merges for pull requests since 2026-03-05 (was "
                                "squash merges until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "how should I merge this PR?"),
            expect=one("rebase"),
            old=("squash",),
            keys=("merge", "squash", "rebase"),
        )
    )
    c.append(
        Case(
            "pref-timezone",
            "preference change",
            "a timezone stated, then a move 'last week'",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "my timezone is Europe/Berlin, so schedule the weekly report for 9am my "
                        "time.",
                        Edit("ops/schedule.yaml"),
                        answer="The weekly report is scheduled for 09:00 Europe/Berlin.",
                        model=(Put("profile/about.md", r"timezone", "Timezone: Europe/Berlin."),),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "I moved to Lisbon last week, my timezone is Europe/Lisbon now. Update the "
                        "cron comment.",
                        Edit("deploy/crontab"),
                        answer="The crontab comment now says Europe/Lisbon.",
                        model=(
                            Put(
                                "profile/about.md",
                                r"timezone",
                                "Timezone: Europe/Lisbon since late February 2026 (was "
                                "Europe/Berlin until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "what timezone am I in?"),
            expect=one("Europe/Lisbon"),
            old=("Europe/Berlin",),
            keys=("timezone", "berlin", "lisbon"),
        )
    )
    c.append(
        Case(
            "pref-formatter",
            "preference change",
            "black, then 'we dropped black' for ruff format",
            (
                S(
                    "claude",
                    "dotfiles",
                    2,
                    T(
                        "I like black for formatting Python. Format the helper scripts.",
                        Run("black scripts/", True, "reformatted 3 files"),
                        answer="Formatted scripts/ with black (3 files changed).",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"format",
                                "Formats Python with black.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "billing",
                    4,
                    T(
                        "we dropped black, I format everything with ruff format now. Reformat "
                        "the invoices package.",
                        Run("ruff format invoices/", True, "5 files reformatted"),
                        answer="Reformatted invoices/ with ruff format.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"format",
                                "Formats Python with ruff format since 2026-03-05 (was black "
                                "until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "pipeline", "which formatter should I run on this Python code?"),
            expect=one("ruff format"),
            old=("black",),
            keys=("black", "ruff format", "formatt"),
        )
    )

    # -- retraction ------------------------------------------------------------------------------
    c.append(
        Case(
            "retract-vpn",
            "retraction",
            "'remember that …', then 'forget that' in another client",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "remember that the payments sandbox needs VPN access",
                        answer="Noted: the payments sandbox needs VPN access.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"payments sandbox",
                                "The payments sandbox requires VPN access.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "forget that, the payments sandbox no longer needs the VPN",
                        answer="Understood.",
                        model=(Drop("P/environment.md", r"payments sandbox"),),
                    ),
                ),
            ),
            Query("claude", "api", "do I need the VPN to reach the payments sandbox?"),
            old=("VPN",),
            keys=("payments sandbox",),
        )
    )
    c.append(
        Case(
            "retract-loader-retries",
            "retraction",
            "'note that …', then 'that's no longer true' with the new behaviour",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "note that the loader retries 5 times on timeout before giving up",
                        answer="Noted.",
                        model=(
                            Put(
                                "P/behaviour.md",
                                r"loader.*retr|retr.*loader",
                                "The loader retries 5 times on timeout before giving up.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "pipeline",
                    3,
                    T(
                        "that's no longer true, we removed the loader retries entirely. It fails "
                        "fast now.",
                        answer="Understood: the loader fails fast on timeout.",
                        model=(
                            Put(
                                "P/behaviour.md",
                                r"loader.*retr|retr.*loader",
                                "The loader does not retry on timeout; it fails fast (retries "
                                "removed by 2026-03-04).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "does the loader retry on timeout?"),
            expect=one("fails fast", "fail fast", "does not retry", "no retries"),
            old=("5 times",),
            keys=("loader", "retr"),
        )
    )
    c.append(
        Case(
            "retract-e2e-flaky",
            "retraction",
            "'keep in mind …', then 'scratch what I said'",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "keep in mind that the e2e suite is flaky on Fridays because of the shared "
                        "staging DB",
                        answer="Noted.",
                        model=(
                            Put(
                                "P/testing.md",
                                r"e2e",
                                "The e2e suite is flaky on Fridays because of the shared staging "
                                "database.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    4,
                    T(
                        "scratch what I said about the e2e suite being flaky, that got fixed when "
                        "we got our own staging DB",
                        answer="Understood.",
                        model=(Drop("P/testing.md", r"e2e"),),
                    ),
                ),
            ),
            Query("codex", "web", "is the e2e suite reliable?"),
            old=("flaky on Fridays",),
            keys=("e2e",),
        )
    )
    c.append(
        Case(
            "retract-vat-file",
            "retraction",
            "'for the record …', then 'ignore what I said'",
            (
                S(
                    "codex",
                    "billing",
                    2,
                    T(
                        "for the record, the VAT rates are hardcoded in config/vat_2025.yaml",
                        answer="Noted.",
                        model=(
                            Put(
                                "P/notes.md",
                                r"\bvat\b",
                                "VAT rates are hardcoded in config/vat_2025.yaml.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "billing",
                    4,
                    T(
                        "ignore what I said about the VAT file, the rates come from the tax API "
                        "now and vat_2025.yaml is gone",
                        answer="Understood.",
                        model=(
                            Put(
                                "P/notes.md",
                                r"\bvat\b",
                                "VAT rates come from the tax API since 2026-03-05 (formerly "
                                "hardcoded in config/vat_2025.yaml).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "billing", "where do the VAT rates come from?"),
            expect=one("tax API"),
            old=("vat_2025",),
            keys=("vat",),
        )
    )

    # -- pitfall and fix -------------------------------------------------------------------------
    c.append(
        Case(
            "pitfall-editable-install",
            "pitfall and fix",
            "a failing pytest, the fix in the agent's third sentence",
            (
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "run the api tests",
                        Run(
                            "pytest tests/api -q",
                            False,
                            "ImportError while loading conftest '/repo/tests/conftest.py'.\n"
                            "ModuleNotFoundError: No module named 'acme_api'",
                        ),
                        Run("pip install -e .", True, "Successfully installed acme-api-0.4.1"),
                        Run("pytest tests/api -q", True, "212 passed in 9.81s"),
                        answer="All 212 API tests pass now. The first run failed while loading "
                        "conftest.py. The package was not installed in the virtualenv, so I "
                        "installed it in editable mode with `pip install -e .` and reran pytest.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"acme_api|modulenotfound",
                                "`pytest` fails with `ModuleNotFoundError: No module named "
                                "'acme_api'` when the package is not installed: run `pip install "
                                "-e .` first (seen 2026-03-03).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "api",
                "pytest fails with ModuleNotFoundError: No module named 'acme_api', how do I fix it?",
            ),
            expect=one("pip install -e"),
            keys=("acme_api", "modulenotfound"),
        )
    )
    c.append(
        Case(
            "pitfall-march-native",
            "pitfall and fix",
            "a failing build fixed by an edit the agent explains in its third sentence",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "build the native extension",
                        Run(
                            "make build",
                            False,
                            "gcc: error: unrecognized command-line option '-march=native'\n"
                            "make: *** [Makefile:12: ext] Error 1",
                        ),
                        Edit("Makefile"),
                        Run("make build", True, "built pipeline/_fast.so"),
                        answer="The extension builds now. The compiler in the container rejects "
                        "-march=native. I changed CFLAGS in the Makefile to -O2 -mtune=generic, "
                        "which every compiler we use accepts.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"march",
                                "`make build` fails with `unrecognized command-line option "
                                "'-march=native'` in the container: CFLAGS in the Makefile are "
                                "`-O2 -mtune=generic`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "pipeline",
                "make build says unrecognized command-line option -march=native, what was the fix?",
            ),
            expect=one("mtune=generic"),
            keys=("march", "mtune"),
        )
    )
    c.append(
        Case(
            "pitfall-heap",
            "pitfall and fix",
            "an out-of-memory build in Cursor, fixed by an edit explained in the third sentence",
            (
                S(
                    "cursor",
                    "web",
                    2,
                    T(
                        "the production build is broken, fix it",
                        Run(
                            "npm run build",
                            False,
                            "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap "
                            "out of memory",
                        ),
                        Edit("package.json"),
                        Run("npm run build", True, "built in 48.2s"),
                        answer="The build passes again. It ran out of memory while bundling the "
                        "charts package. I set NODE_OPTIONS=--max-old-space-size=4096 in the build "
                        "script in package.json.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"heap|out of memory",
                                "`npm run build` runs out of memory (JavaScript heap out of "
                                "memory): the build script sets "
                                "NODE_OPTIONS=--max-old-space-size=4096 in package.json.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude", "web", "the web build crashes with JavaScript heap out of memory, why?"
            ),
            expect=one("max-old-space-size"),
            keys=("heap", "max-old-space"),
        )
    )
    c.append(
        Case(
            "pitfall-alembic-heads",
            "pitfall and fix",
            "a failing migration fixed by another command, explained in the third sentence",
            (
                S(
                    "claude",
                    "billing",
                    3,
                    T(
                        "apply the migrations",
                        Run(
                            "alembic upgrade head",
                            False,
                            "ERROR [alembic.util.messaging] Multiple head revisions are present "
                            "for given argument 'head'",
                        ),
                        Run(
                            'alembic merge heads -m "merge heads"',
                            True,
                            "Generating migrations/versions/3f2a_merge_heads.py ... done",
                        ),
                        Run("alembic upgrade head", True, "Running upgrade 3f2a -> 9c1d"),
                        answer="The migrations are applied. Two branches had each added a "
                        "migration, so alembic saw two heads. Running `alembic merge heads` "
                        "created a merge revision, and then `alembic upgrade head` went through.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"multiple head",
                                "`alembic upgrade head` fails with 'Multiple head revisions are "
                                "present' after parallel branches: run `alembic merge heads -m "
                                '"merge heads"`, then upgrade again.',
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "alembic upgrade says multiple head revisions are present"),
            expect=one("alembic merge heads"),
            keys=("alembic",),
        )
    )
    c.append(
        Case(
            "pitfall-symlink",
            "pitfall and fix",
            "a failing install script fixed by an edit (repository without a remote)",
            (
                S(
                    "codex",
                    "dotfiles",
                    3,
                    T(
                        "run the installer",
                        Run(
                            "./install.sh",
                            False,
                            "ln: failed to create symbolic link '/home/u/.config/nvim': File exists",
                        ),
                        Edit("install.sh"),
                        Run("./install.sh", True, "linked 14 files"),
                        answer="install.sh runs cleanly now. It failed because ~/.config/nvim "
                        "already existed as a directory. I made the script use `ln -sfn` and move "
                        "an existing directory to *.bak first.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"install\.sh|symbolic link",
                                "`./install.sh` fails with 'File exists' when a target such as "
                                "~/.config/nvim already exists: the script uses `ln -sfn` and "
                                "moves the old directory to *.bak.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "dotfiles", "install.sh fails with File exists on .config/nvim"),
            expect=one("ln -sfn"),
            keys=("install.sh", "symbolic link"),
        )
    )

    # -- two projects, opposite conventions, stated without "here" ------------------------------
    two_space = ("2-space", "2 spaces", "two spaces", "two-space")
    four_space = ("4-space", "4 spaces", "four spaces", "four-space")
    c.append(
        Case(
            "conv-indent-web",
            "opposite conventions",
            "2-space in acme/web; the question in acme/web",
            (
                S(
                    "claude",
                    "web",
                    1,
                    T(
                        "Always use 2-space indentation and never use default exports.",
                        Edit("src/components/Header.tsx"),
                        answer="Reformatted Header.tsx with 2-space indentation and a named "
                        "export.",
                        model=(
                            Put("P/conventions.md", r"indent", "Indent with 2 spaces."),
                            Put(
                                "P/conventions.md",
                                r"default export",
                                "Never use default exports; use named exports.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "web", "what indentation do we use in this codebase?"),
            expect=(two_space,),
            foreign=four_space,
            keys=("indent",),
        )
    )
    c.append(
        Case(
            "conv-indent-pipeline",
            "opposite conventions",
            "4-space in globex/pipeline; the question there (Cursor, session start only)",
            (
                S(
                    "codex",
                    "pipeline",
                    2,
                    T(
                        "Always use 4-space indentation, and type hints on every public function.",
                        Edit("pipeline/loader.py"),
                        answer="Reindented loader.py to 4 spaces and added the missing type hints.",
                        model=(
                            Put("P/conventions.md", r"indent", "Indent with 4 spaces."),
                            Put(
                                "P/conventions.md",
                                r"type hints",
                                "Every public function has type hints.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "what indentation does this codebase use?"),
            expect=(four_space,),
            foreign=two_space,
            keys=("indent",),
        )
    )
    c.append(
        Case(
            "conv-quotes-api",
            "opposite conventions",
            "single quotes in acme/api",
            (
                S(
                    "cursor",
                    "api",
                    2,
                    T(
                        "Use single quotes for strings in Python, the linter config enforces it. "
                        "Fix the quoting in orders.py.",
                        Edit("src/orders.py"),
                        answer="orders.py now uses single quotes throughout.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"quote",
                                "Python strings use single quotes (the linter enforces it).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "which quote style should strings use?"),
            expect=one("single quotes", "single-quoted"),
            foreign=("double quotes", "double-quoted"),
            keys=("quote",),
        )
    )
    c.append(
        Case(
            "conv-quotes-billing",
            "opposite conventions",
            "double quotes in initech/billing, stated without any trigger word",
            (
                S(
                    "claude",
                    "billing",
                    2,
                    T(
                        "Strings use double quotes everywhere, the formatter decides. Clean up "
                        "invoices/pdf.py accordingly.",
                        Edit("invoices/pdf.py"),
                        answer="invoices/pdf.py now uses double quotes.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"quote",
                                "Strings use double quotes everywhere (the formatter enforces it).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "single or double quotes for strings?"),
            expect=one("double quotes", "double-quoted"),
            foreign=("single quotes", "single-quoted"),
            keys=("quote",),
        )
    )
    c.append(
        Case(
            "conv-tests-web",
            "opposite conventions",
            "tests beside the component in acme/web",
            (
                S(
                    "codex",
                    "web",
                    3,
                    T(
                        "Tests sit next to the component as Component.test.tsx, never in a "
                        "separate __tests__ folder. Move the cart tests.",
                        Run("git mv src/__tests__/Cart.test.tsx src/cart/Cart.test.tsx", True, ""),
                        answer="Moved the cart tests next to the component.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"tests? (go|sit|live)|__tests__",
                                "Tests sit next to their component as Component.test.tsx, never "
                                "in a separate __tests__ folder.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "where do I put the tests for a new component?"),
            expect=one("Component.test.tsx", "next to the component", "next to their component"),
            foreign=("mirroring the package",),
            keys=("__tests__", "component.test"),
        )
    )
    c.append(
        Case(
            "conv-tests-billing",
            "opposite conventions",
            "tests under tests/ in initech/billing",
            (
                S(
                    "cursor",
                    "billing",
                    3,
                    T(
                        "All tests live under tests/, mirroring the package layout: "
                        "tests/invoices/test_repo.py for invoices/repo.py. Add a test for the "
                        "rounding fix.",
                        Edit("tests/invoices/test_rounding.py"),
                        Run("pytest tests/invoices -q", True, "9 passed in 0.80s"),
                        answer="Added tests/invoices/test_rounding.py; the invoice tests pass.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"tests? (go|sit|live)|mirroring",
                                "Tests live under tests/, mirroring the package layout "
                                "(tests/invoices/test_repo.py tests invoices/repo.py).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "where should the tests for invoices/pdf.py go?"),
            expect=one("mirroring the package", "tests/invoices"),
            foreign=("Component.test.tsx", "__tests__"),
            keys=("mirroring", "tests/invoices"),
        )
    )

    # -- a noisy session with one durable rule --------------------------------------------------
    c.append(
        Case(
            "noisy-data-raw",
            "noisy session",
            "200 tool calls in Codex; one rule stated mid-session",
            (
                S(
                    "codex",
                    "api",
                    2,
                    T(
                        "Migrate the handlers in src/handlers to the new router API.",
                        *noisy_steps(80, 1),
                        answer="Migrated 31 of the 97 handlers so far.",
                    ),
                    T(
                        "Looks good. One rule while you're at it: never commit anything under "
                        "data/raw/, that's customer data. Carry on with the rest.",
                        *noisy_steps(80, 2),
                        answer="Migrated the remaining handlers; nothing under data/raw/ is staged.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"data/raw",
                                "Never commit anything under data/raw/ (customer data).",
                            ),
                        ),
                    ),
                    T(
                        "run the handler tests",
                        *noisy_steps(40, 3, failing_every=9),
                        answer="All handler tests pass after fixing two imports.",
                    ),
                ),
            ),
            Query("claude", "api", "can I commit the csv files in data/raw?"),
            expect=(
                ("data/raw",),
                ("never commit", "do not commit", "don't commit", "must not be committed"),
            ),
            keys=("data/raw", "test_route", "src/handlers"),
        )
    )
    c.append(
        Case(
            "noisy-check-fast",
            "noisy session",
            "100 tool calls in Claude Code; a command to run 'from now on'",
            (
                S(
                    "claude",
                    "web",
                    3,
                    T(
                        "Rename the cart store to basket everywhere.",
                        *noisy_steps(60, 4),
                        answer="Renamed the store in 24 files.",
                    ),
                    T(
                        "From now on, before you say you're done, run make check-fast; the full "
                        "suite takes 20 minutes.",
                        Run("make check-fast", True, "lint ok, types ok, 311 unit tests passed"),
                        *noisy_steps(40, 5),
                        answer="make check-fast passes.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"check-fast",
                                "Before calling work done, run `make check-fast` (the full suite "
                                "takes 20 minutes).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "web", "which checks should I run before finishing?"),
            expect=one("make check-fast"),
            keys=("check-fast", "test_route", "src/handlers"),
        )
    )

    # -- explicit remember / forget -------------------------------------------------------------
    c.append(
        Case(
            "remember-handoff",
            "remember/forget",
            "`wikimem remember` in a project",
            (
                Cli(
                    "billing",
                    1,
                    ("remember", "The on-call handoff is every Tuesday at 10:00 CET."),
                ),
            ),
            Query("claude", "billing", "when is the on-call handoff?"),
            expect=one("Tuesday"),
            keys=("on-call", "handoff"),
        )
    )
    c.append(
        Case(
            "remember-then-forget",
            "remember/forget",
            "`wikimem remember --path`, then `wikimem forget` of that note",
            (
                Cli(
                    "api",
                    1,
                    (
                        "remember",
                        "--path",
                        "projects/{{api}}/sandbox.md",
                        "The sandbox API key is kept in the 1Password vault opvault-acme-sbx.",
                    ),
                ),
                Cli("api", 3, ("forget", "projects/{{api}}/sandbox.md")),
            ),
            Query("codex", "api", "where is the sandbox API key kept?"),
            old=("opvault-acme-sbx",),
            keys=("1password", "opvault"),
        )
    )
    c.append(
        Case(
            "remember-correction",
            "remember/forget",
            "`wikimem remember` twice on the same subject",
            (
                Cli(
                    "pipeline",
                    2,
                    ("remember", "The deploy freeze runs from 2026-03-20 to 2026-03-27."),
                ),
                Cli(
                    "pipeline",
                    4,
                    (
                        "remember",
                        "The deploy freeze was moved: it now runs from 2026-03-23 to 2026-03-30.",
                    ),
                ),
            ),
            Query("cursor", "pipeline", "when is the deploy freeze?"),
            expect=one("2026-03-23"),
            old=("2026-03-20",),
            keys=("freeze",),
        )
    )
    c.append(
        Case(
            "remember-profile",
            "remember/forget",
            "`wikimem remember` of a personal habit, asked in another project",
            (Cli("web", 2, ("remember", "I review pull requests only in the afternoon.")),),
            Query("codex", "billing", "when do I review pull requests?"),
            expect=one("afternoon"),
            keys=("review pull requests",),
        )
    )

    # -- since when ----------------------------------------------------------------------------
    c.append(
        Case(
            "since-grafana",
            "since when",
            "'moved … on Monday' said on Wednesday",
            (
                S(
                    "claude",
                    "api",
                    3,
                    T(
                        "grafana moved to grafana.acme.dev on Monday, update the links in the "
                        "runbook",
                        Edit("docs/runbook.md"),
                        answer="The runbook links now point at grafana.acme.dev.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"grafana",
                                "Grafana is at grafana.acme.dev since 2026-03-02.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "since when is grafana at grafana.acme.dev?"),
            expect=(dates(DAYS[1]), ("grafana",)),
            same_line=True,
            keys=("grafana",),
        )
    )
    c.append(
        Case(
            "since-node",
            "since when",
            "'upgraded … yesterday' said on Thursday",
            (
                S(
                    "codex",
                    "web",
                    4,
                    T(
                        "we upgraded the project to Node 22 yesterday, so drop the Node 18 "
                        "polyfills",
                        Edit("src/polyfills.ts"),
                        answer="Removed the Node 18 polyfills.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"\bnode\b",
                                "The project runs on Node 22 since 2026-03-04 (was Node 18 until "
                                "then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "since when are we on Node 22?"),
            expect=(dates(DAYS[3]), ("node 22", "node.js 22", "node v22")),
            same_line=True,
            keys=("node 22", "node 18"),
        )
    )
    c.append(
        Case(
            "since-postgres",
            "since when",
            "'… now, the upgrade finished this morning': the session's own date",
            (
                S(
                    "codex",
                    "billing",
                    2,
                    T(
                        "prod is on Postgres 16 now, the upgrade finished this morning. Remove the "
                        "version check workaround.",
                        Edit("billing/db.py"),
                        answer="Removed the Postgres version check workaround from billing/db.py.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"postgres",
                                "Production runs PostgreSQL 16 since 2026-03-03.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "since when is production on Postgres 16?"),
            expect=(dates(DAYS[2]), ("postgres", "postgresql")),
            same_line=True,
            keys=("postgres",),
        )
    )
    c.append(
        Case(
            "since-rate-limit",
            "since when",
            "an absolute date ('since March 1st') in the statement",
            (
                S(
                    "claude",
                    "pipeline",
                    4,
                    T(
                        "since March 1st the vendor feed API allows 600 requests per minute, "
                        "adjust the throttle",
                        Edit("pipeline/feed.py"),
                        answer="The feed throttle now allows 600 requests per minute.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"rate limit|requests per minute",
                                "The vendor feed API allows 600 requests per minute since "
                                "2026-03-01.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex", "pipeline", "since when does the vendor feed allow 600 requests a minute?"
            ),
            expect=(("2026-03-01", "March 1", "1 March", "March 1st"), ("600",)),
            same_line=True,
            keys=("vendor feed", "requests per minute"),
        )
    )

    # -- releases cut differently in two repositories --------------------------------------------
    c.append(
        Case(
            "release-make",
            "releases",
            "acme/api cuts releases with make release",
            (
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "Releases are cut with make release from main: it tags the version and "
                        "pushes it, then CI publishes the image. Cut 2.4.0.",
                        Run("make release VERSION=2.4.0", True, "tagged v2.4.0, pushed"),
                        answer="Tagged and pushed v2.4.0; CI is publishing the image.",
                        model=(
                            Put(
                                "P/releases.md",
                                r"release",
                                "Releases are cut with `make release` from main: it tags and "
                                "pushes, and CI publishes the image.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "how are releases cut here?"),
            expect=one("make release"),
            foreign=("changelog check",),
            keys=("release",),
        )
    )
    c.append(
        Case(
            "release-ci",
            "releases",
            "acme/web's releases are tagged by CI",
            (
                S(
                    "codex",
                    "web",
                    3,
                    T(
                        "Releases are tagged by CI after the changelog check passes, never tag by "
                        "hand. Is the changelog ready for 1.9?",
                        Run("make changelog-check", True, "CHANGELOG.md: 1.9.0 section ok"),
                        answer="The changelog has a complete 1.9.0 section.",
                        model=(
                            Put(
                                "P/releases.md",
                                r"release|tag",
                                "Releases are tagged by CI after the changelog check passes; "
                                "never tag by hand.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "how are releases cut here?"),
            expect=one("tagged by CI"),
            foreign=("make release",),
            keys=("release", "tag"),
        )
    )
    c.append(
        Case(
            "release-named",
            "releases",
            "a question in acme/web that names acme-api (its notes may be given)",
            (),
            Query("claude", "web", "how does {{api}} cut its releases?"),
            expect=one("make release"),
            claims=(),
            also_visible=("api",),
            keys=(),
        )
    )

    # -- one-off command variants ----------------------------------------------------------------
    c.append(
        Case(
            "oneoff-backfill",
            "one-off variants",
            "two dry runs with --limit N, then the real command",
            (
                S(
                    "claude",
                    "pipeline",
                    1,
                    T(
                        "dry-run the backfill for the first batch",
                        Run(
                            "python -m pipeline.backfill --dry-run --limit 163",
                            True,
                            "would insert 163 rows",
                        ),
                        answer="The dry run would insert 163 rows.",
                    ),
                ),
                S(
                    "codex",
                    "pipeline",
                    2,
                    T(
                        "try the next batch",
                        Run(
                            "python -m pipeline.backfill --dry-run --limit 262",
                            True,
                            "would insert 262 rows",
                        ),
                        answer="The dry run would insert 262 rows.",
                    ),
                    T(
                        "ok run it for real",
                        Run("python -m pipeline.backfill", True, "inserted 425 rows"),
                        answer="The backfill inserted 425 rows.",
                        model=(
                            Put(
                                "P/commands.md",
                                r"backfill",
                                "Run the backfill with `python -m pipeline.backfill`; add "
                                "`--dry-run` to preview without writing.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "how do I run the backfill?"),
            expect=one("python -m pipeline.backfill"),
            junk=("--limit 163", "--limit 262"),
            keys=("backfill",),
        )
    )
    c.append(
        Case(
            "oneoff-single-test",
            "one-off variants",
            "single-test runs, then 'make test is the way to run everything'",
            (
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "check the partial refund tests",
                        Run(
                            "pytest tests/api/test_orders.py::test_refund_partial_17 -x",
                            True,
                            "1 passed",
                        ),
                        Run(
                            "pytest tests/api/test_orders.py::test_refund_partial_18 -x",
                            True,
                            "1 passed",
                        ),
                        answer="Both partial refund tests pass.",
                    ),
                    T(
                        "make test is the way to run everything, do that",
                        Run("make test", True, "412 passed in 31.0s"),
                        answer="make test: 412 passed.",
                        model=(
                            Put(
                                "P/commands.md",
                                r"make test|whole test suite",
                                "Run the whole test suite with `make test`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "how do I run the whole test suite?"),
            expect=one("make test"),
            junk=("test_refund_partial_17", "test_refund_partial_18"),
            keys=("refund", "make test"),
        )
    )

    # -- passing states that are not facts about the person --------------------------------------
    c.append(
        Case(
            "notme-weird-error",
            "not about the person",
            "'I'm seeing a weird error in the logs' must not become a profile fact",
            (
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "I'm seeing a weird error in the logs, can you take a look?",
                        Run("tail -n 50 logs/app.log", True, "KeyError: 'tenant_id'"),
                        answer="The error is a KeyError for tenant_id in the request middleware.",
                    ),
                ),
            ),
            Query("codex", "billing", "what do you know about me and how I work?"),
            junk=("weird error",),
            keys=("weird error",),
        )
    )
    c.append(
        Case(
            "notme-stuck",
            "not about the person",
            "'I'm stuck on this flaky test today, ugh'",
            (
                S(
                    "cursor",
                    "web",
                    2,
                    T(
                        "I'm stuck on this flaky test today, ugh. Rerun it with verbose output.",
                        Run("npx vitest run src/cart.test.ts --reporter verbose", True, "1 passed"),
                        answer="It passed on the rerun; the flakiness comes from a timer.",
                    ),
                ),
            ),
            Query("claude", "api", "what are my working preferences?"),
            junk=("stuck on this flaky test",),
            keys=("stuck",),
        )
    )
    c.append(
        Case(
            "notme-lunch",
            "not about the person",
            "'I am going to lunch, finish … meanwhile'",
            (
                S(
                    "codex",
                    "billing",
                    3,
                    T(
                        "I am going to lunch, finish the migration script meanwhile.",
                        Edit("migrations/versions/9c1d_rounding.py"),
                        answer="The migration script is finished.",
                    ),
                ),
            ),
            Query("claude", "pipeline", "what should you know about me?"),
            junk=("going to lunch",),
            keys=("lunch",),
        )
    )
    c.append(
        Case(
            "notme-not-sure",
            "not about the person",
            "'I'm not sure why the loader got slow'",
            (
                S(
                    "claude",
                    "pipeline",
                    2,
                    T(
                        "I'm not sure why the loader got slow. Can you profile it?",
                        Run("python -m pipeline.profile loader", True, "loader: 44.0s"),
                        answer="The loader spends most of its time parsing CSV.",
                    ),
                ),
            ),
            Query("codex", "web", "tell me what you remember about me"),
            junk=("not sure why the loader",),
            keys=("not sure",),
        )
    )

    # -- limits: a note longer than a model prompt shows, more profile notes than it has slots ---
    topics = (
        "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november "
        "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu athena "
        "boreas ceres demeter eos flora gaia hera iris juno kronos leto maia nyx"
    ).split()

    def script_rule(t: str) -> str:
        return (
            f"The {t} script logs to /var/log/dotfiles/{t}.log and reads its settings from "
            f"~/.config/{t}/config.toml."
        )

    parts = [topics[i : i + 10] for i in range(0, 40, 10)]
    c.append(
        Case(
            "limit-long-note",
            "note limits",
            "40 conventions in one note (longer than the model prompt shows), then one corrected",
            (
                S(
                    "claude",
                    "dotfiles",
                    1,
                    *(
                        T(
                            f"Script conventions, part {n} of 4: "
                            + " ".join(map(script_rule, part)),
                            answer="Noted.",
                            model=tuple(
                                Put("P/scripts.md", rf"\b{t} script", script_rule(t)) for t in part
                            ),
                        )
                        for n, part in enumerate(parts, 1)
                    ),
                ),
                S(
                    "codex",
                    "dotfiles",
                    3,
                    T(
                        "the alpha script logs to journald now instead of its log file, update "
                        "its unit",
                        Edit("systemd/alpha.service"),
                        answer="alpha.service now logs to journald.",
                        model=(
                            Put(
                                "P/scripts.md",
                                r"\balpha script",
                                "The alpha script logs to journald since 2026-03-04 (was "
                                "/var/log/dotfiles/alpha.log until then) and reads its settings "
                                "from ~/.config/alpha/config.toml.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "dotfiles", "where does the nyx script write its log?"),
            expect=one("/var/log/dotfiles/nyx.log"),
            old=("/var/log/dotfiles/alpha.log",),
            keys=("script logs to", "/var/log/dotfiles"),
        )
    )
    about_me = (
        ("editor", "I use neovim, not VS Code."),
        ("shell", "My shell is fish."),
        ("pull-requests", "I keep pull requests under 400 lines."),
        ("commit-messages", "I write commit messages in English."),
        ("schedule", "I block my mornings for focus work, no meetings before 11:00."),
        ("note-taking", "I take notes in Obsidian."),
        ("keyboard", "I type on a Colemak layout."),
        ("code-review", "I review code by checking out the branch locally."),
        ("terminal", "My terminal is WezTerm."),
        ("task-runner", "I prefer Makefiles over package.json scripts for tasks."),
        ("dotfiles", "I keep my dotfiles in ~/src/dotfiles."),
        ("hardware", "I work on a ThinkPad X1 running Fedora."),
        ("browser", "I test web pages in Firefox first."),
    )
    c.append(
        Case(
            "limit-profile-slots",
            "note limits",
            "a project fact, then 13 profile notes, then a new fact for the same project note",
            (
                S(
                    "claude",
                    "infra",
                    1,
                    T(
                        "The Terraform state for this repo lives in s3://acme-tfstate-prod, never "
                        "commit state files. Run a plan.",
                        Run("terraform plan -out plan.bin", True, "Plan: 2 to add, 0 to change"),
                        answer="The plan adds 2 resources.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"terraform state",
                                "The Terraform state lives in s3://acme-tfstate-prod; never commit "
                                "state files.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "infra",
                    5,
                    T(
                        "A few things about how I work, so you stop asking: "
                        + " ".join(text for _, text in about_me),
                        answer="Noted, thanks.",
                        model=tuple(
                            Put(f"profile/{topic}.md", r".", text) for topic, text in about_me
                        ),
                    ),
                ),
                S(
                    "codex",
                    "infra",
                    6,
                    T(
                        "the bastion host is bastion-2.acme.net, use it for ssh from now on. "
                        "Check that it answers.",
                        Run("ssh -o BatchMode=yes bastion-2.acme.net true", True, ""),
                        answer="bastion-2.acme.net answers over ssh.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"bastion",
                                "SSH goes through the bastion host bastion-2.acme.net.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "infra", "where is the terraform state kept?"),
            expect=one("acme-tfstate-prod"),
            keys=("tfstate", "bastion"),
        )
    )

    # -- Gemini CLI (run only when wikimem knows the client) -------------------------------------
    c.append(
        Case(
            "gemini-first-mention",
            "first mention",
            "a queue name mentioned in Gemini CLI, asked in Claude Code",
            (
                S(
                    "gemini",
                    "billing",
                    2,
                    T(
                        "the payment events go through the SQS queue billing-events-v2, the v1 "
                        "queue is only for replays. Add a consumer metric.",
                        Edit("billing/consumer.py"),
                        answer="Added a consumed-messages metric to billing/consumer.py.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"sqs|queue",
                                "Payment events go through the SQS queue billing-events-v2 (v1 is "
                                "only for replays).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "billing", "which SQS queue carries the payment events?"),
            expect=one("billing-events-v2"),
            keys=("sqs", "billing-events"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "gemini-question",
            "correction",
            "a correction in Claude Code, asked in Gemini CLI",
            (
                S(
                    "codex",
                    "web",
                    1,
                    T(
                        "the CDN for static assets is cdn-old.acme.net. Check the cache headers.",
                        Run(
                            "curl -sI https://cdn-old.acme.net/app.js",
                            True,
                            "cache-control: max-age=60",
                        ),
                        answer="The CDN serves app.js with max-age=60.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"\bcdn\b",
                                "Static assets are served from cdn-old.acme.net.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    3,
                    T(
                        "we moved static assets to cdn.acme.net today, update the asset host",
                        Edit("next.config.js"),
                        answer="The asset host is now cdn.acme.net.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"\bcdn\b",
                                "Static assets are served from cdn.acme.net since 2026-03-04 (was "
                                "cdn-old.acme.net until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "web", "which CDN host serves the static assets?"),
            expect=one("cdn.acme.net"),
            old=("cdn-old.acme.net",),
            keys=("cdn",),
            needs_client="gemini",
        )
    )
    return c
