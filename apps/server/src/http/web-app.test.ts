import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test-support/test-app.js";

// A stand-in for `apps/web/dist`: index.html, a hashed script with its precompressed siblings.
const INDEX_HTML = `<!doctype html><html><head><title>Cyclebill</title><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = `console.log(${JSON.stringify("cyclebill ".repeat(200))});\n`;
const SCRIPT_PATH = "/assets/index-AbC123.js";
const IMMUTABLE = "public, max-age=31536000, immutable";

let distDir: string;
let testApp: TestApp;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), "cyclebill-web-dist-"));
  await mkdir(path.join(distDir, "assets"));
  await writeFile(path.join(distDir, "index.html"), INDEX_HTML);
  await writeFile(path.join(distDir, "assets/index-AbC123.js"), SCRIPT);
  await writeFile(path.join(distDir, "assets/index-AbC123.js.br"), brotliCompressSync(SCRIPT));
  await writeFile(path.join(distDir, "assets/index-AbC123.js.gz"), gzipSync(SCRIPT));
  testApp = await startTestApp({ webDistDir: distDir });
});
afterAll(async () => {
  await testApp?.close();
  await rm(distDir, { recursive: true, force: true });
});

function get(url: string, acceptEncoding?: string) {
  return testApp.app.inject({
    method: "GET",
    url,
    headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
  });
}

describe("hashed build assets", () => {
  it("come brotli-compressed to a client that accepts br, cached for a year as immutable", async () => {
    const response = await get(SCRIPT_PATH, "gzip, deflate, br, zstd");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers["cache-control"]).toBe(IMMUTABLE);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString("utf8")).toBe(SCRIPT);
  });

  it("come gzip-compressed to a client that accepts gzip only", async () => {
    const response = await get(SCRIPT_PATH, "gzip");
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.headers["cache-control"]).toBe(IMMUTABLE);
    expect(gunzipSync(response.rawPayload).toString("utf8")).toBe(SCRIPT);
  });

  it("come as they are to a client that accepts no encoding", async () => {
    const response = await get(SCRIPT_PATH);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe(IMMUTABLE);
    expect(response.body).toBe(SCRIPT);
  });

  it("answer 404 when missing (a stale page asking for an old build's script), not the app's HTML", async () => {
    const response = await get("/assets/index-OldHash.js", "br");
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    expect(response.headers["cache-control"]).not.toBe(IMMUTABLE);
  });
});

describe("index.html", () => {
  it.each(["/", "/home", "/customers/edit/12?client_id=3", "/index.html"])(
    "is served for %s with the time zone injected, and never cached",
    async (url) => {
      const response = await get(url, "gzip, deflate, br");
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.headers["cache-control"]).toBe("no-cache");
      expect(response.body).toContain('<meta name="billing-time-zone"');
      expect(response.body).toContain(SCRIPT_PATH);
    },
  );
});
