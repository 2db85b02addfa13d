import { CANNOT_DELIVER_REASONS, type ProductionFigures } from "@cyclebill/domain";
import { Table, Text } from "@mantine/core";
import { formatAmount } from "../../lib/format";

/** The figure columns shared by the preview, the run and the history tables. */
export function FigureHeaders() {
  return (
    <>
      <Table.Th ta="right">Customers</Table.Th>
      <Table.Th ta="right">Mail</Table.Th>
      <Table.Th ta="right">Email</Table.Th>
      <Table.Th ta="right">Both</Table.Th>
      <Table.Th ta="right">Pulled</Table.Th>
      <Table.Th ta="right">No statement</Table.Th>
      <Table.Th ta="right">Cannot deliver</Table.Th>
      <Table.Th ta="right">Recurring</Table.Th>
      <Table.Th ta="right">Late fees</Table.Th>
    </>
  );
}

export function FigureCells({ figures }: { figures: ProductionFigures }) {
  const { statements } = figures;
  // Runs recorded before these reasons existed have no count for them.
  const cannotDeliver = CANNOT_DELIVER_REASONS.reduce(
    (sum, reason) => sum + (figures.no_statement[reason] ?? 0),
    0,
  );
  return (
    <>
      <Table.Td ta="right">{figures.customers}</Table.Td>
      <Table.Td ta="right">{statements.mail}</Table.Td>
      <Table.Td ta="right">{statements.email}</Table.Td>
      <Table.Td ta="right">{statements.both}</Table.Td>
      <Table.Td ta="right">{statements.pulled}</Table.Td>
      <Table.Td ta="right">{statements.none}</Table.Td>
      <Table.Td ta="right">
        {cannotDeliver > 0 ? (
          <Text
            span
            size="sm"
            c="red"
            fw={600}
            title="No valid mailing address or no email address: held back"
          >
            {cannotDeliver}
          </Text>
        ) : (
          0
        )}
      </Table.Td>
      <Table.Td ta="right">
        {figures.recurring.count} · {formatAmount(figures.recurring.total)}
      </Table.Td>
      <Table.Td ta="right">
        {figures.late_fees.count} · {formatAmount(figures.late_fees.total)}
      </Table.Td>
    </>
  );
}
