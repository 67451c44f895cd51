/** `from`/`to` query values (ISO instants) for an inclusive range of UTC calendar days. */
export function dayRange(fromDay: string, toDay: string): { from?: string; to?: string } {
  const range: { from?: string; to?: string } = {};
  if (fromDay) range.from = `${fromDay}T00:00:00.000Z`;
  if (toDay) range.to = new Date(Date.parse(`${toDay}T00:00:00.000Z`) + 86_400_000).toISOString();
  return range;
}
