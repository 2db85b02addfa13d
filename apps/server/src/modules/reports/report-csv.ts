/** One CSV line (CRLF), quoting where needed and neutralising spreadsheet formulas in text. */
export function toCsvLine(cells: readonly (string | number)[]): string {
  return (
    cells
      .map((value) => {
        const text = String(value);
        const safe = /^[=+\-@]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
        return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
      })
      .join(",") + "\r\n"
  );
}
