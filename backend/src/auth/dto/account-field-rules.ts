import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { LIMITS } from '@techit/contract/limits';
import { IsEmail, IsNotEmpty, IsString, Length, MaxLength } from 'class-validator';
import { IsNotBlank, say, Trim } from '../../common/validation';

/**
 * The rules of an account's email and of a password being chosen, with their sentences, once: sign-up,
 * the password reset, and the settings' password and email changes all take them
 * (docs/decisions/049 and 050). `field` is the body's name for it; `prompt` what a missing one asks.
 */
export function IsAccountEmail(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ format: 'email', maxLength: LIMITS.emailMax }),
    Trim(),
    IsNotEmpty(say('email is required', 'Enter your email address.')),
    IsString(say('email must be text', 'The email address must be text.')),
    MaxLength(
      LIMITS.emailMax,
      say(
        `email must be at most ${LIMITS.emailMax} characters`,
        `The email address can have at most ${LIMITS.emailMax} characters.`,
      ),
    ),
    IsEmail({}, say('email must be a valid email address', 'Enter a valid email address, such as ada@example.com.')),
  );
}

export function IsNewPassword(field = 'password', prompt = 'Choose a password.'): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax }),
    IsNotEmpty(say(`${field} is required`, prompt)),
    IsString(say(`${field} must be text`, 'The password must be text.')),
    // Not trimmed (spaces may be part of a passphrase), but all-blank counts as missing.
    IsNotBlank(say(`${field} is required`, prompt)),
    Length(
      LIMITS.passwordMin,
      LIMITS.passwordMax,
      say(
        `${field} must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`,
        `The password needs ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters.`,
      ),
    ),
  );
}
