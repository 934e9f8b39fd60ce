"""The model dream keeps the claim semantics and loses nothing (issue 11, item 7).

Scripted model answers for: a first mention, its correction, a retraction, no change, a write
into another project, an upsert of a note the model was shown only in part, an upsert holding two
current claims on one subject, and malformed operations. The FakeBackend stands for a model the
runner does not trust; the Messages API path (correction round included) runs through the real
SDK on a mock transport.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.conftest import make_repo, run_hook
from tests.sessions import claude_session
from wikimem.dream.anthropic_backend import AnthropicBackend
from wikimem.dream.claims import claims_in
from wikimem.dream.fake import FakeBackend
from wikimem.dream.runner import run_dream
from wikimem.home import Home

SID = "proj-session_1"


def replay(cwd: str, sid: str, prompt: str) -> None:
    for p in claude_session(sid, cwd, [{"prompt": prompt, "answer": "Noted."}]):
        assert run_hook("claude", p, installed_form=True).returncode == 0


@pytest.fixture
def repo(tmp_path: Path) -> str:
    return str(make_repo(tmp_path / "api", "git@github.com:acme/api.git"))


def facts(home: Path) -> str:
    return (home / "memory" / "projects" / "acme-api" / "facts.md").read_text()


def claim(text: str, subject: str = "", path: str = "projects/acme-api/facts.md") -> dict[str, Any]:
    return {
        "op": "claim",
        "path": path,
        "subject": subject,
        "text": text,
        "title": "acme-api facts",
        "sources": ["claude:proj-ses"],
    }


def test_claims_are_folded_with_provenance_and_corrected_in_place(home: Path, repo: str) -> None:
    replay(repo, SID, "by the way, the metrics collector runs on port 9102 here")
    first = FakeBackend(
        [
            {
                "operations": [
                    claim("The metrics collector runs on port 9102.", "Metrics collector port")
                ]
            }
        ]
    )
    result = run_dream(Home(str(home)), first)
    assert "projects/acme-api/facts.md" in result.created
    digest = next(p for p in result.created if "/sessions/" in p)
    text = facts(home)
    assert f"([[{digest[:-3]}|claude 20" in text  # linked to the session it was said in

    replay(repo, "proj-session_12", "the collector was moved to 9300 on Monday")
    second = FakeBackend(
        [{"operations": [claim("The metrics collector runs on port 9300 since 2026-11-30.")]}]
    )
    result = run_dream(Home(str(home)), second)
    ((_, current),) = claims_in(facts(home).split("---\n", 2)[2])
    assert "9300" in current.text and "9102" not in current.text.replace("was 9102", "")
    assert current.subject == "Metrics collector port"
    # two sessions sharing a prefix still have two digests
    assert len(list((home / "memory" / "projects" / "acme-api" / "sessions").glob("*.md"))) == 2


def test_a_retraction_removes_the_claim_and_no_change_changes_nothing(
    home: Path, repo: str
) -> None:
    replay(repo, SID, "the staging proxy is squid.internal")
    run_dream(
        Home(str(home)),
        FakeBackend([{"operations": [claim("The staging proxy is squid.internal.")]}]),
    )
    replay(repo, "proj-session_2", "forget about the staging proxy, it is gone")
    result = run_dream(
        Home(str(home)),
        FakeBackend(
            [
                {
                    "operations": [
                        {
                            "op": "retract",
                            "path": "projects/acme-api/facts.md",
                            "text": "staging proxy",
                        }
                    ]
                }
            ]
        ),
    )
    current = facts(home).split("<!-- wikimem:was ")[0]
    assert "squid" not in current and "projects/acme-api/facts.md" in result.updated
    replay(repo, "proj-session_3", "thanks, that is all")
    result = run_dream(Home(str(home)), FakeBackend([{"operations": []}]))
    assert all("/sessions/" in p for p in result.created + result.updated)


def test_writes_stay_in_the_chunks_project_and_out_of_digests(home: Path, repo: str) -> None:
    replay(repo, SID, "we use pnpm")
    result = run_dream(
        Home(str(home)),
        FakeBackend(
            [
                {
                    "operations": [
                        claim("Billing uses Stripe.", path="projects/billing/facts.md"),
                        claim("Nothing.", path="projects/acme-api/sessions/2026-01-01-x.md"),
                        {"op": "claim", "path": "projects/acme-api/facts.md"},  # no text
                        claim("The API uses pnpm.", path="projects/acme-api/conventions.md"),
                    ]
                }
            ]
        ),
    )
    reasons = dict(result.rejected)
    assert "outside this chunk's project" in reasons["projects/billing/facts.md"]
    assert "written by wikimem" in reasons["projects/acme-api/sessions/2026-01-01-x.md"]
    assert "text" in reasons["projects/acme-api/facts.md"]
    assert not (home / "memory" / "projects" / "billing").exists()
    assert "projects/acme-api/conventions.md" in result.created


def _message(ops: list[dict[str, Any]], stop: str = "tool_use") -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-5-5",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "apply_operations",
                "input": {"operations": ops},
            }
        ],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def test_a_note_shown_clipped_is_never_replaced_whole(home: Path, repo: str) -> None:
    (home / "config.toml").write_text("[dream]\nnotes_chars = 2500\n")
    conventions = home / "memory" / "projects" / "acme-api" / "conventions.md"
    conventions.parent.mkdir(parents=True)
    rules = "".join(
        f"- Rule {i}: name module {i} after its route, never after its table.\n" for i in range(40)
    )
    conventions.write_text(f"---\ntitle: acme-api conventions\nkind: project\n---\n{rules}")
    replay(repo, SID, "always use 2-space indentation")
    seen: list[dict[str, Any]] = []
    replies = [
        # what a model that saw 25 of 40 rules would send: the 25, plus the new one
        _message(
            [
                {
                    "op": "upsert",
                    "path": "projects/acme-api/conventions.md",
                    "title": "acme-api conventions",
                    "kind": "project",
                    "body": rules.split("- Rule 25")[0] + "- Always use 2-space indentation.\n",
                }
            ]
        ),
        _message(
            [claim("Always use 2-space indentation.", path="projects/acme-api/conventions.md")]
        ),
    ]

    def api(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        return httpx2.Response(200, json=replies.pop(0))

    backend = AnthropicBackend(
        "claude-sonnet-5-5",
        api_key="sk-ant-test",
        http_client=httpx2.Client(transport=httpx2.MockTransport(api)),
        sleep=lambda s: None,
    )
    result = run_dream(Home(str(home)), backend)
    assert len(seen) == 2  # the upsert was sent back once, with the reason
    assert "was clipped to you" in json.dumps(seen[1]["messages"][-1])
    assert "CLIPPED" in seen[0]["messages"][0]["content"]
    text = conventions.read_text()
    assert text.count("- Rule ") == 40 and "Always use 2-space indentation." in text
    assert "[…]" not in text and not result.rejected


def test_an_upsert_with_two_current_claims_on_one_subject_is_refused(home: Path, repo: str) -> None:
    replay(repo, SID, "we switched to bun")
    body = "- We use pnpm, never npm.\n- We switched to bun; never use pnpm.\n"
    result = run_dream(
        Home(str(home)),
        FakeBackend(
            [
                {
                    "operations": [
                        {
                            "op": "upsert",
                            "path": "projects/acme-api/conventions.md",
                            "title": "acme-api conventions",
                            "kind": "project",
                            "body": body,
                        }
                    ]
                }
            ]
        ),
    )
    assert (
        "two current claims on one subject"
        in dict(result.rejected)["projects/acme-api/conventions.md"]
    )


def test_a_claim_is_dated_when_it_was_said_not_when_the_dream_ran(home: Path, repo: str) -> None:
    replay(repo, SID, "by the way, the metrics collector runs on port 9102 here")
    # the session happened on 2 March; the dream runs today
    for events in (home / "events").glob("*.jsonl"):
        lines = [json.loads(line) for line in events.read_text().splitlines()]
        for record in lines:
            record["ts"] = "2026-03-02" + record["ts"][10:]
        events.write_text("".join(json.dumps(r) + "\n" for r in lines))
    backend = FakeBackend(
        [
            {
                "operations": [
                    claim("The metrics collector runs on port 9102.", "Metrics collector port")
                ]
            }
        ]
    )
    run_dream(Home(str(home)), backend)
    ((_, current),) = claims_in(facts(home).split("---\n", 2)[2])
    assert current.provenance is not None and current.provenance.date == "2026-03-02"
