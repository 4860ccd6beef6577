/**
 * The wire format both transports share: a signal names users and nothing else (their
 * notifications are read from the database), as comma-separated ids. PostgreSQL refuses a NOTIFY
 * payload of 8,000 bytes or more, so a long list goes out in batches well under that.
 */
export const SIGNAL_BATCH_SIZE = 200;

/** The messages that tell every instance these users' notifications changed. */
export function signalMessages(userIds: readonly string[]): string[] {
  const messages: string[] = [];
  for (let start = 0; start < userIds.length; start += SIGNAL_BATCH_SIZE) {
    messages.push(userIds.slice(start, start + SIGNAL_BATCH_SIZE).join(','));
  }
  return messages;
}

/** The users a received message names; anything else on the channel names nobody. */
export function signalUserIds(message: string): string[] {
  return message.split(',').filter((id) => /^[0-9a-f]{24}$/.test(id));
}
