import { useState } from "react";
import type { BatchMember, RowOverride } from "./group-batch-api";

type RowState = { key: string; omitted: ReadonlySet<number>; overrides: ReadonlyMap<number, RowOverride> };

function emptyRows(key: string): RowState {
  return { key, omitted: new Set(), overrides: new Map() };
}

/** A customer matches the filter by name or number. */
export function matchesMember(member: BatchMember, filter: string): boolean {
  if (filter === "") return true;
  const needle = filter.toLowerCase();
  return member.customer_name.toLowerCase().includes(needle) || String(member.customer_no).includes(needle);
}

export type BatchRows = ReturnType<typeof useBatchRows>;

/** Which customers of the list are omitted and their own amounts; another list (listKey) starts afresh. */
export function useBatchRows(listKey: string) {
  const [rowState, setRowState] = useState<RowState>(() => emptyRows(listKey));
  const rows = rowState.key === listKey ? rowState : emptyRows(listKey);

  const updateRows = (change: (current: RowState) => RowState) =>
    setRowState((current) => change(current.key === listKey ? current : emptyRows(listKey)));

  const setOmitted = (ids: readonly number[], omit: boolean) =>
    updateRows((current) => {
      const omitted = new Set(current.omitted);
      for (const id of ids) {
        if (omit) omitted.add(id);
        else omitted.delete(id);
      }
      return { ...current, omitted };
    });

  const setOverride = (id: number, change: RowOverride) =>
    updateRows((current) => {
      const overrides = new Map(current.overrides);
      overrides.set(id, { ...overrides.get(id), ...change });
      return { ...current, overrides };
    });

  /** After a batch was added: every customer included again, at the default amount. */
  const reset = () => setRowState(emptyRows(listKey));

  return { omitted: rows.omitted, overrides: rows.overrides, setOmitted, setOverride, reset };
}
