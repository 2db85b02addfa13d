/** The sizes a tabular PDF is drawn at (the buffered report is a little larger than the streamed one). */
export type TableLook = {
  margin: number;
  rowHeight: number;
  titleSize: number;
  fontSize: number;
  /** Space between the subtitle and the column headers. */
  gap: number;
  /** A cell's inner padding on each side. */
  pad: number;
};

export type TableHeading = {
  title: string;
  subtitle: readonly string[];
  columns: readonly { header: string; width: number; align?: "left" | "right" | "center" }[];
};

/** The title, the subtitle lines and the dark bar of column headers; returns the y where rows begin. */
export function drawTableHeader(doc: PDFKit.PDFDocument, table: TableHeading, look: TableLook): number {
  const width = table.columns.reduce((total, column) => total + column.width, 0);
  doc
    .font("Helvetica-Bold")
    .fontSize(look.titleSize)
    .fillColor("#111")
    .text(table.title, look.margin, look.margin);
  doc.font("Helvetica").fontSize(look.fontSize).fillColor("#555");
  for (const line of table.subtitle) doc.text(line);
  const y = doc.y + look.gap;
  doc.rect(look.margin, y - look.pad, width, look.rowHeight + look.pad - 2).fill("#1c3d5a");
  doc.fillColor("#fff").font("Helvetica-Bold").fontSize(look.fontSize);
  let x = look.margin;
  for (const column of table.columns) {
    doc.text(column.header, x + look.pad, y, {
      width: column.width - 2 * look.pad,
      align: column.align ?? "left",
      lineBreak: false,
    });
    x += column.width;
  }
  return y + look.rowHeight + look.pad;
}
