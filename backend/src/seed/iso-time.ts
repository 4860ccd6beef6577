const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function pad3(value: number): string {
  return value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value);
}

/**
 * The same text as `new Date(ms).toISOString()` (whole ms, UTC, years 1970–9999), about ten times
 * faster: a million likes need a million timestamps, and a Date per row showed up in the profile.
 */
export function isoTime(ms: number): string {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = whole - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
}
