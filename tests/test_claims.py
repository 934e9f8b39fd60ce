"""Claims in living notes: one current claim per subject, the old one superseded (DESIGN §5)."""

from __future__ import annotations

import pytest

from wikimem.dream.claims import (
    Claim,
    Provenance,
    claims_in,
    compact_line,
    fold,
    key_of,
    parse_line,
    remove_superseded,
    retract,
    subject_label,
    superseded_values,
    supersedes,
)

SAME = [
    ("I prefer spaces for indentation.", "I prefer tabs for indentation."),
    ("We use Postgres 16 in production.", "We use Postgres 14 in production."),
    ("I prefer light mode.", "I prefer dark mode."),
    ("Always run tests with pytest -x.", "Always run tests with make test."),
    ("Use pnpm instead of npm.", "Always use npm."),
    ("Never deploy on Fridays.", "Always deploy on Fridays."),
    ("The staging database listens on port 6543.", "The staging database listens on port 5433."),
    ("We switched to bun, never use pnpm.", "We use pnpm, never npm."),
    (
        "The collector was moved to 9300 on Monday 2026-11-30.",
        "The metrics collector runs on port 9102.",
    ),
    ("Always use 4-space indentation.", "Always use 2-space indentation."),
    ("Use tabs for indentation.", "Always use 2-space indentation."),
    ("Never use default exports.", "Use default exports."),
]
DIFFERENT = [
    ("I prefer small commits.", "I prefer dark mode."),
    ("Always run tests before committing.", "Never push to main."),
    ("Use pnpm for installs.", "Use vitest for tests."),
    ("The staging database is Postgres 15.", "The staging database listens on port 5433."),
    # sharing a verb is not sharing a subject
    ("Never commit anything under data/raw/.", "Always run typecheck before you commit."),
    ("Never use default exports.", "Always use 2-space indentation."),
    ("The metrics collector runs on port 9102.", "The staging database listens on port 5433."),
    ("Never use npm.", "`npm test` failed (TOKEN_TTL too high); fixed by editing `src/auth.ts`."),
]
PROV = Provenance("codex", "2026-12-01", "projects/acme-api/sessions/2026-12-01-0199a2b3-3fa2c1")


@pytest.mark.parametrize("new,old", SAME)
def test_a_newer_claim_on_the_same_subject_supersedes(new: str, old: str) -> None:
    assert supersedes(new, old)
    folded = fold(f"- {old} (claude 2026-11-01)\n", Claim(new, "", PROV), today="2026-12-01")
    assert folded.replaced == old
    assert len(claims_in(folded.body)) == 1


@pytest.mark.parametrize("new,old", DIFFERENT)
def test_claims_on_different_subjects_stay_side_by_side(new: str, old: str) -> None:
    assert not supersedes(new, old)
    folded = fold(f"- {old}\n", Claim(new), today="2026-12-01")
    assert len(claims_in(folded.body)) == 2


def test_a_changed_value_rewrites_the_claim_and_says_what_it_was() -> None:
    body = (
        "Facts about acme-api.\n\n"
        "- **Metrics collector port**: The metrics collector runs on port 9102. "
        "([[projects/acme-api/sessions/2026-11-29-ab12cd34-111111|claude 2026-11-29]])\n"
    )
    claim = Claim("The collector was moved to 9300 on Monday 2026-11-30.", "", PROV)
    folded = fold(body, claim, today="2026-12-01")
    assert folded.body.startswith("Facts about acme-api.\n\n")  # prose a person wrote is kept
    ((_, current),) = claims_in(folded.body)
    assert current.subject == "Metrics collector port"
    assert current.text == "The metrics collector runs on port 9300 (was 9102 until 2026-11-30)."
    assert current.provenance == PROV
    assert superseded_values([folded.body]) == {"9102"}


def test_a_restatement_refreshes_the_provenance_without_a_second_line() -> None:
    body = "- Never push to main. (claude 2026-11-01)\n"
    folded = fold(body, Claim("Never push to main.", "", PROV), today="2026-12-01")
    assert folded.replaced is None
    assert folded.body.count("Never push to main") == 1 and "codex 2026-12-01" in folded.body


def test_line_format_round_trips_and_reads_the_old_provenance() -> None:
    claim = Claim("Use pnpm, never npm.", "JS package manager", PROV)
    line = claim.render()
    assert line == (
        "- **JS package manager**: Use pnpm, never npm. "
        "([[projects/acme-api/sessions/2026-12-01-0199a2b3-3fa2c1|codex 2026-12-01]])"
    )
    assert parse_line(line) == claim
    assert (
        compact_line(line) == "- **JS package manager**: Use pnpm, never npm. (codex, 2026-12-01)"
    )
    legacy = parse_line('- Use pnpm (stated 2026-11-29 in claude:3f2b8c1e; replaces "npm")')
    assert legacy == Claim("Use pnpm", "", Provenance("claude", "2026-11-29"))
    assert parse_line("not a bullet") is None


def test_superseded_claims_elsewhere_in_the_scope_are_removed() -> None:
    other = "- We use pnpm, never npm. (claude 2026-11-02)\n- Never push to main.\n"
    body, removed = remove_superseded(other, Claim("We switched to bun; never use pnpm."))
    assert removed == ["We use pnpm, never npm."]
    assert body == "- Never push to main.\n"


def test_a_retraction_removes_what_it_names_and_nothing_else() -> None:
    body = "- The metrics collector runs on port 9102.\n- Never push to main.\n"
    out, removed = retract(body, "the metrics collector port")
    assert removed == ["The metrics collector runs on port 9102."]
    assert out == "- Never push to main.\n"
    assert retract(body, "the weather")[1] == []


def test_keys_and_subject_labels() -> None:
    key = key_of("We use pnpm here, never npm.")
    assert key.category == "js-package-manager"
    assert key.favours == {"pnpm"} and key.rejects == {"npm"}
    assert key_of("The metrics collector runs on port 9102.").attribute == "port"
    assert subject_label("The metrics collector runs on port 9102.") == "Metrics collector port"
    assert subject_label("Always use 2-space indentation.") == "Indentation"
    assert subject_label("Releases are cut on Fridays by whoever is on call.") == ""
