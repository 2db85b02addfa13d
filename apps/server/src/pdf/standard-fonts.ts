import PDFDocument from "pdfkit";

/**
 * pdfkit reads and parses a standard font's AFM metrics file (about 3,000 lines) for every
 * document that uses the font: its StandardFont constructor does it, and its cache of fonts lives
 * on the document. A one-off statement spent most of its CPU there. Here each standard font we
 * draw with is parsed once per thread (or process) and every new document gets its own font
 * object around the same parsed metrics: the metrics are read-only after parsing, and the font
 * object keeps what is per document (its id and its PDF dictionary). This uses pdfkit's private
 * fields; `standard-fonts.test.ts` pins the behaviour, so a pdfkit upgrade that changes them fails
 * there, not in a customer's PDF.
 */

/** The fonts our documents draw with: Helvetica and its weights (PDF's built-in sans serif). */
export const PREPARED_FONTS = ["Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"];

type Metrics = {
  ascender: number;
  descender: number;
  bbox: number[];
  lineGap: number;
  xHeight: number;
  capHeight: number;
};

/** pdfkit's parsed AFM metrics: kerning pairs keyed "left\0right" (a string built per glyph pair). */
type Afm = Metrics & {
  kernPairs: Record<string, number>;
  getKernPair: (left: string, right: string) => number;
};

/**
 * Kerning looked up by glyph, then by the glyph after it, without building a key string for every
 * pair of every line of text: pdfkit's own lookup was the largest single cost of drawing a
 * statement (about 15% of its CPU, plus the garbage). Same pairs, same widths.
 */
function fastKerning(afm: Afm): void {
  const byLeft = new Map<string, Map<string, number>>();
  for (const [key, value] of Object.entries(afm.kernPairs)) {
    const [left = "", right = ""] = key.split("\0");
    let rights = byLeft.get(left);
    if (!rights) byLeft.set(left, (rights = new Map()));
    rights.set(right, value);
  }
  afm.getKernPair = (left, right) => byLeft.get(left)?.get(right) ?? 0;
}

/** The parts of pdfkit's StandardFont that are the same for every document. */
type PreparedFont = { prototype: object; afm: Afm };

/** What pdfkit keeps per document about fonts (private fields, see above). */
type FontState = {
  _fontFamilies: Record<string, unknown>;
  _fontCount: number;
  _font: (Metrics & { font: Afm }) | null;
};

const prepared = new Map<string, PreparedFont>();

/** Parses a standard font once: the one time pdfkit's own StandardFont constructor runs for it. */
function prepare(name: string): PreparedFont {
  const known = prepared.get(name);
  if (known) return known;
  const scratch = new PDFDocument({ autoFirstPage: false, font: name });
  const font = (scratch as unknown as FontState)._font;
  if (!font?.font) throw new Error(`pdfkit did not load the standard font ${name}`);
  fastKerning(font.font);
  const made = { prototype: Object.getPrototypeOf(font) as object, afm: font.font };
  prepared.set(name, made);
  return made;
}

/** Gives `doc` each prepared font, so `doc.font(name)` finds it instead of parsing it. */
function installFonts(doc: PDFKit.PDFDocument): void {
  const state = doc as unknown as FontState;
  for (const name of PREPARED_FONTS) {
    const { prototype, afm } = prepare(name);
    const font: unknown = Object.assign(Object.create(prototype) as object, {
      document: doc,
      name,
      id: `F${++state._fontCount}`,
      font: afm,
      ascender: afm.ascender,
      descender: afm.descender,
      bbox: afm.bbox,
      lineGap: afm.lineGap,
      xHeight: afm.xHeight,
      capHeight: afm.capHeight,
    });
    state._fontFamilies[name] = font;
  }
}

/**
 * A pdfkit document whose standard fonts come parsed: `font` (default Helvetica) is set as
 * pdfkit would, without reading its metrics again. A font outside PREPARED_FONTS still works,
 * parsed by pdfkit for that document.
 */
export function newPdfDocument(options: PDFKit.PDFDocumentOptions = {}): PDFKit.PDFDocument {
  const { font = "Helvetica", ...rest } = options;
  // An empty default font stops the constructor loading Helvetica itself.
  const doc = new PDFDocument({ ...rest, font: "" });
  installFonts(doc);
  doc.font(font);
  return doc;
}
