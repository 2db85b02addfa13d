import { newPdfDocument } from "../../pdf/standard-fonts.js";
import { rowFonts, type RowFont } from "./pdf-row-text.js";
import { drawTableHeader, type TableLook } from "./table-header.pdf.js";

export type StreamColumn = { header: string; width: number; align?: "left" | "right" | "center" };

export type StreamingTable = {
  doc: PDFKit.PDFDocument;
  /** One row of cells under the columns; a new page (with the header again) when this one is full. */
  row: (cells: readonly string[], options?: { bold?: boolean; fill?: string }) => void;
  /** A bold line across the table (a customer's heading, a section title). */
  band: (left: string, right?: string, fill?: string) => void;
  /** Keeps the next `rows` rows together on one page. */
  keep: (rows: number) => void;
  gap: () => void;
  end: () => void;
};

const MARGIN = 36;
const ROW_HEIGHT = 14;
const FONT_SIZE = 8;
const LOOK: TableLook = {
  margin: MARGIN,
  rowHeight: ROW_HEIGHT,
  titleSize: 14,
  fontSize: FONT_SIZE,
  gap: 8,
  pad: 3,
};

/**
 * A tabular PDF written as it goes: pages are added (and sent down the stream) while rows arrive,
 * so a report of any length never sits in memory. Every page has the title and column header and
 * a running page number (the total is not known until the end, so none is printed).
 */
export function streamingTable(options: {
  title: string;
  subtitle: string[];
  columns: StreamColumn[];
  landscape?: boolean;
}): StreamingTable {
  const layout = options.landscape ? "landscape" : "portrait";
  const doc = newPdfDocument({ size: "LETTER", layout, margin: MARGIN, info: { Title: options.title } });
  const fonts = rowFonts(doc, ["Helvetica", "Helvetica-Bold"]);
  const width = options.columns.reduce((total, column) => total + column.width, 0);
  let page = 1;
  let y = 0;
  const bottom = () => doc.page.height - MARGIN - 22;

  const footer = () => {
    // Below the bottom margin: without lifting it, pdfkit would start a page for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor("#777")
      .text(`${options.title} · Page ${page}`, MARGIN, doc.page.height - MARGIN - 8, {
        width,
        align: "right",
        lineBreak: false,
      });
    doc.page.margins.bottom = margin;
  };
  const header = () => {
    y = drawTableHeader(doc, options, LOOK);
    footer();
  };
  const newPage = () => {
    doc.addPage({ size: "LETTER", layout, margin: MARGIN });
    page += 1;
    header();
  };
  const room = (rows: number) => {
    if (y + rows * ROW_HEIGHT > bottom()) newPage();
  };

  const lefts = options.columns.map((_, index) =>
    options.columns.slice(0, index).reduce((total, column) => total + column.width, MARGIN),
  );
  // A row is one text object written straight into the page (pdfkit's text() per cell, with its
  // layout and kerning, cost most of the time of a long register): each cell placed and clipped here.
  type Placed = { text: string; left: number; room: number; align?: StreamColumn["align"] };
  const writeTexts = (texts: readonly Placed[], font: RowFont) => {
    const baseline = (doc.page.height - y - font.ascent(FONT_SIZE)).toFixed(2);
    const parts: string[] = [];
    for (const { text, left, room, align } of texts) {
      if (text === "") continue;
      const { hex, width: textWidth } = font.fit(text, FONT_SIZE, room);
      const x =
        align === "right"
          ? left + room - textWidth
          : align === "center"
            ? left + (room - textWidth) / 2
            : left;
      parts.push(`1 0 0 1 ${x.toFixed(2)} ${baseline} Tm <${hex}> Tj`);
    }
    if (parts.length === 0) return;
    font.use(doc);
    doc.addContent(
      `q 1 0 0 -1 0 ${doc.page.height} cm BT /${font.id} ${FONT_SIZE} Tf ${parts.join(" ")} ET Q`,
    );
  };
  const writeRow = (cells: readonly string[], font: RowFont) =>
    writeTexts(
      cells.map((text, index) => ({
        text,
        left: (lefts[index] ?? MARGIN) + 3,
        room: (options.columns[index]?.width ?? 6) - 6,
        align: options.columns[index]?.align,
      })),
      font,
    );

  header();
  return {
    doc,
    row: (cells, rowOptions = {}) => {
      room(1);
      if (rowOptions.fill) doc.rect(MARGIN, y - 2, width, ROW_HEIGHT).fill(rowOptions.fill);
      doc.fillColor("#111");
      writeRow(cells, fonts[rowOptions.bold ? 1 : 0] as RowFont);
      y += ROW_HEIGHT;
    },
    band: (left, right, fill = "#e3eaf1") => {
      room(1);
      doc.rect(MARGIN, y - 2, width, ROW_HEIGHT).fill(fill);
      doc.fillColor("#111");
      const rightWidth = right ? (fonts[1] as RowFont).fit(right, FONT_SIZE, width).width + 12 : 0;
      writeTexts(
        [
          { text: left, left: MARGIN + 3, room: width - 6 - rightWidth },
          { text: right ?? "", left: MARGIN + 3, room: width - 6, align: "right" },
        ],
        fonts[1] as RowFont,
      );
      y += ROW_HEIGHT;
    },
    keep: (rows) => room(rows),
    gap: () => {
      y += ROW_HEIGHT / 2;
    },
    end: () => doc.end(),
  };
}
