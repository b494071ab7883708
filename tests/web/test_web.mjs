// The browser edition in a real browser: Debian's Chromium, headless, driven over the DevTools
// protocol by puppeteer-core (pinned in package.json / package-lock.json), with the network cut
// except for the page's own server on 127.0.0.1. Each link opens in a fresh browser profile
// (its own local storage), at 1280x720 (one at 1920x1080, in the light theme), and is checked
// against the desktop programs of the same tree:
//   - the wavefront count in the page's summary line is the one `banklab analyze` prints;
//   - the views' cells are where banklab-gui --geometry puts them at the page's size, and the pixels
//     there are the desktop screenshot's: the conflict cells drawn in the same places and colours;
//   - no console error, no request beyond 127.0.0.1, and a first frame within 2 s of the page
//     starting to load (issue 36; its time is printed too);
// then (the timed links first, one at a time; the rest side by side, four cases at a time)
// a malformed link shows the default start and one line saying what was wrong, Next in a
// lesson moves the address to the next step, five PageDown taps sent faster than the frames
// move it five steps, and settings outlive the page in local storage.
//
//   node tests/web/test_web.mjs SITE BANKLAB BANKLAB_GUI OUT
//     SITE         the page (scripts/web.sh writes build-web)
//     BANKLAB      the command line, BANKLAB_GUI the desktop app (it needs an X display)
//     OUT          where the screenshots are written, for people to look at
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { checker, launchChromium, servePage, waitForFrames } from "./browser.mjs";
import { colourDistance, readPng } from "./png.mjs";

const [site, banklab, banklabGui, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tests/web/test_web.mjs SITE BANKLAB BANKLAB_GUI OUT");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
// Links open at this size unless their case names another (the browser's window is the largest).
const SIZE = { width: 1280, height: 720 }, LARGEST = { width: 1920, height: 1080 };

const { check, failures } = checker();

const { origin, close: closeServer } = await servePage(site);
// The programs are run without blocking: this process serves the page, and cases run side by side.
const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// The desktop's answers for the same scenario.

// "wavefronts 32, ideal 1, ..." from `banklab analyze ARGS`, or the one line it says instead
// about a scenario that cannot run (status 2: "banklab: lane 0: a 4-byte access must be ...").
async function analyzeScenario(args) {
  let text;
  try {
    text = (await run(banklab, ["analyze", ...args], { encoding: "utf8" })).stdout;
  } catch (e) {
    if (e.code !== 2) throw e;
    return { error: e.stderr.trim().replace(/^banklab: /, "") };
  }
  const m = text.match(/^wavefronts (\d+), ideal/m);
  if (!m) throw new Error(`banklab analyze ${args.join(" ")} printed no wavefront count:\n${text}`);
  return { wavefronts: Number(m[1]) };
}

// A line of the page's summary says what analyze says: the same wavefront count (the core's
// verdict: "... 32 wavefronts where 1 would do", "... 1 wavefront, the minimum"), or its error.
function agrees(line, expected) {
  if (expected.error !== undefined) return line.endsWith(": " + expected.error);
  return Number(line.match(/(\d+) wavefronts?\b/)?.[1]) === expected.wavefronts;
}

// banklab-gui's screenshot and geometry at the page's size.
async function desktopShot(name, args, size) {
  const png = path.join(out, `${name}-desktop.png`), json = path.join(out, `${name}-desktop.json`);
  const shot = await run(banklabGui, [...args, "--size", `${size.width}x${size.height}`, "--screenshot",
                                      png, "--geometry", json], { encoding: "utf8" });
  process.stdout.write(shot.stdout);
  process.stderr.write(shot.stderr);
  return { image: readPng(fs.readFileSync(png)), geometry: JSON.parse(fs.readFileSync(json)) };
}

// The scenario flags of a lesson's step, as its TOML file gives them (args = ["--dtype", ...]).
function lessonStepArgs(lesson, step) {
  const toml = fs.readFileSync(new URL(`../../assets/lessons/${lesson}.toml`, import.meta.url), "utf8");
  const steps = toml.split(/^\[\[step\]\]$/m).slice(1);
  return JSON.parse(steps[step - 1].match(/^args = (\[.*\])$/m)[1]);
}

// ---------------------------------------------------------------------------------------------
// The browser.
const browser = await launchChromium(LARGEST.width, LARGEST.height);

// A page in a context of its own (fresh local storage unless one is given), watched for
// console errors and for requests that leave 127.0.0.1 (refused, and counted as failures).
async function openPage(context, size = SIZE) {
  const page = await context.newPage();
  await page.setViewport(size);
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // A prompt or an alert (standard input read as window.prompt, issue 36) is never the app's.
  page.on("dialog", async (d) => {
    problems.push(`a ${d.type()} dialog: '${d.message()}'`);
    await d.dismiss();
  });
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().startsWith(origin + "/")) return r.continue();
    problems.push(`request beyond 127.0.0.1: ${r.url()}`);
    return r.abort();
  });
  return { page, problems };
}

// Loads the fragment and waits for the app to settle: its first frame, then a few more (ImGui
// sizes its windows over the first frames).
async function load(page, fragment) {
  await page.goto(`${origin}/#${fragment}`);
  await waitForFrames(page, 1);
  await settle(page);
  return await state(page);
}

// What the page shows: its text, its address, and (asked of the app, answered after its next
// frame) where the views put their cells.
async function state(page) {
  await page.evaluate(() => {
    Module.banklabGeometry = null;
    Module.banklabGeometryWanted = true;
    Module.banklabWake();
  });
  await page.waitForFunction(() => Module.banklabGeometry !== null, { timeout: 30000 });
  return await page.evaluate(() => ({
    firstFrame: performance.getEntriesByName("banklab-first-frame")[0]?.startTime,
    frames: Module.banklabFrames,
    hash: window.location.hash,
    summary: document.getElementById("summary").textContent,
    problem: document.getElementById("problem").hidden ? "" : document.getElementById("problem").textContent,
    geometry: Module.banklabGeometry,
  }));
}

// Asks the page for frames, as input does, and waits until three more are built: a click is
// handled in one and shown in the next (the pacer builds at least three after any request:
// app/gui/platform/frame_pacing.hpp).
async function settle(page) {
  const before = await page.evaluate(() => {
    Module.banklabWake();
    return Module.banklabFrames;
  });
  await waitForFrames(page, before + 3);
}

// Whether the page comes to rest: the frames after the last request stop within 10 s (none
// for 0.5 s), and none is built in the second after that.
async function atRest(page) {
  const frames = () => page.evaluate(() => Module.banklabFrames);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let last = await frames();
  for (let tries = 0;; ++tries) {
    await pause(500);
    const now = await frames();
    if (now === last) break;
    if (tries === 20) return false;
    last = now;
  }
  await pause(1000);
  return (await frames()) === last;
}

async function shoot(page, name) {
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  return readPng(fs.readFileSync(file));
}

// ---------------------------------------------------------------------------------------------
// The picture against the desktop's.

// The bank cells drawn: every cell of the bank view's grid, or (a comparison's panes, which
// have no grid of the app's) each cell a lane number is drawn in. [x0, y0] is the top-left.
function bankCells(geometry) {
  const g = geometry.bank_grid;
  if (!g) return geometry.labels.filter((l) => l.role === "cell_label").map((l) => l.cell);
  const cells = [];
  for (let row = 0; row < g.rows; ++row) {
    for (let col = 0; col < g.cols; ++col) {
      cells.push([g.x + g.pitch_x * col, g.y + g.pitch_y * row]);
    }
  }
  return cells;
}

// The views' cells and labels where the desktop puts them; at each bank cell (just inside its
// top-left corner, clear of the lane number) the desktop's colour, so the conflict cells are
// drawn in the same places and colours; and the whole picture below the menu bar (whose Edit
// and Quit are the platforms' own) the desktop's but for a few edge pixels of the lines, which
// SwiftShader and llvmpipe smooth differently.
function comparePicture(name, web, image, desktop, size) {
  for (const key of ["bank_grid", "labels"]) {
    const a = JSON.stringify(web.geometry[key]), b = JSON.stringify(desktop.geometry[key]);
    check(a === b, `${name}: ${key} where the desktop puts it: web ${a.slice(0, 300)}, desktop ${b.slice(0, 300)}`);
  }
  const cells = bankCells(desktop.geometry);
  check(cells.length >= 32, `${name}: ${cells.length} bank cells drawn`);
  let differing = 0;
  for (const [x0, y0] of cells) {
    const a = image.at(x0 + 1.5, y0 + 1.5), b = desktop.image.at(x0 + 1.5, y0 + 1.5);
    if (colourDistance(a, b) > 6 && differing++ < 5) {
      console.log(`  ${name}: the cell at (${x0}, ${y0}): web ${a}, desktop ${b}`);
    }
  }
  check(differing === 0, `${name}: ${differing} of ${cells.length} bank cells differ from the desktop's`);
  const menuBar = 20;
  let pixels = 0;
  for (let y = menuBar; y < size.height; ++y) {
    for (let x = 0; x < size.width; ++x) {
      if (colourDistance(image.at(x, y), desktop.image.at(x, y)) > 24) ++pixels;
    }
  }
  const share = pixels / (size.width * (size.height - menuBar));
  console.log(`  ${name}: ${(share * 100).toFixed(3)} % of the pixels below the menu bar differ from the desktop's`);
  check(share < 0.005, `${name}: the picture is the desktop's (${pixels} pixels differ)`);
}

// ---------------------------------------------------------------------------------------------
// The links, in two stages. First the links whose first frame is timed, one after another with
// nothing else of this test running (their pages are kept open, at rest, for the second stage):
// the bar is for a page that has the machine to itself, and the first link, which the browser
// opens cold, is the slowest. Then everything else at once, a few cases at a time: the cases
// wait on the page (frames, the pacer at rest, key taps, the desktop app's screenshots), not
// on the processor, so side by side they take about as long as the longest of them.
const FIRST_FRAME_MS = 2000;
const timings = [];

// Stage one for a link: the page loaded, its picture taken and its first frame checked.
async function openLink(link) {
  const { name, fragment, size = SIZE } = link;
  const context = await browser.createBrowserContext();
  const { page, problems } = await openPage(context, size);
  const web = await load(page, fragment);
  const image = await shoot(page, name);
  timings.push(`${name}: first frame at ${web.firstFrame.toFixed(0)} ms`);
  // The bar for every link, the first one (a fresh browser: nothing compiled or cached) included.
  check(web.firstFrame <= FIRST_FRAME_MS,
        `${name}: the first frame at ${web.firstFrame.toFixed(0)} ms, over ${FIRST_FRAME_MS} ms`);
  console.log(`${name} (#${fragment}): first frame at ${web.firstFrame.toFixed(0)} ms; ${web.summary.replace(/\n/g, " | ")}`);
  return { ...link, size, context, page, problems, web, image };
}

// Stage two for a link: what the page shows against banklab analyze and banklab-gui; then the
// link's further case on the same page (`afterwards`), if it has one.
async function checkLink({ name, analyze, gui, size, context, page, problems, web, image, afterwards }) {
  check(image.width === size.width && image.height === size.height,
        `${name}: a ${size.width}x${size.height} screenshot, got ${image.width}x${image.height}`);
  check(web.problem === "", `${name}: no problem line, got '${web.problem}'`);
  const expected = await Promise.all(analyze.map((args) => analyzeScenario(args)));
  const lines = web.summary.split("\n");
  check(lines.length === expected.length && expected.every((e, i) => agrees(lines[i], e)),
        `${name}: the page says '${web.summary}', banklab analyze ${JSON.stringify(expected)}`);
  if (gui) comparePicture(name, web, image, await desktopShot(name, gui, size), size);
  if (afterwards) await afterwards(page, web);
  check(problems.length === 0, `${name}: ${problems.join("; ")}`);
  await context.close();
}

// At rest the page builds nothing: frames come only when something asks for one (the pacer,
// app/gui/platform/frame_pacing.hpp), and a link's state does not animate.
async function atRestCase(page) {
  check(await atRest(page), "at rest: frames were still built a second after the page settled");
}

// Next in a lesson at step 6: the address follows to step 7, the page to its scenario. Then a
// fragment typed into the address bar opens without a reload.
async function nextCase(page, before) {
  const next = before.geometry.lesson_next;
  if (check(next, "the lesson panel reports its Next button")) {
    await page.mouse.click((next[0] + next[2]) / 2, (next[1] + next[3]) / 2);
    await settle(page);
    const after = await state(page);
    await shoot(page, "lesson-next");
    check(after.hash === "#lesson=transpose&step=7", `Next: the address is ${after.hash}, not step 7`);
    const expected = await analyzeScenario(lessonStepArgs("transpose", 7));
    check(agrees(after.summary, expected),
          `Next: step 7 is ${JSON.stringify(expected)}, the page says '${after.summary}'`);
  }
  await page.evaluate(() => { window.location.hash = "preset=fp32-pad1"; });
  await page.waitForFunction(() => document.getElementById("summary").textContent.includes("[32][33]"),
                             { timeout: 30000 });
  check((await state(page)).hash === "#preset=fp32-pad1", "a typed fragment opens its preset");
}

const decl = "__shared__ float tile[32][33];", expr = "v = tile[threadIdx.x][j]";
const LINKS = [
  { name: "preset", fragment: "preset=fp32-naive", analyze: [["--preset", "fp32-naive"]],
    gui: ["--preset", "fp32-naive"], afterwards: atRestCase },
  { name: "lesson", fragment: "lesson=transpose&step=6", analyze: [lessonStepArgs("transpose", 6)],
    gui: ["--lesson", "transpose", "--step", "6"], afterwards: nextCase },
  // A projector's size and theme: a lesson step at 1920x1080 in the light theme.
  { name: "lesson-light-1080", fragment: "lesson=transpose&step=3&theme=light",
    analyze: [lessonStepArgs("transpose", 3)],
    gui: ["--lesson", "transpose", "--step", "3", "--theme", "light"], size: LARGEST },
  { name: "compare", fragment: "compare=transpose",
    analyze: [["--preset", "fp32-row-write"], ["--preset", "fp32-naive"]], gui: ["--compare", "transpose"] },
  { name: "code", fragment: `decl=${encodeURIComponent(decl)}&expr=${encodeURIComponent(expr)}&let=j%3D0`,
    analyze: [["--decl", decl, "--expr", expr, "--let", "j=0"]], gui: ["--decl", decl, "--expr", expr, "--let", "j=0"] },
  // The Descriptor Lab's picture (an MN-major operand, SBO and LBO drawn), in its window and on a
  // slide: the figures are compiled in unity batches here, where a name one file means could
  // resolve to another file's (issue 36); the desktop's figures are the reference.
  { name: "descriptor", fragment: "lesson=descriptor&step=3", analyze: [lessonStepArgs("descriptor", 3)],
    gui: ["--lesson", "descriptor", "--step", "3"] },
  { name: "descriptor-slide", fragment: "lesson=descriptor&step=3&present=1",
    analyze: [lessonStepArgs("descriptor", 3)], gui: ["--lesson", "descriptor", "--step", "3", "--present"] },
];

// A case of the second stage: a page in a context of its own, its problems checked and the
// context closed at the end. body(page) does the rest.
function pageCase(name, size, body) {
  return [name, async () => {
    const context = await browser.createBrowserContext();
    const { page, problems } = await openPage(context, size);
    await body(page);
    check(problems.length === 0, `${name}: ${problems.join("; ")}`);
    await context.close();
  }];
}

// Malformed links: the default start (the default lesson, in a fresh profile) and one line
// saying what was wrong, naming it. The default start is loaded once, by the first case that
// asks for it.
let defaultStartLoaded;
function defaultStart() {
  defaultStartLoaded ??= (async () => {
    const context = await browser.createBrowserContext();
    const { page } = await openPage(context);
    const s = await load(page, "");
    await context.close();
    return s;
  })();
  return defaultStartLoaded;
}
const malformedCases = [
  ["bad-preset", "preset=fp128-naive", "fp128-naive"],
  ["bad-step", "lesson=transpose&step=99", "99"],
  ["bad-escape", "dtype=bf16&pad=%zz&index=3", "%zz"],
  // '-' is a name like any other in a link, never standard input (which the page would read
  // with window.prompt); a benchmark's frame count is not a link's (issue 36).
  ["dash-compare", "compare=fp32-naive,-", "'-'"],
  ["bench-frames", "preset=fp32-naive&bench-frames=100000", "bench-frames"],
].map(([name, fragment, named]) => pageCase(name, SIZE, async (page) => {
  const web = await load(page, fragment);
  await shoot(page, name);
  console.log(`${name} (#${fragment}): ${web.problem}`);
  check(web.problem.startsWith("This link could not be opened:") && web.problem.includes(named) &&
        !web.problem.includes("\n"), `${name}: one line naming '${named}', got '${web.problem}'`);
  const start = await defaultStart();
  check(web.summary === start.summary, `${name}: the default start ('${start.summary}'), got '${web.summary}'`);
}));

// Code that does not evaluate: the page says why on its problem line and in its summary, and
// the address keeps the code (issue 36: it fell back to fp32-naive and rewrote the address).
const codeCases = [
  ["code-undefined-name", "decl=__shared__%20float%20t%5B32%5D%5B33%5D%3B&expr=t%5BthreadIdx.x%5D%5Bk%5D",
   "k is not defined", "__shared__ float t[32][33];\nt[threadIdx.x][k]"],
  ["code-outside-array", `decl=${encodeURIComponent(decl)}&expr=${encodeURIComponent(expr)}` +
   "&let=j%3D0&block=1024x1x1&warp=all", "outside tile's first dimension", `${decl}\n${expr}`],
].map(([name, fragment, why, code]) => pageCase(name, SIZE, async (page) => {
  const web = await load(page, fragment);
  await shoot(page, name);
  console.log(`${name} (#${fragment}): ${web.problem} | address ${web.hash}`);
  check(web.problem.startsWith("This link's code does not evaluate: ") && web.problem.includes(why) &&
        !web.problem.includes("\n"), `${name}: one line saying '${why}', got '${web.problem}'`);
  check(web.summary.startsWith("The code does not evaluate: "),
        `${name}: the summary says the code does not evaluate, got '${web.summary}'`);
  const kept = new URLSearchParams(web.hash.slice(1)).get("code");
  check(kept === code && !web.hash.includes("preset="), `${name}: the address keeps the code, got ${web.hash}`);
}));

// Virtual time, as test harnesses and print previews run pages: frames may share a timestamp,
// which ImGui refuses ("Need a positive DeltaTime!") unless the app keeps its clock moving
// (issue 36: every link aborted). Chromium's own --virtual-time-budget, the page's DOM dumped
// when the budget is spent: the app drew (a summary) and did not stop (no problem line).
const virtualTimeCase = ["virtual time", async () => {
  const chromium = process.env.BANKLAB_CHROMIUM ?? "/usr/bin/chromium";
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "banklab-virtual-time-"));
  const { stdout } = await run(chromium, [
    "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--no-first-run", `--user-data-dir=${profile}`, "--virtual-time-budget=15000",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--dump-dom",
    `${origin}/#preset=fp32-naive`], { maxBuffer: 1 << 24, timeout: 120000 });
  fs.rmSync(profile, { recursive: true, force: true });
  const summary = stdout.match(/<p id="summary"[^>]*>([^<]*)</)?.[1] ?? "";
  const problem = stdout.match(/<p id="problem"([^>]*)>([^<]*)</);
  console.log(`virtual time: summary '${summary}', problem line ${problem?.[1].includes("hidden") ? "hidden" : `'${problem?.[2]}'`}`);
  check(agrees(summary, await analyzeScenario(["--preset", "fp32-naive"])),
        `virtual time: the page drew fp32-naive, its summary is '${summary}'`);
  check(problem && problem[1].includes("hidden"), `virtual time: the page stopped: '${problem?.[2]}'`);
}];

// PageDown taps, each a press and a release sent over CDP (Input.dispatchKeyEvent) without
// waiting between them, as a clicker sends them: often before the next animation frame.
async function pageDownTaps(page, count) {
  const cdp = await page.createCDPSession();
  const key = { key: "PageDown", code: "PageDown", windowsVirtualKeyCode: 34, nativeVirtualKeyCode: 34 };
  const taps = [];
  for (let i = 0; i < count; ++i) {
    taps.push(cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...key }));
    taps.push(cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...key }));
  }
  await Promise.all(taps);
}

// The lesson's address reaches `step` (30 s at most), and the page settles there.
async function reachesStep(page, step) {
  const hash = `#lesson=transpose&step=${step}`;
  const moved = await page.waitForFunction((h) => window.location.hash === h, { timeout: 30000 }, hash)
    .then(() => true, () => false);
  await settle(page);
  const after = await state(page);
  return { ok: moved && after.hash === hash, hash: after.hash };
}

// Every key tap counts (issue 33): five taps must move the lesson five steps; with ImGui's own
// key handling a press released before the frame was never seen.
const keyTapsCase = pageCase("key taps", SIZE, async (page) => {
  await load(page, "lesson=transpose&step=1");
  await pageDownTaps(page, 5);
  const after = await reachesStep(page, 6);
  check(after.ok, `five PageDown taps from step 1: step 6, the address is ${after.hash}`);
});

// The first keys after launch count too (issue 33: twice the first F5 or D was ignored; the
// first frames are the slowest): three PageDown taps sent the moment the page has drawn its
// first frame, before it settles, move step 1 to step 4.
const firstKeysCase = pageCase("first keys", SIZE, async (page) => {
  await page.goto(`${origin}/#lesson=transpose&step=1`);
  await waitForFrames(page, 1);
  await pageDownTaps(page, 3);
  const after = await reachesStep(page, 4);
  check(after.ok, `three PageDown taps at the first frame: step 4, the address is ${after.hash}`);
});

// Settings in local storage: the theme and the lesson chosen come back without a link.
const settingsCase = pageCase("settings", SIZE, async (page) => {
  await load(page, "preset=bf16-pad1-odd&theme=light");
  await settle(page);
  await page.goto(`${origin}/`);
  await waitForFrames(page, 1);
  await settle(page);
  const again = await state(page);
  check(again.hash === "#preset=bf16-pad1-odd&theme=light",
        `the stored settings reopen the last lesson in the light theme, got ${again.hash}`);
});

// A phone (390x844, issue 33): `#lesson=transpose&step=3` laid the desktop's columns into 390
// px (the Code window over Controls, bank digits of 3 px). The page goes to one column: every
// window inside the screen and across its width, none over another, and the bank view's and
// the lane map's numbers at 11 px or more (scrolled to, where the column is narrower).
const PHONE = { width: 390, height: 844 };
const phoneCase = pageCase("phone", PHONE, async (page) => {
  const phone = await load(page, "lesson=transpose&step=3");
  await shoot(page, "phone-lesson-step-3");
  const windows = phone.geometry.windows ?? [];
  check(windows.length === 3, `phone: the lesson, bank view and lane map in one column, got ${
        windows.map((w) => w.name).join(", ")}`);
  for (const [i, w] of windows.entries()) {
    const [x0, y0, x1, y1] = w.box;
    check(x0 >= 0 && y0 >= 0 && x1 <= PHONE.width && y1 <= PHONE.height && x1 - x0 === PHONE.width,
          `phone: ${w.name} across the screen and inside it, at ${w.box}`);
    for (const v of windows.slice(i + 1)) {
      const [u0, v0, u1, v1] = v.box;
      check(!(x0 < u1 && u0 < x1 && y0 < v1 && v0 < y1), `phone: ${w.name} over ${v.name}`);
    }
  }
  const numbers = phone.geometry.labels.filter((l) =>
    ["bank_label", "cell_label", "lane_label"].includes(l.role));
  const smallest = Math.min(...numbers.map((l) => l.size));
  check(numbers.length >= 96 && smallest >= 11,
        `phone: ${numbers.length} bank, cell and lane numbers, the smallest ${smallest} px (11 at least)`);
});

// The same step in presentation mode on a phone (issue 33): the slide laid out for 390 px drew
// its legends over the figures, its bank numbers at 4 px, and "Step 3 of 22" beside a track
// line. From the labels the page reports: each inside the screen, none over another, the
// figures' numbers and words at the hand-held digit minimum (11 px), the text at its body (14)
// and the verdict in its title type (20); the step the link names.
const phoneSlideCase = pageCase("phone slide", PHONE, async (page) => {
  const HANDHELD = { digits: 11, body: 14, title: 20 };
  const slide = await load(page, "lesson=transpose&step=3&present=1");
  await shoot(page, "phone-present-step-3");
  const labels = slide.geometry.labels;
  const stepLine = labels.find((l) => /^Step \d+ of \d+$/.test(l.text));
  check(stepLine?.text.startsWith("Step 3 of "), `phone slide: the step line '${stepLine?.text}'`);
  check(labels.some((l) => l.role === "verdict") && labels.some((l) => l.role === "lane_label"),
        `phone slide: a verdict and a figure's lane numbers (${labels.length} labels)`);
  const least = (l) => l.role === "verdict" ? HANDHELD.title
                     : l.role === "text" ? HANDHELD.body : HANDHELD.digits;
  for (const [i, l] of labels.entries()) {
    const [x0, y0, x1, y1] = l.box;
    check(l.size >= least(l), `phone slide: '${l.text}' (${l.role}) at ${l.size} px, under ${least(l)}`);
    check(x0 >= -0.5 && y0 >= -0.5 && x1 <= PHONE.width + 0.5 && y1 <= PHONE.height + 0.5,
          `phone slide: '${l.text}' (${l.role}) outside the screen at ${l.box}`);
    for (const m of labels.slice(i + 1)) {
      const [u0, v0, u1, v1] = m.box;
      check(!(x0 < u1 - 1.5 && u0 < x1 - 1.5 && y0 < v1 - 1.5 && v0 < y1 - 1.5),
            `phone slide: '${l.text}' (${l.role}) over '${m.text}' (${m.role})`);
    }
  }
});

// Runs the cases, `width` at a time; a case that throws (a timeout, say) is a failure that
// names it, and the others still run.
async function runCases(cases, width) {
  const queue = [...cases];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, body] = next;
      await body().catch((e) => check(false, `${name}: ${e.stack ?? e}`));
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

const opened = [];
for (const link of LINKS) opened.push(await openLink(link));
// Four at a time: on 2 cores the pages mostly wait for frames, and four kept both cores busy
// without slowing any case towards its timeouts (docs/testing.md, "The browser edition").
await runCases([
  virtualTimeCase,
  ...opened.map((link) => [link.name, () => checkLink(link)]),
  keyTapsCase, firstKeysCase, settingsCase, phoneCase, phoneSlideCase,
  ...malformedCases, ...codeCases,
], 4);

await browser.close();
closeServer();
console.log(timings.join("\n"));
console.log(failures() ? `tests/web: ${failures()} failure(s)` : "tests/web: every check passed");
process.exit(failures() ? 1 : 0);
