"""The third held-out set: 20 multi-session cases written on 2026-12-02 as the final, untouched
check of the judgment work tuned on the second held-out set. They were never run, on any backend,
before the final measurement; that one run is their only figure.

Same format, projects, calendar and clients as `cases.py` (read its docstring for what `expect`,
`claims`, `old`, `foreign`, `junk` and `keys` mean), with subjects, values and sentences found in
none of the earlier sets, in the eight classes of the second held-out set (two or three cases
each):

  - same subject only: a later statement that mentions a tool or value of an earlier rule (a
    lint exception for the same tool, an internal file exempt from the same rule, a password of
    the role the rule names) must not remove that rule;
  - change of value: the same subject changed in a new phrasing ("ops shifted …", "gave up on
    X, Y does the same thing", "legal came back: …");
  - across repositories: "this goes for every codebase of mine", "wherever i'm committing",
    "in every repo i touch", said in one project and asked in another, once changed from a third;
  - stays in its project: a habit and a plan of one repository must not reach another;
  - agent and tool findings: a config file or a build tool's output is the source of the fact,
    once correcting what the person said; asked later, twice in Cursor (session start only);
  - everyday retraction: "we got X set up, that covers …", "turns out … never even …"; the
    request that follows is not a fact (`junk`);
  - noise: a long configuration-management session with per-host one-off variants and a rule
    said in passing; a failing build fixed, then unrelated read-only commands;
  - terse preference: lower case with typos, and "rg > grep, fd > find", asked elsewhere.

Run them with `wikimem eval --set heldout3`; they were run once, for the final measurement.

Do not edit a case to make it pass. A case that is itself wrong (a typo in the scenario, an
expectation a careful user would not hold) is reported next to the figure, not silently fixed.
"""

from __future__ import annotations

from wikimem.evaluate.cases import Case, Cli, Drop, Put, Query, S, T, one
from wikimem.evaluate.clients import Edit, Run, Step

# -- long sessions ---------------------------------------------------------------------------------


def playbook_steps(n: int, seed: int, failing_every: int = 0) -> tuple[Step, ...]:
    """`n` tool calls of configuration work on web hosts: a playbook limited to one host at a
    time (one-off variants), ad-hoc service checks, template edits, lint runs, reading defaults
    and inventory lookups."""
    out: list[Step] = []
    for i in range(n):
        k = (i * 5 + seed) % 6
        host = f"web-{(i * 7 + seed) % 9 + 1:02d}"
        if k == 0:
            out.append(
                Run(
                    f"ansible-playbook -i inventory/prod site.yml -l {host} --tags nginx",
                    True,
                    f"PLAY RECAP\n{host} : ok=14 changed={i % 3} unreachable=0 failed=0",
                )
            )
        elif k == 1:
            out.append(
                Run(
                    f"ansible -i inventory/prod {host} -m shell -a 'systemctl is-active nginx'",
                    True,
                    f"{host} | CHANGED | rc=0 >>\nactive",
                )
            )
        elif k == 2:
            out.append(Edit(f"roles/nginx/templates/vhost_{i % 4}.conf.j2"))
        elif k == 3:
            ok = not (failing_every and i % failing_every == 3)
            out.append(
                Run(
                    "ansible-lint roles/nginx",
                    ok,
                    "Passed: 0 failure(s), 0 warning(s) on 23 files."
                    if ok
                    else "roles/nginx/tasks/main.yml:41: yaml[truthy]: Truthy value should be "
                    "one of [false, true]",
                )
            )
        elif k == 4:
            out.append(
                Run("cat roles/nginx/defaults/main.yml", True, "nginx_worker_connections: 4096")
            )
        else:
            out.append(
                Run(
                    f"ansible-inventory -i inventory/prod --host {host}",
                    True,
                    f'{{"ansible_host": "10.20.3.{(i * 7 + seed) % 9 + 11}"}}',
                )
            )
    return tuple(out)


def build_heldout3_cases() -> list[Case]:
    c: list[Case] = []

    # -- same subject only: mentioning a tool or value of an earlier rule does not replace it ------
    c.append(
        Case(
            "h3-same-buf",
            "same subject only",
            "'stubs r generated w/ buf' (typos), then a `buf breaking` exception for a frozen package",
            (
                S(
                    "claude",
                    "api",
                    1,
                    T(
                        "stubs r generated w/ buf in this repo (buf generate, run from proto/), "
                        "dont call protoc by hand - its not even installed in ci. regen them, i "
                        "added a Shipment message",
                        Run("cd proto && buf generate", True, ""),
                        Run(
                            "git status --short",
                            True,
                            " M gen/python/acme/shipping/v1/shipment_pb2.py\n"
                            " M gen/python/acme/shipping/v1/shipment_pb2_grpc.py",
                        ),
                        answer="Regenerated the stubs with buf generate; gen/python has the "
                        "Shipment message.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"grpc stubs|buf generate|protoc",
                                "gRPC stubs are generated with `buf generate` (run from proto/); "
                                "never call protoc by hand, it is not installed in CI.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "buf breaking is flagging the renamed field in proto/legacy/v1/orders.proto, "
                        "thats expected: v1 is frozen and has zero consumers, so put an ignore for "
                        "proto/legacy in buf.yaml and get CI green",
                        Edit("proto/buf.yaml"),
                        Run("cd proto && buf breaking --against '.git#branch=main'", True, ""),
                        answer="buf.yaml ignores proto/legacy for breaking-change checks; buf "
                        "breaking passes.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"buf breaking|proto/legacy",
                                "`buf breaking` ignores proto/legacy: the v1 API there is frozen "
                                "and has no consumers.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "gemini",
                "api",
                "added a field to shipment.proto, how do i get the python stubs updated",
            ),
            expect=one("buf generate"),
            claims=(("buf generate",), ("proto/legacy",)),
            keys=("buf generate", "buf breaking", "protoc", "proto/legacy"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-same-i18next",
            "same subject only",
            "a translation rule in Cursor, then 'DebugPanel.tsx … dont go through t()' in Gemini CLI",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "All user-facing text goes through i18next's t() — no hard-coded English in "
                        "components, the translators work from locales/en.json. Wire the empty-cart "
                        "message through it.",
                        Edit("src/cart/EmptyCart.tsx"),
                        Edit("locales/en.json"),
                        answer="The empty-cart message comes from t('cart.empty'), with the English "
                        "text in locales/en.json.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"user-facing text|i18next",
                                "All user-facing text goes through i18next's t(); no hard-coded "
                                "English in components (translators work from locales/en.json).",
                            ),
                        ),
                    ),
                ),
                S(
                    "gemini",
                    "web",
                    2,
                    T(
                        "DebugPanel.tsx is internal only so english is fine there, its strings stay "
                        "hardcoded and dont go through t(). just add the build hash + commit sha "
                        "to it",
                        Edit("src/admin/DebugPanel.tsx"),
                        answer="The debug panel shows the build hash and the commit SHA.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"debugpanel|debug panel",
                                "src/admin/DebugPanel.tsx is internal: its strings stay hard-coded "
                                "English and do not go through t().",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "put a 'Save draft' button in the editor toolbar"),
            expect=one("i18next"),
            keys=("i18next", "debugpanel"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-same-warehouse-role",
            "same subject only",
            "`wikimem remember` the role for ad-hoc queries, then a password fact about the other "
            "role it names",
            (
                Cli(
                    "pipeline",
                    1,
                    (
                        "remember",
                        "Ad-hoc warehouse queries use the read-only role analyst_ro; loader_rw is "
                        "reserved for the ingestion DAGs.",
                    ),
                ),
                S(
                    "codex",
                    "pipeline",
                    3,
                    T(
                        "the loader_rw password rotates every 30 days in the secrets manager and the "
                        "dags pull it from the airflow connection at runtime, so never paste it into "
                        "code. the events backfill dag is failing auth, check which connection id it "
                        "uses",
                        Run(
                            "grep -n conn_id dags/events_backfill.py",
                            True,
                            '14:    conn_id="warehouse_loader_old",',
                        ),
                        Edit("dags/events_backfill.py"),
                        answer="The backfill DAG used the stale connection warehouse_loader_old; it "
                        "uses warehouse_loader (loader_rw) now.",
                        model=(
                            Put(
                                "P/access.md",
                                r"loader_rw password|rotates",
                                "The loader_rw password rotates every 30 days in the secrets "
                                "manager; DAGs read it from the Airflow connection at runtime, "
                                "never from code.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor",
                "pipeline",
                "which role should I use for an ad-hoc query against the warehouse?",
            ),
            expect=one("analyst_ro"),
            keys=("analyst_ro", "loader_rw"),
        )
    )

    # -- change of value: the same subject, a new phrasing -----------------------------------------
    c.append(
        Case(
            "h3-change-maint-window",
            "change of value",
            "a maintenance window in Gemini CLI, 'ops shifted the maint window to …' in Claude Code",
            (
                S(
                    "gemini",
                    "infra",
                    1,
                    T(
                        "prod maintenance window is sunday 02:00-04:00 CET, anything disruptive "
                        "waits for it. draft the node pool rotation plan in docs/plans/nodepool.md",
                        Edit("docs/plans/nodepool.md"),
                        answer="Drafted the node pool rotation plan for the Sunday 02:00–04:00 CET "
                        "window.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"maintenance window|maint window",
                                "The prod maintenance window is Sunday 02:00–04:00 CET; anything "
                                "disruptive waits for it.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "infra",
                    3,
                    T(
                        "ops shifted the maint window to tuesdays 22:00-23:30 CET starting this "
                        "week, sunday nights belong to the batch reprocessing. move the rotation in "
                        "the plan to match",
                        Edit("docs/plans/nodepool.md"),
                        answer="The rotation plan targets the Tuesday 22:00–23:30 CET window.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"maintenance window|maint window",
                                "The prod maintenance window is Tuesday 22:00–23:30 CET since "
                                "2026-03-04 (was Sunday 02:00–04:00 CET until then); anything "
                                "disruptive waits for it.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "infra", "when am I allowed to roll the prod node pool?"),
            expect=one("22:00"),
            old=("Sunday 02:00",),
            keys=("maintenance window", "maint window"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-change-httpie",
            "change of value",
            "a personal tool in api (Codex), 'gave up on X, Y does the same thing' in billing "
            "(Cursor); asked in dotfiles",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "fyi i poke endpoints with httpie (http :8000/...), not curl, so use that "
                        "when you check things by hand. see if /orders answers",
                        Run(
                            "http :8000/orders",
                            True,
                            "HTTP/1.1 200 OK\ncontent-type: application/json\n\n[]",
                        ),
                        answer="/orders answers 200 with an empty list.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"httpie|\bxh\b|endpoints by hand",
                                "Checks HTTP endpoints by hand with httpie, not curl.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "billing",
                    4,
                    T(
                        "gave up on httpie, xh does the same thing and starts instantly so that's my "
                        "tool for it now. post to the webhook test endpoint with it",
                        Run(
                            "xh POST :8081/webhooks/test event=invoice.paid",
                            True,
                            "HTTP/1.1 202 Accepted",
                        ),
                        answer="The webhook test endpoint accepted the event (202).",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"httpie|\bxh\b|endpoints by hand",
                                "Checks HTTP endpoints by hand with xh since 2026-03-05 (was "
                                "httpie until then), not curl.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "dotfiles", "ask the github api how much of my rate limit is left"),
            expect=one("xh"),
            old=("httpie",),
            keys=("httpie", "xh"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-change-raw-retention",
            "change of value",
            "a retention period in Claude Code, 'legal came back on the audit: …, not 90' in Gemini CLI",
            (
                S(
                    "claude",
                    "pipeline",
                    2,
                    T(
                        "raw events are kept 90 days in the lake, then the bucket lifecycle rule "
                        "deletes them. add the matching partition cleanup to the nightly dag so the "
                        "catalog doesnt point at deleted files",
                        Edit("dags/nightly_maintenance.py"),
                        answer="The nightly DAG drops catalog partitions older than 90 days.",
                        model=(
                            Put(
                                "P/data.md",
                                r"raw events? (are )?kept|raw[- ]event retention",
                                "Raw events are kept 90 days in the lake; then the bucket "
                                "lifecycle rule deletes them.",
                            ),
                        ),
                    ),
                ),
                S(
                    "gemini",
                    "pipeline",
                    4,
                    T(
                        "legal came back on the audit: 400 days of raw events, not 90. bump the "
                        "lifecycle rule in infra/lake.tf and the partition cleanup to the same",
                        Edit("infra/lake.tf"),
                        Edit("dags/nightly_maintenance.py"),
                        answer="The lifecycle rule and the partition cleanup both keep 400 days.",
                        model=(
                            Put(
                                "P/data.md",
                                r"raw events? (are )?kept|raw[- ]event retention",
                                "Raw events are kept 400 days in the lake since 2026-03-05 (audit "
                                "requirement; was 90 days until then); then the bucket lifecycle "
                                "rule deletes them.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "pipeline", "how long are raw events retained?"),
            expect=one("400 days"),
            old=("90 days",),
            keys=("raw events", "lifecycle rule"),
            needs_client="gemini",
        )
    )

    # -- across repositories: a cross-repository cue, asked in another project ---------------------
    c.append(
        Case(
            "h3-scope-named-exports",
            "across repositories",
            "'this goes for every codebase of mine, not just this one: …' in web, asked in billing",
            (
                S(
                    "claude",
                    "web",
                    1,
                    T(
                        "this goes for every codebase of mine, not just this one: named exports only "
                        "in TS, no default exports. convert src/hooks/useSearch.ts and its importers",
                        Edit("src/hooks/useSearch.ts"),
                        Edit("src/pages/Results.tsx"),
                        Run("npx tsc --noEmit", True, ""),
                        answer="useSearch is a named export now; its importers are updated and the "
                        "type check passes.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"default exports?|named exports?",
                                "In every TypeScript codebase: named exports only, no default "
                                "exports.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "billing",
                "add a ts helper to the customer portal that formats IBANs for display",
            ),
            expect=one("named exports", "named export", "no default exports", "no default export"),
            keys=("named export", "default export"),
        )
    )
    c.append(
        Case(
            "h3-scope-signoff",
            "across repositories",
            "'wherever i'm committing, work or my own stuff, …' in dotfiles (Gemini CLI), asked in "
            "pipeline (Cursor)",
            (
                S(
                    "gemini",
                    "dotfiles",
                    2,
                    T(
                        "wherever i'm committing, work or my own stuff, commits carry a sign-off "
                        "(git commit -s) - the dco bots reject them otherwise. commit the zsh alias "
                        "cleanup",
                        Run(
                            'git commit -s -m "Drop unused zsh aliases"',
                            True,
                            "[main 4e1d2c7] Drop unused zsh aliases\n 1 file changed, 3 "
                            "deletions(-)",
                        ),
                        answer="Committed with a Signed-off-by trailer.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"sign-?off|\bdco\b",
                                "In every repository: commits carry a sign-off (`git commit -s`); "
                                "DCO bots reject them otherwise.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "commit the schema registry client changes"),
            expect=one("sign-off", "signed off", "signoff", "signed-off-by", "commit -s", "DCO"),
            keys=("sign-off", "dco"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-scope-branch-names",
            "across repositories",
            "'in every repo i touch, branch names are …' in api, changed 'across all my "
            "repositories' in infra; asked in pipeline",
            (
                S(
                    "gemini",
                    "api",
                    1,
                    T(
                        "in every repo i touch, branch names are <ticket>/<short-desc>, e.g. "
                        "PLAT-412/fix-login. make one for the token refresh bug, ticket PLAT-977",
                        Run(
                            "git switch -c PLAT-977/token-refresh",
                            True,
                            "Switched to a new branch 'PLAT-977/token-refresh'",
                        ),
                        answer="On the new branch PLAT-977/token-refresh.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"branch(es)? (are )?nam",
                                "In every repository: branch names are <ticket>/<short-desc> "
                                "(e.g. PLAT-412/fix-login).",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "infra",
                    3,
                    T(
                        "new scheme across all my repositories: feat/<ticket>-<slug>. the "
                        "ticket-first names broke the jira automation. rename the current branch "
                        "to fit",
                        Run("git branch -m feat/OPS-311-kms-rotation", True, ""),
                        answer="Renamed the branch to feat/OPS-311-kms-rotation.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"branch(es)? (are )?nam",
                                "In every repository: branches are named feat/<ticket>-<slug> "
                                "since 2026-03-04 (was <ticket>/<short-desc> until then, which "
                                "broke the Jira automation).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude", "pipeline", "start a branch for the currency rounding fix, ticket DATA-88"
            ),
            expect=one("feat/<ticket>", "feat/ticket"),
            old=("short-desc",),
            keys=("branch names", "branches are named", "short-desc", "feat/<ticket>"),
            needs_client="gemini",
        )
    )

    # -- stays in its project: a habit and a plan of one repository --------------------------------
    c.append(
        Case(
            "h3-local-seed-minio",
            "stays in its project",
            "'in this repo i always run … before the integration tests' in pipeline, asked in api",
            (
                S(
                    "gemini",
                    "pipeline",
                    2,
                    T(
                        "in this repo i always run make seed-minio before the integration tests, the "
                        "local minio forgets its buckets on every restart. run them now",
                        Run(
                            "make seed-minio",
                            True,
                            "created bucket lake-local\ncreated bucket lake-local-quarantine",
                        ),
                        Run("pytest tests/integration -q", True, "38 passed in 21.40s"),
                        answer="Seeded MinIO; the 38 integration tests pass.",
                        model=(
                            Put(
                                "P/commands.md",
                                r"seed-minio|minio",
                                "Run `make seed-minio` before the integration tests: the local "
                                "MinIO loses its buckets on every restart.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "api", "get my machine ready to run this repo's integration tests"),
            foreign=("minio",),
            keys=("minio",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-local-receipts-plan",
            "stays in its project",
            "'what's next here once this is done: …' in billing (Cursor), asked in web",
            (
                S(
                    "cursor",
                    "billing",
                    3,
                    T(
                        "what's next here once this is done: move the emailed receipts off the cron "
                        "and onto the queue worker, then drop the legacy coupons table. for now "
                        "just rename the template vars in receipts/email.html",
                        Edit("receipts/email.html"),
                        answer="Renamed the template variables in receipts/email.html.",
                        model=(
                            Put(
                                "P/backlog.md",
                                r"emailed receipts|coupons table",
                                "Planned next: move the emailed receipts from the cron to the "
                                "queue worker, then drop the legacy coupons table.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "what's next on my plate?"),
            foreign=("coupons table", "emailed receipts"),
            keys=("coupons table", "emailed receipts"),
        )
    )

    # -- agent and tool findings: the fact comes from what the agent read or ran -------------------
    c.append(
        Case(
            "h3-found-body-limit",
            "agent and tool findings",
            "the person states a body limit; two days later a grep of the nginx config shows "
            "another; asked in Cursor",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "the api caps request bodies at 1 MB (nginx does it), so the receipt upload "
                        "client has to chunk anything bigger. add chunking to src/uploads/client.py",
                        Edit("src/uploads/client.py"),
                        Run("pytest tests/uploads -q", True, "11 passed in 0.37s"),
                        answer="The upload client splits files over 1 MB into chunks; the upload "
                        "tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"request bod(y|ies)|client_max_body_size",
                                "nginx caps request bodies at 1 MB; the receipt upload client "
                                "chunks anything bigger.",
                            ),
                        ),
                    ),
                ),
                S(
                    "gemini",
                    "api",
                    3,
                    T(
                        "700 KB receipts are bouncing with 413 even though they're under the cap, "
                        "why?",
                        Run(
                            "grep -rn client_max_body_size deploy/nginx/",
                            True,
                            "deploy/nginx/api.conf:27:    client_max_body_size 512k;",
                        ),
                        Edit("src/uploads/client.py"),
                        answer="nginx caps request bodies at 512k (client_max_body_size in "
                        "deploy/nginx/api.conf, line 27), not 1 MB, so a 700 KB body gets a 413. I "
                        "lowered the upload client's chunk size to 500 KB so every chunk fits.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"request bod(y|ies)|client_max_body_size",
                                "nginx caps request bodies at 512k (client_max_body_size in "
                                "deploy/nginx/api.conf; it was thought to be 1 MB); the receipt "
                                "upload client chunks at 500 KB.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "api", "what's the biggest request body the api will accept?"),
            expect=one("512k", "512 KB"),
            old=("1 MB",),
            keys=("client_max_body_size", "request bodies", "request body"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-found-flink-jdk",
            "agent and tool findings",
            "`mvn -v` shows the JDK installed, the pom shows the release compiled for; the agent "
            "states both",
            (
                S(
                    "cursor",
                    "pipeline",
                    2,
                    T(
                        "which jdk does the flink job need? look it up dont guess, i'm setting up the "
                        "new laptop",
                        Run(
                            "mvn -v",
                            True,
                            "Apache Maven 3.9.6 (bc0240f3c744dd6b6ec2920b3cd08dcc295161ae)\n"
                            "Maven home: /opt/maven\nJava version: 21.0.2, vendor: Eclipse "
                            "Adoptium, runtime: /usr/lib/jvm/temurin-21-jdk-amd64",
                        ),
                        Run(
                            "grep -n maven.compiler.release flink-job/pom.xml",
                            True,
                            "18:    <maven.compiler.release>17</maven.compiler.release>",
                        ),
                        answer="The job compiles for Java 17 (maven.compiler.release in "
                        "flink-job/pom.xml, line 18), so any JDK 17 or newer builds it; this "
                        "machine builds it with Temurin 21.0.2 and Maven 3.9.6.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"flink job.*(jdk|java)|\bjdk\b",
                                "The Flink job compiles for Java 17 (maven.compiler.release in "
                                "flink-job/pom.xml); any JDK 17 or newer builds it (Temurin 21.0.2 "
                                "with Maven 3.9.6 here).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "pipeline", "what java release does the flink job compile for?"),
            expect=one("Java 17", "JDK 17", "release 17"),
            keys=("flink", "maven.compiler.release"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-found-settlement-cron",
            "agent and tool findings",
            "the agent reads a CronJob manifest and states the schedule (not the README's); asked "
            "in Cursor",
            (
                S(
                    "claude",
                    "billing",
                    1,
                    T(
                        "when does the settlement job actually run? dont trust the README, read the "
                        "manifest",
                        Run(
                            "cat deploy/cron/settlement.yaml",
                            True,
                            "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: "
                            'ledger-settlement\nspec:\n  schedule: "17 3 * * *"\n  timeZone: '
                            "Etc/UTC\n",
                        ),
                        answer="The ledger-settlement CronJob runs every day at 03:17 UTC "
                        '(schedule "17 3 * * *" in deploy/cron/settlement.yaml); the README\'s '
                        '"around 2am" is out of date.',
                        model=(
                            Put(
                                "P/operations.md",
                                r"settlement (job|cron)|ledger-settlement",
                                "The ledger-settlement CronJob runs daily at 03:17 UTC "
                                "(deploy/cron/settlement.yaml).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "what time does the nightly settlement job run?"),
            expect=one("03:17", "3:17", "17 3 * * *"),
            keys=("settlement",),
        )
    )

    # -- everyday retraction: no stock phrase; the request after it is not a fact ------------------
    c.append(
        Case(
            "h3-retract-infra-review",
            "everyday retraction",
            "a review step for prod applies, then 'we got atlantis set up … that covers the second "
            "pair of eyes' and a doc edit",
            (
                S(
                    "codex",
                    "infra",
                    1,
                    T(
                        "prod applies need a second person to read the plan first, someone from "
                        "platform approves it in #infra-review before anything goes out. apply the "
                        "dns change to staging only for now",
                        Run(
                            "terraform -chdir=envs/staging apply",
                            True,
                            "Apply complete! Resources: 0 added, 2 changed, 0 destroyed.",
                        ),
                        answer="Applied the DNS change to staging; prod waits for an approval in "
                        "#infra-review.",
                        model=(
                            Put(
                                "P/process.md",
                                r"prod(uction)? appl(y|ies)",
                                "Production applies need a second person from platform to approve "
                                "the plan in #infra-review first.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "infra",
                    3,
                    T(
                        "we got atlantis set up: it posts the plan on the PR and applies on merge "
                        "after a codeowner approves, that covers the second pair of eyes. take the "
                        "#infra-review step out of docs/runbooks/apply.md",
                        Edit("docs/runbooks/apply.md"),
                        answer="docs/runbooks/apply.md describes the Atlantis flow only.",
                        model=(
                            Drop("P/process.md", r"infra-review"),
                            Put(
                                "P/process.md",
                                r"prod(uction)? appl(y|ies)",
                                "Production applies go through Atlantis: it posts the plan on the "
                                "PR and applies on merge after a codeowner approves.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "infra", "how does a terraform change get applied to prod here?"),
            expect=one("atlantis"),
            old=("infra-review",),
            junk=("infra-review step",),
            keys=("atlantis", "infra-review", "production applies"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-retract-status-ssr",
            "everyday retraction",
            "'the /status page has to stay server-rendered …', then 'turns out … never even visits "
            "/status' and a refactor request",
            (
                S(
                    "cursor",
                    "web",
                    2,
                    T(
                        "the /status page has to stay server-rendered, marketing's seo crawler reads "
                        "it and can't run js. add the incident timeline to it",
                        Edit("app/routes/status.tsx"),
                        answer="The /status page renders the incident timeline on the server.",
                        model=(
                            Put(
                                "P/rendering.md",
                                r"/status",
                                "The /status page must stay server-rendered: marketing's SEO "
                                "crawler reads it and cannot run JavaScript.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "web",
                    4,
                    T(
                        "turns out marketing's crawler never even visits /status, only /pricing and "
                        "/blog. so status can be a plain client component; drop the loader from "
                        "app/routes/status.tsx and fetch on the client",
                        Edit("app/routes/status.tsx"),
                        answer="app/routes/status.tsx fetches its data on the client; the loader "
                        "is removed.",
                        model=(
                            Put(
                                "P/rendering.md",
                                r"/status",
                                "The /status page does not need server rendering: marketing's SEO "
                                "crawler only visits /pricing and /blog.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "can the status page load its data client-side?"),
            expect=one("/pricing"),
            old=("must stay server-rendered", "has to stay server-rendered"),
            junk=("drop the loader",),
            keys=("/status", "seo crawler"),
        )
    )

    # -- noise: long sessions, read-only commands, one-off variants, unrelated next commands ------
    c.append(
        Case(
            "h3-noise-haproxy",
            "noise",
            "95 configuration-management calls in Cursor, per-host variants; a rule about another "
            "role said in passing",
            (
                S(
                    "cursor",
                    "infra",
                    2,
                    T(
                        "roll the nginx worker_connections bump out to the web hosts, one host at "
                        "a time",
                        *playbook_steps(40, 1),
                        answer="Rolled the bump out to web-01 to web-05 so far; all report active.",
                    ),
                    T(
                        "good. while we're here, one thing that holds for good: the haproxy role "
                        "only ever goes out with --check --diff first against lb-a and lb-b, a bad "
                        "template took both balancers down in january. carry on with the "
                        "remaining web hosts",
                        *playbook_steps(40, 2, failing_every=9),
                        answer="All nine web hosts have the new worker_connections; ansible-lint "
                        "flagged one truthy value, which I fixed.",
                        model=(
                            Put(
                                "P/procedures.md",
                                r"haproxy",
                                "The haproxy role goes out with `--check --diff` against lb-a and "
                                "lb-b first (a bad template once took both load balancers down).",
                            ),
                        ),
                    ),
                    T(
                        "check they all still report active",
                        *playbook_steps(15, 3),
                        answer="All nine web hosts report nginx active.",
                    ),
                ),
            ),
            Query(
                "gemini",
                "infra",
                "about to change the timeouts in the haproxy role, how should I roll that out?",
            ),
            expect=one("--check --diff", "check mode"),
            junk=(
                "-l web-0",
                "systemctl is-active nginx",
                "ansible-inventory -i inventory/prod --host",
            ),
            keys=("haproxy", "lb-a", "web-0"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h3-noise-docs-group",
            "noise",
            "a failing docs build fixed by installing an optional group, then unrelated read-only "
            "commands and a lint run",
            (
                S(
                    "codex",
                    "billing",
                    3,
                    T(
                        "build the docs",
                        Run(
                            "make docs",
                            False,
                            "Extension error:\nCould not import extension sphinxcontrib.mermaid "
                            "(exception: No module named 'sphinxcontrib.mermaid')\nmake: *** "
                            "[Makefile:22: docs] Error 2",
                        ),
                        Run(
                            "sed -n '1,30p' docs/conf.py",
                            True,
                            'extensions = ["sphinx.ext.autodoc", "sphinxcontrib.mermaid"]',
                        ),
                        Run(
                            "poetry install --with docs",
                            True,
                            "Installing sphinxcontrib-mermaid (0.9.2)\nInstalling furo (2024.8.6)",
                        ),
                        Run("make docs", True, "build succeeded, 3 warnings."),
                        Run("git status --short", True, "?? docs/_build/"),
                        Run("ls docs/_build/html | head -n 12", True, "api.html\nindex.html"),
                        Run("du -sh docs/_build", True, "14M\tdocs/_build"),
                        answer="The docs build. The docs dependency group (sphinxcontrib-mermaid, "
                        "furo) is optional in pyproject.toml and was not installed; `poetry "
                        "install --with docs` fixed it.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"make docs|sphinxcontrib",
                                "`make docs` fails with 'No module named sphinxcontrib.mermaid' "
                                "until the optional docs group is installed: `poetry install "
                                "--with docs`.",
                            ),
                        ),
                    ),
                    T(
                        "ok, lint while you're at it",
                        Run("ruff check .", True, "All checks passed!"),
                        answer="Lint is clean.",
                    ),
                ),
            ),
            Query(
                "claude",
                "billing",
                "make docs: Could not import extension sphinxcontrib.mermaid",
            ),
            expect=one("--with docs"),
            junk=("du -sh docs/_build", "ls docs/_build/html"),
            keys=("sphinxcontrib", "make docs"),
        )
    )

    # -- terse preference: short forms, other casing and punctuation, asked elsewhere -------------
    c.append(
        Case(
            "h3-terse-whole-suite",
            "terse preference",
            "'dont run the whole suite evry time, …' (typos) after a full run, in Codex; asked in api",
            (
                S(
                    "codex",
                    "pipeline",
                    1,
                    T(
                        "fix the null check in the fx rate converter",
                        Edit("pipeline/fx/convert.py"),
                        Run("pytest -q", True, "612 passed, 4 skipped in 3m02s"),
                        answer="Fixed the null check; the whole suite passes (612 tests).",
                    ),
                    T(
                        "dont run the whole suite evry time, just the tests for what u touched "
                        "unless i say so",
                        answer="Understood.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"whole (test )?suite|full (test )?suite",
                                "Wants only the tests for the changed code run, not the whole "
                                "suite, unless asked for it.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "fix the off-by-one in the pagination helper"),
            expect=one("whole suite", "full suite", "full test suite", "whole test suite"),
            keys=("whole suite",),
        )
    )
    c.append(
        Case(
            "h3-terse-rg-fd",
            "terse preference",
            "'rg > grep, fd > find. always' after a grep, in Gemini CLI; asked in infra (Cursor)",
            (
                S(
                    "gemini",
                    "dotfiles",
                    3,
                    T(
                        "where is the ssh agent started?",
                        Run(
                            "grep -rn ssh-agent .",
                            True,
                            './zsh/zprofile:12:eval "$(ssh-agent -s)"',
                        ),
                        answer="In zsh/zprofile, line 12.",
                    ),
                    T(
                        "rg > grep, fd > find. always",
                        answer="Noted.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"\brg\b|ripgrep",
                                "Prefers rg over grep and fd over find.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "infra", "find every place that sets the kms key alias"),
            expect=one("rg", "ripgrep"),
            keys=("rg over grep",),
            needs_client="gemini",
        )
    )
    return c
