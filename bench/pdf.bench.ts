// One-off statement PDFs, as statement emails, single downloads and previews draw them: our pdfkit
// renderer called once per statement (in this thread, fonts parsed once), against headless
// Chromium's printToPDF of the same statement's HTML (one tab, as peers that print HTML do), in the
// same run; then the ratio. A CPU profile of our one-off statements after the first checks that no
// font metrics are parsed again (pdfkit's AFM parser and its file reads).
// Then, when the server is built, the statement and invoice PDF routes over HTTP on PostgreSQL
// (pdf-requests.ts; BENCH_DATABASE_URL, default the local test server; --no-requests skips them).
// Usage: npm run bench:pdf [-- --count 2000 --chromium-count 200 --no-requests]
// Targets: one statement ≤ 5 ms of CPU, ≥ 200 a second per core, ≥ 10× Chromium's rate; each PDF
// route ≥ 150 requests a second.
import { existsSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { renderStatementsPdf } from "../apps/server/src/modules/statements/statement-page.pdf.js";
import { sampleStatement } from "../apps/server/src/test-support/sample-statement.js";
import { launchBrowser } from "../e2e/support/browser.js";
import { REPO_ROOT } from "../e2e/support/server.js";
import { measurePdfRequests } from "./pdf-requests.js";
import { statementHtml } from "./statement-html.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "2000" },
    "chromium-count": { type: "string", default: "200" },
    "no-requests": { type: "boolean", default: false },
  },
});
const COUNT = Number(values.count);
const CHROMIUM_COUNT = Number(values["chromium-count"]);
const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(2))
    .join(" ");

type ProfileNode = { id: number; callFrame: { functionName: string; url: string } };

/** Our renderer, one statement per document: rate, CPU per statement, and font-parsing samples. */
async function ours(): Promise<{ perSecond: number; cpuMs: number; fontSamples: number; samples: number }> {
  // The first document parses the fonts (once per thread); every later one must not.
  await renderStatementsPdf("Statement 1", [sampleStatement(1)]);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let n = 0; n < COUNT; n++) await renderStatementsPdf(`Statement ${n}`, [sampleStatement(1000 + n)]);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  // Profiled apart: the profiler's own cost stays out of the figures above.
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  for (let n = 0; n < Math.min(COUNT, 500); n++)
    await renderStatementsPdf(`Statement ${n}`, [sampleStatement(5000 + n)]);
  const { profile } = (await session.post("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; samples: number[] };
  };
  session.disconnect();
  // pdfkit's AFMFont constructor and parse, and the .afm reads its StandardFont does.
  const fontNodes = new Set(
    profile.nodes
      .filter(
        ({ callFrame }) =>
          (callFrame.url.includes("pdfkit") &&
            ["AFMFont", "parse", "StandardFont"].includes(callFrame.functionName)) ||
          callFrame.functionName === "readFileSync",
      )
      .map((node) => node.id),
  );
  return {
    perSecond: COUNT / seconds,
    cpuMs: (used.user + used.system) / 1000 / COUNT,
    fontSamples: profile.samples.filter((id) => fontNodes.has(id)).length,
    samples: profile.samples.length,
  };
}

/** Chromium's printToPDF of the same statement's HTML, one after another in one tab. */
async function chromium(): Promise<number> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent(statementHtml(sampleStatement(1)));
    await page.pdf({ format: "Letter", printBackground: true });
    const started = performance.now();
    for (let n = 0; n < CHROMIUM_COUNT; n++) {
      await page.setContent(statementHtml(sampleStatement(1000 + n)));
      await page.pdf({ format: "Letter", printBackground: true });
    }
    return CHROMIUM_COUNT / ((performance.now() - started) / 1000);
  } finally {
    await browser.close();
  }
}

console.log(`load average before: ${load()}`);
const mine = await ours();
console.log(
  `ours (pdfkit, one statement per PDF): ${COUNT} in this thread, ${mine.perSecond.toFixed(0)} statements/s, ` +
    `${mine.cpuMs.toFixed(2)} ms CPU each (${(1000 / mine.cpuMs).toFixed(0)}/s per core); ` +
    `font parsing after the first document: ${mine.fontSamples} of ${mine.samples} profile samples`,
);
const theirs = await chromium();
console.log(
  `headless Chromium printToPDF of the same statement's HTML: ${CHROMIUM_COUNT}, ${theirs.toFixed(1)} statements/s`,
);
console.log(`ratio: ours ${(mine.perSecond / theirs).toFixed(1)}× Chromium's (load average ${load()})`);

if (values["no-requests"]) process.exit(0);
if (!existsSync(`${REPO_ROOT}/apps/server/dist/main.js`)) {
  console.log("PDF routes over HTTP: not measured (run `npm run build` first)");
} else {
  console.log(`PDF routes over HTTP on PostgreSQL, demo data (load average ${load()}):`);
  await measurePdfRequests(process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test");
}
