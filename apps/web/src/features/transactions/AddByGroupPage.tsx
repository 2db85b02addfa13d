import type { ArchiveState } from "@cyclebill/domain";
import { Box, Select } from "@mantine/core";
import { useSearchParams } from "react-router";
import { parseClientId } from "../../shared/client-context";
import { useGroupDetail, useGroups } from "../groups/groups-api";
import { BatchPage } from "./BatchPage";
import { AddBatchForm } from "./AddBatchForm";
import { nameFromLabel, type BatchMember } from "./group-batch-api";

const TITLE = "Add Transactions by Group";
const DESCRIPTION =
  "One transaction for each customer of a group billed as standard, in stop order. Omit customers or change their amounts before adding.";
export const GROUP_PARAM = "route_id";

function deleteFlagOf(state: ArchiveState): BatchMember["delete_flag"] {
  if (state === "delete-when-zero") return "D";
  if (state === "delete-when-zero-keep-billing") return "S";
  return null;
}

export function AddByGroupPage() {
  return (
    <BatchPage
      title={TITLE}
      description={DESCRIPTION}
      other={{ path: "/transactions/addForAllCustomers", label: "Add to all customers" }}
      what="groups"
    >
      {(clientId) => <AddByGroup key={clientId} clientId={clientId} />}
    </BatchPage>
  );
}

function AddByGroup({ clientId }: { clientId: number }) {
  const [params, setParams] = useSearchParams();
  const groups = useGroups(clientId);
  const requested = parseClientId(params.get(GROUP_PARAM));
  const group = groups.data?.results.find((candidate) => candidate.id === requested) ?? null;
  const detail = useGroupDetail(clientId, group?.id ?? null);
  // Only members billed as standard take part (skip and pause are left out).
  const members: BatchMember[] = (detail.data?.details ?? [])
    .filter((plan) => plan.bill_indicator_flag === "standard")
    .toSorted((a, b) => a.stop - b.stop)
    .map((plan) => ({
      id: plan.customer,
      customer_no: plan.customer_no,
      customer_name: nameFromLabel(plan.customer_label, plan.customer_no),
      position: plan.position,
      delete_flag: deleteFlagOf(plan.archive_state),
      archived: plan.archive_state === "archived",
    }));

  const select = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(GROUP_PARAM);
        else next.set(GROUP_PARAM, value);
        return next;
      },
      { replace: true },
    );

  return (
    <AddBatchForm
      clientId={clientId}
      transactionType="route"
      group={group ? { id: group.id, name: group.route_name } : null}
      members={members}
      membersLoading={group !== null && detail.isPending}
      listKey={`group-${group?.id ?? 0}`}
      emptyText={
        group === null
          ? "Choose a group to list its customers."
          : "This group has no customers billed as standard."
      }
      leadingFields={
        <Box w={260}>
          <Select
            label="Group"
            placeholder={groups.isPending ? "Loading groups..." : "Choose a group"}
            searchable
            clearable
            nothingFoundMessage="No groups match"
            data={(groups.data?.results ?? []).map((candidate) => ({
              value: String(candidate.id),
              label: candidate.route_name,
            }))}
            value={group ? String(group.id) : null}
            onChange={select}
          />
        </Box>
      }
    />
  );
}
