"""The catalog others consume: every family and code, in English and Chinese, as plain data.

``catalog.json`` (valid against ``catalog.schema.json``, shipped beside this
module) and ``catalog.csv`` are what the site publishes for tools that do not
run Python. Each code is the entry ``llmstatus CODE --json`` gives
(:func:`~sphinx_llmstatus.render.json.entry_dict`), built once per language and
merged: a text that has a language (:data:`LOCALISED`) becomes ``{"en", "zh"}``,
everything else is the same in both and kept once. A test checks the files the
site publishes equal what the registry gives now.
"""

from __future__ import annotations

import os

from ..registry.model import LANGS, Registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Keys of an entry whose value is a text in the reader's language.
LOCALISED = frozenset({"label", "meaning", "remedy", "note", "when", "check", "fix", "about", "does", "title"})
#: The JSON Schema of :func:`catalog`, shipped with the package.
SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog.schema.json")
#: The columns of :func:`csv_rows`.
CSV_COLUMNS = ("family", "name", "value", "hex", "python_name", "cpp_name", "recoverable_python",
               "recoverable_cpp", "meaning_en", "meaning_zh", "remedy_en", "remedy_zh", "action_immediate",
               "action_investigate", "causes")


def _merge(en: Any, zh: Any, localised: bool = False) -> Any:
    """One value from its English and Chinese builds; ``localised`` inside a key of
    :data:`LOCALISED` (``meaning``, and its per-API values)."""
    if localised and isinstance(en, str):
        return {"en": en, "zh": zh}
    if isinstance(en, dict) and isinstance(zh, dict) and en.keys() == zh.keys():
        # A family's label alone (``reported_as_this``) is a text too; its ``{key, label}`` is not.
        return {k: _merge(en[k], zh[k], localised or k in LOCALISED or (k == "family" and isinstance(en[k], str)))
                for k in en}
    if isinstance(en, list) and isinstance(zh, list) and len(en) == len(zh):
        return [_merge(a, b, localised) for a, b in zip(en, zh)]
    if en != zh:
        raise ValueError(f"a value that is not a text differs between languages: {en!r} / {zh!r}")
    return en


def catalog(registry: Registry | None = None) -> dict[str, Any]:
    """``{catalog, version, languages, families, codes}``: every family and code of ``registry``
    (default the packaged one), in registry order."""
    from .. import __version__
    from ..registry.packaged import default_registry
    from ..render.json import entry_dict

    reg = registry if registry is not None else default_registry()
    codes = []
    for code in reg.codes:
        en, zh = (entry_dict(code, lang, reg) for lang in LANGS)
        en.pop("lang"), zh.pop("lang")
        codes.append(_merge(en, zh))
    families = [{"key": f.key, "label": {"en": f.label.en, "zh": f.label.zh},
                 "about": {"en": f.about.en, "zh": f.about.zh}, "ranges": [list(r) for r in f.ranges],
                 "namespaces": list(f.namespaces), "codes": sum(1 for c in reg.codes if c.family == f.key)}
                for f in reg.families.values()]
    return {"catalog": "sphinx-llmstatus", "version": __version__, "languages": list(LANGS),
            "families": families, "codes": codes}


def csv_rows(data: dict[str, Any]) -> list[list[str]]:
    """One row per code of a :func:`catalog` (header first): names, value, recoverability, meaning,
    remedy (the Python view's, else the C++ one's), the immediate and investigating actions and the
    number of causes."""
    rows = [list(CSV_COLUMNS)]
    for code in data["codes"]:
        api = "python" if "python" in code["meaning"] else "cpp"
        action = code["action"].get(api) or {}
        rows.append([str(v) if v is not None else "" for v in (
            code["family"]["key"], code["name"], code["value"], code["hex"], code["python_name"], code["cpp_name"],
            code["recoverable"].get("python"), code["recoverable"].get("cpp"),
            code["meaning"][api]["en"], code["meaning"][api]["zh"], code["remedy"][api]["en"],
            code["remedy"][api]["zh"], action.get("immediate"), action.get("investigate"), len(code["causes"]))])
    return rows


def write(outdir: str, registry: Registry | None = None) -> list[str]:
    """Write ``catalog.json``, ``catalog.schema.json`` and ``catalog.csv`` into ``outdir``; their paths."""
    import csv
    import json
    import shutil

    data = catalog(registry)
    paths = [os.path.join(outdir, n) for n in ("catalog.json", "catalog.schema.json", "catalog.csv")]
    with open(paths[0], "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    shutil.copyfile(SCHEMA_PATH, paths[1])
    with open(paths[2], "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(csv_rows(data))
    return paths
