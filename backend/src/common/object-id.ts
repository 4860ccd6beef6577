import { randomBytes } from 'node:crypto';

/**
 * Ids in MongoDB ObjectId format (4-byte seconds, 5-byte process random, 3-byte counter, as 24
 * lowercase hex), so data exported from the original MongoDB app keeps its ids and new ids sort
 * by creation time like the old ones did.
 */
const processRandom = randomBytes(5);
let counter = randomBytes(3).readUIntBE(0, 3);

export function newObjectId(now: Date = new Date()): string {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(Math.floor(now.getTime() / 1000) >>> 0, 0);
  processRandom.copy(bytes, 4);
  counter = (counter + 1) % 0x1000000;
  bytes.writeUIntBE(counter, 9, 3);
  return bytes.toString('hex');
}

const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/** The id in canonical lowercase form, or null if the text cannot be an id. */
export function parseObjectId(raw: unknown): string | null {
  return typeof raw === 'string' && OBJECT_ID.test(raw) ? raw.toLowerCase() : null;
}
