import { LIMITS } from '@techit/contract/limits';
import * as yup from 'yup';

/** A new password: sign-up's rules and the server's words for them (backend auth/dto/sign-up.dto.ts). */
export const newPassword = yup
  .string()
  .required('Choose a new password.')
  .test('not-blank', 'Choose a new password.', (value) => value.trim() !== '')
  .min(LIMITS.passwordMin, `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`)
  .max(LIMITS.passwordMax, `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`);

/** The password the account has now, to confirm a change: only asked for, never checked here. */
export const currentPassword = (sentence: string) => yup.string().required(sentence);
