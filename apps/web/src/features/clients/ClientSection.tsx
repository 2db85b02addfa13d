import type { ReactNode } from "react";
import { FieldSection } from "../shell/FieldSection";

/** A titled group of fields in the client editor, laid out in columns on wide screens. */
export function ClientSection(props: {
  title: string;
  description?: ReactNode;
  cols?: number;
  children: ReactNode;
}) {
  return <FieldSection {...props} wideAt="lg" />;
}
