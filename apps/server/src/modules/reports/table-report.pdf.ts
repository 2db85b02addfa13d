import { newPdfDocument } from "../../pdf/standard-fonts.js";
import { drawTableHeader, type TableLook } from "./table-header.pdf.js";

export type ReportColumn = { header: string; width: number; align?: "left" | "right" | "center" };
export type TableReport = {
  title: string;
  subtitle: string[];
  columns: ReportColumn[];
  rows: string[][];
  totals?: string[];
  emptyText?: string;
  landscape?: boolean;
};

const MARGIN = 40;
const ROW_HEIGHT = 16;
const LOOK: TableLook = {
  margin: MARGIN,
  rowHeight: ROW_HEIGHT,
  titleSize: 16,
  fontSize: 9,
  gap: 10,
  pad: 4,
};

/** A tabular report on US Letter: header on every page, zebra rows, totals line, page numbers. */
export function renderTableReport(report: TableReport): Promise<Buffer> {
  const layout = report.landscape ? "landscape" : "portrait";
  const doc = newPdfDocument({
    size: "LETTER",
    layout,
    margin: MARGIN,
    bufferPages: true,
    info: { Title: report.title },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const tableWidth = report.columns.reduce((total, column) => total + column.width, 0);
  const bottom = doc.page.height - MARGIN - 24;

  const drawRow = (cells: string[], y: number, options: { bold?: boolean; fill?: string } = {}) => {
    if (options.fill) doc.rect(MARGIN, y - 3, tableWidth, ROW_HEIGHT).fill(options.fill);
    doc
      .fillColor("#111")
      .font(options.bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(9);
    let x = MARGIN;
    report.columns.forEach((column, index) => {
      doc.text(cells[index] ?? "", x + 4, y, {
        width: column.width - 8,
        align: column.align ?? "left",
        lineBreak: false,
        ellipsis: true,
      });
      x += column.width;
    });
  };

  const drawHeader = (): number => drawTableHeader(doc, report, LOOK);

  let y = drawHeader();
  if (report.rows.length === 0) {
    doc
      .font("Helvetica-Oblique")
      .fontSize(10)
      .fillColor("#555")
      .text(report.emptyText ?? "Nothing to report.", MARGIN, y + 4);
    y += ROW_HEIGHT * 2;
  }
  report.rows.forEach((row, index) => {
    if (y + ROW_HEIGHT > bottom) {
      doc.addPage({ size: "LETTER", layout, margin: MARGIN });
      y = drawHeader();
    }
    drawRow(row, y, { fill: index % 2 === 1 ? "#eef2f6" : undefined });
    y += ROW_HEIGHT;
  });
  if (report.totals) {
    if (y + ROW_HEIGHT + 4 > bottom) {
      doc.addPage({ size: "LETTER", layout, margin: MARGIN });
      y = drawHeader();
    }
    doc
      .moveTo(MARGIN, y - 2)
      .lineTo(MARGIN + tableWidth, y - 2)
      .lineWidth(1)
      .strokeColor("#1c3d5a")
      .stroke();
    drawRow(report.totals, y + 2, { bold: true });
  }

  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page += 1) {
    doc.switchToPage(page);
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor("#777")
      .text(`Page ${page + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN - 10, {
        width: tableWidth,
        align: "right",
        lineBreak: false,
      });
  }
  doc.end();
  return done;
}
