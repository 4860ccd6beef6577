import { formatExactTime, formatRelativeTime, wasEdited } from '../lib/relative-time';

interface RelativeTimeProps {
  /** When it happened (ISO 8601). */
  dateTime: string;
  /** When it was last saved: later than `dateTime` by more than a few seconds, "edited" follows. */
  updatedAt?: string;
  className?: string;
}

/**
 * How long ago something happened ("5 min ago"), with the exact time in its title for a hover and
 * reachable by keyboard (a focus shows the same title); "edited" after it when it was changed.
 * Every date of the interface is drawn by it.
 */
export function RelativeTime({ dateTime, updatedAt, className }: RelativeTimeProps) {
  const exact = formatExactTime(dateTime);
  const edited = wasEdited(dateTime, updatedAt);
  return (
    <span className={className}>
      {/* Focusable so a keyboard user reaches the exact time (its title) too. */}
      <time dateTime={dateTime} title={exact} tabIndex={0}>
        {formatRelativeTime(dateTime, Date.now())}
      </time>
      {edited && updatedAt && (
        <span className="edited-mark" title={`Edited ${formatExactTime(updatedAt)}`}>
          {' · edited'}
        </span>
      )}
    </span>
  );
}
