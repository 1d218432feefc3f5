export default function Loading() {
  return (
    <div className="loading" role="status" aria-live="polite">
      <h1>Objects</h1>
      <p>Loading objects…</p>
    </div>
  );
}
