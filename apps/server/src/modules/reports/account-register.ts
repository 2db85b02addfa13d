import {
  ACCOUNT_CATEGORIES,
  accountCategory,
  addAmounts,
  type AccountCategory,
  type ReportMonth,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import {
  registerCustomerPage,
  registerEntries,
  type RegisterCustomer,
  type RegisterEntry,
} from "./account-month.queries.js";

/** Customers read per page: each page is one query for the customers and one for their entries. */
export const REGISTER_PAGE_SIZE = 1_000;

export type RegisterLine = RegisterEntry & { category: AccountCategory; mark: string };

/** One customer with activity in the month: its opening balance, entries and closing balance. */
export type RegisterGroup = {
  customer: RegisterCustomer;
  lines: RegisterLine[];
  activity: string;
  closing: string;
};

export type CategoryTotal = { count: number; total: string };

/** What the register adds up while its rows go by; the totals report must show the same. */
export type RegisterTotals = {
  customers: number;
  customersWithActivity: number;
  opening: string;
  activity: string;
  closing: string;
  /** Opening (= closing) balance of the customers with no entry in the month, listed only in total. */
  quietBalance: string;
  quietCustomers: number;
  byCategory: Record<AccountCategory, CategoryTotal>;
};

/** "voided", "void of 12", "reversal of 12", "reversed": how an entry stands against its offset. */
export function entryMark(entry: RegisterEntry): string {
  if (entry.voidsId !== null) return `void of #${entry.voidsId}`;
  if (entry.reversesId !== null) return `reversal of #${entry.reversesId}`;
  if (entry.voided) return "voided";
  if (entry.reversed) return "reversed";
  return "";
}

export function emptyRegisterTotals(): RegisterTotals {
  const byCategory = Object.fromEntries(
    ACCOUNT_CATEGORIES.map((category) => [category, { count: 0, total: "0.00" }]),
  ) as Record<AccountCategory, CategoryTotal>;
  return {
    customers: 0,
    customersWithActivity: 0,
    opening: "0.00",
    activity: "0.00",
    closing: "0.00",
    quietBalance: "0.00",
    quietCustomers: 0,
    byCategory,
  };
}

/**
 * Walks the client's customers in customer-number order, a page at a time (keyset, never the whole
 * month in memory), yielding each customer that has entries in the month. `totals` is filled in as
 * the groups go by and is complete when the walk ends.
 */
export async function* walkRegister(
  db: Executor,
  clientId: number,
  month: ReportMonth,
  totals: RegisterTotals,
  pageSize = REGISTER_PAGE_SIZE,
): AsyncGenerator<RegisterGroup> {
  let after = -2_147_483_648; // customer_no is an integer column
  for (;;) {
    const page = await registerCustomerPage(db, clientId, month, after, pageSize);
    if (page.length === 0) return;
    after = page[page.length - 1]?.customerNo ?? after;
    const entries = await registerEntries(
      db,
      clientId,
      month,
      page.map((customer) => customer.id),
    );
    const byCustomer = new Map<number, RegisterEntry[]>();
    for (const entry of entries) {
      const list = byCustomer.get(entry.customerId);
      if (list) list.push(entry);
      else byCustomer.set(entry.customerId, [entry]);
    }
    for (const customer of page) {
      totals.customers += 1;
      totals.opening = addAmounts(totals.opening, customer.opening);
      const own = byCustomer.get(customer.id);
      if (!own) {
        totals.quietCustomers += 1;
        totals.quietBalance = addAmounts(totals.quietBalance, customer.opening);
        totals.closing = addAmounts(totals.closing, customer.opening);
        continue;
      }
      let activity = "0.00";
      const lines = own.map((entry): RegisterLine => {
        const category = accountCategory(entry.codeType, entry.categoryType);
        const line = totals.byCategory[category];
        line.count += 1;
        line.total = addAmounts(line.total, entry.ledgerAmount);
        activity = addAmounts(activity, entry.ledgerAmount);
        return { ...entry, category, mark: entryMark(entry) };
      });
      const closing = addAmounts(customer.opening, activity);
      totals.customersWithActivity += 1;
      totals.activity = addAmounts(totals.activity, activity);
      totals.closing = addAmounts(totals.closing, closing);
      yield { customer, lines, activity, closing };
    }
    if (page.length < pageSize) return;
  }
}
