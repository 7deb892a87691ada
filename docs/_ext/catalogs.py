"""Refresh the site's translation catalogs: ``make site-pot`` runs this after the gettext build.

* ``site.pot`` (Sphinx's gettext builder, ``gettext_compact = "site"``, run in
  English): the hand-written pages. Messages the generator wrote (found in
  ``codes/`` or ``_generated/``, also when a page includes them) are dropped,
  since the generator writes those in the build's language itself, and so are
  messages with no word outside code (numbers, code names, roles).
* ``generated.pot``: the generator's phrases, ``_("...")`` in ``docs/_ext/*.py``
  (Babel's extractor), plus the layout's field and family labels.

Each ``docs/locales/<lang>/LC_MESSAGES/<domain>.po`` is then updated from its
template with Babel (translations kept, new messages empty, gone ones dropped).
Usage: ``python docs/_ext/catalogs.py docs/_build/gettext``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

EXT = Path(__file__).resolve().parent
DOCS = EXT.parent
LOCALES = DOCS / "locales"
GENERATED_SOURCES = ("codes/", "_generated/")


_CODE = re.compile(r"\{[^}]*\}`[^`]*`|``?[^`]*``?|\{[^}]*\}")


def _has_words(message: str) -> bool:
    return re.search(r"[A-Za-z]{2,}", _CODE.sub(" ", message)) is not None


def _units(markdown: str) -> set[str]:
    """Lines, headings, list items and table cells of generated MyST: what a message can be."""
    units: set[str] = set()
    for line in markdown.splitlines():
        line = line.strip()
        units |= {line, line.lstrip("#").strip(), line.removeprefix("- ").strip()}
        if line.startswith("|"):
            units |= {cell.strip() for cell in line.strip("|").split("|")}
    return units


def site_template(gettext_dir: Path) -> Catalog:
    with (gettext_dir / "site.pot").open("rb") as fh:
        pot = read_po(fh)
    generated = _units("\n".join(p.read_text(encoding="utf-8") for folder in GENERATED_SOURCES
                                 for p in sorted((DOCS / folder).rglob("*.md"))))
    out = Catalog(project="sphinx-llmstatus site", fuzzy=False)
    for message in pot:
        if not message.id or message.id in generated or not _has_words(message.id):
            continue
        kept = []
        for file, line in message.locations:
            rel = os.path.relpath((gettext_dir / file).resolve(), DOCS)
            if not rel.startswith(GENERATED_SOURCES):
                kept.append((rel, line))
        if kept:
            out.add(message.id, locations=kept)
    return out


def generated_template() -> Catalog:
    sys.path.insert(0, str(DOCS.parent))
    from sphinx_llmstatus.registry.layout import KNOWN

    out = Catalog(project="sphinx-llmstatus site generator", fuzzy=False)
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(EXT), method_map=[("*.py", "python")], keywords={"_": None}, comment_tags=()):
        out.add(message, locations=[(f"_ext/{filename}", lineno)])
    for labels in KNOWN.values():
        for label in labels.values():
            out.add(label, locations=[("registry/layout.py", 0)])
    for word in ("other family", "modes", "functions", "remedy"):  # passed to _() as variables
        out.add(word, locations=[("_ext/compare_pages.py", 0)])
    return out


def update(domain: str, template: Catalog) -> None:
    for lang_dir in sorted(p for p in LOCALES.iterdir() if p.is_dir()):
        path = lang_dir / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=lang_dir.name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang_dir.name, project=template.project, fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, omit_header=False, ignore_obsolete=True)
        missing = sum(1 for m in catalog if m.id and not m.string)
        print(f"{path.relative_to(DOCS)}: {len(catalog)} messages, {missing} untranslated")


def main(argv: list[str]) -> int:
    gettext_dir = Path(argv[0]) if argv else DOCS / "_build" / "gettext"
    update("site", site_template(gettext_dir))
    update("generated", generated_template())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
