"""Decode the 32-bit GE error-number layout that LLM DataDist codes are built with.

Layout (``hicann/metadef``, ``inc/external/ge_common/api_error_codes.h``), from
the most significant bit: runtime 2 bits, type 2 bits, level 3 bits, sysid 8
bits, modid 5 bits, value 12 bits. Every LLM DataDist code is runtime=1
(host), type=1 (error code), level=0 (common), sysid=8 (GE), modid=11 (LLM
engine), so ``0x5010B000 + n``.
"""

from __future__ import annotations

from .model import LLM_CODE_BASE, LLM_CODE_MASK, _Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .model import Family, Registry

#: (field, bit width), most significant first; the widths add up to 32.
FIELDS: tuple[tuple[str, int], ...] = (
    ("runtime", 2), ("type", 2), ("level", 3), ("sysid", 8), ("modid", 5), ("value", 12),
)
#: Meanings of the field values that LLM DataDist codes use.
KNOWN = {
    "runtime": {1: "host"},
    "type": {1: "error code"},
    "level": {0: "common"},
    "sysid": {8: "GE"},
    "modid": {11: "LLM engine"},
}
class GeErrorLayout(_Record):
    """The six fields of a 32-bit GE error number (all ints)."""

    __slots__ = ("runtime", "type", "level", "sysid", "modid", "value")
    runtime: int
    type: int
    level: int
    sysid: int
    modid: int
    value: int

    @property
    def is_llm_datadist(self) -> bool:
        """True when the fields are those of the LLM engine module (``0x5010B0xx``)."""
        return (self.runtime, self.type, self.level, self.sysid, self.modid) == (1, 1, 0, 8, 11)

    def describe(self) -> str:
        """``runtime=1 (host), type=1 (error code), ... value=9`` on one line."""
        parts = []
        for name, _ in FIELDS:
            v = getattr(self, name)
            label = KNOWN.get(name, {}).get(v)
            parts.append(f"{name}={v}" + (f" ({label})" if label else ""))
        return ", ".join(parts)

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name, _ in FIELDS}


def decode_layout(number: int) -> GeErrorLayout:
    """Split a 32-bit number (0 to 0xFFFFFFFF) into the GE layout fields.

    Raises ValueError for numbers outside 32 bits.
    """
    if not 0 <= number <= 0xFFFFFFFF:
        raise ValueError(f"{number} is not a 32-bit unsigned value")
    out = {}
    shift = 32
    for name, width in FIELDS:
        shift -= width
        out[name] = (number >> shift) & ((1 << width) - 1)
    return GeErrorLayout(**out)


def has_llm_layout(number: int) -> bool:
    """True for numbers of the form ``0x5010B0xx``..``0x5010BFFF``."""
    return 0 <= number <= 0xFFFFFFFF and (number & LLM_CODE_MASK) == LLM_CODE_BASE


def neighbour_family(number: int, registry: Registry) -> Family | None:
    """The neighbouring family ``number`` belongs to, if any: HIXL/ADXL statuses and ACL runtime
    codes by their value ranges, HCCL error numbers by their own form (``0x05000007``)."""
    return registry.family_of_number(number)


def family_error_number(number: int, registry: Registry) -> tuple[Family, int, str] | None:
    """``(family, value, sub-module)`` of ``number`` read as a family's own error-number form
    (HCCL's ``0x0500000C``: ``HcclResult`` 12, sub-module HCCL), else None."""
    for family in registry.families.values():
        found = family.error_number(number)
        if found is not None:
            return family, found[0], found[1]
    return None


def hccl_error(number: int, registry: Registry) -> str | None:
    """``HCCL_E_UNAVAIL, sub-module HCCL`` for an error number such as ``0x05000007`` whose value is
    a code of its family, else None."""
    found = family_error_number(number, registry)
    if found is None:
        return None
    family, value, sub = found
    code = registry.by_family_value(family.key, value)
    return f"{code.name}, sub-module {sub}" if code is not None and value else None


def is_ge_number(number: int) -> bool:
    """True when the GE layout fields of ``number`` are GE's own.

    GE numbers (``GE_ERRORNO`` in ``hicann/metadef``) set runtime 1 (host) or 2
    (device), type 1 (error code) or 2 (exception) and sysid 8 (GE). Any other
    number split into those fields gives nonsense, so it is not described as
    a GE layout (``0x05000007`` is an HCCL error number).
    """
    if not 0 <= number <= 0xFFFFFFFF:
        return False
    f = decode_layout(number)
    return f.runtime in (1, 2) and f.type in (1, 2) and f.sysid == 8
