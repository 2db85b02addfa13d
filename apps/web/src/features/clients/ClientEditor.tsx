import { HistoryTab } from "../audit/HistoryTab";
import {
  DOUBLE_BILLING_MESSAGE,
  clientUpdateSchema,
  providerOnlyClientChanges,
  cycleChangeCausesDoubleBilling,
  type ClientUpdateInput,
} from "@cyclebill/domain";
import { Alert, Badge, Button, List, Paper, Skeleton, Stack, Tabs, Text, TextInput } from "@mantine/core";
import { useEffect, useState, type ReactNode } from "react";
import { ApiError, allMessages, describeApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { validateForm, type FieldErrors } from "../auth/form-validation";
import { useUser } from "../auth/user-context";
import { PageHeader } from "../shell/PageHeader";
import { BooksCheck } from "./BooksCheck";
import { ClosedPeriodPanel } from "./ClosedPeriodPanel";
import { AchReturnSettings } from "../gateway-events/AchReturnSettings";
import { SecondFactorRequirement } from "../security/SecondFactorRequirement";
import { ClientMessageTab } from "./ClientMessageTab";
import { ClientOverviewTab } from "./ClientOverviewTab";
import { ClientRatesTab } from "./ClientRatesTab";
import { ClientStatusTab } from "./ClientStatusTab";
import { ClientUsersTab } from "./ClientUsersTab";
import { useClientDetail, useUpdateClient } from "./client-api";
import {
  CLIENT_TAB_LABELS,
  tabOfField,
  useClientForm,
  type ClientField,
  type ClientTab,
} from "./client-form";
import { toUpdateBody, type ClientRecord } from "./client-record";
import { RetryAlert } from "../shell/RetryAlert";
import { StickyTabBar } from "../shell/StickyTabBar";
import { countOf } from "../../lib/plural";

export const CLIENT_SAVED_MESSAGE = "Client successfuly saved";
export const CLIENT_SAVE_FAILED_MESSAGE = "Error saving client info please check form and/or try again.";
/** Spec section 4: the saved alert shows for 3 seconds. */
export const SAVED_ALERT_MS = 3_000;

const FORM_TABS: ClientTab[] = ["overview", "message", "status", "rates"];
const EVERY_CLIENT_FIELD = Object.keys(clientUpdateSchema.shape) as (keyof ClientUpdateInput)[];

type SaveStatus = { kind: "idle" } | { kind: "saved" } | { kind: "failed"; details: string[] };

export type ClientEditorProps = {
  clientId: number;
  title: string;
  /** Shown above the title, e.g. a link back to the client list. */
  back?: ReactNode;
};

/** The client editor (tabs Overview, Message, Status, Rates, User Management), also the Settings screen. */
export function ClientEditor({ clientId, title, back }: ClientEditorProps) {
  const detail = useClientDetail(clientId);

  if (detail.isPending) {
    return (
      <Stack gap="md">
        {back}
        <PageHeader title={title} />
        <Skeleton h={44} />
        <Skeleton h={320} />
      </Stack>
    );
  }
  if (detail.isError) {
    return (
      <Stack gap="md">
        {back}
        <PageHeader title={title} />
        <RetryAlert title="The client could not be loaded" query={detail} />
      </Stack>
    );
  }
  // Keyed by client: another client starts from its own record, never from this one's edits.
  return <ClientEditorForm key={clientId} record={detail.data} title={title} back={back} />;
}

function ClientEditorForm({
  record,
  title,
  back,
}: {
  record: ClientRecord;
  title: string;
  back?: ReactNode;
}) {
  const user = useUser();
  const isAdmin = user.isAdmin;
  const isOwner = !user.isAdmin && !user.is_client_staff && user.client_id === record.id;
  const canEdit = isAdmin || isOwner;
  const form = useClientForm(record, { canEdit, canEditRates: isAdmin, isAdmin });
  const update = useUpdateClient(record.id);
  const [tab, setTab] = useState<ClientTab>("overview");
  const [status, setStatus] = useState<SaveStatus>({ kind: "idle" });
  const [changeReason, setChangeReason] = useState("");
  // An admin changing what only the provider may set is asked why (kept in the audit trail).
  const providerChanges = isAdmin ? providerOnlyClientChanges(toUpdateBody(form.values), record) : [];

  useEffect(() => {
    if (status.kind !== "saved") return;
    const timer = window.setTimeout(() => setStatus({ kind: "idle" }), SAVED_ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  const errorCounts = countErrorsByTab(form.errors);

  const fail = (errors: FieldErrors<ClientField>, details: string[]) => {
    form.setErrors(errors);
    setStatus({ kind: "failed", details });
    const tabs = FORM_TABS.filter((candidate) => (countErrorsByTab(errors)[candidate] ?? 0) > 0);
    // Point at the problem unless it is already in view.
    const first = tabs[0];
    if (first && !tabs.includes(tab)) setTab(first);
  };

  const save = () => {
    const result = validateForm(clientUpdateSchema, toUpdateBody(form.values));
    if (!result.ok) {
      fail(result.errors, []);
      return;
    }
    if (
      cycleChangeCausesDoubleBilling({
        currentCycle: record.normal_cycle,
        newCycle: result.data.normal_cycle ?? record.normal_cycle,
        cycleRan: record.cycle_ran,
        // The server judges by its (UTC) calendar.
        todayDayOfMonth: new Date().getUTCDate(),
      })
    ) {
      fail({ normal_cycle: DOUBLE_BILLING_MESSAGE }, [DOUBLE_BILLING_MESSAGE]);
      return;
    }
    setStatus({ kind: "idle" });
    const reason = providerChanges.length > 0 ? changeReason.trim() : "";
    update.mutate(reason ? { ...result.data, change_reason: reason } : result.data, {
      onSuccess: (saved) => {
        form.reset(saved);
        setChangeReason("");
        setStatus({ kind: "saved" });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          fail(fieldErrorsFromBody(error.body, EVERY_CLIENT_FIELD), allMessages(error.body));
        } else {
          fail({}, [describeApiError(error)]);
        }
      },
    });
  };

  const saveButton =
    canEdit && tab !== "users" ? (
      <Button onClick={save} loading={update.isPending}>
        Save Client
      </Button>
    ) : null;

  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title={title}
        description={
          <>
            {record.client_name} · Client {record.client_no}
          </>
        }
      />

      {providerChanges.length > 0 ? (
        <TextInput
          label="Reason for changing provider-only settings"
          description={`Kept in the audit trail with this save (${countOf(providerChanges.length, "provider-only field")} changed).`}
          maxLength={500}
          value={changeReason}
          onChange={(event) => setChangeReason(event.currentTarget.value)}
        />
      ) : null}

      {canEdit ? null : (
        <Alert color="gray" variant="light" title="View only">
          Only the client&apos;s owner or an administrator can change these settings.
        </Alert>
      )}

      <Tabs value={tab} onChange={(value) => value && setTab(value as ClientTab)} keepMounted={false}>
        <StickyTabBar
          tabs={
            <>
              {FORM_TABS.map((value) => (
                <Tabs.Tab
                  key={value}
                  value={value}
                  rightSection={
                    errorCounts[value] ? (
                      <Badge size="xs" color="red" circle aria-label={`${errorCounts[value]} to fix`}>
                        {errorCounts[value]}
                      </Badge>
                    ) : null
                  }
                >
                  {CLIENT_TAB_LABELS[value]}
                </Tabs.Tab>
              ))}
              {canEdit ? <Tabs.Tab value="users">{CLIENT_TAB_LABELS.users}</Tabs.Tab> : null}
              {canEdit ? <Tabs.Tab value="history">{CLIENT_TAB_LABELS.history}</Tabs.Tab> : null}
            </>
          }
          action={saveButton}
        >
          <SaveAlerts status={status} errorCounts={errorCounts} onClose={() => setStatus({ kind: "idle" })} />
        </StickyTabBar>

        <Paper p={{ base: "sm", md: "md" }} mt="md" bg="transparent">
          <Tabs.Panel value="overview">
            <ClientOverviewTab form={form} hasBluePayKey={record.has_blue_pay_key} />
          </Tabs.Panel>
          <Tabs.Panel value="message">
            <ClientMessageTab form={form} />
          </Tabs.Panel>
          <Tabs.Panel value="status">
            <Stack gap="md">
              <ClientStatusTab form={form} record={record} />
              {canEdit ? <BooksCheck clientId={record.id} /> : null}
              {canEdit ? <AchReturnSettings clientId={record.id} /> : null}
              {isAdmin ? <ClosedPeriodPanel clientId={record.id} /> : null}
              {isAdmin ? <SecondFactorRequirement clientId={record.id} /> : null}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="rates">
            <ClientRatesTab form={form} record={record} />
          </Tabs.Panel>
          {canEdit ? (
            <Tabs.Panel value="users">
              <ClientUsersTab clientId={record.id} />
            </Tabs.Panel>
          ) : null}
          {canEdit ? (
            <Tabs.Panel value="history">
              {/* The client's own settings; its users, customers and postings have their own history. */}
              <HistoryTab
                filters={{ client_id: record.id, record_kind: "client", record_id: String(record.id) }}
                canRead
              />
            </Tabs.Panel>
          ) : null}
        </Paper>
      </Tabs>
    </Stack>
  );
}

function SaveAlerts({
  status,
  errorCounts,
  onClose,
}: {
  status: SaveStatus;
  errorCounts: Partial<Record<ClientTab, number>>;
  onClose: () => void;
}) {
  if (status.kind === "saved") {
    return (
      <Alert color="teal" mt="sm" title={CLIENT_SAVED_MESSAGE} withCloseButton onClose={onClose}>
        {null}
      </Alert>
    );
  }
  if (status.kind !== "failed") return null;
  const tabs = FORM_TABS.filter((tab) => (errorCounts[tab] ?? 0) > 0);
  return (
    <Alert color="red" mt="sm" title={CLIENT_SAVE_FAILED_MESSAGE} withCloseButton onClose={onClose}>
      {status.details.length > 0 ? (
        <List size="sm">
          {status.details.map((detail) => (
            <List.Item key={detail}>{detail}</List.Item>
          ))}
        </List>
      ) : null}
      {tabs.length > 0 ? (
        <Text size="sm" mt={status.details.length > 0 ? 4 : 0}>
          Fields to fix:{" "}
          {tabs.map((tab) => `${CLIENT_TAB_LABELS[tab]} (${errorCounts[tab] ?? 0})`).join(", ")}.
        </Text>
      ) : null}
    </Alert>
  );
}

function countErrorsByTab(errors: FieldErrors<ClientField>): Partial<Record<ClientTab, number>> {
  const counts: Partial<Record<ClientTab, number>> = {};
  for (const [field, message] of Object.entries(errors)) {
    if (!message) continue;
    const tab = tabOfField(field);
    counts[tab] = (counts[tab] ?? 0) + 1;
  }
  return counts;
}
