"""What a prompt is given beyond BM25's order: passages covering the whole question, digest
windows that read on from the turn that matched, generated text that is never an answer."""

from __future__ import annotations

from pathlib import Path

from tests.test_recall import NOTES, seed
from wikimem.home import Home
from wikimem.recall import rerank
from wikimem.recall.index import Hit, open_index, passages
from wikimem.recall.inject import prompt as inject_prompt


def digest_body(turns: list[tuple[str, str]]) -> str:
    items = "".join(f"- **Asked:** {q}\n  **Answered:** {a}\n" for q, a in turns)
    return f"Claude Code session in acme-api.\n\n## Turns\n\n<!-- wikimem:turns -->\n{items}<!-- /wikimem:turns -->\n"


FILLER = [
    (f"look at the logging of module {name}", f"module {name} logs through structlog already")
    for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")
]
# the question is asked at the end of the first passage; the answer comes in the next turns
FLAKY = [
    (
        "why do the payments checks flake on CI?",
        "let me look at the CI runs of the payments checks",
    ),
    ("any luck?", "yes: the sandbox rate limit is 25 requests per second, we send 40"),
]


def index_of(home: Path) -> tuple[Home, object]:
    h = Home(str(home))
    index = open_index(h.state_dir, h.memory_dir)
    index.refresh(full=True)
    return h, index


def test_the_answer_in_the_turns_after_the_match_is_given(home: Path) -> None:
    # A fixed cut into passages put the question at the end of one passage and its answer at
    # the start of the next; the passage that matches must read on into it.
    body = digest_body(FILLER[:7] + FLAKY + FILLER[7:])
    ordinals = [i for i, (_, text) in enumerate(passages(body)) if "payments checks flake" in text]
    assert ordinals and "25 requests per second" not in passages(body)[ordinals[0]][1]
    seed(
        home, {**NOTES, "projects/acme-api/sessions/2026-11-20-bbbb2222.md": ("S", "session", body)}
    )
    h, index = index_of(home)
    text = inject_prompt(h, index, "acme-api", None, "why do the payments checks flake?", 1400)
    assert text is not None and len(text) <= 1400
    assert "payments checks flake" in text and "25 requests per second" in text


def test_no_turn_is_given_twice(home: Path) -> None:
    body = digest_body(FILLER[:7] + FLAKY + FILLER[7:])
    seed(
        home, {**NOTES, "projects/acme-api/sessions/2026-11-20-bbbb2222.md": ("S", "session", body)}
    )
    h, index = index_of(home)
    # "payments" matches the first passage, and "sandbox" the second, into which the first reads
    text = inject_prompt(h, index, "acme-api", None, "payments checks sandbox rate limit", 8000)
    assert text is not None
    assert text.count("the sandbox rate limit is 25") == 1
    assert text.count("why do the payments checks flake") == 1


def test_living_notes_are_given_as_they_are(home: Path) -> None:
    body = "".join(f"- **Tool {i}**: tool {i} lives in bin/tool{i}.\n" for i in range(30))
    seed(home, {**NOTES, "projects/acme-api/facts.md": ("Facts", "project", body)})
    h, index = index_of(home)
    text = inject_prompt(h, index, "acme-api", None, "where does tool 17 live?", 3000)
    assert text is not None and "bin/tool17." in text
    first = next(t for _, t in passages(body) if "tool17" in t)
    assert first in text  # the passage, whole: a claim line stands alone, nothing to read on to


def hit(path: str, score: float, body: str) -> Hit:
    found = Hit(path, 0, "", body, -score, path, "session", "acme-api", "")
    return found


def test_a_question_about_two_things_gets_a_passage_for_each() -> None:
    hits = [
        hit("projects/a/sessions/1.md", 10.0, "redis redis upgrade of the redis cluster"),
        hit("projects/a/sessions/2.md", 9.8, "redis eviction policy is allkeys-lru"),
        hit("projects/a/sessions/3.md", 9.5, "redis maxmemory is 4 GB"),
        hit("projects/a/sessions/4.md", 6.0, "kafka retention is 7 days"),
    ]
    order = [h.path[-4:] for h in rerank.cover(hits, ["redis", "kafka"])]
    assert order[:2] == ["1.md", "4.md"]  # the only passage about kafka comes second, not last
    assert sorted(order) == ["1.md", "2.md", "3.md", "4.md"]  # nothing lost
    # one word asked about: relevance alone decides
    assert [h.path[-4:] for h in rerank.cover(hits, ["redis"])] == ["1.md", "2.md", "3.md", "4.md"]


def test_generated_links_and_notices_are_not_answers(home: Path) -> None:
    overview = (
        "Project **acme-api**.\n<!-- Kept by `wikimem dream`; write freely outside the marked"
        " parts. -->\n\n<!-- wikimem:activity -->\nSessions recorded: 3 (Claude Code 3); last"
        " active 2026-11-20.\n<!-- /wikimem:activity -->\n\n## Notes\n\n<!-- wikimem:links -->\n"
        "recent sessions: [[projects/acme-api/sessions/2026-11-20-aaaa1111]]\n"
        "<!-- /wikimem:links -->\n"
    )
    seed(
        home, {**NOTES, "projects/acme-api/overview.md": ("acme-api overview", "project", overview)}
    )
    assert all("recent sessions" not in t for _, t in passages(overview))
    h, index = index_of(home)
    assert inject_prompt(h, index, "acme-api", None, "where can I write freely?", 3000) is None
    recent = inject_prompt(h, index, "acme-api", None, "which recent sessions were there?", 3000)
    assert "recent sessions:" not in (recent or "")
    assert "Sessions recorded: 3" in (
        inject_prompt(h, index, "acme-api", None, "how many sessions were recorded?", 3000) or ""
    )
