"""The second held-out set: 40 multi-session cases written on 2026-12-02, before the judgment
changes of that day (supersession only on the same subject, claims from the whole session,
scope by what a cue means, noise), and never tuned on. Their first run is the "before" figure
(bench/memeval/heldout2_baseline.md); later runs say how far the changes generalise.

Same format, projects, calendar and clients as `cases.py` (read its docstring for what
`expect`, `old`, `foreign`, `junk` and `keys` mean), with new subjects and sentence shapes, in
eight classes of about five cases each:

  - same subject only: a later statement that merely mentions a tool or value of an earlier rule
    must not remove it (both expected);
  - change of value: the same subject changed in a new phrasing (newer expected, older `old`);
  - across repositories: a cross-repository cue ("every repo I own", "in any Go service I own",
    "generally", in a label, mid-sentence) said in one project and asked in another; a later
    cross-repository change from a third project supersedes it;
  - stays in its project: a task, schedule, wish or habit of one repository must not reach
    another (`foreign`);
  - agent and tool findings: the agent reads a config file or a command prints a value, once
    correcting what the person said earlier; asked later, also in Cursor (session start only);
  - everyday retraction: retractions and changes without stock phrases; the request that
    follows is not a fact (`junk`);
  - noise: long sessions, read-only commands, one-off variants, a pitfall whose next command
    is unrelated;
  - terse preference: short preferences in lower case, with typos, with or without
    punctuation, asked in another project.

Run them with `wikimem eval --set heldout2`.

Do not edit a case to make it pass; fix only a case that is itself wrong (a typo in the
scenario, an expectation a careful user would not hold), and list the fix in
bench/memeval/heldout2_baseline.md.
"""

from __future__ import annotations

from wikimem.evaluate.cases import Case, Cli, Put, Query, S, T, one
from wikimem.evaluate.clients import Edit, Run, Step

# -- long sessions ---------------------------------------------------------------------------------


def widget_steps(n: int, seed: int, failing_every: int = 0) -> tuple[Step, ...]:
    """`n` tool calls of front-end work: reading widgets, searching, editing, single-file test
    runs (one-off variants), diffs and a type check that is the same every time."""
    out: list[Step] = []
    for i in range(n):
        k = (i * 5 + seed) % 6
        name = f"Widget{(i * 11 + seed) % 53:02d}"
        if k == 0:
            out.append(Run(f"cat src/widgets/{name}.tsx", True, f"export function {name}() {{"))
        elif k == 1:
            out.append(Run(f'rg -n "use{name}" src', True, f"src/widgets/{name}.tsx:4"))
        elif k == 2:
            out.append(Edit(f"src/widgets/{name}.tsx"))
        elif k == 3:
            ok = not (failing_every and i % failing_every == 3)
            out.append(
                Run(
                    f"npx vitest run src/widgets/{name}.test.tsx",
                    ok,
                    " Test Files  1 passed (1)\n      Tests  3 passed (3)"
                    if ok
                    else f" FAIL  src/widgets/{name}.test.tsx > renders the empty state",
                )
            )
        elif k == 4:
            out.append(Run("git diff --stat", True, f" src/widgets/{name}.tsx | 12 ++++++------"))
        else:
            out.append(Run("npx tsc --noEmit -p tsconfig.app.json", True, ""))
    return tuple(out)


_PODS = ("x8k2p", "q4mzt", "b7wnd", "h2lrc", "v9fsk")


def ingress_steps(n: int, seed: int) -> tuple[Step, ...]:
    """`n` tool calls of cluster debugging: listing and describing pods whose names change on
    every restart, logs, resource use, a values edit and a helm diff."""
    out: list[Step] = []
    for i in range(n):
        k = (i * 3 + seed) % 6
        pod = f"ingress-nginx-controller-7d9f{i % 4}-{_PODS[(i + seed) % len(_PODS)]}"
        if k == 0:
            out.append(
                Run(
                    "kubectl -n edge-system get pods -o wide",
                    True,
                    f"{pod}   1/1   Running   {i % 9 + 3}   4m",
                )
            )
        elif k == 1:
            out.append(
                Run(
                    f"kubectl -n edge-system logs {pod} --tail=200",
                    True,
                    "nginx: [warn] upstream response is buffered to a temporary file",
                )
            )
        elif k == 2:
            out.append(
                Run(
                    f"kubectl -n edge-system describe pod {pod}",
                    True,
                    "Last State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137",
                )
            )
        elif k == 3:
            out.append(
                Run(
                    "kubectl top pod -n edge-system",
                    True,
                    f"{pod}   412m   251Mi",
                )
            )
        elif k == 4:
            out.append(Edit("k8s/ingress/values.yaml"))
        else:
            out.append(
                Run(
                    "helm diff upgrade ingress charts/ingress -n edge-system "
                    "-f k8s/ingress/values.yaml",
                    True,
                    "edge-system, ingress-nginx-controller, Deployment (apps) has changed:",
                )
            )
    return tuple(out)


def build_heldout2_cases() -> list[Case]:
    c: list[Case] = []

    # -- same subject only: mentioning a tool or value of an earlier rule does not replace it ------
    c.append(
        Case(
            "h2-same-sqlfluff",
            "same subject only",
            "`wikimem remember` a formatting rule, then a second rule about the same tool's dialect",
            (
                Cli(
                    "pipeline",
                    1,
                    (
                        "remember",
                        "SQL models in models/ are formatted with sqlfluff, never by hand.",
                    ),
                ),
                Cli(
                    "pipeline",
                    3,
                    (
                        "remember",
                        "sqlfluff in CI reads the bigquery dialect from .sqlfluff; don't pass "
                        "--dialect on the command line.",
                    ),
                ),
            ),
            Query("codex", "pipeline", "how should I format the sql models before committing?"),
            expect=(
                ("never by hand", "not by hand", "never formatted by hand"),
                ("bigquery",),
            ),
            keys=("sqlfluff",),
        )
    )
    c.append(
        Case(
            "h2-same-httpx",
            "same subject only",
            "an HTTP-client rule in Gemini CLI, then an exception for one offline script in Cursor",
            (
                S(
                    "gemini",
                    "api",
                    1,
                    T(
                        "outbound HTTP in this codebase goes through httpx (AsyncClient); "
                        "requests is not allowed in request handlers because it blocks the event "
                        "loop. add a timeout to the geocoder call",
                        Edit("src/clients/geocoder.py"),
                        Run("pytest tests/clients -q", True, "9 passed in 0.62s"),
                        answer="The geocoder call now has a 5 s timeout; the client tests pass.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"outbound http|http client",
                                "Outbound HTTP goes through httpx (AsyncClient); requests is not "
                                "allowed in request handlers because it blocks the event loop.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "api",
                    3,
                    T(
                        "scripts/seed_fixtures.py still imports requests and that's fine, it "
                        "runs offline and never inside the app, so leave that alone. just fix "
                        "the fixture paths in it",
                        Edit("scripts/seed_fixtures.py"),
                        answer="The fixture paths in scripts/seed_fixtures.py point at "
                        "tests/fixtures/ again.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"seed_fixtures",
                                "scripts/seed_fixtures.py may keep using requests: it runs "
                                "offline, never inside the app.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "api",
                "which HTTP library should I use to call the tax service from a handler?",
            ),
            expect=one("httpx"),
            keys=("httpx", "seed_fixtures"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-same-buildah",
            "same subject only",
            "'we build images with buildah here' (typos), then a push flag for one mirror",
            (
                S(
                    "claude",
                    "infra",
                    1,
                    T(
                        "we build images with buildah here, theres no docker daemon on the build "
                        "runners so dont reach for docker build. build the base image for the log "
                        "shipper",
                        Run(
                            "buildah bud -t registry.acme.dev/log-shipper:dev images/log-shipper",
                            True,
                            "COMMIT registry.acme.dev/log-shipper:dev\n--> 3c9e1f2a7b",
                        ),
                        answer="Built registry.acme.dev/log-shipper:dev with buildah.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"image builds?|build(ing)? images",
                                "Container images are built with buildah; the build runners have "
                                "no Docker daemon, so never use docker build.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "infra",
                    3,
                    T(
                        "when buildah pushes to the internal mirror (mirror.acme.internal) it needs "
                        "--tls-verify=false, that mirror has a self-signed cert; every other "
                        "registry verifies TLS. push the shipper image to the mirror",
                        Run(
                            "buildah push --tls-verify=false registry.acme.dev/log-shipper:dev "
                            "docker://mirror.acme.internal/log-shipper:dev",
                            True,
                            "Writing manifest to image destination",
                        ),
                        answer="Pushed log-shipper:dev to mirror.acme.internal.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"mirror\.acme|tls-verify",
                                "Pushing to the internal mirror mirror.acme.internal needs "
                                "`buildah push --tls-verify=false` (self-signed certificate); "
                                "every other registry verifies TLS.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "infra", "how do I build the container image for the new exporter?"),
            expect=(("docker daemon",), ("mirror.acme.internal",)),
            keys=("buildah", "docker daemon", "mirror.acme"),
        )
    )
    c.append(
        Case(
            "h2-same-cents",
            "same subject only",
            "`wikimem remember` 'never floats for money', then 'the float in … is fine' in a session",
            (
                Cli(
                    "billing",
                    2,
                    (
                        "remember",
                        "Money amounts are stored as integer cents everywhere in billing; never "
                        "use floats for money.",
                    ),
                ),
                S(
                    "claude",
                    "billing",
                    4,
                    T(
                        "fyi the float in reports/margins.py is fine, it's a ratio for the chart, "
                        "not money, so don't convert it. can you make the margin chart round to "
                        "one decimal",
                        Edit("reports/margins.py"),
                        answer="The margin chart rounds to one decimal now.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"margins\.py",
                                "reports/margins.py keeps a float on purpose: it is a ratio for "
                                "the chart, not money.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "what type should the new discount amount field be?"),
            expect=one("integer cents"),
            keys=("cents", "margins.py"),
        )
    )
    c.append(
        Case(
            "h2-same-tmux",
            "same subject only",
            "a personal habit with tmux, then a fact about the tmux config in the same repository",
            (
                S(
                    "codex",
                    "dotfiles",
                    1,
                    T(
                        'anything that takes more than a minute goes in my tmux session "jobs", '
                        "not in the foreground of your shell. kick off the full restic check "
                        "that way",
                        Run("tmux new-window -t jobs 'restic check --read-data'", True, ""),
                        answer="Started `restic check --read-data` in a new window of the jobs "
                        "tmux session.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"long(-running)? (jobs|commands)|more than a minute",
                                "Runs anything that takes more than a minute in the tmux session "
                                "'jobs', not in the foreground of the agent's shell.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "dotfiles",
                    3,
                    T(
                        "tmux/tmux.conf sets the prefix to C-a and that stays, it's muscle "
                        "memory. add a binding for reloading the config on r",
                        Edit("tmux/tmux.conf"),
                        answer="prefix + r now reloads tmux/tmux.conf.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"tmux prefix|prefix to c-a",
                                "tmux/tmux.conf sets the tmux prefix to C-a; keep it.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "start the load test, it runs for about 40 minutes"),
            expect=one("session jobs", "session called jobs", "session named jobs", "jobs session"),
            keys=("tmux",),
        )
    )

    # -- change of value: the same subject, a new phrasing -----------------------------------------
    c.append(
        Case(
            "h2-change-net-owner",
            "change of value",
            "an owner in Cursor, 'X took over … from her' in Claude Code",
            (
                S(
                    "cursor",
                    "infra",
                    1,
                    T(
                        "Priya Natarajan owns the network modules (modules/net), so any change "
                        "there goes to her for review. add the new subnet for the batch workers",
                        Edit("modules/net/subnets.tf"),
                        answer="Added a /24 for the batch workers in modules/net/subnets.tf.",
                        model=(
                            Put(
                                "P/ownership.md",
                                r"network modules|modules/net",
                                "The network modules (modules/net) are owned by Priya Natarajan; "
                                "changes there go to her for review.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "infra",
                    3,
                    T(
                        "Priya moved to the data platform team, Tomasz Wierzbicki took over "
                        "modules/net from her. update CODEOWNERS",
                        Edit(".github/CODEOWNERS"),
                        answer="CODEOWNERS assigns modules/net to Tomasz Wierzbicki.",
                        model=(
                            Put(
                                "P/ownership.md",
                                r"network modules|modules/net",
                                "The network modules (modules/net) are owned by Tomasz "
                                "Wierzbicki since 2026-03-04 (was Priya Natarajan until she "
                                "moved teams); changes there go to him for review.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "infra", "who should review my change to modules/net?"),
            expect=one("Tomasz Wierzbicki"),
            old=("Priya Natarajan",),
            keys=("modules/net", "priya", "tomasz"),
        )
    )
    c.append(
        Case(
            "h2-change-sftp-time",
            "change of value",
            "a delivery time in Gemini CLI, 'pushed … back an hour (…)' in Codex",
            (
                S(
                    "gemini",
                    "pipeline",
                    1,
                    T(
                        "the partner's SFTP drop lands around 04:10 UTC on weekdays and the ingest "
                        "sensor polls for it. bump the sensor's poke interval to 5 min",
                        Edit("dags/partner_ingest.py"),
                        answer="The sensor pokes every 5 minutes now.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"sftp drop",
                                "The partner's SFTP drop lands around 04:10 UTC on weekdays; the "
                                "ingest sensor polls for it.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "pipeline",
                    4,
                    T(
                        "partner pushed their SFTP drop back an hour (05:10 UTC on weekdays going "
                        "forward), so the sensor timeout in dags/partner_ingest.py needs another "
                        "hour",
                        Edit("dags/partner_ingest.py"),
                        answer="The sensor waits until 06:10 UTC before timing out.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"sftp drop",
                                "The partner's SFTP drop lands around 05:10 UTC on weekdays since "
                                "2026-03-05 (was 04:10 UTC until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "what time does the partner sftp file arrive?"),
            expect=one("05:10"),
            old=("04:10",),
            keys=("sftp",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-change-ts-pin",
            "change of value",
            "'we're stuck on typescript 5.4 for now', then 'can go to 5.6 — pin exactly 5.6'",
            (
                S(
                    "codex",
                    "web",
                    2,
                    T(
                        "we're stuck on typescript 5.4 for now because the decorators babel plugin "
                        "breaks on 5.5 - don't let renovate bump it. add it to the renovate ignore "
                        "list",
                        Edit("renovate.json"),
                        answer="renovate.json ignores typescript updates.",
                        model=(
                            Put(
                                "P/dependencies.md",
                                r"typescript",
                                "TypeScript is pinned to 5.4: the decorators Babel plugin breaks "
                                "on 5.5; Renovate must not bump it.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "web",
                    4,
                    T(
                        "The decorators plugin shipped a fix, so TypeScript can go to 5.6 — pin "
                        "exactly 5.6 and take it off renovate's ignore list.",
                        Edit("package.json"),
                        Edit("renovate.json"),
                        Run("npx tsc --noEmit", True, ""),
                        answer="TypeScript is pinned to 5.6.3 and Renovate may update it again; "
                        "the type check passes.",
                        model=(
                            Put(
                                "P/dependencies.md",
                                r"typescript",
                                "TypeScript is pinned to 5.6 since 2026-03-05 (was 5.4 until the "
                                "decorators Babel plugin was fixed).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "web", "which typescript version are we on?"),
            expect=one("5.6"),
            old=("5.4",),
            keys=("typescript",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-change-mergetool",
            "change of value",
            "a personal mergetool in one repository, 'not using X anymore, Y is …' in another",
            (
                S(
                    "claude",
                    "dotfiles",
                    1,
                    T(
                        "for merge conflicts I use meld as my mergetool. set that up in the "
                        "gitconfig here",
                        Edit("git/gitconfig"),
                        answer="git/gitconfig sets merge.tool = meld.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"merge ?tool",
                                "Resolves merge conflicts with meld as the git mergetool.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "billing",
                    3,
                    T(
                        "not using meld anymore, kdiff3 is my mergetool now. open it on the "
                        "conflict in poetry.lock",
                        Run(
                            "git mergetool --tool=kdiff3 poetry.lock",
                            True,
                            "Merging:\npoetry.lock\n\nNormal merge conflict for 'poetry.lock'",
                        ),
                        answer="Opened kdiff3 on poetry.lock.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"merge ?tool",
                                "Resolves merge conflicts with kdiff3 as the git mergetool since "
                                "2026-03-04 (was meld until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor",
                "infra",
                "there's a merge conflict in variables.tf, open it in my usual tool",
            ),
            expect=one("kdiff3"),
            old=("meld",),
            keys=("mergetool", "meld", "kdiff3"),
        )
    )
    c.append(
        Case(
            "h2-change-mail-relay",
            "change of value",
            "`wikimem remember` an SMTP relay, then 'mail's been moved to …' in a session",
            (
                Cli(
                    "api",
                    1,
                    (
                        "remember",
                        "Transactional mail goes out through the SMTP relay "
                        "smtp-relay-1.acme.internal on port 2525.",
                    ),
                ),
                S(
                    "gemini",
                    "api",
                    3,
                    T(
                        "mail's been moved to postmark (their HTTP API), smtp-relay-1 gets switched "
                        "off friday. port the password-reset mailer over",
                        Edit("src/mail/reset.py"),
                        Run("pytest tests/mail -q", True, "6 passed in 0.48s"),
                        answer="The password-reset mailer sends through Postmark's API; the mail "
                        "tests pass.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"transactional mail|smtp relay|mail relay",
                                "Transactional mail goes out through Postmark's HTTP API since "
                                "2026-03-04 (was the SMTP relay smtp-relay-1.acme.internal:2525, "
                                "switched off on 2026-03-06).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "api", "how does the app send password reset emails?"),
            expect=one("postmark"),
            old=("2525",),
            keys=("smtp", "postmark", "transactional mail"),
            needs_client="gemini",
        )
    )

    # -- across repositories: a cross-repository cue, asked in another project ---------------------
    c.append(
        Case(
            "h2-scope-label-pipefail",
            "across repositories",
            "'house rule, applies to every repo I own: …' in billing, asked in dotfiles (Cursor)",
            (
                S(
                    "codex",
                    "billing",
                    1,
                    T(
                        "house rule, applies to every repo I own: shell scripts start with set "
                        "-euo pipefail. fix scripts/export_ledger.sh",
                        Edit("scripts/export_ledger.sh"),
                        answer="scripts/export_ledger.sh starts with `set -euo pipefail` now.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"pipefail",
                                "In every repository: shell scripts start with `set -euo "
                                "pipefail`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "dotfiles", "write a script that rotates the old log archives"),
            expect=one("pipefail"),
            keys=("pipefail",),
        )
    )
    c.append(
        Case(
            "h2-scope-go-logger",
            "across repositories",
            "'in any Go service I own …' in the middle of a request in web, asked in pipeline",
            (
                S(
                    "claude",
                    "web",
                    2,
                    T(
                        "add request logging to the bff, and since in any Go service I own the "
                        "logger is zerolog (no logrus, no log.Printf), use zerolog for it",
                        Edit("bff/middleware/logging.go"),
                        Run("go test ./bff/...", True, "ok  \tacme/web/bff/middleware\t0.412s"),
                        answer="The BFF logs every request with zerolog; its tests pass.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"go (services?|logger)|zerolog",
                                "In every Go service: log with zerolog (no logrus, no log.Printf).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "pipeline",
                "I'm starting a small Go sidecar for the loader, which logging package?",
            ),
            expect=one("zerolog"),
            keys=("zerolog",),
        )
    )
    c.append(
        Case(
            "h2-scope-rust-errors",
            "across repositories",
            "'In all my Rust crates: …' in infra, changed 'for every rust crate of mine' in "
            "dotfiles; asked in api",
            (
                S(
                    "gemini",
                    "infra",
                    1,
                    T(
                        "In all my Rust crates: anyhow for errors in binaries, thiserror in "
                        "libraries. Wire that into the operator's main.rs",
                        Edit("operator/src/main.rs"),
                        Run(
                            "cargo build -p operator",
                            True,
                            "Finished `dev` profile [unoptimized + debuginfo] target(s) in 14.2s",
                        ),
                        answer="operator/src/main.rs returns anyhow::Result; it builds.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"rust (errors?|crates?)|error handling in rust",
                                "In all Rust crates: anyhow for errors in binaries, thiserror in "
                                "libraries.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "dotfiles",
                    4,
                    T(
                        "for every rust crate of mine, binaries use color-eyre instead of anyhow "
                        "now (nicer reports), libraries stay on thiserror. convert the dotsync cli",
                        Edit("dotsync/src/main.rs"),
                        Run(
                            "cargo build",
                            True,
                            "Finished `dev` profile [unoptimized + debuginfo] target(s) in 6.8s",
                        ),
                        answer="dotsync uses color-eyre for its errors now; it builds.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"rust (errors?|crates?)|error handling in rust",
                                "In all Rust crates: color-eyre for errors in binaries since "
                                "2026-03-05 (was anyhow until then), thiserror in libraries.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "codex",
                "api",
                "I'm adding a small Rust CLI under tools/, which error handling crate should the "
                "binary use?",
            ),
            expect=one("color-eyre", "eyre"),
            old=("anyhow",),
            keys=("anyhow", "eyre", "thiserror"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-scope-generally-sudo",
            "across repositories",
            "'generally, …' in infra (Cursor), asked in web",
            (
                S(
                    "cursor",
                    "infra",
                    2,
                    T(
                        "generally, ask me before running anything with sudo. install the nfs "
                        "client package on this box if it's missing",
                        Run(
                            "apt list --installed nfs-common",
                            True,
                            "nfs-common/stable,now 1:2.6.2-4 amd64 [installed]",
                        ),
                        answer="nfs-common is already installed, so nothing needed sudo.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"sudo",
                                "Wants to be asked before any command that needs sudo.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "clear the system-wide npm cache, it's corrupt"),
            expect=one("sudo"),
            keys=("sudo",),
        )
    )
    c.append(
        Case(
            "h2-scope-pr-verification",
            "across repositories",
            "`wikimem remember` 'everywhere I work, …' in billing, changed 'across the board' in "
            "dotfiles; asked in infra",
            (
                Cli(
                    "billing",
                    1,
                    (
                        "remember",
                        "Everywhere I work, PR descriptions end with a How to test section.",
                    ),
                ),
                S(
                    "codex",
                    "dotfiles",
                    3,
                    T(
                        "across the board, no more How to test section in PR descriptions; a "
                        "Verification checklist (commands run + results) replaces it. write the "
                        "description for this branch",
                        Run(
                            "gh pr create --title 'Add dotsync dry-run' --body-file pr.md",
                            True,
                            "https://github.com/me/dotfiles-tools/pull/12",
                        ),
                        answer="Opened the PR with a Verification checklist listing the "
                        "commands run and their results.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"pr descriptions?",
                                "PR descriptions end with a Verification checklist (commands run "
                                "and their results) since 2026-03-04 (was a How to test section "
                                "until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "infra", "write the PR description for the vault policy change"),
            expect=one("Verification checklist"),
            old=("How to test",),
            keys=("how to test", "verification checklist", "pr description"),
        )
    )

    # -- stays in its project: a task, schedule, wish or habit of one repository -------------------
    c.append(
        Case(
            "h2-local-task-split",
            "stays in its project",
            "'i'm halfway through splitting … this week' in billing, asked in pipeline",
            (
                S(
                    "claude",
                    "billing",
                    2,
                    T(
                        "i'm halfway through splitting the invoice generator into a worker and an "
                        "api this week, so expect the imports in billing/invoicing to be a mess. "
                        "fix the circular import the tests hit",
                        Run(
                            "pytest tests/invoicing -q",
                            False,
                            "ImportError: cannot import name 'render_invoice' from partially "
                            "initialized module 'billing.invoicing.worker'",
                        ),
                        Edit("billing/invoicing/__init__.py"),
                        Run("pytest tests/invoicing -q", True, "23 passed in 1.31s"),
                        answer="billing/invoicing/__init__.py no longer imports the worker at "
                        "module level; the invoicing tests pass.",
                    ),
                ),
            ),
            Query("codex", "pipeline", "what am I in the middle of right now?"),
            foreign=("invoice generator",),
            keys=("invoice generator",),
        )
    )
    c.append(
        Case(
            "h2-local-habit-openapi",
            "stays in its project",
            "'I always … before I merge anything in the api repo', asked in web",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "I always regenerate the openapi client before I merge anything in the api "
                        "repo: make openapi-client. do it now and commit the result",
                        Run("make openapi-client", True, "wrote clients/ts/ (41 files)"),
                        Run(
                            'git commit -am "Regenerate the OpenAPI client"',
                            True,
                            "[main 7f3a9d2] Regenerate the OpenAPI client",
                        ),
                        answer="Regenerated the OpenAPI client and committed it.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"openapi client",
                                "Regenerate the OpenAPI client with `make openapi-client` before "
                                "merging anything.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "I'm about to merge this branch, anything I should run first?"),
            foreign=("openapi-client", "openapi client"),
            keys=("openapi",),
        )
    )
    c.append(
        Case(
            "h2-local-demo-deadline",
            "stays in its project",
            "a demo date and a deadline for one project's report, asked in dotfiles",
            (
                S(
                    "cursor",
                    "pipeline",
                    3,
                    T(
                        "the Globex demo is friday so the reconciliation report has to be stable by "
                        "thursday night. what's still failing in the report tests?",
                        Run(
                            "pytest tests/reports -q",
                            False,
                            "FAILED tests/reports/test_reconciliation.py::test_totals_by_region - "
                            "AssertionError\n1 failed, 30 passed in 4.12s",
                        ),
                        answer="Only test_totals_by_region fails: region totals are summed before "
                        "the currency conversion instead of after it.",
                        model=(
                            Put(
                                "P/schedule.md",
                                r"globex demo",
                                "The Globex demo is on 2026-03-06; the reconciliation report must be "
                                "stable by the evening of 2026-03-05.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "dotfiles", "anything coming up this week I should plan around?"),
            foreign=("reconciliation report", "Globex demo"),
            keys=("globex demo", "reconciliation report"),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-local-wish-sidebar",
            "stays in its project",
            "'I'd like … too, but not today' about one app's UI, asked in billing",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "I'd like the filter sidebar to remember which sections were collapsed "
                        "too, but not today. for now just fix the focus ring on its close button",
                        Edit("src/filters/Sidebar.tsx"),
                        answer="The sidebar's close button shows a focus ring again.",
                        model=(
                            Put(
                                "P/backlog.md",
                                r"filter sidebar",
                                "Wanted later: the filter sidebar remembers which sections were "
                                "collapsed.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "what did I say I wanted to add next?"),
            foreign=("filter sidebar",),
            keys=("filter sidebar",),
        )
    )
    c.append(
        Case(
            "h2-local-legacy-endpoint",
            "stays in its project",
            "'I'm keeping the legacy … alive until …' in api, asked in billing (Cursor)",
            (
                S(
                    "claude",
                    "api",
                    3,
                    T(
                        "I'm keeping the legacy /v1/export endpoint alive until the android app "
                        "stops calling it (their 4.2 release), so don't delete it in the cleanup. "
                        "remove the other v1 routes",
                        Edit("src/api/routes_v1.py"),
                        Run("pytest tests/api -q", True, "148 passed in 6.02s"),
                        answer="Removed every v1 route except /v1/export; the API tests pass.",
                        model=(
                            Put(
                                "P/decisions.md",
                                r"/v1/export",
                                "The legacy /v1/export endpoint stays until the Android app stops "
                                "calling it (its 4.2 release); the other v1 routes are removed.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "which legacy endpoints am I keeping alive and why?"),
            foreign=("v1/export",),
            keys=("v1/export",),
        )
    )

    # -- agent and tool findings: the fact comes from what the agent read or ran -------------------
    c.append(
        Case(
            "h2-found-spark-executors",
            "agent and tool findings",
            "the agent reads a config file and states the value; asked in Cursor",
            (
                S(
                    "codex",
                    "pipeline",
                    2,
                    T(
                        "the spark job is slow again, how many executors does it get? check the "
                        "config, don't guess",
                        Run(
                            "cat conf/spark-defaults.conf",
                            True,
                            "spark.executor.instances   12\nspark.executor.memory      6g\n"
                            "spark.executor.cores       4",
                        ),
                        answer="It runs 12 executors with 6g of memory and 4 cores each "
                        "(conf/spark-defaults.conf), so the slowness is not a lack of executors.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"spark executors?|executors",
                                "The Spark job runs 12 executors with 6g of memory and 4 cores "
                                "each (conf/spark-defaults.conf).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "pipeline", "how many spark executors does the job run with?"),
            expect=one("12 executors", "executor.instances 12"),
            keys=("executor",),
        )
    )
    c.append(
        Case(
            "h2-found-tofu-version",
            "agent and tool findings",
            "a command prints the version; the agent states it; asked in Gemini CLI",
            (
                S(
                    "claude",
                    "infra",
                    2,
                    T(
                        "which opentofu do we have locally? pin required_version to whatever minor "
                        "that is",
                        Run("tofu version", True, "OpenTofu v1.8.3\non linux_amd64"),
                        Edit("versions.tf"),
                        answer="OpenTofu 1.8.3 is installed; versions.tf now requires ~> 1.8.0.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"opentofu",
                                "OpenTofu 1.8.3 is installed locally; versions.tf requires "
                                "~> 1.8.0.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "infra", "what opentofu version do we target?"),
            expect=one("1.8"),
            keys=("opentofu",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-found-pool-size",
            "agent and tool findings",
            "the person states a pool size; two days later the agent reads the code and corrects "
            "it; asked in Cursor",
            (
                S(
                    "codex",
                    "billing",
                    1,
                    T(
                        "our db pool is 20 connections per worker, so the 4 workers max out at 80. "
                        "check the pgbouncer limit fits that",
                        Run(
                            "grep -n max_client_conn deploy/pgbouncer.ini",
                            True,
                            "6:max_client_conn = 200",
                        ),
                        answer="pgbouncer allows 200 client connections, enough for 4 workers with "
                        "20 each.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"(db|database|connection) pool",
                                "The database connection pool is 20 connections per worker (4 "
                                "workers, 80 at most).",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "billing",
                    3,
                    T(
                        "we're still running out of db connections under load. find out why",
                        Run(
                            "grep -n -A2 create_engine billing/db.py",
                            True,
                            "12:engine = create_engine(\n13:    DATABASE_URL,\n14:    pool_size=8,"
                            "\n15:    max_overflow=2,",
                        ),
                        Run("grep -n WORKERS deploy/env.prod", True, "3:WORKERS=12"),
                        answer="The pool is 8 connections per worker plus 2 overflow "
                        "(pool_size=8, max_overflow=2 in billing/db.py), not 20 as we assumed. "
                        "The real problem is the worker count: production runs 12 workers "
                        "(deploy/env.prod), not 4, so the app can open 120 connections.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"(db|database|connection) pool",
                                "The database connection pool is 8 connections per worker plus "
                                "2 overflow (pool_size=8, max_overflow=2 in billing/db.py; it was "
                                "thought to be 20); production runs 12 workers.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "how big is the database connection pool per worker?"),
            expect=one("8 connections", "pool_size=8"),
            old=("20 connections",),
            keys=("pool_size", "connection pool", "db pool"),
        )
    )
    c.append(
        Case(
            "h2-found-preview-api",
            "agent and tool findings",
            "the agent finds a URL in an env file while answering a question",
            (
                S(
                    "gemini",
                    "web",
                    1,
                    T(
                        "preview deploys keep talking to the wrong backend, where does the preview "
                        "build get its API URL from?",
                        Run(
                            "cat .env.preview",
                            True,
                            "VITE_API_URL=https://api-preview.acme.dev\nVITE_SENTRY=0\n",
                        ),
                        Run(
                            "grep -rn VITE_API_URL src/config.ts",
                            True,
                            "src/config.ts:3:export const API_URL = import.meta.env.VITE_API_URL",
                        ),
                        answer="Preview builds read VITE_API_URL from .env.preview, which points "
                        "at https://api-preview.acme.dev; if a preview hits another backend, the "
                        "deploy overrides that variable.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"preview (builds?|deploys?|api)",
                                "Preview builds take their API URL from VITE_API_URL in "
                                ".env.preview: https://api-preview.acme.dev.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "what backend URL do preview builds use?"),
            expect=one("api-preview.acme.dev"),
            keys=("api-preview",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-found-k8s-version",
            "agent and tool findings",
            "the person states a cluster version; three days later `kubectl version` shows another",
            (
                S(
                    "codex",
                    "infra",
                    1,
                    T(
                        "the prod cluster is on kubernetes 1.28 so stick to APIs that exist there. "
                        "add a PodDisruptionBudget for the ingress",
                        Edit("k8s/ingress/pdb.yaml"),
                        answer="Added a PodDisruptionBudget (policy/v1, minAvailable 1) for the "
                        "ingress.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"kubernetes|cluster version",
                                "The production cluster runs Kubernetes 1.28.",
                            ),
                        ),
                    ),
                ),
                S(
                    "cursor",
                    "infra",
                    4,
                    T(
                        "does the prod cluster support native sidecar containers?",
                        Run(
                            "kubectl --context prod version",
                            True,
                            "Client Version: v1.30.2\nKustomize Version: v5.0.4\n"
                            "Server Version: v1.30.4",
                        ),
                        answer="Yes: the prod cluster runs Kubernetes 1.30.4, not 1.28 (it has "
                        "been upgraded), and native sidecar containers are on by default since "
                        "1.29.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"kubernetes|cluster version",
                                "The production cluster runs Kubernetes 1.30.4 (checked "
                                "2026-03-05; it was thought to be 1.28).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "infra", "which kubernetes version is prod on?"),
            expect=one("1.30"),
            old=("1.28",),
            keys=("kubernetes",),
        )
    )

    # -- everyday retraction: no stock phrase; the request after it is not a fact ------------------
    c.append(
        Case(
            "h2-retract-geo-refresh",
            "everyday retraction",
            "`wikimem remember` a manual chore, then 'runs itself now …' in Gemini CLI",
            (
                Cli(
                    "pipeline",
                    1,
                    (
                        "remember",
                        "The GeoIP table is refreshed manually once a month from the MaxMind "
                        "download (scripts/refresh_geo.sh).",
                    ),
                ),
                S(
                    "gemini",
                    "pipeline",
                    3,
                    T(
                        "ok the geoip refresh runs itself now, ops added a weekly job for it and "
                        "nobody has to run the script. Delete the manual-refresh section from "
                        "docs/runbook.md.",
                        Edit("docs/runbook.md"),
                        answer="Removed the manual-refresh section from docs/runbook.md.",
                        model=(
                            Put(
                                "P/operations.md",
                                r"geo ?ip",
                                "The GeoIP table is refreshed by a weekly ops job since "
                                "2026-03-04 (was refreshed manually once a month until then).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "pipeline", "do I need to refresh the geoip table this month?"),
            expect=one("weekly"),
            old=("once a month",),
            junk=("manual-refresh section",),
            keys=("geoip",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-retract-safari",
            "everyday retraction",
            "'we still have to support Safari 15 (…)', then '… is off the table. go ahead and …'",
            (
                S(
                    "cursor",
                    "web",
                    1,
                    T(
                        "we still have to support Safari 15 (the kiosk iPads in the stores can't "
                        "update), so no :has() selectors and no container queries. rewrite the "
                        "header css without them",
                        Edit("src/styles/header.css"),
                        answer="The header CSS uses neither :has() nor container queries.",
                        model=(
                            Put(
                                "P/browser-support.md",
                                r"safari|kiosk",
                                "Safari 15 must be supported (the store kiosk iPads cannot "
                                "update): no :has() selectors, no container queries.",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "web",
                    4,
                    T(
                        "kiosk ipads were swapped for new ones last month, safari 15 is off the "
                        "table. go ahead and use :has() for the header hover state",
                        Edit("src/styles/header.css"),
                        answer="The header hover state uses :has() now.",
                        model=(
                            Put(
                                "P/browser-support.md",
                                r"safari|kiosk",
                                "Safari 15 no longer needs support (the store kiosk iPads were "
                                "replaced in February 2026); :has() and container queries are "
                                "allowed.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "am I allowed to use container queries in the css?"),
            old=("support Safari 15", "no :has()"),
            junk=("header hover state",),
            keys=("safari", "kiosk"),
        )
    )
    c.append(
        Case(
            "h2-retract-homebrew",
            "everyday retraction",
            "'bootstrap.sh expects homebrew at …', then 'ditched homebrew …, rip … out'",
            (
                S(
                    "claude",
                    "dotfiles",
                    2,
                    T(
                        "bootstrap.sh expects homebrew at /opt/homebrew, this is an apple silicon "
                        "mac. make it fail early if brew is missing",
                        Edit("bootstrap.sh"),
                        answer="bootstrap.sh exits with a message when /opt/homebrew/bin/brew is "
                        "missing.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"homebrew|packages come from",
                                "bootstrap.sh expects Homebrew at /opt/homebrew (Apple silicon "
                                "Mac).",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "dotfiles",
                    4,
                    T(
                        "ditched homebrew on this machine, everything comes from nix "
                        "(home-manager). rip the brew bundle step out of bootstrap.sh",
                        Edit("bootstrap.sh"),
                        answer="bootstrap.sh no longer runs brew bundle.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"homebrew|packages come from",
                                "Packages come from nix (home-manager) since 2026-03-05; Homebrew "
                                "at /opt/homebrew was removed.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "dotfiles", "how do I install ripgrep on this machine?"),
            expect=one("nix", "home-manager"),
            old=("/opt/homebrew",),
            junk=("brew bundle step",),
            keys=("homebrew", "nix"),
        )
    )
    c.append(
        Case(
            "h2-retract-refund-approver",
            "everyday retraction",
            "a finance rule in Gemini CLI, '… dropped the two-approver requirement' in Claude Code",
            (
                S(
                    "gemini",
                    "billing",
                    1,
                    T(
                        "refunds over 500 EUR need a second approver, finance insists. add that "
                        "check to refunds/approve.py",
                        Edit("refunds/approve.py"),
                        Run("pytest tests/refunds -q", True, "17 passed in 0.91s"),
                        answer="refunds/approve.py asks for a second approver above 500 EUR.",
                        model=(
                            Put(
                                "P/rules.md",
                                r"refunds?.*approv|approv.*refunds?",
                                "Refunds over 500 EUR need a second approver (finance rule).",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "billing",
                    3,
                    T(
                        "finance dropped the two-approver requirement for refunds, one approver "
                        "is enough whatever the amount. simplify the check in refunds/approve.py "
                        "accordingly",
                        Edit("refunds/approve.py"),
                        Run("pytest tests/refunds -q", True, "16 passed in 0.88s"),
                        answer="refunds/approve.py needs one approver for any amount.",
                        model=(
                            Put(
                                "P/rules.md",
                                r"refunds?.*approv|approv.*refunds?",
                                "Refunds need one approver whatever the amount (the second "
                                "approver for refunds over 500 EUR was dropped on 2026-03-04).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "billing", "does a 700 EUR refund need two approvals?"),
            expect=one("one approver"),
            old=("over 500 EUR need",),
            junk=("simplify the check",),
            keys=("approver",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-retract-replica-lag",
            "everyday retraction",
            "'reads from the replica can lag …', then 'that … caveat was from the old setup'",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "reads from the replica can lag up to 30s, so never read your own writes "
                        "from it. route the order status endpoint to the primary",
                        Edit("src/api/order_status.py"),
                        answer="The order status endpoint reads from the primary.",
                        model=(
                            Put(
                                "P/database.md",
                                r"replica",
                                "Reads from the replica can lag up to 30 s, so never read your "
                                "own writes from it.",
                            ),
                        ),
                    ),
                ),
                S(
                    "claude",
                    "api",
                    2,
                    T(
                        "that replica lag caveat was from the old async setup, we're on "
                        "synchronous replication since the migration so it doesn't apply. move "
                        "the order status reads back to the replica",
                        Edit("src/api/order_status.py"),
                        answer="The order status endpoint reads from the replica again.",
                        model=(
                            Put(
                                "P/database.md",
                                r"replica",
                                "The replica uses synchronous replication, so reads from it do "
                                "not lag (the 30 s lag caveat is obsolete).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "api", "is it safe to read right after a write from the replica?"),
            expect=one("synchronous"),
            old=("lag up to 30",),
            junk=("move the order status reads",),
            keys=("replica",),
            needs_client="gemini",
        )
    )

    # -- noise: long sessions, read-only commands, one-off variants, unrelated next commands ------
    c.append(
        Case(
            "h2-noise-long-web",
            "noise",
            "110 tool calls in Claude Code; one import rule said in the middle",
            (
                S(
                    "claude",
                    "web",
                    2,
                    T(
                        "port the widgets in src/widgets to the new theme tokens",
                        *widget_steps(50, 1),
                        answer="Ported 22 of the 53 widgets so far.",
                    ),
                    T(
                        "ok that's most of them. one thing that holds for good: widgets must not "
                        "import from src/legacy/ (it gets deleted in Q3), go through src/shared "
                        "instead. keep going with the rest",
                        *widget_steps(40, 2, failing_every=7),
                        answer="Ported the remaining widgets; none imports from src/legacy/.",
                        model=(
                            Put(
                                "P/conventions.md",
                                r"src/legacy",
                                "Widgets must not import from src/legacy/ (it is deleted in Q3); "
                                "go through src/shared instead.",
                            ),
                        ),
                    ),
                    T(
                        "run the widget tests once more",
                        *widget_steps(20, 3),
                        answer="All widget tests pass.",
                    ),
                ),
            ),
            Query("codex", "web", "can this widget import the date helpers from src/legacy?"),
            expect=(
                ("src/legacy",),
                ("must not import", "never import", "do not import", "don't import"),
            ),
            junk=("git diff --stat", "cat src/widgets/", 'rg -n "usewidget'),
            keys=("src/legacy", "widget"),
        )
    )
    c.append(
        Case(
            "h2-noise-pitfall-no-fix",
            "noise",
            "a failing check followed by read-only commands; the agent explains but fixes nothing",
            (
                S(
                    "codex",
                    "api",
                    3,
                    T(
                        "run the migrations check before I open the PR",
                        Run(
                            "make migrations-check",
                            False,
                            'psycopg.errors.UndefinedTable: relation "ledger_entries" does not '
                            "exist",
                        ),
                        Run(
                            "git log --oneline -5",
                            True,
                            "a1b2c3d Add ledger model\n9f8e7d6 Bump pydantic to 2.9\n",
                        ),
                        Run("git stash list", True, ""),
                        answer="The migrations check fails: the local database has no "
                        "ledger_entries table, so the new migration's data step cannot run. "
                        "Nothing I ran changes that; the local database needs to be recreated "
                        "from the latest dump (make db-reset), which I did not do because it "
                        "wipes your local data.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"ledger_entries|migrations-check",
                                '`make migrations-check` fails with \'relation "ledger_entries" '
                                "does not exist' when the local database predates the ledger "
                                "model; recreating it from the latest dump (`make db-reset`, "
                                "wipes local data) should fix it (not verified).",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "cursor", "api", "make migrations-check says relation ledger_entries does not exist"
            ),
            expect=one("ledger_entries"),
            junk=("git log --oneline -5", "git stash list"),
            keys=("ledger_entries", "migrations-check"),
        )
    )
    c.append(
        Case(
            "h2-noise-playwright",
            "noise",
            "a failing e2e run, a read-only look at the config, then the real fix",
            (
                S(
                    "cursor",
                    "billing",
                    2,
                    T(
                        "run the e2e suite for the customer portal",
                        Run(
                            "npm run e2e",
                            False,
                            "browserType.launch: Executable doesn't exist at "
                            "/home/dev/.cache/ms-playwright/chromium-1140/chrome-linux/chrome",
                        ),
                        Run(
                            "cat playwright.config.ts",
                            True,
                            "export default defineConfig({ testDir: './e2e', retries: 1 })",
                        ),
                        Run(
                            "npx playwright install chromium",
                            True,
                            "Chromium 129.0.6668.29 (playwright build v1140) downloaded",
                        ),
                        Run("npm run e2e", True, "27 passed (1.2m)"),
                        answer="All 27 e2e tests pass. Playwright's Chromium build had never been "
                        "downloaded on this machine; `npx playwright install chromium` fetched it.",
                        model=(
                            Put(
                                "P/pitfalls.md",
                                r"playwright|chromium",
                                "`npm run e2e` fails with 'Executable doesn't exist at "
                                "…/ms-playwright/chromium-…' until the browser is downloaded: "
                                "run `npx playwright install chromium`.",
                            ),
                        ),
                    ),
                ),
            ),
            Query(
                "claude",
                "billing",
                "npm run e2e fails: browserType.launch: Executable doesn't exist",
            ),
            expect=one("playwright install"),
            junk=("cat playwright.config.ts",),
            keys=("playwright", "chromium"),
        )
    )
    c.append(
        Case(
            "h2-noise-replay-dates",
            "noise",
            "the same tool run for four different days over two sessions",
            (
                S(
                    "claude",
                    "pipeline",
                    2,
                    T(
                        "reprocess the 11th and 12th of february for the eu partner, dry run first",
                        Run(
                            "python -m tools.replay --partner eu --date 2026-02-11 --dry-run",
                            True,
                            "would replay 48,211 rows",
                        ),
                        Run(
                            "python -m tools.replay --partner eu --date 2026-02-11",
                            True,
                            "replayed 48,211 rows",
                        ),
                        Run(
                            "python -m tools.replay --partner eu --date 2026-02-12",
                            True,
                            "replayed 51,907 rows",
                        ),
                        answer="Reprocessed 2026-02-11 and 2026-02-12 for the EU partner.",
                        model=(
                            Put(
                                "P/commands.md",
                                r"tools\.replay",
                                "Reprocess one day of a partner's data with `python -m "
                                "tools.replay --partner <name> --date YYYY-MM-DD` (add "
                                "`--dry-run` first).",
                            ),
                        ),
                    ),
                ),
                S(
                    "codex",
                    "pipeline",
                    3,
                    T(
                        "same again for feb 19 and 20",
                        Run(
                            "python -m tools.replay --partner eu --date 2026-02-19",
                            True,
                            "replayed 47,330 rows",
                        ),
                        Run(
                            "python -m tools.replay --partner eu --date 2026-02-20",
                            True,
                            "replayed 49,002 rows",
                        ),
                        answer="Reprocessed 2026-02-19 and 2026-02-20 for the EU partner.",
                    ),
                ),
            ),
            Query("gemini", "pipeline", "how do I reprocess a single day of partner data?"),
            expect=one("tools.replay"),
            junk=(
                "--date 2026-02-11",
                "--date 2026-02-12",
                "--date 2026-02-19",
                "--date 2026-02-20",
            ),
            keys=("tools.replay",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-noise-ingress",
            "noise",
            "45 cluster commands in Gemini CLI; a namespace given in parentheses mid-prompt",
            (
                S(
                    "gemini",
                    "infra",
                    3,
                    T(
                        "why does the ingress controller keep restarting? (it runs in the "
                        "edge-system namespace, not kube-system) look at the logs and events",
                        *ingress_steps(30, 1),
                        answer="It is OOM-killed: the controller's memory limit is 256Mi and it "
                        "buffers large upstream responses. I raised the limit to 512Mi in "
                        "k8s/ingress/values.yaml.",
                        model=(
                            Put(
                                "P/environment.md",
                                r"ingress (controller )?namespace|edge-system",
                                "The ingress controller runs in the edge-system namespace (not "
                                "kube-system).",
                            ),
                        ),
                    ),
                    T(
                        "apply it and watch it for a bit",
                        Run(
                            "helm upgrade ingress charts/ingress -n edge-system "
                            "-f k8s/ingress/values.yaml",
                            True,
                            'Release "ingress" has been upgraded. Happy Helming!',
                        ),
                        *ingress_steps(15, 2),
                        answer="Upgraded; no restarts in the last ten minutes.",
                    ),
                ),
            ),
            Query("claude", "infra", "which namespace is the ingress controller in?"),
            expect=one("edge-system"),
            junk=("--tail=200", "describe pod ingress-nginx-controller-7d9f"),
            keys=("ingress", "edge-system"),
            needs_client="gemini",
        )
    )

    # -- terse preference: short forms, other casing and punctuation, asked elsewhere -------------
    c.append(
        Case(
            "h2-terse-emoji",
            "terse preference",
            "'no emojis in commit msgs or code comments ever' (lower case, no punctuation)",
            (
                S(
                    "codex",
                    "api",
                    1,
                    T(
                        "commit the geocoder retry",
                        Run(
                            'git commit -am "✨ Add retry to the geocoder client"',
                            True,
                            "[main 5c2e8a1] ✨ Add retry to the geocoder client",
                        ),
                        answer='Committed as "✨ Add retry to the geocoder client".',
                    ),
                    T(
                        "no emojis in commit msgs or code comments ever",
                        Run(
                            'git commit --amend -m "Add retry to the geocoder client"',
                            True,
                            "[main 0d4b7e9] Add retry to the geocoder client",
                        ),
                        answer="Amended the commit message without the emoji.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"emoji",
                                "No emojis in commit messages or code comments.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "web", "commit the header fix"),
            expect=one("emoji", "emojis"),
            keys=("emoji",),
        )
    )
    c.append(
        Case(
            "h2-terse-recap",
            "terse preference",
            "'Skip the recap at the end of your replies.' alone in a turn, in Gemini CLI",
            (
                S(
                    "gemini",
                    "pipeline",
                    2,
                    T(
                        "Skip the recap at the end of your replies.",
                        answer="OK.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"recap",
                                "Does not want a recap at the end of replies.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("cursor", "billing", "refactor the dunning email scheduler"),
            expect=one("recap"),
            keys=("recap",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-terse-british",
            "terse preference",
            "'British spelling in docs and comments, pls (…)' with a task after it",
            (
                S(
                    "cursor",
                    "billing",
                    3,
                    T(
                        "British spelling in docs and comments, pls (colour, behaviour, licence). "
                        "and tidy up the README intro while you're in there",
                        Edit("README.md"),
                        answer="Tidied the README intro and switched it to British spelling.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"british|spelling",
                                "Uses British spelling in docs and comments (colour, behaviour, "
                                "licence).",
                            ),
                        ),
                    ),
                ),
            ),
            Query("codex", "infra", "write the README section for the bootstrap module"),
            expect=one("British spelling", "British English"),
            keys=("british",),
        )
    )
    c.append(
        Case(
            "h2-terse-diff-first",
            "terse preference",
            "'alwyas show me the diff before commiting anything' (typos)",
            (
                S(
                    "claude",
                    "dotfiles",
                    1,
                    T(
                        "alwyas show me the diff before commiting anything",
                        answer="Understood.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"diff before|before commit",
                                "Wants to see the diff before anything is committed.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("gemini", "api", "commit the retry change"),
            expect=one("show me the diff", "see the diff", "diff before"),
            keys=("the diff before",),
            needs_client="gemini",
        )
    )
    c.append(
        Case(
            "h2-terse-iso-dates",
            "terse preference",
            "'ISO dates … in everything you write!!' with an example and a task",
            (
                S(
                    "codex",
                    "web",
                    3,
                    T(
                        "ISO dates (2026-03-04 style) in everything you write!! not 03/04/26. fix "
                        "the dates in the changelog",
                        Edit("CHANGELOG.md"),
                        answer="CHANGELOG.md uses ISO dates throughout.",
                        model=(
                            Put(
                                "profile/preferences.md",
                                r"iso dates|date format",
                                "Writes dates in ISO form (YYYY-MM-DD) everywhere, never like "
                                "03/04/26.",
                            ),
                        ),
                    ),
                ),
            ),
            Query("claude", "pipeline", "add a changelog entry for the sensor timeout change"),
            expect=one("ISO"),
            keys=("iso dates",),
        )
    )
    return c
