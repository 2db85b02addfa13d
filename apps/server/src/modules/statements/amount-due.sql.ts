import { sql, type SQL } from "drizzle-orm";

/**
 * The domain's amountDueNow as a SQL expression, for the lists that sort and filter by it in the
 * database (the documents list) and the card run's shared-card check: nothing once superseded, else
 * the new balance capped by what is owed now, never below zero. amount-due.test.ts holds the two to
 * the same figures over random inputs.
 */
export function amountDueNowSql(input: { newBalance: SQL; currentBalance: SQL; superseded: SQL }): SQL {
  return sql`(case when ${input.superseded} then 0
    else greatest(0, least(${input.newBalance}, ${input.currentBalance})) end)::numeric(14,2)`;
}

/**
 * The domain's statementDue date (statementDueDay) as a SQL expression, for the documents list:
 * none for a credit; for a balance autopay charges, the charge date the statement recorded, else
 * autopayChargeDate's (the due date, never before the day after the statement); else the due date.
 * amount-due.test.ts holds it to the domain on random statements.
 */
export function statementDueDateSql(input: {
  statementDate: SQL;
  newBalance: SQL;
  /** The client's due days, an int. */
  dueDays: SQL;
  /** The charge date the statement recorded (null until its autopay charge is planned). */
  recordedChargeDate: SQL;
  /** The customer pays by autopay now (flag, stored method, client's gateway). */
  autopayNow: SQL;
}): SQL {
  const due = sql`(${input.statementDate} + ${input.dueDays})`;
  return sql`(case when ${input.newBalance} < 0 then null
    when ${input.newBalance} <> 0 and ${input.recordedChargeDate} is not null then ${input.recordedChargeDate}
    when ${input.newBalance} <> 0 and ${input.autopayNow} then greatest(${due}, ${input.statementDate} + 1)
    else ${due} end)::date`;
}
