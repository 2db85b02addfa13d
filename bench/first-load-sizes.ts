// What the built web app (apps/web/dist) sends: the first load (index.html's script, its static imports
// and styles) and what each lazily loaded screen adds, as the server serves them (the .br/.gz copies
// written at build time, or the plain file where none was worth writing).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

export type Encoded = { raw: number; br: number; gzip: number };
export type ChunkSet = { files: string[]; js: Encoded; css: Encoded };
export type RouteChunks = { screen: string; src: string } & ChunkSet;
export type BuildSizes = { firstLoad: ChunkSet; routes: RouteChunks[] };

const zero = (): Encoded => ({ raw: 0, br: 0, gzip: 0 });

export function encodedSize(distDir: string, file: string): Encoded {
  const full = path.join(distDir, file);
  const raw = statSync(full).size;
  const sibling = (suffix: string) => (existsSync(full + suffix) ? statSync(full + suffix).size : raw);
  return { raw, br: sibling(".br"), gzip: sibling(".gz") };
}

function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, ".vite/manifest.json");
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}

/** The chunk and everything it imports statically (what the browser fetches before it runs). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

function sizeOf(distDir: string, manifest: Manifest, keys: Iterable<string>, exclude: Set<string>): ChunkSet {
  const set: ChunkSet = { files: [], js: zero(), css: zero() };
  const add = (target: Encoded, file: string) => {
    const size = encodedSize(distDir, file);
    target.raw += size.raw;
    target.br += size.br;
    target.gzip += size.gzip;
  };
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) continue;
    for (const file of [chunk.file, ...(chunk.css ?? [])]) {
      if (exclude.has(file) || set.files.includes(file)) continue;
      set.files.push(file);
      add(file.endsWith(".css") ? set.css : set.js, file);
    }
  }
  return set;
}

export function measureBuild(distDir: string): BuildSizes {
  const manifest = readManifest(distDir);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error("The manifest names no entry chunk.");
  const firstLoad = sizeOf(distDir, manifest, closure(manifest, entryKey), new Set());
  const loaded = new Set(firstLoad.files);
  const routes = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isDynamicEntry)
    .map(([key, chunk]) => ({
      screen: path.basename(chunk.src ?? key).replace(/\.[jt]sx?$/, ""),
      src: chunk.src ?? key,
      ...sizeOf(distDir, manifest, closure(manifest, key), loaded),
    }))
    .sort((a, b) => b.js.br - a.js.br);
  return { firstLoad, routes };
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
