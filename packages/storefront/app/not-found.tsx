import Link from 'next/link';

export default function NotFound() {
  return (
    <main id="main" className="page">
      <section className="problem" aria-labelledby="problem-title">
        <h1 id="problem-title">Not found</h1>
        <p>There is no such page in this shop.</p>
        <p>
          <Link href="/">Back to the shop</Link>
        </p>
      </section>
    </main>
  );
}
