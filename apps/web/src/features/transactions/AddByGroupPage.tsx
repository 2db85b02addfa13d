import { PlaceholderPage } from "../shell/PlaceholderPage";

export function AddByGroupPage() {
  return <PlaceholderPage title="Add Transactions by Grouping" />;
}
