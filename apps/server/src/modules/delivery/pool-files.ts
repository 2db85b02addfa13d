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

/** The finished zip under the pool's name, once its build is known to still own the pool. */
export function publishPoolZip(files: PoolFiles): void {
  renameSync(files.zipPart, files.zip);
}

export function removeWorkFiles(files: PoolFiles): void {
  for (const file of [files.pdfPart, files.manifestPart, files.zipPart]) rmSync(file, { force: true });
}

/** A pool's zip being written: its merged PDF streams in as it is drawn, the manifest follows. */
export type PoolZip = {
  /** Appends bytes to the zip's PDF (stored: its pages are already compressed). */
  pdf: (bytes: Uint8Array) => Promise<void>;
  /** Adds the manifest (deflated) from its work file and renames the zip into place; returns its size. */
  finish: () => Promise<number>;
  /** Stops writing (the work files are removed by removeWorkFiles). */
  abort: () => void;
};

/**
 * Starts the pool's zip: the PDF is never written to a file of its own, and a download never sees
 * a half-written zip (it is renamed into place when finished).
 */
export function openPoolZip(files: PoolFiles, name: string): PoolZip {
  const out = createWriteStream(files.zipPart);
  let failure: Error | null = null;
  out.on("error", (error) => (failure = error));
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
  const pdf = new ZipPassThrough(`${name}.pdf`);
  zip.add(pdf);
  return {
    pdf: async (bytes) => {
      pdf.push(bytes);
      await drain();
    },
    finish: async () => {
      pdf.push(new Uint8Array(0), true);
      await drain();
      const manifest = new ZipDeflate(`${name}-manifest.csv`, { level: 6 });
      zip.add(manifest);
      for await (const chunk of createReadStream(files.manifestPart, { highWaterMark: 1 << 20 })) {
        manifest.push(chunk as Buffer);
        await drain();
      }
      manifest.push(new Uint8Array(0), true);
      zip.end();
      await drain();
      out.end();
      await once(out, "finish");
      rmSync(files.manifestPart, { force: true });
      // Published (renamed to the pool's name) only by the build that still owns the pool: publishPoolZip.
      return statSync(files.zipPart).size;
    },
    abort: () => {
      zip.terminate();
      out.destroy();
    },
  };
}
