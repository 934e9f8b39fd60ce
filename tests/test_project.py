"""Project identity is the same across clones, machines and sub-directories."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import make_repo
from wikimem.capture.project import project_slug, slug_from_remote


@pytest.mark.parametrize(
    "url,slug",
    [
        ("git@github.com:acme/api.git", "acme-api"),
        ("https://github.com/acme/api", "acme-api"),
        ("https://github.com/acme/api.git/", "acme-api"),
        ("ssh://git@github.com:22/Acme/My_API.git", "acme-my-api"),
        ("https://user@bitbucket.org/team/repo.git", "team-repo"),
        ("git@gitlab.com:group/sub/proj.git", "sub-proj"),
        ("/srv/git/tools.git", "git-tools"),
        ("file:///srv/git/tools.git", "git-tools"),
    ],
)
def test_slug_from_remote(url: str, slug: str) -> None:
    assert slug_from_remote(url) == slug


def test_two_clones_of_one_remote_share_a_slug(tmp_path: Path) -> None:
    a = make_repo(tmp_path / "work" / "api", "git@github.com:acme/api.git")
    b = make_repo(tmp_path / "elsewhere" / "checkout-2", "https://github.com/acme/api")
    (a / "src" / "deep").mkdir(parents=True)
    assert (
        project_slug(str(a))
        == project_slug(str(b))
        == project_slug(str(a / "src" / "deep"))
        == "acme-api"
    )


def test_repo_without_remote_uses_root_name(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "My Tool")
    (repo / "lib").mkdir()
    assert project_slug(str(repo / "lib")) == "my-tool"


def test_not_a_repo_uses_cwd_name(tmp_path: Path) -> None:
    d = tmp_path / "Scratch_Pad"
    d.mkdir()
    assert project_slug(str(d)) == "scratch-pad"
    assert project_slug(None) == "unknown"


def test_linked_worktree_uses_main_repository_remote(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "main", "git@github.com:acme/web.git")
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    wt = tmp_path / "wt"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(wt)], check=True)
    assert project_slug(str(wt)) == "acme-web"
