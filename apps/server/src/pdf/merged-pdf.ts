/**
 * One PDF written front to back from PDFs drawn elsewhere (each batch of a pool's statements is a
 * small PDF of its own, drawn by whichever worker thread was free). Each part's pages and what they
 * use (contents, fonts, links) are copied in order with their objects renumbered; the part's own
 * catalog, page tree and info are left behind. What stays in memory is one offset per object and
 * one number per page, so a pool of any size streams to its file (or zip) as it is drawn.
 *
 * It reads the PDFs pdfkit writes: a classic cross-reference table, objects "n 0 obj … endobj",
 * streams with a direct /Length. Stream bytes are copied untouched; references are rewritten only
 * in the dictionaries around them.
 */

const REFERENCE = /(\d+) 0 R\b/g;

type PartObject = { number: number; start: number; end: number };

/** The objects of one PDF by the cross-reference table it ends with. */
function objectsOf(pdf: Buffer): { objects: PartObject[]; root: number } {
  const tail = pdf.subarray(Math.max(0, pdf.length - 1024)).toString("latin1");
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!startxref) throw new Error("not a PDF: no startxref");
  const xrefAt = Number(startxref[1]);
  const xref = pdf.subarray(xrefAt).toString("latin1");
  const header = /^xref\s+0 (\d+)\s+/.exec(xref);
  if (!header) throw new Error("not a PDF with a classic cross-reference table");
  const count = Number(header[1]);
  const entries = xref.slice(header[0].length);
  const located: { number: number; start: number }[] = [];
  for (let number = 1; number < count; number++) {
    const entry = entries.slice(number * 20, number * 20 + 18);
    if (entry.endsWith(" n")) located.push({ number, start: Number(entry.slice(0, 10)) });
  }
  located.sort((a, b) => a.start - b.start);
  const objects = located.map((object, index) => ({
    ...object,
    end: located[index + 1]?.start ?? xrefAt,
  }));
  const root = /\/Root (\d+) 0 R/.exec(xref);
  if (!root) throw new Error("not a PDF: no /Root");
  return { objects, root: Number(root[1]) };
}

/** An object split into its dictionary text (before any stream) and its stream bytes. */
function splitObject(pdf: Buffer, object: PartObject): { head: string; stream: Buffer | null } {
  const bytes = pdf.subarray(object.start, object.end);
  const streamAt = bytes.indexOf(">>\nstream\n");
  if (streamAt < 0) {
    const text = bytes.toString("latin1");
    return { head: text.slice(0, text.lastIndexOf("endobj")), stream: null };
  }
  const head = bytes.subarray(0, streamAt + 2).toString("latin1");
  const length = /\/Length (\d+)/.exec(head);
  if (!length) throw new Error(`PDF object ${object.number}: a stream without a direct /Length`);
  const from = streamAt + ">>\nstream\n".length;
  return { head, stream: bytes.subarray(from, from + Number(length[1])) };
}

/** Where pages go: a sink that takes bytes in order (a file, a zip entry). */
export type PdfSink = (bytes: Uint8Array) => Promise<void>;

export class MergedPdf {
  private readonly offsets: number[] = [];
  private readonly pages: number[] = [];
  private written = 0;
  private nextNumber = 3;
  /** Object 1 is the page tree, 2 the catalog; they are written last, when every page is known. */
  private static readonly PAGES = 1;
  private static readonly CATALOG = 2;

  constructor(
    private readonly sink: PdfSink,
    private readonly title: string,
  ) {}

  private async put(text: string | Uint8Array): Promise<void> {
    const bytes = typeof text === "string" ? Buffer.from(text, "latin1") : text;
    this.written += bytes.length;
    await this.sink(bytes);
  }

  async start(): Promise<void> {
    await this.put("%PDF-1.3\n%\xff\xff\xff\xff\n");
  }

  /** Appends every page of `part` (a whole PDF) after those already written. */
  async append(part: Uint8Array): Promise<void> {
    const pdf = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    const { objects, root } = objectsOf(pdf);
    const byNumber = new Map(objects.map((object) => [object.number, splitObject(pdf, object)]));
    const refs = (number: number) =>
      [...(byNumber.get(number)?.head ?? "").matchAll(REFERENCE)].map((match) => Number(match[1]));
    const pagesRef = /\/Pages (\d+) 0 R/.exec(byNumber.get(root)?.head ?? "");
    const kids = /\/Kids \[([^\]]*)\]/.exec(byNumber.get(Number(pagesRef?.[1]))?.head ?? "");
    if (!pagesRef || !kids) throw new Error("a PDF part without a page tree");
    const partPages = [...kids[1]!.matchAll(REFERENCE)].map((match) => Number(match[1]));
    const partTree = Number(pagesRef[1]);
    // What the pages use, found by following references (a page's /Parent is the part's tree).
    const renumber = new Map<number, number>();
    const queue = [...partPages];
    while (queue.length > 0) {
      const number = queue.shift() as number;
      if (renumber.has(number) || number === partTree) continue;
      renumber.set(number, this.nextNumber++);
      queue.push(...refs(number));
    }
    for (const page of partPages) this.pages.push(renumber.get(page) as number);
    for (const object of objects) {
      const target = renumber.get(object.number);
      if (target === undefined) continue;
      const split = byNumber.get(object.number) as { head: string; stream: Buffer | null };
      const head = split.head
        .replace(/^\d+ 0 obj/, `${target} 0 obj`)
        .replace(REFERENCE, (_, number: string) => {
          const n = Number(number);
          return `${n === partTree ? MergedPdf.PAGES : (renumber.get(n) ?? 0)} 0 R`;
        });
      this.offsets[target] = this.written;
      if (split.stream) {
        await this.put(head + "\nstream\n");
        await this.put(split.stream);
        await this.put("\nendstream\nendobj\n");
      } else await this.put(`${head.trimEnd()}\nendobj\n`);
    }
  }

  /** Writes the page tree, catalog, info and cross-reference table; returns the page count. */
  async finish(): Promise<number> {
    const object = async (number: number, body: string) => {
      this.offsets[number] = this.written;
      await this.put(`${number} 0 obj\n${body}\nendobj\n`);
    };
    const kids = this.pages.map((page) => `${page} 0 R`).join(" ");
    await object(MergedPdf.PAGES, `<<\n/Type /Pages\n/Count ${this.pages.length}\n/Kids [${kids}]\n>>`);
    await object(MergedPdf.CATALOG, `<<\n/Type /Catalog\n/Pages ${MergedPdf.PAGES} 0 R\n>>`);
    const info = this.nextNumber++;
    const title = this.title.replace(/[\\()]/g, (char) => `\\${char}`);
    await object(info, `<<\n/Title (${title})\n/Creator (Cyclebill)\n/Producer (Cyclebill)\n>>`);
    const xrefAt = this.written;
    const lines = [`xref\n0 ${this.nextNumber}\n`, "0000000000 65535 f \n"];
    for (let number = 1; number < this.nextNumber; number++)
      lines.push(
        this.offsets[number] === undefined
          ? "0000000000 65535 f \n"
          : `${String(this.offsets[number]).padStart(10, "0")} 00000 n \n`,
      );
    // Written in slices: a pool's table runs to megabytes.
    for (let from = 0; from < lines.length; from += 10_000)
      await this.put(lines.slice(from, from + 10_000).join(""));
    await this.put(
      `trailer\n<<\n/Size ${this.nextNumber}\n/Root ${MergedPdf.CATALOG} 0 R\n/Info ${info} 0 R\n>>\nstartxref\n${xrefAt}\n%%EOF\n`,
    );
    return this.pages.length;
  }
}
