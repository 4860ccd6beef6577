import { useRef } from 'react';

/**
 * The Idempotency-Key of one intended submission (docs/decisions/022-idempotency-keys.md): the
 * same key while the content is the same (a retry after a failure or a lost reply sends it again,
 * and the server answers with the first result instead of a second post), a new one when the
 * content changes, and a new one after success (`done`), so the next post is a new post.
 */
export function useIdempotencyKey(): { keyFor(content: unknown): string; done(): void } {
  const current = useRef<{ content: string; key: string } | null>(null);
  return {
    keyFor(content) {
      const serialized = JSON.stringify(content);
      if (current.current?.content !== serialized) current.current = { content: serialized, key: newKey() };
      return current.current.key;
    },
    done() {
      current.current = null;
    },
  };
}

/** crypto.randomUUID exists only in secure contexts (https, localhost); a site served over plain http gets the same from getRandomValues. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
