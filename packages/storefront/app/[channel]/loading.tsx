/** Shown while a channel page waits for the API; announced to screen readers. */
export default function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <h1 className="visually-hidden">Loading</h1>
      <p>Loading…</p>
    </div>
  );
}
