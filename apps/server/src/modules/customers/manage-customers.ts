import { and, eq, inArray, max } from "drizzle-orm";
import {
  NO_STORED_METHOD_MESSAGE,
  customerActionRefusal,
  customerDisplayName,
  customerHasBalanceMessage,
  isZeroAmount,
  recurringStartDateProblem,
  type CustomerValues,
  type customerFullCreateSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import {
  clients,
  codes,
  customerPaymentMethods,
  customers,
  recurringCharges,
  storedAmounts,
  unitsOfMeasure,
} from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { badRequest, fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { addRoutePlan } from "../groups/route-plans.js";
import { deleteCustomerInvoices } from "../invoices/statement-invoices.js";
import { auditCustomer } from "./customer-audit.js";
import { archiveAtZero } from "./archive-at-zero.js";
import { clearCustomerLedger } from "../ledger/clear-customer-ledger.js";
import { recordCustomerChanges } from "../ledger/customer-changes.js";
import { ageCustomersNow } from "../summary/customer-ageing.queries.js";
import { customerToApi, type CustomerOutput, type CustomerRow } from "./customer-output.js";
import { businessToday, currentClock } from "../../clock.js";
import { recurringChargeValues } from "./recurring-charges.resource.js";
import { storedAmountValues } from "./stored-amounts.resource.js";

export const HAS_BALANCE_MESSAGE = customerHasBalanceMessage;

function customerValues(input: CustomerValues) {
  return {
    customerName: customerDisplayName({
      firstName: input.first_name,
      lastName: input.last_name,
      companyName: input.company_name,
    }),
    firstName: input.first_name,
    lastName: input.last_name,
    companyName: input.company_name,
    phone1: input.phone1,
    phone2: input.phone2,
    phone3: input.phone3,
    email: input.email,
    address1: input.address1,
    address2: input.address2,
    address3: input.address3,
    city: input.city,
    state: input.state,
    zip: input.zip,
    propertyAddress1: input.property_address1,
    propertyAddress2: input.property_address2,
    propertyAddress3: input.property_address3,
    propertyCity: input.property_city,
    propertyState: input.property_state,
    propertyZip: input.property_zip,
    pullFlag: input.pull_flag,
    pullExplanation: input.pull_explanation,
    biPullFlag: input.bi_pull_flag,
    financeFlag: input.finance_flag,
    autopayFlag: input.autopay_flag,
    taxStatus: input.tax_status,
    message: input.message,
    messageDuration: input.message_duration,
    messageInternal: input.message_internal,
    messageField: input.message_field,
    ...(input.open_date ? { openDate: input.open_date } : {}),
  };
}

function duplicateNumber(error: unknown): never {
  if (pgErrorCode(error) === "23505")
    throw fieldError("customer_no", "A customer with this number already exists.");
  throw error;
}

export async function findCustomer(
  db: Executor,
  tenant: TenantContext,
  id: number,
  lock = false,
): Promise<CustomerRow> {
  const query = db
    .select()
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound();
  return row;
}

/**
 * One customer; its ageing now by the one rule (not the last statement's, kept as previous_balance),
 * everything posted counted, so it adds up to the balance shown beside it.
 */
export async function getCustomer(db: Database, tenant: TenantContext, id: number): Promise<CustomerOutput> {
  const customer = customerToApi(await findCustomer(db, tenant, id));
  const [aged] = await ageCustomersNow(db, tenant.clientId, [id]);
  if (!aged) return customer;
  return {
    ...customer,
    current_balance: aged.current,
    overdue_30_days: aged.days30,
    overdue_60_days: aged.days60,
    overdue_90_days: aged.days90,
    overdue_over_90_days: aged.over90,
  };
}

/** Autopay charges the stored method: it can be turned on only when the customer has one (a new customer never does). */
async function assertAutopayAllowed(
  tx: Executor,
  tenant: TenantContext,
  customerId: number | null,
  autopay: boolean,
): Promise<void> {
  if (!autopay) return;
  const [stored] =
    customerId === null
      ? []
      : await tx
          .select({ customerId: customerPaymentMethods.customerId })
          .from(customerPaymentMethods)
          .where(
            and(
              eq(customerPaymentMethods.clientId, tenant.clientId),
              eq(customerPaymentMethods.customerId, customerId),
            ),
          );
  if (!stored) throw fieldError("autopay_flag", NO_STORED_METHOD_MESSAGE);
}

async function insertCustomer(
  tx: Executor,
  tenant: TenantContext,
  input: CustomerValues,
): Promise<CustomerRow> {
  await assertAutopayAllowed(tx, tenant, null, input.autopay_flag);
  let customerNo = input.customer_no;
  if (customerNo === undefined) {
    // Numbering takes the client's row lock, so two adds cannot pick the same next number.
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, tenant.clientId)).for("update");
    const [highest] = await tx
      .select({ value: max(customers.customerNo) })
      .from(customers)
      .where(eq(customers.clientId, tenant.clientId));
    customerNo = Math.max(1000, highest?.value ?? 0) + 1;
  }
  const [row] = await tx
    .insert(customers)
    // Opened today by the provider's business date, not the database server's clock.
    .values({ openDate: businessToday(), ...customerValues(input), clientId: tenant.clientId, customerNo })
    .returning();
  if (!row) throw new Error("customer not created");
  // A new customer joins the client's counts (the summary's client book).
  await recordCustomerChanges(tx, tenant.clientId, [row.id]);
  await auditCustomer(tx, "customer.create", null, row);
  return row;
}

export async function createCustomer(
  db: Database,
  tenant: TenantContext,
  input: CustomerValues,
): Promise<CustomerOutput> {
  return db
    .transaction(async (tx) => customerToApi(await insertCustomer(tx, tenant, input)))
    .catch(duplicateNumber);
}

export async function updateCustomer(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: CustomerValues,
): Promise<CustomerOutput> {
  return db
    .transaction(async (tx) => {
      const before = await findCustomer(tx, tenant, id, true);
      await assertAutopayAllowed(tx, tenant, id, input.autopay_flag);
      const [row] = await tx
        .update(customers)
        .set({
          ...customerValues(input),
          ...(input.customer_no === undefined ? {} : { customerNo: input.customer_no }),
          updatedAt: new Date(),
        })
        .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)))
        .returning();
      if (!row) throw notFound();
      // The opening date is an input of the counts as of a day.
      await recordCustomerChanges(tx, tenant.clientId, [id]);
      await auditCustomer(tx, "customer.update", before, row);
      return customerToApi(row);
    })
    .catch(duplicateNumber);
}

/** Archives a customer whose balance is zero; a customer with a balance must be marked instead. */
export async function archiveCustomer(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const customer = await findCustomer(tx, tenant, id, true);
    if (customer.deleted) return;
    if (!isZeroAmount(customer.totalBalance)) throw nonFieldError(HAS_BALANCE_MESSAGE(customer.totalBalance));
    const [after] = await tx
      .update(customers)
      // The app's clock: reports compare the archive time with business dates.
      .set({ deleted: true, deletedAt: currentClock().now() })
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)))
      .returning();
    await recordCustomerChanges(tx, tenant.clientId, [id]);
    await auditCustomer(tx, "customer.archive", customer, after ?? null);
  });
}

/**
 * Marks a customer for deletion when its balance reaches zero (D: billing stops, S: billing
 * continues), or removes the mark (null). A zero balance archives at once.
 */
export async function setDeleteFlag(
  db: Database,
  tenant: TenantContext,
  id: number,
  deleteFlag: "D" | "S" | null,
): Promise<CustomerOutput> {
  return db.transaction(async (tx) => {
    const customer = await findCustomer(tx, tenant, id, true);
    // The same rule as the record's actions: no flag to remove is refused, not saved as a change.
    const refusal = customerActionRefusal(
      { deleted: customer.deleted, deleteFlag: customer.deleteFlag, balance: customer.totalBalance },
      deleteFlag === null ? "remove_archive_flag" : "mark_for_archive",
    );
    if (refusal !== undefined) throw nonFieldError(refusal);
    await tx
      .update(customers)
      .set({ deleteFlag, updatedAt: new Date() })
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)));
    // A customer already at zero is archived at once by the ledger's rule.
    await archiveAtZero(tx, tenant.clientId, [{ id, deleteFlag, totalBalance: customer.totalBalance }]);
    const after = await findCustomer(tx, tenant, id, true);
    await auditCustomer(tx, "customer.mark_for_deletion", customer, after);
    return customerToApi(after);
  });
}

/**
 * Unarchives a customer. As the help says, an archived customer's transaction history is not
 * kept: its (zero-sum) ledger and invoices are removed, so it starts afresh. A customer only
 * marked for deletion just loses the mark.
 */
export async function undeleteCustomer(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<CustomerOutput> {
  return db.transaction(async (tx) => {
    const customer = await findCustomer(tx, tenant, id, true);
    if (customer.deleted) {
      if (!isZeroAmount(customer.totalBalance))
        throw nonFieldError(HAS_BALANCE_MESSAGE(customer.totalBalance));
      await clearCustomerLedger(tx, tenant.clientId, id);
      await deleteCustomerInvoices(tx, tenant.clientId, id);
    }
    const [row] = await tx
      .update(customers)
      .set({ deleted: false, deletedAt: null, deleteFlag: null, updatedAt: new Date() })
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, id)))
      .returning();
    if (!row) throw notFound();
    await recordCustomerChanges(tx, tenant.clientId, [id]);
    await auditCustomer(tx, "customer.unarchive", customer, row);
    return customerToApi(row);
  });
}

async function assertCodeIds(tx: Executor, tenant: TenantContext, codeIds: number[]): Promise<Set<number>> {
  if (codeIds.length === 0) return new Set();
  const rows = await tx
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.clientId, tenant.clientId), inArray(codes.id, codeIds)));
  return new Set(rows.map((row) => row.id));
}

async function assertUnits(tx: Executor, unitIds: number[]): Promise<Set<number>> {
  const rows = await tx.select({ id: unitsOfMeasure.id }).from(unitsOfMeasure);
  return new Set(rows.map((row) => row.id).filter((id) => unitIds.includes(id)));
}

/** Add Customer: the customer with its recurring charges, stored amounts and groups, all or nothing. */
export async function fullCreateCustomer(
  db: Database,
  tenant: TenantContext,
  input: z.output<typeof customerFullCreateSchema>,
): Promise<CustomerOutput> {
  return db
    .transaction(async (tx) => {
      const codeIds = [
        ...input.recurring_charges.map((charge) => charge.auto_code),
        ...input.stored_amounts.map((stored) => stored.storedCode),
      ].filter((id): id is number => typeof id === "number");
      const knownCodes = await assertCodeIds(tx, tenant, codeIds);
      const knownUnits = await assertUnits(tx, [
        ...input.recurring_charges.map((charge) => charge.unitofmeasure),
        ...input.stored_amounts.map((stored) => stored.unitofmeasure),
      ]);
      const errors: Record<string, string[]> = {};
      input.recurring_charges.forEach((charge, index) => {
        if (!knownCodes.has(charge.auto_code as number))
          (errors.recurring_charges ??= []).push(`${index}: Invalid code.`);
        if (!knownUnits.has(charge.unitofmeasure))
          (errors.recurring_charges ??= []).push(`${index}: Invalid unit of measure.`);
      });
      input.stored_amounts.forEach((stored, index) => {
        if (!knownCodes.has(stored.storedCode as number))
          (errors.stored_amounts ??= []).push(`${index}: Invalid code.`);
        if (!knownUnits.has(stored.unitofmeasure))
          (errors.stored_amounts ??= []).push(`${index}: Invalid unit of measure.`);
      });
      if (Object.keys(errors).length > 0) throw badRequest(errors);

      const customer = await insertCustomer(tx, tenant, input.customer);
      input.recurring_charges.forEach((charge, index) => {
        const problem = recurringStartDateProblem(charge.start_date, customer.openDate);
        if (problem) (errors.recurring_charges ??= []).push(`${index}: ${problem}`);
      });
      if (Object.keys(errors).length > 0) throw badRequest(errors);
      for (const charge of input.recurring_charges) {
        await tx.insert(recurringCharges).values({
          clientId: tenant.clientId,
          // Production bills from the created date: the app's clock, as every business date.
          createdAt: currentClock().now(),
          ...recurringChargeValues(charge, customer.id),
        });
      }
      for (const stored of input.stored_amounts) {
        await tx.insert(storedAmounts).values({
          clientId: tenant.clientId,
          ...storedAmountValues(stored, customer.id),
        });
      }
      for (const groupId of new Set(input.group_ids)) {
        await addRoutePlan(tx, tenant, {
          route: groupId,
          customer: customer.id,
          bill_indicator_flag: "standard",
        });
      }
      return customerToApi(customer);
    })
    .catch(duplicateNumber);
}
