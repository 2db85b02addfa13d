import PDFDocument from "pdfkit";

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
  const doc = new PDFDocument({ size: "LETTER", layout, margin: MARGIN, info: { Title: options.title } });
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
    doc.font("Helvetica-Bold").fontSize(14).fillColor("#111").text(options.title, MARGIN, MARGIN);
    doc.font("Helvetica").fontSize(8).fillColor("#555");
    for (const line of options.subtitle) doc.text(line);
    y = doc.y + 8;
    doc.rect(MARGIN, y - 3, width, ROW_HEIGHT + 1).fill("#1c3d5a");
    doc.fillColor("#fff").font("Helvetica-Bold").fontSize(8);
    let x = MARGIN;
    for (const column of options.columns) {
      doc.text(column.header, x + 3, y, {
        width: column.width - 6,
        align: column.align ?? "left",
        lineBreak: false,
      });
      x += column.width;
    }
    y += ROW_HEIGHT + 3;
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

  header();
  return {
    doc,
    row: (cells, rowOptions = {}) => {
      room(1);
      if (rowOptions.fill) doc.rect(MARGIN, y - 2, width, ROW_HEIGHT).fill(rowOptions.fill);
      doc
        .fillColor("#111")
        .font(rowOptions.bold ? "Helvetica-Bold" : "Helvetica")
        .fontSize(8);
      let x = MARGIN;
      options.columns.forEach((column, index) => {
        doc.text(cells[index] ?? "", x + 3, y, {
          width: column.width - 6,
          align: column.align ?? "left",
          lineBreak: false,
          ellipsis: true,
        });
        x += column.width;
      });
      y += ROW_HEIGHT;
    },
    band: (left, right, fill = "#e3eaf1") => {
      room(1);
      doc.rect(MARGIN, y - 2, width, ROW_HEIGHT).fill(fill);
      doc.fillColor("#111").font("Helvetica-Bold").fontSize(8);
      doc.text(left, MARGIN + 3, y, { width: width - 6, lineBreak: false, ellipsis: true });
      if (right) doc.text(right, MARGIN + 3, y, { width: width - 6, align: "right", lineBreak: false });
      y += ROW_HEIGHT;
    },
    keep: (rows) => room(rows),
    gap: () => {
      y += ROW_HEIGHT / 2;
    },
    end: () => doc.end(),
  };
}
