// The periodic statistics refresh; refreshStatistics itself is the database layer's (db/), as
// openDatabase's migrate runs it too.
export const REFRESH_STATISTICS_JOB = "refresh-statistics";
/** Every ten minutes: without autovacuum, plans made on stale statistics scan large tables. */
export const REFRESH_STATISTICS_CRON = "*/10 * * * *";
