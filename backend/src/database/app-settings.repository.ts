import type { Db } from './database.types';

/**
 * The app_settings table, read and written at start-up, before Nest exists (so a plain module, not
 * a provider): values generated once per database that every instance must share.
 */

/**
 * Stores `value` under `key` unless a value is there already, and returns the one stored. The
 * primary key makes this atomic on both databases: instances starting at the same moment each
 * offer their own value, one insert wins, and every one of them reads back the winner's.
 */
export async function settingOrInsert(db: Db, key: string, value: string): Promise<string> {
  await db
    .insertInto('app_settings')
    .values({ key, value, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
