#!/usr/bin/env node
// Writes a brotli (.br) and a gzip (.gz) copy next to each compressible file of the build, so the
// server sends them as they are instead of compressing on every request (see apps/server/src/http/web-app.ts).
// index.html is left alone: the server reads it once and serves it from memory.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|wasm)$/;
// Tiny files gain nothing worth a second request path.
const MIN_BYTES = 512;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const distDir = process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url));

const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
const files = entries
  .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
  .map((entry) => path.join(entry.parentPath, entry.name));

let written = 0;
await Promise.all(
  files.map(async (file) => {
    const content = await readFile(file);
    if (content.length < MIN_BYTES) return;
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    // A copy that is not smaller is not worth sending; the server falls back to the plain file.
    if (br.length < content.length) await writeFile(`${file}.br`, br);
    if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
    written += 1;
  }),
);
console.log(
  `precompress: ${written} of ${files.length} files in ${path.relative(process.cwd(), distDir) || "."} (br, gz)`,
);
