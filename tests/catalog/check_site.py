#!/usr/bin/python3
"""Load every page of a catalog site in headless Chromium (DevTools
protocol over a WebSocket on 127.0.0.1) and check it:
  - no console error, no uncaught exception, no failed load;
  - every link (a, link) resolves: the file exists, and a #fragment names an
    element id of the target page;
  - every chart (svg) is drawn: its screenshot has coloured pixels, and it
    has role=img with a title and a description; every table has headers;
  - the numbers on the pages equal the store's (an SQLite file, read here
    with Python's sqlite3, independently of the C code); a drifted change
    (cells.drifted) is marked, visibly and in a style of its own, and no
    other is;
  - at 1280 and 390 px: no table wider than its container (clipped or
    behind a scrollbar), the answer columns (change vs baseline, B - A,
    latency inflation, bandwidth drop) shown inside the screen, no chart
    text under 10 px as drawn, no "0 hops" in a timed cell's legend
    (SHOTS=DIR keeps a screenshot of every page at both widths).
    check_site.py SITE_DIR STORE.sqlite
Prints one "ok - ..." or "not ok - ..." line per check; exits 1 on a failure.
Needs chromium, python3-websocket and python3-pil (Debian).
"""
import base64, glob, io, json, os, re, sqlite3, subprocess, sys, tempfile, time, urllib.parse, urllib.request

import websocket
from PIL import Image

site, store = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = 0


def check(cond, what):
    global failures
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failures += 1
    return cond


class Browser:
    def __init__(self):
        self.udd = tempfile.mkdtemp(prefix="swstress-chromium.")
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-extensions", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             "--remote-allow-origins=*", "--user-data-dir=" + self.udd, "--window-size=900,1200",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.udd, "DevToolsActivePort")
        for _ in range(600):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = [t for t in targets if t["type"] == "page"][0]
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60)
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg["result"]
            self.events.append(msg)

    def load(self, url):
        self.events = []
        self.call("Page.navigate", url=url)
        deadline = time.time() + 30
        while time.time() < deadline:
            if any(e.get("method") == "Page.loadEventFired" for e in self.events):
                break
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append(msg)
        self.call("Runtime.evaluate", expression="1")   # drain what came with the load

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        return r["result"].get("value")

    def problems(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                out.append("console: " + " ".join(str(a.get("value")) for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: " + p["exceptionDetails"].get("text", ""))
            elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
                out.append("log: " + p["entry"].get("text", ""))
            elif m == "Network.loadingFailed":
                out.append("load failed: " + p.get("errorText", ""))
        return out

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        subprocess.call(["rm", "-rf", self.udd])


def coloured_pixels(png):
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for (r, g, b) in im.getdata() if max(r, g, b) - min(r, g, b) > 60)


# --- the store's numbers, formatted as the pages print them ---
db = sqlite3.connect(store)
db.row_factory = sqlite3.Row
cells = {"%s/%d" % (r["run"], r["cell"]): r for r in db.execute("SELECT * FROM cells")}


def within_runs(key, shown, col):
    """The shown median (4 digits) between the store's medians of the same
    cell (pattern, size, hops, nodes) in every published run of the run's
    switch (vendor, model); equal to it for a switch of one run."""
    c = cells[key]
    run = key.rsplit("/", 1)[0]
    sw = db.execute("SELECT vendor, model, max_nodes FROM runs WHERE name = ?", (run,)).fetchone()
    runs = [r[0] for r in db.execute("SELECT name FROM runs WHERE vendor = ? AND model = ? AND max_nodes = ?", tuple(sw))]
    meds = [x[col] for x in cells.values() if x["run"] in runs and (x["pattern"], x["size_bytes"], x["hops"], x["nodes"]) ==
            (c["pattern"], c["size_bytes"], c["hops"], c["nodes"])]
    v = float(shown.split()[0])
    if len(meds) == 1:
        return shown.startswith("%.4g" % meds[0])
    return min(meds) * (1 - 5e-4) <= v <= max(meds) * (1 + 5e-4)


def est(x, lo, hi):
    if x is None:
        return "-"
    if lo is None or hi is None:
        return "%.4g" % x
    return "%.4g [%.4g, %.4g]" % (x, lo, hi)


def pct(x, lo, hi):
    if x is None:
        return "-"
    if lo is None or hi is None:
        return "%+.1f%%" % x
    return "%+.1f%% [%+.1f, %+.1f]" % (x, lo, hi)


def pval(p):
    return "n/a" if p is None else "< 0.001" if p < 0.001 else "%.3f" % p


pages = sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
check(len(pages) >= 3, "site has pages (%d)" % len(pages))
b = Browser()
numbers = charts = links = drifts = 0
try:
    for path in pages:
        rel = os.path.relpath(path, site)
        b.load("file://" + path)
        probs = b.problems()
        check(not probs, "%s renders without console errors %s" % (rel, probs[:3] if probs else ""))
        check(b.js("document.querySelector('h1') !== null && document.title.length > 0"),
              "%s has a title and a heading" % rel)
        # links
        hrefs = b.js("[...document.querySelectorAll('a[href], link[href]')].map(a => a.href)")
        bad = []
        for h in hrefs:
            u = urllib.parse.urlparse(h)
            if u.scheme == "data":
                continue
            if u.scheme != "file":
                bad.append(h + " (not a local file)")
                continue
            target = urllib.parse.unquote(u.path)
            if not os.path.isfile(target):
                bad.append(h)
            elif u.fragment and ('id="%s"' % u.fragment) not in open(target, encoding="utf-8").read():
                bad.append(h + " (no such id)")
            links += 1
        check(not bad, "%s: every link resolves %s" % (rel, bad[:3]))
        # accessibility
        check(b.js("[...document.querySelectorAll('table')].every(t => t.querySelector('th') && t.querySelector('caption'))"),
              "%s: every table has headers and a caption" % rel)
        svgs = b.js("""[...document.querySelectorAll('svg')].map(s => {
            const ids = (s.getAttribute('aria-labelledby') || '').split(' ').filter(x => x);
            const text = ids.map(i => (document.getElementById(i) || {}).textContent || '');
            s.scrollIntoView(); const r = s.getBoundingClientRect();
            return {role: s.getAttribute('role'), text: text, x: r.x + scrollX, y: r.y + scrollY,
                    w: r.width, h: r.height}; })""")
        for i, s in enumerate(svgs):
            check(s["role"] == "img" and len(s["text"]) == 2 and all(t.strip() for t in s["text"]),
                  "%s: chart %d has role=img, a title and a description" % (rel, i))
            shot = b.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                          clip={"x": s["x"], "y": s["y"], "width": s["w"], "height": s["h"], "scale": 1})
            n = coloured_pixels(base64.b64decode(shot["data"]))
            check(n > 300, "%s: chart %d is drawn (%d coloured pixels)" % (rel, i, n))
            charts += 1
        # numbers: index (data-cell, data-col), switch pages (tr[data-cell])
        for key, col, text in b.js("[...document.querySelectorAll('td[data-cell]')].map(t => [t.dataset.cell, t.dataset.col, t.innerText])") or []:
            c = cells[key]
            want = pct(c[col + "_pct"], c[col + "_lo"], c[col + "_hi"])
            check(text.startswith(want) and ("p " + pval(c[col + "_p"])) in text,
                  "%s: %s %s is %r (store: %s)" % (rel, key, col, text.split("\n")[0], want))
            numbers += 1
        for key, tds in b.js("[...document.querySelectorAll('tr[data-cell]')].map(r => [r.dataset.cell, [...r.cells].map(c => c.innerText)])") or []:
            c = cells[key]
            k = "lat_infl" if c["pattern"] == "pingpong" else "bw_drop"
            want = [est(c["lat_median_us"], c["lat_lo_us"], c["lat_hi_us"]),
                    est(c["bw_median_MBps"], c["bw_lo_MBps"], c["bw_hi_MBps"]),
                    est(c["agg_median_MBps"], c["agg_lo_MBps"], c["agg_hi_MBps"])]
            change = "baseline" if c[k + "_sig"] is None else pct(c[k + "_pct"], c[k + "_lo"], c[k + "_hi"])
            # the message rate (Mmsg/s) after the aggregate: none for a latency pattern
            rate_ok = (tds[7] == "-") == (c["pattern"] == "pingpong")
            ok = tds[4:7] == want and rate_ok and change in tds[8] and tds[9] == pval(c[k + "_p"])
            check(ok, "%s: cell %s numbers equal the store's" % (rel, key) + ("" if ok else " %r vs %r %s" % (tds, want, change)))
            numbers += 1
        # a map page's hosts (tr[data-host]): score [CI] and flag as the store's map_hosts
        run = os.path.basename(path)[:-5]
        for host, mset, tds in b.js("[...document.querySelectorAll('tr[data-host]')].map(r => [r.dataset.host, r.dataset.set, [...r.cells].map(c => c.innerText)])") or []:
            pat, size = mset.split("/")
            h = db.execute("SELECT * FROM map_hosts WHERE run = ? AND host = ? AND pattern = ? AND size_bytes = ?",
                           (run, host, pat, int(size))).fetchone()
            ok = h is not None and tds[2] == est(h["score"], h["lo"], h["hi"]) and tds[-1] == ("SLOW" if h["flagged"] else "no")
            check(ok, "%s: host %r (%s) numbers equal the store's" % (rel, host, mset) + ("" if ok else " %r" % tds))
            numbers += 1
        # a drifted change (store: drifted = 1) is shown marked, in a style of
        # its own: not the plain small print's colour and weight; no other is
        for key, mark in b.js("""[...document.querySelectorAll('tr[data-cell], td[data-cell]')].map(e => {
                const d = e.querySelector('.drift'), p = document.createElement('small');
                if (!d) return [e.dataset.cell, null];
                e.appendChild(p);
                const s = getComputedStyle(d), q = getComputedStyle(p), r = d.getBoundingClientRect();
                const m = [d.innerText, s.color !== q.color || +s.fontWeight >= 600, s.display !== 'none' && r.width > 0];
                p.remove();
                return [e.dataset.cell, m]; })""") or []:
            drifted = cells[key]["drifted"] == 1
            ok = (mark is None) if not drifted else (mark is not None and "drift" in mark[0] and mark[1] and mark[2])
            check(ok, "%s: cell %s %s" % (rel, key, ("shown marked drifted, in a visible style of its own %r" % (mark,))
                                          if drifted else "not marked drifted"))
            drifts += drifted
        for ka, kb, tds in b.js("[...document.querySelectorAll('tr[data-a]')].map(r => [r.dataset.a, r.dataset.b, [...r.cells].map(c => c.innerText)])") or []:
            ca, cb = cells[ka], cells[kb]
            col = "lat_median_us" if ca["pattern"] == "pingpong" else "bw_median_MBps"
            # a switch's runs are pooled (compare): its median lies between
            # the medians of its runs' same cell, and is that median with one
            ok = all(within_runs(key, td, col) for key, td in ((ka, tds[4]), (kb, tds[5])))
            check(ok, "%s: compared cells %s and %s within the store's medians of their switches' runs" % (rel, ka, kb)
                  + ("" if ok else " %r" % tds))
            numbers += 1
    # A desktop (1280 px) and a phone (390 px): no table wider than its
    # container (nothing clipped or behind a scrollbar), the answer columns
    # shown and inside the screen, no chart text under 10 px as drawn
    # (font size times the chart's scale), no hop count in a timed legend.
    # SHOTS=DIR keeps a full-page screenshot of each page at each width.
    shots = os.environ.get("SHOTS")
    for width, height in ((1280, 900), (390, 844)):
        b.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
               mobile=width < 800)
        for path in pages:
            rel = os.path.relpath(path, site)
            b.load("file://" + path)
            m = b.js("""(() => {
                const vw = document.documentElement.clientWidth;
                const clipped = [...document.querySelectorAll('table')].filter(t =>
                    t.scrollWidth > t.clientWidth + 1 || t.scrollWidth > t.parentElement.clientWidth + 1 ||
                    t.getBoundingClientRect().right > vw + 1).map(t => t.caption ? t.caption.innerText.slice(0, 40) : '?');
                const answers = [...document.querySelectorAll('th')].filter(h =>
                    /^(Change vs (own )?baseline|B - A, points|Latency inflation|Bandwidth drop)/.test(h.innerText))
                    .map(h => { const r = h.getBoundingClientRect();
                                return [h.innerText, getComputedStyle(h).display !== 'none' && r.width > 0 && r.right <= vw + 1]; });
                let small = [], legend = [];
                for (const s of document.querySelectorAll('svg')) {
                    const k = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
                    for (const t of s.querySelectorAll('text')) {
                        const px = parseFloat(getComputedStyle(t).fontSize) * k;
                        if (px < 10) small.push(t.textContent + ' ' + px.toFixed(1) + ' px');
                        if (/(^|[^0-9])0 hops/.test(t.textContent)) legend.push(t.textContent);
                    }
                }
                return {page: document.documentElement.scrollWidth, vw: vw, clipped: clipped,
                        answers: answers, small: small, legend: legend,
                        svgs: document.querySelectorAll('svg').length};
            })()""")
            check(m["page"] <= m["vw"] and not m["clipped"],
                  "%s at %d px: no table clipped or scrolled (page %d px; clipped: %s)" % (rel, width, m["page"], m["clipped"][:3]))
            hidden = [a[0] for a in m["answers"] if not a[1]]
            check(not hidden, "%s at %d px: the answer columns are shown (%d; hidden: %s)" % (rel, width, len(m["answers"]), hidden))
            if m["svgs"]:
                check(not m["small"], "%s at %d px: chart text 10 px or more (%d charts; smaller: %s)" % (rel, width, m["svgs"], m["small"][:3]))
                check(not m["legend"], "%s: no hop count in a timed cell's legend %s" % (rel, m["legend"][:2]))
            if shots:
                os.makedirs(shots, exist_ok=True)
                shot = b.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
                open(os.path.join(shots, "%s-%d.png" % (rel.replace("/", "_"), width)), "wb").write(base64.b64decode(shot["data"]))
    # a small phone: 360 px wide, the page itself never scrolls sideways
    b.call("Emulation.setDeviceMetricsOverride", width=360, height=740, deviceScaleFactor=2, mobile=True)
    for path in pages:
        b.load("file://" + path)
        w = b.js("[document.documentElement.scrollWidth, window.innerWidth]")
        check(w[0] <= w[1], "%s fits a 360 px phone screen (page %d px wide)" % (os.path.relpath(path, site), w[0]))
finally:
    b.close()
check(numbers > 0 and charts > 0 and links > 0 and drifts > 0,
      "checked %d numbers, %d charts, %d links, %d drifted marks" % (numbers, charts, links, drifts))
sys.exit(1 if failures else 0)
