import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';

/** An unknown route under /admin. */
export function NotFoundPage() {
  return (
    <section>
      <PageHeading title="Page not found" />
      <p>
        There is no such page. <Link to="/">Go to the keys</Link>.
      </p>
    </section>
  );
}
