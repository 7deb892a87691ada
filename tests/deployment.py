"""A generated prefill/decode deployment's logs, as `asys collect` or a tarball of ~/ascend/log leaves them.

Two nodes: prefill-0 (plogs of worker 4242, vLLM-Ascend's log naming its cluster 1000, a rotated
gzip plog of worker 4243 cut short by a crash, whose failure at 10:06 is before the cut) and decode-1 (its logs zipped: worker 777, cluster
2000, pulls from cluster 1000 and times out; a rotated file of worker 779). The lines follow the
formats the registry cites (plog, vLLM-Ascend's logger and its connector's messages). The true
first failure is prefill-0's LLM_DEVICE_OUT_OF_MEMORY at 2026-11-30 10:05:00.100; decode-1's
LLM_TIMEOUT at 10:05:03 follows it across the link (cluster 1000). Archives and compressed files
are made by the real tools (tar, gzip, zip).
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

#: 2026-11-30 12:00 UTC: every file's mtime (the year of vLLM's year-less times).
MTIME = 1796040000

FILES = {
    "prefill-0/plog/plog-4242_20261130100000.log": [
        "[INFO] GE(4242,python):2026-11-30-10:00:00.000.100 [llm_datadist.cc:88]4242 Initialize: init success",
        "[ERROR] GE(4242,python):2026-11-30-10:05:00.100.000 [llm_datadist.cc:123]4242 PullKvBlocks: "
        "ErrorNo: 1343270926(device out of memory)",
        "[ERROR] GE(4242,python):2026-11-30-10:05:00.200.000 [llm_datadist.cc:130]4242 PullKvBlocks: "
        "ErrorNo: 4294967295(failed)",
    ],
    "prefill-0/vllm.log": [
        "(VllmWorker rank=0 pid=4242) INFO 11-30 10:00:00 [llmdatadist_c_mgr_connector.py:340] "
        "Done initialize llm_datadist in rank 0, local rank 0, cluster id 1000",
        "(VllmWorker rank=0 pid=4242) INFO 11-30 10:00:00 [llmdatadist_c_mgr_connector.py:310] "
        "LLMDataDistCMgrConnectorWorker: Cluster 1000 start to listen request from peers",
    ],
    "decode-1/logs/vllm.log": [
        "(VllmWorker rank=0 pid=777) INFO 11-30 10:00:01 [llmdatadist_c_mgr_connector.py:340] "
        "Done initialize llm_datadist in rank 0, local rank 0, cluster id 2000",
        "(VllmWorker rank=0 pid=777) INFO 11-30 10:05:03 [llmdatadist_c_mgr_connector.py:590] "
        "remote cluster id is: 1000",
        "(VllmWorker rank=0 pid=777) ERROR 11-30 10:05:03 [llmdatadist_c_mgr_connector.py:612] "
        "pull_blocks failed: error code is LLMStatusCode.LLM_TIMEOUT",
    ],
    "decode-1/logs/a-rotated/vllm.log.1": [
        "(VllmWorker rank=1 pid=779) ERROR 11-30 10:06:10 [llmdatadist_c_mgr_connector.py:612] "
        "pull_blocks failed: error code is LLMStatusCode.LLM_FAILED",
    ],
}
#: The cut member: whole lines before the cut, the failure of worker 4243 among them.
CUT = "prefill-0/plog/plog-4243_20261130100600.log"
CUT_LINES = [f"[INFO] GE(4243,python):2026-11-30-10:06:{i // 100 % 60:02d}.{i % 1000:03d}.000 "
             f"[llm_datadist.cc:50]4243 step {i} ok" for i in range(3000)]
CUT_LINES[10] = ("[ERROR] GE(4243,python):2026-11-30-10:06:00.010.000 [llm_datadist.cc:140]4243 "
                 "Link: ErrorNo: 1343270921(link failed)")

EXPECTED_FIRST = ("LLM_DEVICE_OUT_OF_MEMORY", "2026-11-30T10:05:00.100000")


def make_tree(root: Path) -> Path:
    """The nodes' log directories under ``root`` (decode-1's logs zipped into logs.zip)."""
    for name, lines in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cut = root / CUT
    cut.parent.mkdir(parents=True, exist_ok=True)
    cut.write_text("\n".join(CUT_LINES) + "\n", encoding="utf-8")
    subprocess.run(["gzip", "-n", str(cut)], check=True)
    gz = cut.with_suffix(".log.gz")
    data = gz.read_bytes()
    gz.write_bytes(data[: len(data) * 2 // 3])  # the node crashed while the plog was being compressed
    subprocess.run(["gzip", "-n", str(root / "decode-1/logs/a-rotated/vllm.log.1")], check=True)
    for path in root.rglob("*"):
        os.utime(path, (MTIME, MTIME))
    subprocess.run(["zip", "-q", "-r", "-X", "../logs.zip", "."], cwd=root / "decode-1/logs", check=True,
                   env={**os.environ, "TZ": "UTC"})
    subprocess.run(["rm", "-r", str(root / "decode-1/logs")], check=True)
    os.utime(root / "decode-1/logs.zip", (MTIME, MTIME))
    return root


def make_bundle(root: Path, tree: Path) -> Path:
    """``bundle.tar.gz`` of the tree (tar and gzip)."""
    bundle = root / "bundle.tar.gz"
    subprocess.run(["tar", "czf", str(bundle), "-C", str(tree), "prefill-0", "decode-1"], check=True)
    return bundle


if __name__ == "__main__":  # python tests/deployment.py DIR: write the tree and the bundle there
    import sys

    out = Path(sys.argv[1])
    make_bundle(out, make_tree(out / "nodes"))
    print(out, time.strftime("%H:%M:%S"))
