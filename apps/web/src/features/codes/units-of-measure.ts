import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";

export type UnitOfMeasure = { id: number; name: string };

/** The catalogue's fallback when the units cannot be fetched. */
export const FALLBACK_UNITS: readonly UnitOfMeasure[] = [
  { id: 1, name: "Each" },
  { id: 2, name: "Box" },
];

/** The units as a select's options. */
export function unitOptions(units: readonly UnitOfMeasure[]) {
  return units.map((unit) => ({ value: String(unit.id), label: unit.name }));
}

/**
 * Units of measure for quantities on transactions, stored amounts and recurring charges. A failed
 * fetch falls back to Each and Box without an alert (spec section 8).
 */
export function useUnitsOfMeasure(): readonly UnitOfMeasure[] {
  const units = useQuery({
    queryKey: ["unitofmeasure"],
    queryFn: ({ signal }) => apiFetch<Page<UnitOfMeasure>>("/unitofmeasure", { signal, handles: "all" }),
    retry: false,
    staleTime: 10 * 60_000,
  });
  if (units.isError || (units.data && units.data.results.length === 0)) return FALLBACK_UNITS;
  return units.data?.results ?? FALLBACK_UNITS;
}
