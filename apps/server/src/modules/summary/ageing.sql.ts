import { sql, type SQL } from "drizzle-orm";
import type { AgeingBucket } from "@cyclebill/domain";

/**
 * The domain's ageCentsByBands (ageBalance in closed form) as SQL expressions, for lists that age a
 * page or a whole client in the database: the balance and its debits of the last 120 days summed by
 * age band (b0: 0-29 days old, b1: 30-59, b2: 60-89, b3: 90-119). The one SQL copy of the ageing
 * rule; ageing-parity.test.ts holds it to ageBalance over random ledgers.
 */
export function ageingBucketsSql(
  balance: SQL,
  bands: readonly [SQL, SQL, SQL, SQL],
): Record<AgeingBucket, SQL> {
  const owed = (within: SQL) =>
    sql`(case when ${balance} <= 0 then ${balance} else least(${balance}, ${within}) end)`;
  const [b0, b1, b2, b3] = bands;
  const u30 = owed(b0);
  const u60 = owed(sql`${b0} + ${b1}`);
  const u90 = owed(sql`${b0} + ${b1} + ${b2}`);
  const u120 = owed(sql`${b0} + ${b1} + ${b2} + ${b3}`);
  return {
    current: u30,
    days30: sql`(${u60} - ${u30})`,
    days60: sql`(${u90} - ${u60})`,
    days90: sql`(${u120} - ${u90})`,
    over90: sql`(${balance} - ${u120})`,
  };
}
