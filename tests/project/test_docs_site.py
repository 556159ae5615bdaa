"""The documentation: a short README and a MkDocs site (mkdocs.yml, docs/)
that builds with warnings as errors, and links that all lead somewhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Links from the site to files outside docs/ (scripts, tests, the changelog) go to the repository.
REPOSITORY = "https://github.com/annoscore/annoscore/blob/main/"
README_LIMIT = 250

FENCE = re.compile(r"^\s*(```|~~~)[^`]*$")
LINK = re.compile(r"\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6}) (.*)$")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """The lines outside fenced code, with inline code blanked (a link there is only text)."""
    out, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append((number, re.sub(r"(`+).*?\1", "", line)))
    return out


def anchors(path: Path) -> set[str]:
    """The heading ids MkDocs gives a page (Python-Markdown's toc slugs, duplicates numbered)."""
    from markdown.extensions.toc import slugify
    seen: dict[str, int] = {}
    out = set()
    for _, line in prose_lines_with_code(path):
        m = HEADING.match(line)
        if m:
            slug = slugify(m.group(2).replace("`", ""), "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}_{n}")
    return out


def prose_lines_with_code(path: Path) -> list[tuple[int, str]]:
    out, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append((number, line))
    return out


def broken_links(path: Path) -> list[str]:
    broken = []
    for number, line in prose_lines(path):
        for target in LINK.findall(line):
            where = f"{path.relative_to(ROOT)}:{number}: {target}"
            if target.startswith(REPOSITORY):
                if not (ROOT / target[len(REPOSITORY):].split("#")[0]).exists():
                    broken.append(where + " (no such file in the repository)")
                continue
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # another site: not ours to check
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append(where + " (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(where + " (no such heading)")
    return broken


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(lines) - (lines[-1] == "") <= README_LIMIT


def test_the_readme_starts_with_the_two_set_up_commands():
    # CI (.ci/run) and users copy them from here: they stay exactly these.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in first_block.split("\n") if line and not line.startswith("#")]
    assert commands == ["python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/annoscore demo",
                        "bash scripts/test"]
    assert text.index("```sh\n") < text.index("\n## ")


def test_every_relative_link_in_the_readme_and_the_docs_resolves():
    files = markdown_files()
    assert len(files) > 20
    broken = [b for path in files for b in broken_links(path)]
    assert not broken, "\n".join(broken)


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## A part\n", encoding="utf-8")
    page.write_text("# Page\n\n[ok](other.md#a-part) [gone](missing.md) [no part](other.md#b-part)\n"
                    "`[code](not-a-link.md)`\n\n```\n[fenced](nor-this.md)\n```\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = broken_links(page)
    finally:
        ROOT = saved
    assert [f.split(": ", 1)[1] for f in found] == ["missing.md (no such file)", "other.md#b-part (no such heading)"]


def test_every_docs_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    listed = set(re.findall(r":\s+(\S+\.md)\s*$", nav, re.M))
    assert pages == listed, (sorted(pages - listed), sorted(listed - pages))


def test_the_site_builds_strictly(tmp_path):
    try:
        import material  # noqa: F401  (the theme)
        import mkdocs  # noqa: F401
    except ImportError:
        pytest.skip("mkdocs and mkdocs-material are not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"),
                           "--config-file", str(ROOT / "mkdocs.yml")],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    assert (tmp_path / "site" / "guide" / "conllu" / "index.html").exists()
    assert (tmp_path / "site" / "reference" / "settings" / "index.html").exists()
