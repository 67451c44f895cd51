import { AnalyticsPanel } from '../components/analytics-panel.tsx';
import { Link } from '../components/link.tsx';
import { PageHeading } from '../components/page-heading.tsx';

/** One identity: its keys' calls over time by outcome. */
export function IdentityPage(props: { id: string }) {
  return (
    <article class="identity-page">
      <p class="breadcrumb">
        <Link to="/">All keys</Link> / <code>{props.id}</code>
      </p>
      <PageHeading title={`Identity ${props.id}`}>
        Identity <code>{props.id}</code>
      </PageHeading>
      <section aria-labelledby="outcomes-heading">
        <h2 id="outcomes-heading">Calls by outcome</h2>
        <AnalyticsPanel subject={`/identities/${props.id}`} refresh={0} />
      </section>
    </article>
  );
}
