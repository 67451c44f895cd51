/**
 * Awaits `work` while counting the event loop's turns (one setImmediate each, up to `most`): work
 * done off the event loop lets it turn meanwhile, work done on it holds the count at 0.
 */
export async function turnsWhile<T>(work: Promise<T>, most: number): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const countTurn = () => {
    if (++turns < most) setImmediate(countTurn);
  };
  setImmediate(countTurn);
  const value = await work;
  return { value, turns };
}
