import { formatExactTime, formatRelativeTime } from '../lib/relative-time';

interface RelativeTimeProps {
  /** When it happened (ISO 8601). */
  dateTime: string;
  /**
   * When its author last changed it (a post's editedAt), or null: then "edited" follows, with the
   * exact time on hover. Not updatedAt, which an import may have moved without an edit
   * (docs/decisions/027-post-revisions.md).
   */
  editedAt?: string | null;
  className?: string;
}

/**
 * How long ago something happened ("5 min ago"), with the exact time in its title for a hover and
 * reachable by keyboard (a focus shows the same title); "edited" after it when it was changed.
 * Every date of the interface is drawn by it.
 */
export function RelativeTime({ dateTime, editedAt, className }: RelativeTimeProps) {
  const exact = formatExactTime(dateTime);
  return (
    <span className={className}>
      {/* Focusable so a keyboard user reaches the exact time (its title) too. */}
      <time dateTime={dateTime} title={exact} tabIndex={0}>
        {formatRelativeTime(dateTime, Date.now())}
      </time>
      {editedAt && (
        <span className="edited-mark" title={`Edited ${formatExactTime(editedAt)}`}>
          {' · edited'}
        </span>
      )}
    </span>
  );
}
