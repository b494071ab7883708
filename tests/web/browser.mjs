// What the browser edition's test and benchmark share: the page served from its folder on
// 127.0.0.1, and Debian's Chromium, headless, with the network cut but for that address.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
                ".svg": "image/svg+xml", ".data": "application/octet-stream" };

// The checks of a test script: check(ok, what) prints "FAIL: what" when ok is false and counts
// it; failures() says how many failed so far.
export function checker() {
  let failed = 0;
  return {
    check(ok, what) {
      if (!ok) {
        failed += 1;
        console.log(`FAIL: ${what}`);
      }
      return ok;
    },
    failures: () => failed,
  };
}

// Serves the folder's files, nothing else, on a free port of 127.0.0.1. Returns { origin, close }.
export async function servePage(site) {
  const root = path.resolve(site);
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    const file = path.join(root, name === "/" ? "index.html" : name);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

// Chromium (BANKLAB_CHROMIUM, else Debian's) in a fresh profile, with the flags that run WebGL 2
// on SwiftShader here; every host name but 127.0.0.1 fails to resolve. close() removes the
// profile too.
export async function launchChromium(width, height) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "banklab-chromium-"));
  const browser = await puppeteer.launch({
    executablePath: process.env.BANKLAB_CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    userDataDir: profile,
    args: ["--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", `--window-size=${width},${height}`,
           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
  });
  const close = browser.close.bind(browser);
  browser.close = async () => {
    await close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return browser;
}

// Waits until the page has built at least `frames` frames (Module.banklabFrames, app/web).
export async function waitForFrames(page, frames, timeout = 60000) {
  await page.waitForFunction((n) => typeof Module !== "undefined" && Module.banklabFrames >= n,
                             { timeout }, frames);
}
