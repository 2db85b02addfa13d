// Client-side paging shared by the list screens (spec section 9: 15 rows, options 5, 10, 15).

export const PAGE_SIZE_OPTIONS = [5, 10, 15] as const;
export const DEFAULT_PAGE_SIZE = 15;
export const INVALID_PAGE_MESSAGE = "Please enter a valid page number";

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A go-to-page entry: a whole number from 1 to the page count, else null. */
export function parsePageNumber(input: string, pages: number): number | null {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= pages ? page : null;
}

/** The rows of one page (1-based). */
export function pageSlice<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const start = (page - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}

export type SortState<F extends string> = { field: F; descending: boolean };

/** The ordering parameter of the API: a field, with a leading minus when descending. */
export function orderingParam<F extends string>(sort: SortState<F>): string {
  return sort.descending ? `-${sort.field}` : sort.field;
}

/** Clicking a column sorts by it ascending; clicking the sorted column again flips the direction. */
export function nextSort<F extends string>(current: SortState<F>, field: F): SortState<F> {
  return current.field === field ? { field, descending: !current.descending } : { field, descending: false };
}

/** Sorts a copy of rows by a key; numbers numerically, text case-insensitively; ties keep their order. */
export function sortRows<T, F extends string>(
  rows: readonly T[],
  sort: SortState<F>,
  key: (row: T, field: F) => string | number | boolean,
): T[] {
  const direction = sort.descending ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: key(row, sort.field) }))
    .sort((a, b) => {
      const order =
        typeof a.value === "string" && typeof b.value === "string"
          ? a.value.localeCompare(b.value, "en", { sensitivity: "base", numeric: true })
          : Number(a.value) - Number(b.value);
      return order !== 0 ? order * direction : a.index - b.index;
    })
    .map((entry) => entry.row);
}
