import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { poolZipName } from "@cyclebill/domain";

export type PoolFiles = { zip: string; pdfPart: string; manifestPart: string; zipPart: string };

/**
 * Where a pool's files live: DATA_DIR/pools (shared by every process of one machine). Work files
 * carry the build's id, so a build and the retry that superseded it never write the same file.
 */
export function poolFiles(dataDir: string, name: string, builder = ""): PoolFiles {
  const dir = path.join(dataDir, "pools");
  const work = path.join(dir, `${name}${builder ? `.${builder}` : ""}`);
  return {
    zip: path.join(dir, poolZipName(name)),
    pdfPart: `${work}.pdf.part`,
    manifestPart: `${work}.csv.part`,
    zipPart: `${work}.zip.part`,
  };
}

export function ensurePoolDir(dataDir: string): void {
  mkdirSync(path.join(dataDir, "pools"), { recursive: true });
}

/** Removes the pool's zip and every work file any build of it left (a crash leaves some). */
export function removePoolFiles(dataDir: string, name: string): void {
  const dir = path.join(dataDir, "pools");
  rmSync(path.join(dir, poolZipName(name)), { force: true });
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir))
    if (file.startsWith(`${name}.`) && file.endsWith(".part")) rmSync(path.join(dir, file), { force: true });
}

export function removeWorkFiles(files: PoolFiles): void {
  for (const file of [files.pdfPart, files.manifestPart, files.zipPart]) rmSync(file, { force: true });
}

/**
 * Zips the pool's merged PDF (stored: its pages are already compressed) and its manifest
 * (deflated), streaming both from disk, then renames the zip into place: a download never sees a
 * half-written zip. Returns the zip's size.
 */
export async function zipPool(files: PoolFiles, name: string): Promise<number> {
  const out = createWriteStream(files.zipPart);
  let failure: Error | null = null;
  const pending: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else pending.push(data);
  });
  const drain = async () => {
    while (pending.length > 0) {
      const chunk = pending.shift() as Uint8Array;
      if (!out.write(chunk)) await once(out, "drain");
    }
    if (failure) throw failure;
  };
  const addFile = async (entry: ZipPassThrough | ZipDeflate, source: string) => {
    zip.add(entry);
    for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) {
      entry.push(chunk as Buffer);
      await drain();
    }
    entry.push(new Uint8Array(0), true);
    await drain();
  };
  await addFile(new ZipPassThrough(`${name}.pdf`), files.pdfPart);
  await addFile(new ZipDeflate(`${name}-manifest.csv`, { level: 6 }), files.manifestPart);
  zip.end();
  await drain();
  out.end();
  await once(out, "finish");
  renameSync(files.zipPart, files.zip);
  rmSync(files.pdfPart, { force: true });
  rmSync(files.manifestPart, { force: true });
  return statSync(files.zip).size;
}
