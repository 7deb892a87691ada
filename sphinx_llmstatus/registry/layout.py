"""Decode the 32-bit GE error-number layout that LLM DataDist codes are built with.

Layout (``hicann/metadef``, ``inc/external/ge_common/api_error_codes.h``), from
the most significant bit: runtime 2 bits, type 2 bits, level 3 bits, sysid 8
bits, modid 5 bits, value 12 bits. Every LLM DataDist code is runtime=1
(host), type=1 (error code), level=0 (common), sysid=8 (GE), modid=11 (LLM
engine), so ``0x5010B000 + n``.
"""

from __future__ import annotations

from .model import LLM_CODE_BASE, LLM_CODE_MASK, _Record

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
#: Other numbers that appear in the same logs and must never be read as LLM
#: DataDist codes: HIXL/ADXL statuses and ACL runtime codes (FACTS.md). The
#: ACL runtime ranges are those of ``hicann/runtime``
#: ``include/external/acl/error_codes/rt_error_codes.h`` (107xxx parameter,
#: 207xxx resource, 507xxx internal errors).
NEIGHBOUR_FAMILIES: tuple[tuple[range, str], ...] = (
    (range(103900, 103906), "HIXL/ADXL status"),
    (range(203900, 203901), "HIXL/ADXL status"),
    (range(503900, 503901), "HIXL/ADXL status"),
    (range(107000, 108000), "ACL runtime error"),
    (range(207000, 208000), "ACL runtime error"),
    (range(507000, 508000), "ACL runtime error"),
)
#: Machine names of the code families a number in a log can belong to.
FAMILY_KEYS = {"HIXL/ADXL status": "hixl", "ACL runtime error": "acl_runtime", "HCCL error number": "hccl"}
#: Display names of the families (``family`` in scan JSON is the key).
FAMILY_LABELS = {
    "llm_datadist": "LLM DataDist", "ge": "GE", "acl_runtime": "ACL runtime", "hccl": "HCCL",
    "hixl": "HIXL/ADXL",
}

#: HCCL's error numbers, as its logs print them (``errNo[0x0000000005000007]``):
#: ``(reserved << 32) + (module 5 << 24) + (sub-module << 16) + HcclResult``
#: (``HCCL_ERROR_CODE``/``HCOM_ERROR_CODE`` in ``src/pub_inc/log.h`` of the
#: HCCL/HCOMM sources; the ``HcclResult`` values are in ``hccl_types.h``,
#: ``hicann/hccl`` ``docs/api/context/HcclResult.md``).
HCCL_MODULE_ID = 5
HCCL_SUB_MODULES = {0: "HCCL", 1: "HCOM", 2: "CLTM", 3: "CUSTOM_OP"}
HCCL_RESULTS = (
    "HCCL_SUCCESS", "HCCL_E_PARA", "HCCL_E_PTR", "HCCL_E_MEMORY", "HCCL_E_INTERNAL", "HCCL_E_NOT_SUPPORT",
    "HCCL_E_NOT_FOUND", "HCCL_E_UNAVAIL", "HCCL_E_SYSCALL", "HCCL_E_TIMEOUT", "HCCL_E_OPEN_FILE_FAILURE",
    "HCCL_E_TCP_CONNECT", "HCCL_E_ROCE_CONNECT", "HCCL_E_TCP_TRANSFER", "HCCL_E_ROCE_TRANSFER", "HCCL_E_RUNTIME",
    "HCCL_E_DRV", "HCCL_E_PROFILING", "HCCL_E_CCE", "HCCL_E_NETWORK", "HCCL_E_AGAIN", "HCCL_E_REMOTE",
    "HCCL_E_SUSPENDING",
)

#: The numbers several layers share, read in a family other than LLM DataDist:
#: ``(family, value) -> (name, meaning en, meaning zh)``. ``0xFFFFFFFF`` is
#: GE's generic ``FAILED`` (``hicann/metadef`` ``inc/external/ge_common/ge_api_error_codes.h``)
#: and the -1 any C call returns as unsigned; 507053/507057 are ACL runtime
#: codes (``rt_error_codes.h``) that the Python ``LLMStatusCode`` re-exports.
SHARED_READINGS: dict[tuple[str, int], tuple[str, str, str]] = {
    ("ge", 0xFFFFFFFF): ("ge::FAILED", "GE's generic failure: some GE step failed (an operator, model "
                         "loading, a graph); the lines before it say which.",
                         "GE 的通用失败：GE 的某一步（算子、模型加载、图）失败，前面几行说明是哪一步。"),
    ("hccl", 0xFFFFFFFF): ("-1 (failed)", "A call made by HCCL returned -1 (generic failure); the HCCL "
                           "lines around it say which call.",
                           "HCCL 调用的某个接口返回 -1（通用失败）；附近的 HCCL 日志说明是哪个调用。"),
    ("acl_runtime", 0xFFFFFFFF): ("-1 (failed)", "A runtime call returned -1 (generic failure).",
                                  "某个 runtime 调用返回 -1（通用失败）。"),
    ("hixl", 0xFFFFFFFF): ("-1 (failed)", "A HIXL/ADXL call returned -1 (generic failure).",
                           "某个 HIXL/ADXL 调用返回 -1（通用失败）。"),
    ("acl_runtime", 507053): ("ACL_ERROR_RT_DEVICE_MEM_ERROR", "Device memory UCE: an uncorrectable memory "
                              "error at a virtual address of this device (hardware).",
                              "设备内存 UCE：本设备某虚拟地址出现不可纠正的内存错误（硬件）。"),
    ("acl_runtime", 507057): ("ACL_ERROR_RT_SUSPECT_REMOTE_ERROR", "The remote device's memory may be faulty, "
                              "or this device accessed memory out of bounds.",
                              "对端设备内存可能故障，或本设备内存访问越界。"),
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


def neighbour_family(number: int) -> str | None:
    """Name of the neighbouring code family ``number`` belongs to, if any.

    HIXL/ADXL statuses and ACL runtime codes by value range; HCCL error
    numbers by their form (module 5 in bits 24-31, a known sub-module and an
    ``HcclResult`` value, e.g. ``0x05000007``), which is not a GE layout.
    """
    for rng, label in NEIGHBOUR_FAMILIES:
        if number in rng:
            return label
    if hccl_error(number) is not None:
        return "HCCL error number"
    return None


def hccl_error(number: int) -> str | None:
    """``HCCL_E_UNAVAIL, sub-module HCCL`` for an HCCL error number such as ``0x05000007``, else None."""
    if not 0 <= number <= 0xFFFFFFFF or number >> 24 != HCCL_MODULE_ID:
        return None
    sub, result = (number >> 16) & 0xFF, number & 0xFFFF
    if sub not in HCCL_SUB_MODULES or not 0 < result < len(HCCL_RESULTS):
        return None
    return f"{HCCL_RESULTS[result]}, sub-module {HCCL_SUB_MODULES[sub]}"


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
