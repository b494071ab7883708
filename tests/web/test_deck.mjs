// The HTML deck (banklab-gui --lesson NAME --export-dir DIR) as a lecturer uses it: Debian's
// Chromium, headless, driven by puppeteer-core over the DevTools protocol, the deck served from
// 127.0.0.1. The transpose track (the longest texts and the tallest figures) is exported once at
// 1280x720 and opened in windows of 1280x720, 1920x1080 and a phone's 390x844 (where the deck
// shows each step's portrait slide, laid out to the hand-held minimums); on every step:
//   - the slide fills the window (its aspect kept) and every text in it, as the browser sets it
//     (the layout's position and size, the width the browser's font really takes), is inside the
//     window, none over another, none on or under the footer, and at projector.hpp's minimums
//     for the window: 16 px for anything (24 at 1080, 11 on a phone), the verdict in title type
//     (32, 48 at 1080, 20 on a phone);
//   - the speaker notes show on N, in body type or larger (20 px, 30 at 1080), and hide on Esc;
// and clicks, taps, Space, the arrows and Page Up/Down step through it, each key a press and a
// release sent together (CDP Input.dispatchKeyEvent, as a clicker does): every one counts.
//
//   node tests/web/test_deck.mjs BANKLAB_GUI OUT
//     BANKLAB_GUI  the desktop app (it needs an X display: DISPLAY)
//     OUT          where the deck and the screenshots are written, for people to look at
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { checker, launchChromium, servePage } from "./browser.mjs";

const [banklabGui, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tests/web/test_deck.mjs BANKLAB_GUI OUT");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const started = Date.now();

const { check, failures } = checker();

// projector.hpp's minimums for a window of width x height: a hand-held screen's (narrower than
// 600 px), else the 1280x720 ones scaled with the height (never below them).
function minimums(width, height) {
  if (width < 600) return { digits: 11, body: 14, title: 20 };
  const scale = Math.max(1, height / 720);
  return { digits: Math.floor(16 * scale), body: Math.floor(20 * scale), title: Math.floor(32 * scale) };
}

const LESSON = "transpose";
// The export (banklab-gui, waiting on its X server more than computing) and Chromium's start
// side by side; the server serves the folder the export writes.
const exported = promisify(execFile)(banklabGui, ["--lesson", LESSON, "--export-dir", out, "--size", "1280x720"],
                                     { encoding: "utf8" })
  .then(({ stdout, stderr }) => { process.stdout.write(stdout); process.stderr.write(stderr); });
const { origin, close: closeServer } = await servePage(out);
const [browser] = await Promise.all([launchChromium(1920, 1080), exported]);

// Every text of the section on screen as the browser sets it: its layout box in window pixels
// (x, the baseline less the ascent, the font size times the SVG's scale) with the width the
// browser's font takes, its class (the figure role) and its size in window pixels.
async function texts(page) {
  return page.evaluate(() => {
    // The slide the window shows: the projector's, or on a phone's width the portrait one.
    const svg = [...document.querySelectorAll("section.current > svg")]
      .find((s) => getComputedStyle(s).display !== "none");
    if (!svg) return [];
    const m = svg.getScreenCTM();
    return [...svg.querySelectorAll("text")].map((t) => {
      const size = parseFloat(t.getAttribute("font-size")) * m.a;
      const x = m.e + parseFloat(t.getAttribute("x")) * m.a;
      const top = m.f + (parseFloat(t.getAttribute("y")) - 0.76 * parseFloat(t.getAttribute("font-size"))) * m.d;
      const width = t.getComputedTextLength() * m.a;
      return { text: t.textContent, role: t.getAttribute("class"), size,
               box: [x, top, x + width, top + size] };
    });
  });
}

async function current(page) {
  return page.evaluate(() => ({
    hash: location.hash,
    id: document.querySelector("section.current")?.id,
    shown: [...document.querySelectorAll("section")].filter((s) => getComputedStyle(s).display !== "none").length,
  }));
}

// A key pressed and released at once, as a wireless clicker sends it.
async function tap(cdp, key, code, keyCode) {
  for (const type of ["keyDown", "keyUp"]) {
    await cdp.send("Input.dispatchKeyEvent", { type, key, code, windowsVirtualKeyCode: keyCode,
                                               text: type === "keyDown" && key === " " ? " " : undefined });
  }
}

const steps = (fs.readFileSync(path.join(out, `${LESSON}.html`), "utf8").match(/<section /g) ?? []).length;
// The same export writes one PNG slide per step of the lesson: the deck has a section for each.
const slides = fs.readdirSync(out).filter((f) => new RegExp(`^${LESSON}-\\d+\\.png$`).test(f)).length;
check(slides > 0 && steps === slides,
      `the deck has one section per step of ${LESSON} (${steps} sections, ${slides} slides)`);

// The three window sizes side by side, each in a context (a window) of its own: the checks wait
// on the page far more than they compute.
async function checkSize(size) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(size);
  await page.goto(`${origin}/${LESSON}.html#1`);
  const cdp = await page.createCDPSession();
  const m = minimums(size.width, size.height);
  const where = `${size.width}x${size.height}`;
  for (let step = 1; step <= steps; ++step) {
    const at = await current(page);
    check(at.hash === `#${step}` && at.id === `step-${step}` && at.shown === 1,
          `${where}: step ${step} alone on screen (${JSON.stringify(at)})`);
    const all = await texts(page);
    check(all.some((t) => t.role === "verdict"), `${where} step ${step}: a verdict`);
    for (const t of all) {
      const what = `${where} step ${step}: "${t.text}" (${t.role}, ${t.size.toFixed(1)} px)`;
      check(t.size >= m.digits - 0.01, `${what} is at least ${m.digits} px`);
      if (t.role === "verdict") check(t.size >= m.title - 0.01, `${what} is in title type (${m.title} px)`);
      check(t.box[0] >= -0.5 && t.box[1] >= -0.5 && t.box[2] <= size.width + 0.5 &&
            t.box[3] <= size.height + 0.5, `${what} inside the window: ${t.box.map(Math.round)}`);
    }
    // The footer (the keys, the last line) under every other text: on a phone's width the
    // projector's slide, drawn a third of its size, had the footer over its text's last lines.
    const footer = all.find((t) => /^(Click|Tap)/.test(t.text));
    if (check(footer, `${where} step ${step}: a footer with the keys`)) {
      for (const t of all) {
        if (t !== footer) check(t.box[3] <= footer.box[1] + 0.5,
                                `${where} step ${step}: "${t.text}" on or under the footer`);
      }
    }
    for (let i = 0; i < all.length; ++i) {
      for (let j = i + 1; j < all.length; ++j) {
        const [a, b] = [all[i].box, all[j].box];
        if (a[0] < b[2] - 1.5 && b[0] < a[2] - 1.5 && a[1] < b[3] - 1.5 && b[1] < a[3] - 1.5)
          check(false, `${where} step ${step}: "${all[i].text}" over "${all[j].text}"`);
      }
    }
    // The speaker notes on N, in body type, gone on Esc.
    await tap(cdp, "n", "KeyN", 78);
    const notes = await page.evaluate(() => {
      const aside = [...document.querySelectorAll("section.current aside")]
        .find((a) => getComputedStyle(a).display !== "none");
      if (!aside) return { display: "no notes", size: 0, text: "" };
      const style = getComputedStyle(aside);
      return { display: style.display, size: parseFloat(style.fontSize), text: aside.textContent };
    });
    check(notes.display === "block" && notes.size >= m.body - 0.01 && notes.text.length > 20,
          `${where} step ${step}: N shows the notes in body type (${JSON.stringify(notes).slice(0, 120)})`);
    if (all.some((t) => t.text.includes("continued in the speaker notes")))
      check(!notes.text.includes("whole text"), `${where} step ${step}: the notes hold the rest of the text`);
    if (step === 3) await page.screenshot({ path: path.join(out, `deck-${where}-step3-notes.png`) });
    await tap(cdp, "Escape", "Escape", 27);
    check(await page.evaluate(() => [...document.querySelectorAll("section.current aside")]
      .every((a) => getComputedStyle(a).display === "none")), `${where} step ${step}: Esc hides the notes`);
    if (step === 3 || step === 14) await page.screenshot({ path: path.join(out, `deck-${where}-step${step}.png`) });
    await tap(cdp, "PageDown", "PageDown", 34);
  }
  // Every way forward and back, each a press and a release sent together.
  await page.goto(`${origin}/${LESSON}.html#1`);
  await page.reload();
  const moves = [
    ["PageDown", () => tap(cdp, "PageDown", "PageDown", 34), 2],
    ["Right", () => tap(cdp, "ArrowRight", "ArrowRight", 39), 3],
    ["Space", () => tap(cdp, " ", "Space", 32), 4],
    ["Down", () => tap(cdp, "ArrowDown", "ArrowDown", 40), 5],
    ["Left", () => tap(cdp, "ArrowLeft", "ArrowLeft", 37), 4],
    ["PageUp", () => tap(cdp, "PageUp", "PageUp", 33), 3],
    ["a click", () => page.mouse.click(size.width / 2, size.height / 2), 4],
    ["a click on the left edge", () => page.mouse.click(10, size.height / 2), 3],
    ["a tap", () => page.touchscreen.tap(size.width / 2, size.height / 2), 4],
  ];
  for (const [name, move, expected] of moves) {
    await move();
    const at = await current(page);
    check(at.hash === `#${expected}`, `${where}: ${name} goes to step ${expected} (${at.hash})`);
  }
  // Ten instant Page Downs: ten steps.
  for (let i = 0; i < 10; ++i) await tap(cdp, "PageDown", "PageDown", 34);
  check((await current(page)).hash === "#14", `${where}: ten instant Page Downs are ten steps`);
  await context.close();
}
await Promise.all([{ width: 1280, height: 720 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]
  .map(checkSize));

await browser.close();
closeServer();
console.log(`deck: ${failures() === 0 ? "passed" : `${failures()} failures`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures() === 0 ? 0 : 1);
