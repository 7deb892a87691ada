"""The built site in a real headless Chromium: role links, badges in light and dark mode, search by number.

Chromium is Debian's ``/usr/bin/chromium`` (installed with apt-get when missing;
the test skips only if that is impossible). It is driven through the DevTools
protocol over ``--remote-debugging-pipe`` (NUL-separated JSON on fds 3 and 4),
so no websocket package and no Playwright browser download is needed.
Screenshots go to ``tests/artifacts/``.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import http.server
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from test_site import built_site

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--remote-debugging-pipe"]


def ensure_chromium() -> str:
    """Path of Debian's chromium, installing it with apt-get if needed; skip if impossible."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("chromium is not installed and apt-get cannot run here (needs root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium", "fonts-wqy-microhei"]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot install chromium: {' '.join(cmd)}: {proc.stderr.strip()[-300:]}")
    return CHROMIUM


class Browser:
    """A headless Chromium and one page, driven over the DevTools pipe."""

    def __init__(self, exe: str, profile: Path):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Chromium's ends move to fds >= 10 first, so that "3<&N 4>&M" below cannot clobber
        # one of them when os.pipe() handed out 3 or 4 (F_DUPFD leaves them inheritable).
        to_chrome_r, from_chrome_w = (self._move_up(fd) for fd in (to_chrome_r, from_chrome_w))
        # Chromium reads commands on fd 3 and writes replies on fd 4; bash moves the pipes there.
        script = f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w} {to_chrome_r}<&- {from_chrome_w}>&-'
        self.proc = subprocess.Popen(
            ["/bin/bash", "-c", script, exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next_id = 0
        self._replies: dict[int, queue.Queue] = {}
        self.events: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime"):
            self.send(f"{domain}.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)

    @staticmethod
    def _move_up(fd: int) -> int:
        high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
        os.close(fd)
        return high

    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._from_chrome, "rb", buffering=0) as pipe:
            while chunk := pipe.read(1 << 16):
                buf += chunk
                while b"\0" in buf:
                    raw, buf = buf.split(b"\0", 1)
                    msg = json.loads(raw)
                    if "id" in msg and msg["id"] in self._replies:
                        self._replies[msg["id"]].put(msg)
                    else:
                        self.events.put(msg)

    def call(self, method: str, session: str | None = None, timeout: float = 30, **params) -> dict:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            self._replies[ident] = replies = queue.Queue()
        msg = {"id": ident, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        reply = replies.get(timeout=timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]

    def send(self, method: str, **params) -> dict:
        """A command to the page's session."""
        return self.call(method, self.session, **params)

    def js(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15):
        """Poll ``expression`` in the page until it is truthy (navigation errors are retried)."""
        deadline = time.monotonic() + timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                value = self.js(expression)
                if value:
                    return value
            except RuntimeError as exc:  # the context was replaced mid-navigation
                last = exc
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression!r} ({last})")

    def goto(self, url: str) -> None:
        self.send("Page.navigate", url=url)
        self.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete'")

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"]))
        return path

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve(site: Path):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    httpd, url = _serve(built_site(tmp_path_factory))
    yield url
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def server_zh(tmp_path_factory):
    httpd, url = _serve(built_site(tmp_path_factory, "zh_CN"))
    yield url
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    exe = ensure_chromium()
    b = Browser(exe, tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


ENTRY_VISIBLE = """(() => {
  const el = document.getElementById(%s);
  if (!el) return null;
  const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return {top: r.top, bottom: r.bottom, height: r.height, vh: innerHeight,
          shown: s.visibility === 'visible' && s.display !== 'none', hash: location.hash};
})()"""


@pytest.mark.parametrize(("page", "code"), [
    ("index.html", "LLM_LINK_FAILED"),
    ("api-python.html", "LLM_TIMEOUT"),
    ("python-vs-cpp.html", "LLM_WAIT_PROC_TIMEOUT"),
    ("codes/LLM_LINK_FAILED.html", "LLM_NOT_YET_LINK"),
])
def test_role_link_lands_on_the_entry(browser, server, page, code):
    browser.goto(f"{server}/{page}")
    href_end = f"{code}.html#{code}"
    clicked = browser.js(f"""(() => {{
      const a = [...document.querySelectorAll('article a.reference.internal')]
        .find(a => a.getAttribute('href').endsWith({json.dumps(href_end)}));
      if (!a) return false;
      a.scrollIntoView(); a.click(); return true;
    }})()""")
    assert clicked, f"no role link to {code} on {page}"
    target = f"{server}/codes/{href_end}"
    browser.wait_for(f"location.href === {json.dumps(target)} && document.readyState === 'complete'")
    time.sleep(0.3)  # let the browser finish scrolling to the fragment
    box = browser.js(ENTRY_VISIBLE % json.dumps(code))
    assert box and box["shown"] and box["height"] > 0, box
    assert 0 <= box["top"] < box["vh"] / 2, f"{code} entry is not at the top of the viewport: {box}"
    browser.screenshot(f"role-link-{code}")


BADGES_AND_TABLES = """(() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const visible = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility === 'visible' && s.display !== 'none'
      && parseFloat(s.opacity) > 0.5; };
  const bg = rgb(getComputedStyle(document.body).backgroundColor);
  return {
    theme: document.body.dataset.theme,
    background: bg,
    badges: [...document.querySelectorAll('article .llmstatus-badge')].map(b => ({
      text: b.textContent, visible: visible(b), color: rgb(getComputedStyle(b).color)})),
    tables: [...document.querySelectorAll('article table')].map(t => ({
      visible: visible(t), cells: t.querySelectorAll('td').length,
      color: rgb(getComputedStyle(t.querySelector('td') || t).color)})),
  };
})()"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("mode", ["light", "dark", "dark-toggle"])
@pytest.mark.parametrize("page", ["codes/LLM_TIMEOUT.html", "api-cpp.html", "python-vs-cpp.html"])
def test_badges_and_tables_are_visible(browser, server, mode, page):
    # light/dark: the OS preference with furo's default "auto"; dark-toggle: the reader picked dark.
    scheme = "light" if mode in ("light", "dark-toggle") else "dark"
    browser.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])
    browser.goto(f"{server}/index.html")
    browser.js(f"localStorage.setItem('theme', {json.dumps('dark' if mode == 'dark-toggle' else 'auto')})")
    browser.goto(f"{server}/{page}")
    state = browser.wait_for(BADGES_AND_TABLES)
    dark = mode != "light"
    assert (_luminance(state["background"]) < 0.2) == dark, (mode, state["background"], state["theme"])
    assert state["badges"] and all(b["visible"] for b in state["badges"]), state["badges"]
    for badge in state["badges"]:
        assert _contrast(badge["color"], state["background"]) >= 3, (mode, badge, state["background"])
    assert state["tables"] and all(t["visible"] and t["cells"] for t in state["tables"]), state["tables"]
    for table in state["tables"]:
        assert _contrast(table["color"], state["background"]) >= 4.5, (mode, table)
    browser.js("document.querySelector('article .llmstatus-badge').scrollIntoView({block: 'center'})")
    browser.screenshot(f"badges-{page.replace('/', '-').removesuffix('.html')}-{mode}")
    browser.send("Emulation.setEmulatedMedia", features=[])
    browser.js("localStorage.removeItem('theme')")


@pytest.mark.parametrize("query", ["1343270921", "0x5010B009", "5010b009", "LLM_LINK_FAILED"])
def test_search_by_number_finds_the_code(browser, server, query):
    browser.goto(f"{server}/search.html?q={query}")
    links = browser.wait_for("""(() => {
      // searchtools.js writes "Search finished..." into the summary after the last result.
      const summary = document.querySelector('#search-results .search-summary');
      if (!summary || !summary.innerText.startsWith('Search finished')) return null;
      return [...document.querySelectorAll('#search-results ul.search li a')]
        .map(a => [a.textContent, a.getAttribute('href')]);
    })()""")
    assert any("LLM_LINK_FAILED" in text and "codes/LLM_LINK_FAILED.html" in href for text, href in links), links
    if query == "1343270921":
        browser.screenshot("search-1343270921")


def test_chinese_site_shows_chinese_registry_text(browser, server_zh):
    from sphinx_llmstatus.registry import default_registry

    code = default_registry()["LLM_TIMEOUT"]
    browser.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "light"}])
    browser.goto(f"{server_zh}/codes/LLM_TIMEOUT.html")
    state = browser.wait_for(BADGES_AND_TABLES)
    text = browser.js("document.querySelector('article').innerText")
    assert code.python.meaning.zh in text and code.cpp.remedy.zh.split("`")[0] in text
    assert [b["text"] for b in state["badges"]] and all(b["visible"] for b in state["badges"])
    assert all("recoverable" not in b["text"] for b in state["badges"]), state["badges"]  # badge labels translated
    browser.js("document.getElementById('LLM_TIMEOUT').scrollIntoView()")
    browser.screenshot("zh-LLM_TIMEOUT")
    browser.send("Emulation.setEmulatedMedia", features=[])
