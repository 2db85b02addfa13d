import { PlaceholderPage } from "../shell/PlaceholderPage";

export function InvoicesAndStatementsPage() {
  return <PlaceholderPage title="Invoices & Statements" />;
}
