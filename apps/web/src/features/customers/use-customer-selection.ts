import type { CustomerListRow } from "@cyclebill/domain";
import { useState } from "react";

export type SelectedCustomer = { id: number; customer_no: number; customer_name: string };

const selectedOf = (row: CustomerListRow): SelectedCustomer => ({
  id: row.id,
  customer_no: row.customer_no,
  customer_name: row.customer_name,
});

/** The customers ticked for address labels; kept across pages, filters and sorts. */
export function useCustomerSelection(rows: readonly CustomerListRow[]) {
  const [selected, setSelected] = useState<Map<number, SelectedCustomer>>(() => new Map());

  const toggleRow = (row: CustomerListRow, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(row.id, selectedOf(row));
      else next.delete(row.id);
      return next;
    });
  const pageSelected = rows.filter((row) => selected.has(row.id)).length;
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(row.id, selectedOf(row));
        else next.delete(row.id);
      }
      return next;
    });
  const clear = () => setSelected(new Map());

  return { selected, pageSelected, toggleRow, togglePage, clear };
}
