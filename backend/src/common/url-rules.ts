import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { isHttpUrl } from '@techit/contract/url-rules';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * The path of a full image this server stored on its own disk: `<id>-<width>x<height>.webp`, or
 * `<id>.webp` from before variants were stored. Variant files (`.card.webp`) are never kept.
 */
export const LOCAL_UPLOAD_URL = /^\/uploads\/[0-9a-f]{24}(-[1-9][0-9]{0,3}x[1-9][0-9]{0,3})?\.webp$/;

/** A picture is one this server issued, the default picture, or any http(s) image URL. */
export function isPictureUrl(value: unknown): value is string {
  return (
    value === DEFAULT_PROFILE_PIC || (typeof value === 'string' && LOCAL_UPLOAD_URL.test(value)) || isHttpUrl(value)
  );
}

export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isHttpUrl', validator: { validate: isHttpUrl } }, options);
}

export function IsPictureUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isPictureUrl', validator: { validate: isPictureUrl } }, options);
}
