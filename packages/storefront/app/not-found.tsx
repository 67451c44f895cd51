import { ShopLink } from '../src/components/shop-link.tsx';

export default function NotFound() {
  return (
    <main id="main" className="page">
      <section className="problem" aria-labelledby="problem-title">
        <h1 id="problem-title">Not found</h1>
        <p>There is no such page in this shop.</p>
        <p>
          <ShopLink href="/">Back to the shop</ShopLink>
        </p>
      </section>
    </main>
  );
}
