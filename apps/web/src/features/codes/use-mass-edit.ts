import type { CodeType } from "@cyclebill/domain";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useMassUpdateCodes } from "./codes-api";
import { countOf } from "../../lib/plural";

export type TaxableChoice = "keep" | "yes" | "no";
export type MassEdit = { selected: ReadonlySet<number>; codeType: CodeType | ""; taxable: TaxableChoice };

const emptyMassEdit = (): MassEdit => ({ selected: new Set(), codeType: "", taxable: "keep" });

/** Codes mass edit (spec section 4): tick codes, choose a type and/or taxable, save them all at once. */
export function useMassEdit(clientId: number) {
  const massUpdate = useMassUpdateCodes(clientId);
  const [mass, setMass] = useState<MassEdit | null>(null);

  const enter = () => setMass(emptyMassEdit());
  const close = () => setMass(null);

  const toggle = (ids: number[], on: boolean) =>
    setMass((current) => {
      if (!current) return current;
      const selected = new Set(current.selected);
      for (const id of ids) {
        if (on) selected.add(id);
        else selected.delete(id);
      }
      return { ...current, selected };
    });

  const save = () => {
    if (!mass || mass.selected.size === 0) return;
    massUpdate.mutate(
      {
        ids: [...mass.selected],
        // An empty code_type is ignored by the server.
        code_type: mass.codeType,
        taxable: mass.taxable === "keep" ? undefined : mass.taxable === "yes",
      },
      {
        onSuccess: (result) => {
          notifications.show({
            color: "teal",
            message: `Saved changes to ${countOf(result.count, "code")}.`,
          });
          setMass(emptyMassEdit());
        },
      },
    );
  };

  return { mass, setMass, saving: massUpdate.isPending, enter, close, toggle, save };
}
