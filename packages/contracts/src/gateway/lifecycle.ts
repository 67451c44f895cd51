/** The reminder a caller sees while its key is within `leadDays` of expiring. */
export interface ExpiryReminder {
  /** The key's last valid day, YYYY-MM-DD. */
  expiresAt: string;
  /** Whole days left, rounded up: 1 on the last valid day. */
  daysLeft: number;
}
