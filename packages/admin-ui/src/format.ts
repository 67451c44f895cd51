/** Display helpers: dates, durations, numbers. */

const dateTime = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** An ISO time as a readable UTC date and time; '—' for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? dateTime.format(ms) : iso;
}

/** A duration in milliseconds as "5 s", "3 min", "2 h", "4 days". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** An ISO time relative to now: "3 min ago", "in 2 h"; 'never' for none. */
export function formatAgo(iso: string | null | undefined, nowMs = Date.now()): string {
  if (!iso) return 'never';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  if (Math.abs(nowMs - ms) < 10_000) return 'just now';
  return ms <= nowMs ? `${formatDuration(nowMs - ms)} ago` : `in ${formatDuration(ms - nowMs)}`;
}

/** A number with thousands separators. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-GB');
}

/** Milliseconds with a sensible precision. */
export function formatMs(value: number): string {
  return value >= 100 ? `${Math.round(value)} ms` : `${Number(value.toFixed(value >= 10 ? 1 : 2))} ms`;
}

/** Today (UTC) plus `days`, as YYYY-MM-DD. */
export function isoDay(days = 0, nowMs = Date.now()): string {
  return new Date(nowMs + days * 86_400_000).toISOString().slice(0, 10);
}
