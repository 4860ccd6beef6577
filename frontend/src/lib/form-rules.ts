import * as yup from 'yup';

/**
 * A required, trimmed text field with a length limit: the same rule, and the same words, as the
 * server's validation of that field (backend DTOs), with the limit from the shared contract.
 */
export function requiredText(label: string, max: number) {
  return yup.string().trim().required(`${label} is required`).max(max, `${label} must be at most ${max} characters`);
}
