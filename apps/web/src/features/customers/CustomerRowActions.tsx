import { ActionIcon, Menu } from "@mantine/core";
import type { CustomerListRow } from "@cyclebill/domain";
import { Link } from "react-router";
import { customerLinks, editorPath } from "./customer-links";

/** A customer row's menu: its editor and screens, and archive or unarchive. */
export function CustomerRowActions({
  row,
  clientId,
  withClient,
  onArchive,
  onUnarchive,
}: {
  row: CustomerListRow;
  clientId: number;
  withClient: (to: string) => string;
  onArchive: () => void;
  onUnarchive: () => void;
}) {
  const links = customerLinks(clientId, row.id);
  return (
    <Menu position="bottom-end" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${row.customer_name}`}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{`${row.customer_no} · ${row.customer_name}`.slice(0, 40)}</Menu.Label>
        <Menu.Item component={Link} to={withClient(editorPath(row.id))}>
          Edit customer
        </Menu.Item>
        <Menu.Item component={Link} to={links.transactions}>
          Transactions
        </Menu.Item>
        <Menu.Item component={Link} to={links.payments}>
          Payments
        </Menu.Item>
        <Menu.Item component={Link} to={links.invoices}>
          Invoices &amp; statements
        </Menu.Item>
        {/* Only what the row's actions allow (the server refuses the rest). */}
        {row.actions.includes("unarchive") ? (
          <>
            <Menu.Divider />
            <Menu.Item color="orange" onClick={onUnarchive}>
              Unarchive…
            </Menu.Item>
          </>
        ) : row.actions.includes("archive") || row.actions.includes("mark_for_archive") ? (
          <>
            <Menu.Divider />
            <Menu.Item color="red" onClick={onArchive}>
              {row.delete_flag ? "Change archive flag…" : "Archive…"}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

function DotsIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}
