import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

type StatementKey = { date: SQLWrapper | string; id: SQLWrapper | number };

/**
 * Which of a customer's statements is newer: the later statement date, and on one date the later
 * id. The pay page opens the latest statement by it and the documents list carries an older one
 * forward by it, so a pay link and the list always agree on which statement is payable.
 */
export function isNewerStatement(candidate: StatementKey, than: StatementKey): SQL {
  return sql`(${candidate.date} > ${than.date} or (${candidate.date} = ${than.date} and ${candidate.id} > ${than.id}))`;
}

/** Newest first, by the same rule. */
export function newestStatementFirst(date: SQLWrapper, id: SQLWrapper): SQL {
  return sql`${date} desc, ${id} desc`;
}
