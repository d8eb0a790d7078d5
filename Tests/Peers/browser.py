#!/usr/bin/env python3
"""Opens nearby's web view in headless Chromium and reports what the page shows.

Drives Debian's `chromium` through the Chrome DevTools Protocol over a WebSocket (the pinned
`websockets` package of Tests/Peers/requirements.txt). It only observes and reports: the Swift
test (NearbyCLITests/WebViewTests) decides what is right. Prints one JSON object on stdout:

  first        the page once every expected accessory shows on the radar
  later        the page once a distance changed and a zone change arrived live
  consistency  the page and, fetched right after it, the server's /api/state (the page's events
               must include every zone change the server had before the page's last update)
  raw          the page after the raw / smoothed toggle was clicked
  exceptions   JavaScript exceptions, console errors and browser log errors (content security
               policy violations, failed loads) of the page
  screenshot   where the PNG went (with --screenshot)

Exit status 0 when it could report, 1 with a message on stderr when the page never got there.
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from websockets.sync.client import connect

PROBE = r"""
(() => {
  const dots = [...document.querySelectorAll('#dots .dot')]
    .filter((d) => d.getAttribute('visibility') === 'visible')
    .map((d) => ({
      id: d.dataset.accessory, distance: parseFloat(d.dataset.distance), azimuth: d.dataset.azimuth,
      zone: d.dataset.zone, label: d.querySelector('text').textContent, fill: d.querySelector('circle').getAttribute('fill'),
      lost: d.classList.contains('lost'), transform: d.getAttribute('transform'),
    }));
  const rows = [...document.querySelectorAll('#accessories tbody tr')].map((r) => ({
    id: r.dataset.accessory, t: parseFloat(r.dataset.t), updates: parseInt(r.dataset.updates, 10),
    cells: Object.fromEntries([...r.cells].map((c) => [c.className, c.textContent])),
  }));
  const log = [...document.querySelectorAll('#log li')].map((li) => ({
    type: li.dataset.type, accessory: li.dataset.accessory, t: parseFloat(li.dataset.t),
    from: li.dataset.from, to: li.dataset.to, text: li.textContent,
  }));
  const rings = [...document.querySelectorAll('#grid circle[data-boundary]')].map((c) => parseFloat(c.dataset.boundary));
  const rangeRings = [...document.querySelectorAll('#rings circle')].filter((c) => c.getAttribute('visibility') === 'visible').length;
  return {
    dots, rows, log, rings, rangeRings, mode: document.body.dataset.mode,
    connection: document.getElementById('connection').dataset.state,
    connectedAt: parseFloat(document.body.dataset.connectedAt),
    title: document.title,
  };
})()
"""


class DevTools:
    """A minimal CDP client: commands by id, events collected."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.events = []

    def call(self, method, session=None, timeout=60, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{method}: no answer in {timeout} s")
            reply = json.loads(self.socket.recv(timeout=remaining))
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)


def find_chromium(explicit):
    for name in [explicit, "chromium", "chromium-browser", "google-chrome"]:
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit("chromium is not installed; run `make test` (it installs Debian's chromium)")


def start_chromium(binary, profile):
    process = subprocess.Popen(
        [
            binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--disable-features=Translate,MediaRouter", "--mute-audio", "--hide-scrollbars",
            f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank",
        ],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    active = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"chromium exited ({process.returncode}): {process.stderr.read().decode(errors='replace')[-2000:]}")
        if os.path.exists(active):
            lines = open(active).read().split()
            if len(lines) >= 2:
                return process, f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        time.sleep(0.05)
    process.kill()
    sys.exit("chromium did not open its DevTools port within 60 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the web view's address (with ?token=... if it needs one)")
    parser.add_argument("--accessories", type=int, default=3, help="how many accessories the radar must show")
    parser.add_argument("--screenshot", help="write a PNG of the page here")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=640)
    parser.add_argument("--timeout", type=float, default=120, help="seconds to wait for each stage")
    parser.add_argument("--settle", type=float, default=0, help="seconds to wait before the screenshot")
    parser.add_argument("--chromium", help="the browser binary (default: chromium on PATH)")
    args = parser.parse_args()

    profile = tempfile.mkdtemp(prefix="nearby-chromium-")
    process, endpoint = start_chromium(find_chromium(args.chromium), profile)
    try:
        with connect(endpoint, max_size=64 * 1024 * 1024, open_timeout=30) as socket:
            report(DevTools(socket), args)
    finally:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


def report(tools, args):
    """Drives the page through its stages and prints the report."""
    try:
        target = tools.call("Target.createTarget", url="about:blank")["targetId"]
        session = tools.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        tools.call("Emulation.setDeviceMetricsOverride", session, width=args.width, height=args.height, deviceScaleFactor=1, mobile=False)
        tools.call("Runtime.enable", session)
        tools.call("Log.enable", session)  # content-security-policy violations, failed loads
        tools.call("Page.enable", session)
        tools.call("Page.navigate", session, url=args.url)

        def evaluate(expression):
            result = tools.call("Runtime.evaluate", session, expression=expression, returnByValue=True, awaitPromise=True)
            if "exceptionDetails" in result:
                raise RuntimeError(f"evaluate: {result['exceptionDetails']}")
            return result["result"].get("value")

        def wait(what, condition):
            deadline = time.monotonic() + args.timeout
            page = None
            while time.monotonic() < deadline:
                try:
                    page = evaluate(PROBE)
                except RuntimeError:
                    page = None  # still loading
                if page and condition(page):
                    return page
                time.sleep(0.1)
            sys.exit(f"the page did not show {what} within {args.timeout} s; last seen: {json.dumps(page)[:3000]}")

        first = wait(f"{args.accessories} accessories", lambda p: len({d["id"] for d in p["dots"]}) >= args.accessories)
        before = {d["id"]: d["distance"] for d in first["dots"]}

        def moved_and_zone_changed(page):
            moved = any(d["id"] in before and d["distance"] != before[d["id"]] for d in page["dots"])
            live_zone = any(e["type"] == "zone" and e["t"] > page["connectedAt"] for e in page["log"])
            return moved and live_zone

        later = wait("a distance change and a live zone change", moved_and_zone_changed)
        # The page, then the server's state right after it, in one evaluation.
        consistency = evaluate(
            "(async () => { const page = " + PROBE + "; const r = await fetch('api/state' + location.search, {cache: 'no-store'});"
            " return {page, state: await r.json(), status: r.status}; })()")
        evaluate("document.getElementById('raw').click()")
        raw = wait("the raw mode", lambda p: p["mode"] == "raw")
        evaluate("document.getElementById('raw').click()")
        wait("the smoothed mode again", lambda p: p["mode"] == "smoothed")
        shot = None
        if args.screenshot:
            time.sleep(args.settle)
            data = tools.call("Page.captureScreenshot", session, format="png")["data"]
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(data))
            shot = args.screenshot
        exceptions = [
            e["params"]["exceptionDetails"].get("text", "") + " " + json.dumps(e["params"]["exceptionDetails"].get("exception", {}).get("description", ""))
            for e in tools.events if e.get("method") == "Runtime.exceptionThrown"
        ]
        exceptions += [
            " ".join(str(a.get("value", a.get("description", ""))) for a in e["params"].get("args", []))
            for e in tools.events if e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") == "error"
        ]
        exceptions += [
            e["params"]["entry"].get("source", "") + ": " + e["params"]["entry"].get("text", "")
            for e in tools.events if e.get("method") == "Log.entryAdded" and e["params"]["entry"].get("level") == "error"
        ]
        print(json.dumps({"first": first, "later": later, "consistency": consistency, "raw": raw, "exceptions": exceptions, "screenshot": shot}))
    finally:
        try:
            tools.call("Browser.close", timeout=10)
        except Exception:
            pass


if __name__ == "__main__":
    main()
