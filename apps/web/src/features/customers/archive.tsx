import { DELETE_FLAG_LABELS, type ArchiveState } from "@cyclebill/domain";
import { Alert, Badge, Button, Group, Modal, Radio, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { ApiError, allMessages } from "../../api/api-client";
import { formatAmount } from "../../lib/format";
import { customerLabel } from "./CustomerSelect";
import type { CustomerRecord } from "@cyclebill/domain";
import { useArchiveCustomer, useSetDeleteFlag, useUndeleteCustomer } from "./customer-api";

// Archiving (spec part 1 §4): a zero balance archives after a confirmation; a balance gets a dialog
// with the three choices; archived customers can be unarchived, losing their transaction history.

export const ARCHIVE_STATE_LABELS: Record<Exclude<ArchiveState, "active">, string> = {
  archived: "Archived",
  "delete-when-zero": DELETE_FLAG_LABELS.D,
  "delete-when-zero-keep-billing": DELETE_FLAG_LABELS.S,
};

const ARCHIVE_STATE_COLORS: Record<Exclude<ArchiveState, "active">, string> = {
  archived: "dark",
  "delete-when-zero": "orange",
  "delete-when-zero-keep-billing": "yellow",
};

export function ArchiveStateBadge({ state }: { state: ArchiveState }) {
  if (state === "active") return null;
  return (
    <Badge
      variant="light"
      color={ARCHIVE_STATE_COLORS[state]}
      tt="none"
      size="sm"
      radius="sm"
      // The whole label, wrapping in a narrow column (a phone's customer list) rather than widening it.
      styles={{
        root: { maxWidth: "none", height: "auto", minHeight: "var(--badge-height)" },
        label: { overflow: "visible", whiteSpace: "normal", lineHeight: 1.3 },
      }}
    >
      {ARCHIVE_STATE_LABELS[state]}
    </Badge>
  );
}

type ArchiveTarget = Pick<
  CustomerRecord,
  "id" | "customer_no" | "customer_name" | "balance" | "delete_flag" | "deleted" | "archive_state" | "actions"
>;

type Choice = "S" | "D" | "remove";

/** The customer to archive or unarchive (null: no dialog); `onDone` runs after a change. */
type ArchiveDialogProps = {
  clientId: number;
  target: ArchiveTarget | null;
  onClose: () => void;
  onDone?: () => void;
};

/**
 * Starts the archive of a customer: the zero-balance confirmation, or the choice dialog when it has a
 * balance (or already carries a mark). `onDone` runs after a change, e.g. to step back a page.
 */
export function ArchiveDialogs({ clientId, target, onClose, onDone }: ArchiveDialogProps) {
  const archive = useArchiveCustomer(clientId);
  // A customer whose balance turned out non-zero after all (the list was stale) gets the choices.
  const [forceChoices, setForceChoices] = useState(false);
  const [balanceNote, setBalanceNote] = useState<string | null>(null);

  const close = () => {
    setForceChoices(false);
    setBalanceNote(null);
    archive.reset();
    onClose();
  };

  if (target === null) return null;
  // The server's actions say whether it archives now; otherwise the choices (mark, or remove a mark).
  const wantsChoices = forceChoices || !target.actions.includes("archive") || target.delete_flag !== null;

  if (wantsChoices) {
    return (
      <ArchiveChoiceDialog
        clientId={clientId}
        target={target}
        note={balanceNote}
        onClose={close}
        onDone={() => {
          onDone?.();
          close();
        }}
      />
    );
  }

  const confirm = () =>
    archive.mutate(target.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `${customerLabel(target)} was archived.` });
        onDone?.();
        close();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          setBalanceNote(allMessages(error.body)[0] ?? null);
          setForceChoices(true);
        }
      },
    });

  return (
    <Modal opened onClose={close} title="Archive customer" centered>
      <Stack gap="md">
        <Text size="sm">
          Archive <strong>{customerLabel(target)}</strong>? The balance is {formatAmount(target.balance)}.
        </Text>
        <Text size="sm" c="dimmed">
          Archived customers leave the list (turn on <em>Archived only</em> to see them) and get no more
          bills. They can be unarchived later, but their transaction history is not kept.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={archive.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={archive.isPending} data-autofocus>
            Archive
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ArchiveChoiceDialog({
  clientId,
  target,
  note,
  onClose,
  onDone,
}: {
  clientId: number;
  target: ArchiveTarget;
  note: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const setFlag = useSetDeleteFlag(clientId);
  const [choice, setChoice] = useState<Choice | null>(target.delete_flag);
  // Only what the record's actions allow is offered: no "Remove the archive flag" without a flag.
  const canMark = target.actions.includes("mark_for_archive");
  const canRemove = target.actions.includes("remove_archive_flag");

  const apply = () => {
    if (choice === null) return;
    const deleteFlag = choice === "remove" ? null : choice;
    setFlag.mutate(
      { customerId: target.id, deleteFlag },
      {
        onSuccess: (saved) => {
          const name = customerLabel(target);
          const message = saved.deleted
            ? `${name} was archived.`
            : deleteFlag === null
              ? `The archive flag of ${name} was removed.`
              : deleteFlag === "S"
                ? `${name} will be archived when its balance reaches zero. Billing continues until then.`
                : `${name} will be archived when its balance reaches zero. Billing has stopped.`;
          notifications.show({ color: "teal", message });
          onDone();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Archive customer" centered size="lg">
      <Stack gap="md">
        {note ? (
          <Alert color="yellow" variant="light">
            {note}
          </Alert>
        ) : null}
        <Text size="sm">
          <strong>{customerLabel(target)}</strong> has a balance of{" "}
          <strong>{formatAmount(target.balance)}</strong>, so it cannot be archived now. A customer marked for
          archiving takes payments and adjustments but no new charges, and is archived once its balance is
          zero.
        </Text>
        <Radio.Group
          value={choice}
          onChange={(value) => setChoice(value as Choice)}
          label="What should happen?"
          name="archive-choice"
        >
          <Stack gap="xs" mt="xs">
            {canMark ? (
              <>
                <Radio.Card value="S" p="sm" radius="sm">
                  <ChoiceText
                    title="Archive when the balance is zero, continue billing"
                    detail="Statements keep going out until the balance is paid."
                    current={target.delete_flag === "S"}
                  />
                </Radio.Card>
                <Radio.Card value="D" p="sm" radius="sm">
                  <ChoiceText
                    title="Archive when the balance is zero, stop billing"
                    detail="No more statements; payments and adjustments are still taken."
                    current={target.delete_flag === "D"}
                  />
                </Radio.Card>
              </>
            ) : null}
            {canRemove ? (
              <Radio.Card value="remove" p="sm" radius="sm">
                <ChoiceText
                  title="Remove the archive flag"
                  detail="The customer stays active."
                  current={false}
                />
              </Radio.Card>
            ) : null}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={setFlag.isPending}>
            Cancel
          </Button>
          <Button
            onClick={apply}
            loading={setFlag.isPending}
            disabled={choice === null || choice === target.delete_flag}
          >
            Apply
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ChoiceText({ title, detail, current }: { title: string; detail: string; current: boolean }) {
  return (
    <Group wrap="nowrap" align="flex-start" gap="sm">
      <Radio.Indicator mt={2} />
      <div>
        <Group gap={6}>
          <Text size="sm" fw={600}>
            {title}
          </Text>
          {current ? (
            <Badge size="xs" variant="light">
              Current
            </Badge>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      </div>
    </Group>
  );
}

/** Unarchive, after a warning that the archived customer's transaction history is not kept. */
export function UnarchiveDialog({ clientId, target, onClose, onDone }: ArchiveDialogProps) {
  const undelete = useUndeleteCustomer(clientId);
  if (target === null) return null;
  const confirm = () =>
    undelete.mutate(target.id, {
      onSuccess: () => {
        notifications.show({ color: "teal", message: `${customerLabel(target)} was unarchived.` });
        onDone?.();
        onClose();
      },
    });
  return (
    <Modal opened onClose={onClose} title="Unarchive customer" centered>
      <Stack gap="md">
        <Text size="sm">
          Unarchive <strong>{customerLabel(target)}</strong>? The customer returns to the list and can be
          billed again.
        </Text>
        <Alert color="orange" variant="light" title="The transaction history is not kept">
          Its past transactions, invoices and statements are removed; it starts again from a zero balance.
        </Alert>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={undelete.isPending}>
            Cancel
          </Button>
          <Button color="orange" onClick={confirm} loading={undelete.isPending} data-autofocus>
            Unarchive
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
