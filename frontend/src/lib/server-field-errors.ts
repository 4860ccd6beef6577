import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Puts the server's sentence for each failing field (`fields` of its error reply) next to that
 * field of the form, all at once, through react-hook-form's setError, so FormField shows it.
 * `names` maps the server's field names to the form's (`{ desc: 'desc' }`); fields the form does
 * not have are left out. Answers whether any field was marked: when none was, the form shows the
 * reply's general `error` instead.
 */
export function showServerFieldErrors<TValues extends FieldValues>(
  failure: unknown,
  setError: UseFormSetError<TValues>,
  names: Readonly<Partial<Record<string, FieldPath<TValues>>>>,
): boolean {
  if (!(failure instanceof ApiError)) return false;
  let first = true;
  for (const [serverName, sentence] of Object.entries(failure.fields)) {
    const name = names[serverName];
    if (!name || !sentence) continue;
    // The first marked field takes the focus, as a failed client-side check does.
    setError(name, { type: 'server', message: sentence }, { shouldFocus: first });
    first = false;
  }
  return !first;
}
