import { useRef } from 'react';

/**
 * A form's submit that runs once at a time: a second press (a double click, Enter held) while the
 * first is still running does nothing, so it never sends a second request. The check is a ref,
 * not state: both clicks of a double click arrive before React renders the busy button.
 * Show the button busy with `busy(formState.isSubmitting)` (lib/busy.ts).
 */
export function useSubmitOnce(submit: () => Promise<unknown>): () => Promise<void> {
  const running = useRef(false);
  return async () => {
    if (running.current) return;
    running.current = true;
    try {
      await submit();
    } finally {
      running.current = false;
    }
  };
}
