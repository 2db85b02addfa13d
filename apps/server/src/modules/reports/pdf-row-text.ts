/**
 * Text of table rows written straight into a pdfkit page: WinAnsi hex strings and widths from the
 * standard font's own glyph widths (no kerning, so the width measured is the width drawn).
 */
type StandardFont = {
  id: string;
  ascender: number;
  ref: () => unknown;
  encode: (text: string) => [string[], unknown[]];
  widthOfString: (text: string, size: number) => number;
};
type Page = { fonts: Record<string, unknown> };

export type RowFont = {
  id: string;
  ascent: (size: number) => number;
  /** The text (clipped with an ellipsis to `room` points) as hex, and its width at `size`. */
  fit: (text: string, size: number, room: number) => { hex: string; width: number };
  /** Registers the font on the current page (as pdfkit's own text() does). */
  use: (doc: PDFKit.PDFDocument) => void;
};

function rowFont(font: StandardFont): RowFont {
  // Widths (per 1000 points of size) of the printable ASCII characters; anything else asks pdfkit.
  const ascii = new Map<number, number>();
  for (let code = 32; code < 127; code += 1)
    ascii.set(code, font.widthOfString(String.fromCharCode(code), 1000));
  const measure = (text: string): { hex: string; width: number } => {
    let hex = "";
    let width = 0;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      const known = ascii.get(code);
      if (known === undefined) {
        return { hex: font.encode(text)[0].join(""), width: font.widthOfString(text, 1000) };
      }
      hex += code.toString(16).padStart(2, "0");
      width += known;
    }
    return { hex, width };
  };
  return {
    id: font.id,
    ascent: (size) => (font.ascender / 1000) * size,
    fit: (text, size, room) => {
      let shown = measure(text);
      if ((shown.width * size) / 1000 > room) {
        let cut = text;
        do {
          cut = cut.slice(0, -1);
          shown = measure(`${cut}...`);
        } while (cut.length > 1 && (shown.width * size) / 1000 > room);
      }
      return { hex: shown.hex, width: (shown.width * size) / 1000 };
    },
    use: (doc) => {
      const page = (doc as unknown as { page: Page }).page;
      if (page.fonts[font.id] === undefined) page.fonts[font.id] = font.ref();
    },
  };
}

/** The named standard fonts of the document, ready for row text. */
export function rowFonts(doc: PDFKit.PDFDocument, names: readonly string[]): RowFont[] {
  return names.map((name) => {
    doc.font(name);
    return rowFont((doc as unknown as { _font: StandardFont })._font);
  });
}
