// The browser edition's frame benchmark (docs/benchmarks-gui.md): opens the page in headless
// Chromium at WIDTHxHEIGHT with `?bench-frames=N` in the address's query (a benchmark's setting,
// never a link's key: app/gui/platform/link.cpp refuses it), and prints the report the
// page writes when the N frames are drawn (the desktop's --bench-frames report: time to the
// first frame since the page began to load, and per frame the CPU time to build and submit it,
// the wait for the drawing and the whole interval between frames, which the browser paces).
//
//   node tests/web/bench_web.mjs SITE FRAGMENT FRAMES [WIDTHxHEIGHT]
//   node tests/web/bench_web.mjs build-web preset=bf16-256-pad2 300 1280x720
import { launchChromium, servePage } from "./browser.mjs";

const [site, fragment, frames, size = "1280x720"] = process.argv.slice(2);
const [width, height] = size.split("x").map(Number);
if (!frames || !(width > 0 && height > 0)) {
  console.error("usage: node tests/web/bench_web.mjs SITE FRAGMENT FRAMES [WIDTHxHEIGHT]");
  process.exit(2);
}
const { origin, close } = await servePage(site);
const browser = await launchChromium(width, height);
const page = await browser.newPage();
await page.setViewport({ width, height });
page.on("console", (m) => { if (m.type() === "error") console.error(`console error: ${m.text()}`); });
await page.goto(`${origin}/?bench-frames=${frames}#${fragment}`);
await page.waitForFunction(() => document.getElementById("report").textContent !== "",
                           { timeout: 600000 });
console.log(await page.evaluate(() => document.getElementById("report").textContent));
await browser.close();
close();
